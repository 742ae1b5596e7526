// What the split scripts share: binaryen.js (the npm package `binaryen`, pinned in the
// lock file) reading a built module with exactly the features the shipped modules use
// (scripts/build.sh's OPT_FLAGS), and the module's defined functions in a fixed order.
import binaryen from "binaryen";

const F = binaryen.Features;
// BulkMemoryOpt comes with BulkMemory in binaryen 132. No more than this: with every
// feature on, binaryen writes imports in an encoding Node 20 cannot read.
export const FEATURES = F.ReferenceTypes | F.BulkMemory | F.BulkMemoryOpt | F.NontrappingFPToInt
  | F.SignExt | F.MutableGlobals | F.Multivalue | F.SIMD128;

// Function names, where the module has them, are written out again: scripts/build.sh
// strips them only from the halves it ships.
binaryen.setDebugInfo(true);

export { binaryen };

/** The module in `bytes`, with the shipped features. */
export function readModule(bytes) {
  const module = binaryen.readBinary(bytes);
  module.setFeatures(FEATURES);
  return module;
}

/**
 * The functions a module defines (not its imports), in index order, each with binaryen's
 * `getFunctionInfo`. Two reads of the same bytes agree on the names (a module without a
 * name section has its functions named by binaryen after their index), and so do
 * instrument.mjs and split.mjs.
 */
export function definedFunctions(module) {
  const out = [];
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
    if (!info.module) out.push(info);
  }
  return out;
}

/** A module's functions, imported or defined, with binaryen's `getFunctionInfo`. */
export function allFunctions(module) {
  const out = [];
  for (let i = 0; i < module.getNumFunctions(); i++) out.push(binaryen.getFunctionInfo(module.getFunctionByIndex(i)));
  return out;
}

/** The module's data segments, in order, with binaryen's `getDataSegmentInfo` (`offset`, `data`, `passive`, `name`). */
export function dataSegments(module) {
  const out = [];
  for (let i = 0; i < module.getNumDataSegments(); i++) out.push(module.getDataSegmentInfo(module.getDataSegmentByIndex(i)));
  return out;
}

/** The table that the module's element segments fill with functions: the function table. */
export function functionTable(module) {
  const tables = new Set();
  for (let i = 0; i < module.getNumElementSegments(); i++) {
    tables.add(binaryen.getElementSegmentInfo(module.getElementSegmentByIndex(i)).table);
  }
  if (tables.size !== 1) throw new Error(`split: expected the element segments to fill one table, found ${tables.size}`);
  const [name] = tables;
  return binaryen.getTableInfo(module.getTable(name));
}
