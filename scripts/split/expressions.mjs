// The child expressions of each kind of binaryen expression, and walks over them, for cover.mjs and
// outline.mjs, which must meet the same expressions in the same order: the single children by
// field, the lists by field, and the kinds without children.
import { binaryen as B } from "./binaryen.mjs";

export const CHILD_KEYS = {
  [B.IfId]: ["condition", "ifTrue", "ifFalse"], [B.LoopId]: ["body"], [B.BreakId]: ["condition", "value"],
  [B.SwitchId]: ["condition", "value"], [B.CallIndirectId]: ["target"], [B.LocalSetId]: ["value"], [B.GlobalSetId]: ["value"],
  [B.LoadId]: ["ptr"], [B.StoreId]: ["ptr", "value"], [B.UnaryId]: ["value"], [B.BinaryId]: ["left", "right"],
  [B.SelectId]: ["ifTrue", "ifFalse", "condition"], [B.DropId]: ["value"], [B.ReturnId]: ["value"], [B.MemoryGrowId]: ["delta"],
  [B.SIMDExtractId]: ["vec"], [B.SIMDReplaceId]: ["vec", "value"], [B.SIMDShuffleId]: ["left", "right"], [B.SIMDTernaryId]: ["a", "b", "c"],
  [B.SIMDShiftId]: ["vec", "shift"], [B.SIMDLoadId]: ["ptr"], [B.SIMDLoadStoreLaneId]: ["ptr", "vec"],
  [B.MemoryCopyId]: ["dest", "source", "size"], [B.MemoryFillId]: ["dest", "value", "size"], [B.RefIsNullId]: ["value"],
  [B.TableGetId]: ["index"], [B.TableSetId]: ["index", "value"], [B.TableGrowId]: ["value", "delta"], [B.TupleExtractId]: ["tuple"],
  [B.MemoryInitId]: ["dest", "offset", "size"], [B.RefEqId]: ["left", "right"],
};
export const LIST_KEYS = { [B.BlockId]: "children", [B.CallId]: "operands", [B.CallIndirectId]: "operands", [B.TupleMakeId]: "operands" };
export const LEAVES = new Set([B.LocalGetId, B.GlobalGetId, B.ConstId, B.NopId, B.UnreachableId, B.MemorySizeId, B.RefNullId, B.RefFuncId, B.DataDropId, B.TableSizeId]);

/** Calls `visit(expression, id, info)` on `expression` and everything under it, parents first (`info` null for a leaf). */
export function each(expression, visit) {
  const id = B.getExpressionId(expression);
  if (LEAVES.has(id)) {
    visit(expression, id, null);
    return;
  }
  const info = B.getExpressionInfo(expression);
  visit(expression, id, info);
  const list = LIST_KEYS[id];
  if (list) for (const item of info[list]) each(item, visit);
  for (const key of CHILD_KEYS[id] ?? []) if (info[key]) each(info[key], visit);
}

/** The branches in `expressions` to labels they do not define: `{ name, value, table }` each. */
export function outwardBranches(expressions) {
  const defined = new Set();
  const branches = [];
  for (const expression of expressions) {
    each(expression, (_, id, info) => {
      if ((id === B.BlockId || id === B.LoopId) && info.name) defined.add(info.name);
      if (id === B.BreakId) branches.push({ name: info.name, value: info.value, table: false });
      if (id === B.SwitchId) for (const name of [...info.names, info.defaultName]) branches.push({ name, value: info.value, table: true });
    });
  }
  return branches.filter((branch) => !defined.has(branch.name));
}
