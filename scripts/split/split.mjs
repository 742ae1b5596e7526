// Splits the core module in two that share one memory and one function table: the
// primary, with the functions a profile saw run (scripts/split/profile.mjs), and the
// rest, with every other function. A page fetches the primary before its first call
// and the rest when it first needs it (scripts/split/rest-loader.js).
//
//   node scripts/split/split.mjs <core.wasm> <profile.json> <primary.wasm> <rest.wasm> [<linker map>]
//                                [--part <name> <pattern> <entries> <part.wasm>]...
//
// With --part, the functions that moved and that only functions named by <pattern> reach, and
// those named by <entries>, which the others may call (scripts/split/parts.mjs), go into a
// module of their own instead of the rest, loaded after the rest and only when first needed
// (OAuth: a page that never authorizes never fetches it; the validator). Each is made as the
// rest is, with the static data that only its code reads, and its stubs in the primary (and
// the others' calls into it) load it through the import `__split.<name>`, with
// `~ready_<name>`. No function or object belongs to two parts: what two of them reach stays
// in the rest.
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
import { exclusivePart } from "./parts.mjs";
import { unreachableSlots } from "./slots.mjs";

const args = process.argv.slice(2);
const partAt = args.indexOf("--part");
const [input, profilePath, primaryPath, restPath, mapPath] = partAt < 0 ? args : args.slice(0, partAt);
const partArgs = [];
for (let at = partAt; at >= 0 && at < args.length; at += 5) {
  if (args[at] !== "--part" || at + 5 > args.length) partArgs.length = 0, partArgs.push(null);
  else partArgs.push(args.slice(at + 1, at + 5));
}
if (!restPath || partArgs.includes(null)) {
  throw new Error("usage: node scripts/split/split.mjs <core.wasm> <profile.json> <primary.wasm> <rest.wasm> [<linker map>] [--part <name> <pattern> <entries> <part.wasm>]...");
}
const bytes = readFileSync(input);
const profile = JSON.parse(readFileSync(profilePath, "utf8"));
const ran = new Set(profile.ordinals);
const primary = readModule(bytes);

const defined = definedFunctions(primary);
const start = primary.getStart() ? binaryen.getFunctionInfo(primary.getStart()).name : null;
const moved = defined.filter((fn, ordinal) => !ran.has(ordinal) && fn.name !== start);
const movedNames = new Set(moved.map((fn) => fn.name));
const table = functionTable(primary);
if (table.module) throw new Error("split: the function table is imported; expected the module to define it");
const firstSlot = table.initial;
const tableSize = firstSlot + moved.length;
// Where each moved function goes: the rest, or a part.
const parts = partArgs.map(([name, pattern, entries, path]) => ({
  name, path, own: exclusivePart(primary, movedNames, new RegExp(pattern), new RegExp(entries)), ready: `~ready_${name}`, load: name,
}));
const owner = new Map(); // a function of a part -> that part
for (const part of parts) {
  for (const name of part.own) {
    if (owner.has(name)) throw new Error(`split: ${name} belongs to the ${owner.get(name).name} and the ${part.name}`);
    owner.set(name, part);
  }
}
const rest = { name: "rest", path: restPath, own: new Set([...movedNames].filter((name) => !owner.has(name))), ready: "~ready", load: "l" };
const secondaries = [rest, ...parts];
const secondaryOf = (name) => owner.get(name) ?? rest;

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

// --- the rest, and the part: each defines its own functions and imports every other
function secondary(own) {
  const module = readModule(bytes);
  for (const fn of allFunctions(module)) {
    if (own.has(fn.name)) continue;
    module.removeFunction(fn.name);
    module.addFunctionImport(fn.name, "p", fn.name, fn.params, fn.results);
  }
  for (let i = module.getNumExports() - 1; i >= 0; i--) module.removeExport(binaryen.getExportInfo(module.getExportByIndex(i)).name);
  const elements = [];
  for (let i = 0; i < module.getNumElementSegments(); i++) elements.push(binaryen.getElementSegmentInfo(module.getElementSegmentByIndex(i)));
  for (const segment of elements) module.removeElementSegment(segment.name);
  // Each of its functions at its slot past the table's original end, and at its original
  // slots: runs of adjacent ones, one segment each.
  const runs = (names, first, prefix) => {
    let run = [];
    let runStart = 0;
    const flush = () => {
      if (run.length) module.addActiveElementSegment(table.name, `${prefix}${runStart}`, run, module.i32.const(runStart));
      run = [];
    };
    names.forEach((name, i) => {
      if (!own.has(name)) return flush();
      if (!run.length) runStart = first + i;
      run.push(name);
    });
    flush();
  };
  runs(moved.map((fn) => fn.name), firstSlot, "~moved");
  for (const segment of elements) {
    const offset = binaryen.getExpressionInfo(segment.offset);
    if (offset.id !== binaryen.ConstId) throw new Error(`split: element segment ${segment.name} has no constant offset`);
    runs(segment.data, offset.value, "~at");
  }
  for (let i = 0; i < module.getNumTables(); i++) {
    const t = binaryen.getTableInfo(module.getTableByIndex(i));
    module.addTableImport(t.name, "p", exportFor(binaryen.ExternalTable, t.name));
  }
  const globals = [];
  for (let i = 0; i < module.getNumGlobals(); i++) globals.push(binaryen.getGlobalInfo(module.getGlobalByIndex(i)));
  for (const g of globals) {
    module.removeGlobal(g.name);
    module.addGlobalImport(g.name, "p", exportFor(binaryen.ExternalGlobal, g.name), g.type, g.mutable);
  }
  // Whatever none of its functions reaches goes, imports included: what remains is what it
  // needs of the primary (and, for the part, of the rest, through the primary's stubs).
  module.runPasses(["remove-unused-module-elements"]);
  return module;
}
const memory = primary.getMemoryInfo();
// wasm-bindgen exports the memory as "memory".
const memoryName = binaryen.getExportInfo(primary.getExport("memory")).value;
for (const part of secondaries) part.module = secondary(part.own);
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
// Between the rest and a part, no slot of the primary's: a part loads after the rest, so it
// calls a function of the rest at its moved slot at once; the rest (or another part) calls one
// of the part's through a dispatcher of its own, which loads the part first, as the primary's
// stubs do.
// The check and the call through the table are written once per signature, in a function
// that takes the slot as its last argument; each stub passes its arguments and its slot on
// (wasm-opt then inlines the stubs into their callers). A check in every stub cost the
// first call 0.6 KB gzip (bench/analysis.md, "Twenty-second round"). `dispatchers` makes
// them in `module` for the module whose global `ready` says it is in and whose import
// `load` loads it; `prepare` runs before the first is made.
function dispatchers(module, ready, load, prepare = () => {}) {
  const made = new Map(); // "params:results" -> the dispatcher's name
  return (params, results) => {
    const key = `${params}:${results}`;
    if (!made.has(key)) {
      if (made.size === 0) prepare();
      const types = binaryen.expandType(params);
      const name = `${ready}_via${made.size}`;
      const args = types.map((type, index) => module.local.get(index, type));
      module.addFunction(name, binaryen.createType([...types, binaryen.i32]), results, [], module.block(null, [
        module.if(module.i32.eqz(module.global.get(ready, binaryen.i32)), module.call(load, [], binaryen.none)),
        module.call_indirect(table.name, module.local.get(types.length, binaryen.i32), args, params, results),
      ], results));
      made.set(key, name);
    }
    return made.get(key);
  };
}

const linked = new Map(); // a function of the primary -> its slot past the moved ones
const movedSlot = new Map(moved.map((fn, i) => [fn.name, firstSlot + i]));
for (const { module } of secondaries) {
  const intoPart = new Map(parts.map((part) => [part, dispatchers(module, `__split_ready_${part.name}`, `__split_load_${part.name}`, () => {
    module.addGlobalImport(`__split_ready_${part.name}`, "p", part.ready, binaryen.i32, true);
    module.addFunctionImport(`__split_load_${part.name}`, "__split", part.load, binaryen.none, binaryen.none);
  })]));
  for (const fn of allFunctions(module).filter((f) => f.module === "p")) {
    module.removeFunction(fn.name);
    const args = binaryen.expandType(fn.params).map((type, index) => module.local.get(index, type));
    let body;
    if (movedSlot.has(fn.base)) {
      const slot = module.i32.const(movedSlot.get(fn.base));
      const target = secondaryOf(fn.base);
      body = target === rest
        ? module.call_indirect(table.name, slot, args, fn.params, fn.results)
        : module.call(intoPart.get(target)(fn.params, fn.results), [...args, slot], fn.results);
    } else {
      if (!ownSlots.has(fn.base) && !linked.has(fn.base)) linked.set(fn.base, tableSize + linked.size);
      const slot = linked.get(fn.base) ?? ownSlots.get(fn.base);
      body = module.call_indirect(table.name, module.i32.const(slot), args, fn.params, fn.results);
    }
    module.addFunction(fn.name, fn.params, fn.results, [], body);
  }
}
const fullSize = tableSize + linked.size;
for (const { module } of secondaries) {
  const ref = module.getTable(table.name);
  binaryen._BinaryenTableSetInitial(ref, fullSize);
  if (table.max !== undefined) binaryen._BinaryenTableSetMax(ref, fullSize);
}

// --- the primary
{
  const ref = primary.getTable(table.name);
  binaryen._BinaryenTableSetInitial(ref, fullSize);
  if (table.max !== undefined) binaryen._BinaryenTableSetMax(ref, fullSize);
}
primary.addActiveElementSegment(table.name, "~linked", [...linked.keys()], primary.i32.const(tableSize));
for (const part of secondaries) {
  part.readyGlobal = `__split_ready_${part.name}`;
  part.loadImport = `__split_load_${part.name}`;
  primary.addGlobal(part.readyGlobal, binaryen.i32, true, primary.i32.const(0));
  primary.addGlobalExport(part.readyGlobal, part.ready);
  primary.addFunctionImport(part.loadImport, "__split", part.load, binaryen.none, binaryen.none);
  part.dispatch = dispatchers(primary, part.readyGlobal, part.loadImport);
}
moved.forEach((fn, i) => {
  const args = binaryen.expandType(fn.params).map((type, index) => primary.local.get(index, type));
  const stub = primary.call(secondaryOf(fn.name).dispatch(fn.params, fn.results), [...args, primary.i32.const(firstSlot + i)], fn.results);
  binaryen._BinaryenFunctionSetBody(primary.getFunction(fn.name), stub);
});
// The data: all of it in the primary, or, given the map, what only the rest reads in the rest.
let segments = activeSegments(primary, "split");
let data = { primary: segments, rest: [] };
if (mapPath) {
  const named = readMap(mapPath, segments, "split");
  const primaryText = primary.emitText();
  // What leaves the primary is what the rest's or the part's code reads.
  const restText = secondaries.map(({ module }) => module.emitText()).join("\n");
  // Dead bytes are written by none of the modules.
  const dead = deadPanicLocations(named, segments, [primaryText, restText]);
  segments = splitSegments(segments, dead).primary;
  console.log(`split: ${dead.length} panic locations and paths no code names any more, ${dead.reduce((n, o) => n + o.end - o.start, 0)} bytes, dropped`);
  const silent = deadTexts(named, segments, [primaryText, restText], profile.data ?? []);
  segments = splitSegments(segments, silent).primary;
  console.log(`split: ${silent.length} texts nothing reads (panics' messages), ${silent.reduce((n, o) => n + o.end - o.start, 0)} bytes, dropped`);
  const { moved: objects, missed } = movedObjects(named, segments, primaryText, profile.data ?? [], restText);
  data = splitSegments(segments, objects);
  const length = (list) => list.reduce((n, s) => n + s.data.length, 0);
  if (parts.length) {
    // What the rest's own code may reach, by the rules that keep data in the primary (a
    // neighbour of a constant, what a kept object points to), stays in the rest, and so does
    // what two parts' code may reach; an object only one part's code reaches is that part's,
    // read only once the part is in.
    const ofRest = new Set(movedObjects(named, segments, rest.module.emitText()).kept);
    const ofParts = parts.map((part) => new Set(movedObjects(named, segments, part.module.emitText()).kept));
    const partOf = (o) => {
      if (ofRest.has(o)) return rest;
      const readers = parts.filter((_, k) => ofParts[k].has(o));
      return readers.length === 1 ? readers[0] : rest;
    };
    for (const module of secondaries) {
      module.data = splitSegments(segments, objects.filter((o) => partOf(o) === module)).rest;
      if (module !== rest) console.log(`split: ${length(module.data)} bytes of static data only the ${module.name} reads, in the ${module.name}`);
    }
  } else {
    rest.data = data.rest;
  }
  console.log(`split: ${objects.length} static objects, ${secondaries.reduce((n, m) => n + length(m.data), 0)} bytes, out of the primary; ${length(data.primary)} bytes of data in the primary`);
  if (missed.length) {
    const where = missed.map((o) => `0x${o.start.toString(16)}+${o.end - o.start}`).join(" ");
    console.log(`split: ${missed.length} objects stay only because the profile touched them; the code's analysis missed them: ${where}`);
  }
}
// The slots only the rest can reach hold a function that traps instead of a stub (slots.mjs).
{
  const own = ownSegments();
  const absent = unreachableSlots(own, movedNames, primary.emitText(), data.primary);
  // A slot of a part's that the rest or another part has the number of keeps its stub: they may
  // call through it before the part is in.
  for (const part of parts) {
    const others = secondaries.filter((m) => m !== part);
    const unnamed = unreachableSlots(own, part.own, others.map((m) => m.module.emitText()).join("\n"), others.flatMap((m) => m.data ?? []));
    for (const { offset, names } of own) {
      names.forEach((name, i) => part.own.has(name) && !unnamed.has(offset + i) && absent.delete(offset + i));
    }
  }
  primary.addFunction("__split_absent", binaryen.none, binaryen.none, [], primary.unreachable());
  for (const segment of own) {
    primary.removeElementSegment(segment.name);
    const names = segment.names.map((name, i) => (absent.has(segment.offset + i) ? "__split_absent" : name));
    primary.addActiveElementSegment(table.name, segment.name, names, primary.i32.const(segment.offset));
  }
  console.log(`split: ${absent.size} slots of the table only the rest can reach hold no stub`);
}
const toSegments = (module, list) => list.map((s, i) => ({ name: `d${i}`, offset: module.i32.const(s.offset), data: s.data, passive: false }));
for (const { module, data: own = [] } of secondaries) {
  module.setMemory(memory.initial, memory.max ?? -1, null, toSegments(module, own), memory.shared, memory.is64, memoryName);
  module.addMemoryImport(memoryName, "p", exportFor(binaryen.ExternalMemory, memoryName));
}
primary.removeExport("memory");
primary.setMemory(memory.initial, memory.max ?? -1, "memory", toSegments(primary, data.primary), memory.shared, memory.is64, memoryName);

const addExport = { [binaryen.ExternalGlobal]: "addGlobalExport", [binaryen.ExternalTable]: "addTableExport",
  [binaryen.ExternalMemory]: "addMemoryExport" };
for (const [key, name] of exportNames) {
  const kind = Number(key.slice(0, key.indexOf(":")));
  primary[addExport[kind]](key.slice(key.indexOf(":") + 1), name);
}
primary.runPasses(["remove-unused-module-elements"]);

for (const { name, module, path } of secondaries) {
  if (!module.validate()) throw new Error(`split: the ${name} does not validate`);
  writeFileSync(path, module.emitBinary());
}
if (!primary.validate()) throw new Error("split: the primary does not validate");
writeFileSync(primaryPath, primary.emitBinary());
const counts = secondaries.map(({ name, own }) => `${own.size} in the ${name}`).join(", ");
console.log(`split: ${defined.length - moved.length} of ${defined.length} functions in the primary, ${counts}; the others call ${linked.size} of the primary's through slots of their own`);
