// Writes a copy of a built module that reports what a run of it does, for the split's
// profile (scripts/split/profile.mjs):
// - every defined function first calls the import `__split.m` with its ordinal (its place
//   among the defined functions): which functions the run entered;
// - every load and store hands its address to `__split.a` first, and `memory.copy` and
//   `memory.fill` become calls of `__split.c` and `__split.f`, which do the same in JS:
//   which static data the functions the run entered read or wrote, which the data split
//   keeps in the primary whatever its analysis of the code says (scripts/split/data.mjs).
//   node scripts/split/instrument.mjs <in.wasm> <out.wasm>
import { readFileSync, writeFileSync } from "node:fs";
import { binaryen, definedFunctions, readModule } from "./binaryen.mjs";
import { walk } from "./walk.mjs";

const [input, output] = process.argv.slice(2);
const module = readModule(readFileSync(input));
const { i32, none } = binaryen;
const MARK = "__split_mark";
const ACCESS = "__split_access";
const COPY = "__split_copy";
const FILL = "__split_fill";
module.addFunctionImport(MARK, "__split", "m", i32, none);
module.addFunctionImport(ACCESS, "__split", "a", binaryen.createType([i32, i32, i32, i32]), i32);
module.addFunctionImport(COPY, "__split", "c", binaryen.createType([i32, i32, i32, i32]), none);
module.addFunctionImport(FILL, "__split", "f", binaryen.createType([i32, i32, i32, i32]), none);

// Each report also names the function it comes from (its ordinal).
let current = 0;
const here = () => module.i32.const(current);
// The address an access starts from, and how many bytes it covers at most.
const access = (ptr, offset, bytes) => module.call(ACCESS, [ptr, module.i32.const(offset), module.i32.const(bytes), here()], i32);
const SETTERS = {
  [binaryen.LoadId]: "_BinaryenLoadSetPtr",
  [binaryen.StoreId]: "_BinaryenStoreSetPtr",
  [binaryen.SIMDLoadId]: "_BinaryenSIMDLoadSetPtr",
  [binaryen.SIMDLoadStoreLaneId]: "_BinaryenSIMDLoadStoreLaneSetPtr",
};
function instrument(expression, info) {
  const setter = SETTERS[info.id];
  if (setter) {
    // A SIMD load or lane reads or writes 16 bytes at most: count them all.
    const bytes = info.bytes ?? 16;
    binaryen[setter](expression, access(info.ptr, info.offset, bytes));
    return undefined;
  }
  if (info.id === binaryen.MemoryCopyId) return module.call(COPY, [info.dest, info.source, info.size, here()], none);
  if (info.id === binaryen.MemoryFillId) return module.call(FILL, [info.dest, info.value, info.size, here()], none);
  return undefined;
}

definedFunctions(module).forEach((fn, ordinal) => {
  current = ordinal;
  const ref = module.getFunction(fn.name);
  const body = walk(fn.body, instrument);
  const mark = module.call(MARK, [module.i32.const(ordinal)], none);
  binaryen._BinaryenFunctionSetBody(ref, module.block(null, [mark, body], fn.results));
});
if (!module.validate()) throw new Error("instrument: the instrumented module does not validate");
writeFileSync(output, module.emitBinary());
