// Splits the core module in two that share one memory and one function table: the
// primary, with the functions a profile saw run (scripts/split/profile.mjs), and the
// rest, with every other function. A page fetches the primary before its first call
// and the rest when it first needs it (scripts/split/rest-loader.js).
//
//   node scripts/split/split.mjs <core.wasm> <profile.json> <primary.wasm> <rest.wasm> [<linker map>]
//
// How the halves meet:
// - In the primary, a function that moved keeps its name and type, and its body becomes
//   a stub: load the rest if `~ready` is still 0 (the import `__split.l`, which instantiates
//   the rest synchronously), then call the moved function through the function table,
//   at a slot past the table's original end. Calls and table entries that named the
//   function name the stub, so nothing else changes.
// - The rest defines the moved functions and imports the primary's memory, tables and
//   globals from its exports (module "p"). It calls the primary's functions (the
//   primary's own and its JS imports) through the table, at slots the primary fills.
//   Its element segments put each moved function at its new slot, and at its original
//   slots too, so that a call through a Rust vtable stops going through the stub once
//   the rest is in.
// - Given the linker's map, the static data that only the rest reads moves into the rest
//   too (scripts/split/data.mjs); without it, all of it stays in the primary.
import { readFileSync, writeFileSync } from "node:fs";
import { allFunctions, binaryen, definedFunctions, functionTable, readModule } from "./binaryen.mjs";
import { activeSegments, deadPanicLocations, deadTexts, movedObjects, readMap, splitSegments } from "./data.mjs";
import { unreachableSlots } from "./slots.mjs";

const [input, profilePath, primaryPath, restPath, mapPath] = process.argv.slice(2);
if (!restPath) throw new Error("usage: node scripts/split/split.mjs <core.wasm> <profile.json> <primary.wasm> <rest.wasm> [<linker map>]");
const bytes = readFileSync(input);
const profile = JSON.parse(readFileSync(profilePath, "utf8"));
const ran = new Set(profile.ordinals);
const primary = readModule(bytes);
const rest = readModule(bytes);

const defined = definedFunctions(primary);
const start = primary.getStart() ? binaryen.getFunctionInfo(primary.getStart()).name : null;
const moved = defined.filter((fn, ordinal) => !ran.has(ordinal) && fn.name !== start);
const movedNames = new Set(moved.map((fn) => fn.name));
const table = functionTable(primary);
if (table.module) throw new Error("split: the function table is imported; expected the module to define it");
const firstSlot = table.initial;
const tableSize = firstSlot + moved.length;

// Export names the rest imports the primary's memory, tables and globals by: `~` and a
// number, which no wasm-bindgen export starts with.
let exportCount = 0;
const exportNames = new Map(); // "kind:internal name" -> export name in the primary
function exportName(kind, internal) {
  const key = `${kind}:${internal}`;
  if (!exportNames.has(key)) exportNames.set(key, `~${(exportCount++).toString(36)}`);
  return exportNames.get(key);
}
const existingExports = new Map(); // "kind:internal name" -> an export the primary already has
for (let i = 0; i < primary.getNumExports(); i++) {
  const e = binaryen.getExportInfo(primary.getExportByIndex(i));
  existingExports.set(`${e.kind}:${e.value}`, e.name);
}
const exportFor = (kind, internal) => existingExports.get(`${kind}:${internal}`) ?? exportName(kind, internal);

// --- the rest
for (const fn of allFunctions(rest)) {
  if (movedNames.has(fn.name)) continue;
  rest.removeFunction(fn.name);
  rest.addFunctionImport(fn.name, "p", fn.name, fn.params, fn.results);
}
for (let i = rest.getNumExports() - 1; i >= 0; i--) rest.removeExport(binaryen.getExportInfo(rest.getExportByIndex(i)).name);
const elements = [];
for (let i = 0; i < rest.getNumElementSegments(); i++) elements.push(binaryen.getElementSegmentInfo(rest.getElementSegmentByIndex(i)));
for (const segment of elements) rest.removeElementSegment(segment.name);
rest.addActiveElementSegment(table.name, "~moved", moved.map((fn) => fn.name), rest.i32.const(firstSlot));
for (const segment of elements) {
  const offset = binaryen.getExpressionInfo(segment.offset);
  if (offset.id !== binaryen.ConstId) throw new Error(`split: element segment ${segment.name} has no constant offset`);
  let run = [];
  let runStart = 0;
  const flush = () => {
    if (run.length) rest.addActiveElementSegment(table.name, `~at${runStart}`, run, rest.i32.const(runStart));
    run = [];
  };
  segment.data.forEach((name, i) => {
    if (!movedNames.has(name)) return flush();
    if (!run.length) runStart = offset.value + i;
    run.push(name);
  });
  flush();
}
const memory = rest.getMemoryInfo();
// wasm-bindgen exports the memory as "memory".
const memoryName = binaryen.getExportInfo(primary.getExport("memory")).value;
for (let i = 0; i < rest.getNumTables(); i++) {
  const t = binaryen.getTableInfo(rest.getTableByIndex(i));
  rest.addTableImport(t.name, "p", exportFor(binaryen.ExternalTable, t.name));
}
const globals = [];
for (let i = 0; i < rest.getNumGlobals(); i++) globals.push(binaryen.getGlobalInfo(rest.getGlobalByIndex(i)));
for (const g of globals) {
  rest.removeGlobal(g.name);
  rest.addGlobalImport(g.name, "p", exportFor(binaryen.ExternalGlobal, g.name), g.type, g.mutable);
}
// Whatever no moved function reaches goes, imports included: what remains is what the
// rest needs of the primary.
rest.runPasses(["remove-unused-module-elements"]);
// The rest calls the primary's functions through the table, not through exports: each
// gets a slot past the moved ones, which the primary fills (two bytes of its element
// segment, against about six for an export), unless the table holds it already, and the
// rest a function of the same name that calls that slot (wasm-opt inlines them).
// The primary's element segments from its own link (not "~linked", the slots added below for
// the rest's calls), each as { name, offset, names }.
function ownSegments() {
  const own = [];
  for (let i = 0; i < primary.getNumElementSegments(); i++) {
    const info = binaryen.getElementSegmentInfo(primary.getElementSegmentByIndex(i));
    if (info.name !== "~linked") own.push({ name: info.name, offset: binaryen.getExpressionInfo(info.offset).value, names: info.data });
  }
  return own;
}
const ownSlots = new Map(); // a function of the primary -> a slot of the table's own that holds it
for (const { offset, names } of ownSegments()) {
  names.forEach((name, k) => movedNames.has(name) || ownSlots.has(name) || ownSlots.set(name, offset + k));
}
const calls = allFunctions(rest).filter((fn) => fn.module === "p");
const linked = calls.filter((fn) => !ownSlots.has(fn.base));
const fullSize = tableSize + linked.length;
const slotOf = new Map(linked.map((fn, i) => [fn.name, tableSize + i]));
for (const fn of calls) {
  rest.removeFunction(fn.name);
  const args = binaryen.expandType(fn.params).map((type, index) => rest.local.get(index, type));
  const slot = slotOf.get(fn.name) ?? ownSlots.get(fn.base);
  rest.addFunction(fn.name, fn.params, fn.results, [], rest.call_indirect(table.name, rest.i32.const(slot), args, fn.params, fn.results));
}
{
  const ref = rest.getTable(table.name);
  binaryen._BinaryenTableSetInitial(ref, fullSize);
  if (table.max !== undefined) binaryen._BinaryenTableSetMax(ref, fullSize);
}

// --- the primary
{
  const ref = primary.getTable(table.name);
  binaryen._BinaryenTableSetInitial(ref, fullSize);
  if (table.max !== undefined) binaryen._BinaryenTableSetMax(ref, fullSize);
}
primary.addActiveElementSegment(table.name, "~linked", linked.map((fn) => fn.base), primary.i32.const(tableSize));
const READY = "__split_ready";
const LOAD = "__split_load";
primary.addGlobal(READY, binaryen.i32, true, primary.i32.const(0));
primary.addGlobalExport(READY, "~ready");
primary.addFunctionImport(LOAD, "__split", "l", binaryen.none, binaryen.none);
// The check and the call through the table are written once per signature, in a function
// that takes the slot as its last argument; each stub passes its arguments and its slot on
// (wasm-opt then inlines the stubs into their callers). A check in every stub cost the
// first call 0.6 KB gzip (bench/analysis.md, "Twenty-second round").
const dispatchers = new Map(); // "params:results" -> the dispatcher's name
function dispatcher(params, results) {
  const key = `${params}:${results}`;
  if (!dispatchers.has(key)) {
    const types = binaryen.expandType(params);
    const name = `__split_via${dispatchers.size}`;
    const args = types.map((type, index) => primary.local.get(index, type));
    const slot = primary.local.get(types.length, binaryen.i32);
    const body = primary.block(null, [
      primary.if(primary.i32.eqz(primary.global.get(READY, binaryen.i32)), primary.call(LOAD, [], binaryen.none)),
      primary.call_indirect(table.name, slot, args, params, results),
    ], results);
    primary.addFunction(name, binaryen.createType([...types, binaryen.i32]), results, [], body);
    dispatchers.set(key, name);
  }
  return dispatchers.get(key);
}
moved.forEach((fn, i) => {
  const args = binaryen.expandType(fn.params).map((type, index) => primary.local.get(index, type));
  const stub = primary.call(dispatcher(fn.params, fn.results), [...args, primary.i32.const(firstSlot + i)], fn.results);
  binaryen._BinaryenFunctionSetBody(primary.getFunction(fn.name), stub);
});
// The data: all of it in the primary, or, given the map, what only the rest reads in the rest.
let segments = activeSegments(primary, "split");
let data = { primary: segments, rest: [] };
if (mapPath) {
  const named = readMap(mapPath, segments, "split");
  const primaryText = primary.emitText();
  const restText = rest.emitText();
  // Dead bytes are written by neither half.
  const dead = deadPanicLocations(named, segments, [primaryText, restText]);
  segments = splitSegments(segments, dead).primary;
  console.log(`split: ${dead.length} panic locations and paths no code names any more, ${dead.reduce((n, o) => n + o.end - o.start, 0)} bytes, dropped`);
  const silent = deadTexts(named, segments, [primaryText, restText], profile.data ?? []);
  segments = splitSegments(segments, silent).primary;
  console.log(`split: ${silent.length} texts nothing reads (panics' messages), ${silent.reduce((n, o) => n + o.end - o.start, 0)} bytes, dropped`);
  const { moved: objects, missed } = movedObjects(named, segments, primaryText, profile.data ?? [], restText);
  data = splitSegments(segments, objects);
  const length = (list) => list.reduce((n, s) => n + s.data.length, 0);
  console.log(`split: ${objects.length} static objects, ${length(data.rest)} bytes, in the rest; ${length(data.primary)} bytes of data in the primary`);
  if (missed.length) {
    const where = missed.map((o) => `0x${o.start.toString(16)}+${o.end - o.start}`).join(" ");
    console.log(`split: ${missed.length} objects stay only because the profile touched them; the code's analysis missed them: ${where}`);
  }
}
// The slots only the rest can reach hold a function that traps instead of a stub (slots.mjs).
{
  const own = ownSegments();
  const absent = unreachableSlots(own, movedNames, primary.emitText(), data.primary);
  primary.addFunction("__split_absent", binaryen.none, binaryen.none, [], primary.unreachable());
  for (const segment of own) {
    primary.removeElementSegment(segment.name);
    const names = segment.names.map((name, i) => (absent.has(segment.offset + i) ? "__split_absent" : name));
    primary.addActiveElementSegment(table.name, segment.name, names, primary.i32.const(segment.offset));
  }
  console.log(`split: ${absent.size} slots of the table only the rest can reach hold no stub`);
}
const toSegments = (module, list) => list.map((s, i) => ({ name: `d${i}`, offset: module.i32.const(s.offset), data: s.data, passive: false }));
rest.setMemory(memory.initial, memory.max ?? -1, null, toSegments(rest, data.rest), memory.shared, memory.is64, memoryName);
rest.addMemoryImport(memoryName, "p", exportFor(binaryen.ExternalMemory, memoryName));
primary.removeExport("memory");
primary.setMemory(memory.initial, memory.max ?? -1, "memory", toSegments(primary, data.primary), memory.shared, memory.is64, memoryName);

const addExport = { [binaryen.ExternalGlobal]: "addGlobalExport", [binaryen.ExternalTable]: "addTableExport",
  [binaryen.ExternalMemory]: "addMemoryExport" };
for (const [key, name] of exportNames) {
  const kind = Number(key.slice(0, key.indexOf(":")));
  primary[addExport[kind]](key.slice(key.indexOf(":") + 1), name);
}
primary.runPasses(["remove-unused-module-elements"]);

if (!rest.validate()) throw new Error("split: the rest does not validate");
if (!primary.validate()) throw new Error("split: the primary does not validate");
writeFileSync(primaryPath, primary.emitBinary());
writeFileSync(restPath, rest.emitBinary());
console.log(`split: ${defined.length - moved.length} of ${defined.length} functions in the primary, ${moved.length} in the rest; the rest calls ${calls.length} of the primary's, ${calls.length - linked.length} through slots the table had`);
