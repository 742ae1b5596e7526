// Writes a copy of a built module in which every defined function first calls the
// import `__split.m` with its ordinal (its place among the defined functions), so that
// a run can tell which functions it entered (scripts/split/profile.mjs).
//   node scripts/split/instrument.mjs <in.wasm> <out.wasm>
import { readFileSync, writeFileSync } from "node:fs";
import { binaryen, definedFunctions, readModule } from "./binaryen.mjs";

const [input, output] = process.argv.slice(2);
const module = readModule(readFileSync(input));
const MARK = "__split_mark";
module.addFunctionImport(MARK, "__split", "m", binaryen.i32, binaryen.none);
definedFunctions(module).forEach((fn, ordinal) => {
  const ref = module.getFunction(fn.name);
  const mark = module.call(MARK, [module.i32.const(ordinal)], binaryen.none);
  binaryen._BinaryenFunctionSetBody(ref, module.block(null, [mark, fn.body], fn.results));
});
if (!module.validate()) throw new Error("instrument: the instrumented module does not validate");
writeFileSync(output, module.emitBinary());
