// The child expressions of each kind of binaryen expression, for the walks of cover.mjs and
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
