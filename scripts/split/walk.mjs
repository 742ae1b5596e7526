// Visits every expression of a function body, children first, and lets the visitor put
// another expression in a child's place: binaryen.js has no walker of its own. Only the
// expressions the core's modules contain are known (MVP, SIMD, bulk memory, reference
// types); any other fails loudly rather than leave a subtree unseen.
import { binaryen } from "./binaryen.mjs";

const B = binaryen;
// Each kind of expression's child expressions: [field of getExpressionInfo, setter].
const CHILDREN = new Map([
  [B.BlockId, "list:children"],
  [B.IfId, [["condition", "If", "Condition"], ["ifTrue", "If", "IfTrue"], ["ifFalse", "If", "IfFalse"]]],
  [B.LoopId, [["body", "Loop", "Body"]]],
  [B.BreakId, [["condition", "Break", "Condition"], ["value", "Break", "Value"]]],
  [B.SwitchId, [["condition", "Switch", "Condition"], ["value", "Switch", "Value"]]],
  [B.CallId, "list:operands"],
  [B.CallIndirectId, [["target", "CallIndirect", "Target"], "list:operands"]],
  [B.LocalGetId, []],
  [B.LocalSetId, [["value", "LocalSet", "Value"]]],
  [B.GlobalGetId, []],
  [B.GlobalSetId, [["value", "GlobalSet", "Value"]]],
  [B.LoadId, [["ptr", "Load", "Ptr"]]],
  [B.StoreId, [["ptr", "Store", "Ptr"], ["value", "Store", "Value"]]],
  [B.ConstId, []],
  [B.UnaryId, [["value", "Unary", "Value"]]],
  [B.BinaryId, [["left", "Binary", "Left"], ["right", "Binary", "Right"]]],
  [B.SelectId, [["ifTrue", "Select", "IfTrue"], ["ifFalse", "Select", "IfFalse"], ["condition", "Select", "Condition"]]],
  [B.DropId, [["value", "Drop", "Value"]]],
  [B.ReturnId, [["value", "Return", "Value"]]],
  [B.MemorySizeId, []],
  [B.MemoryGrowId, [["delta", "MemoryGrow", "Delta"]]],
  [B.NopId, []],
  [B.UnreachableId, []],
  [B.SIMDExtractId, [["vec", "SIMDExtract", "Vec"]]],
  [B.SIMDReplaceId, [["vec", "SIMDReplace", "Vec"], ["value", "SIMDReplace", "Value"]]],
  [B.SIMDShuffleId, [["left", "SIMDShuffle", "Left"], ["right", "SIMDShuffle", "Right"]]],
  [B.SIMDTernaryId, [["a", "SIMDTernary", "A"], ["b", "SIMDTernary", "B"], ["c", "SIMDTernary", "C"]]],
  [B.SIMDShiftId, [["vec", "SIMDShift", "Vec"], ["shift", "SIMDShift", "Shift"]]],
  [B.SIMDLoadId, [["ptr", "SIMDLoad", "Ptr"]]],
  [B.SIMDLoadStoreLaneId, [["ptr", "SIMDLoadStoreLane", "Ptr"], ["vec", "SIMDLoadStoreLane", "Vec"]]],
  [B.MemoryInitId, [["dest", "MemoryInit", "Dest"], ["offset", "MemoryInit", "Offset"], ["size", "MemoryInit", "Size"]]],
  [B.DataDropId, []],
  [B.MemoryCopyId, [["dest", "MemoryCopy", "Dest"], ["source", "MemoryCopy", "Source"], ["size", "MemoryCopy", "Size"]]],
  [B.MemoryFillId, [["dest", "MemoryFill", "Dest"], ["value", "MemoryFill", "Value"], ["size", "MemoryFill", "Size"]]],
  [B.RefNullId, []],
  [B.RefIsNullId, [["value", "RefIsNull", "Value"]]],
  [B.RefFuncId, []],
  [B.RefEqId, [["left", "RefEq", "Left"], ["right", "RefEq", "Right"]]],
  [B.TableGetId, [["index", "TableGet", "Index"]]],
  [B.TableSetId, [["index", "TableSet", "Index"], ["value", "TableSet", "Value"]]],
  [B.TableSizeId, []],
  [B.TableGrowId, [["value", "TableGrow", "Value"], ["delta", "TableGrow", "Delta"]]],
  [B.TupleMakeId, "list:operands"],
  [B.TupleExtractId, [["tuple", "TupleExtract", "Tuple"]]],
]);

const LISTS = {
  children: ["Block", "Child"],
  operands: { [B.CallId]: ["Call", "Operand"], [B.CallIndirectId]: ["CallIndirect", "Operand"], [B.TupleMakeId]: ["TupleMake", "Operand"] },
};

/**
 * Walks `expression` depth first; `visit(expression, info)` returns a replacement or
 * undefined (`info` is binaryen's getExpressionInfo, or `{ id }` for a leaf). Returns the
 * (possibly replaced) root.
 */
export function walk(expression, visit) {
  const id = B.getExpressionId(expression);
  let spec = CHILDREN.get(id);
  if (spec === undefined) throw new Error(`split/walk: no rule for expression id ${id}`);
  // A leaf gets its id alone: binaryen.js describes neither `unreachable` nor `ref.null`.
  if (spec.length === 0) return visit(expression, { id }) ?? expression;
  const info = B.getExpressionInfo(expression);
  if (!Array.isArray(spec)) spec = [spec];
  for (const child of spec) {
    if (typeof child === "string") {
      const field = child.slice("list:".length);
      const [kind, name] = field === "children" ? LISTS.children : LISTS.operands[info.id];
      info[field].forEach((item, i) => {
        const next = walk(item, visit);
        if (next !== item) B[`_Binaryen${kind}Set${name}At`](expression, i, next);
      });
      continue;
    }
    const [field, kind, name] = child;
    const item = info[field];
    if (!item) continue; // an optional child left out (a break without a value, an if without else)
    const next = walk(item, visit);
    if (next !== item) B[`_Binaryen${kind}Set${name}`](expression, next);
  }
  return visit(expression, info) ?? expression;
}
