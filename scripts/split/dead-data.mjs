// Drops from a module that is not split (the validator's, OAuth's) the panics' static
// locations, the source paths and the panics' messages that no code names any more, as
// split.mjs does for the core's halves (data.mjs, deadPanicLocations and deadTexts): after
// scripts/trap-panics.mjs and -Oz, nothing reads them.
//   node scripts/split/dead-data.mjs <module.wasm> <linker map>    (rewrites the module in place)
import { readFileSync, writeFileSync } from "node:fs";
import { binaryen, readModule } from "./binaryen.mjs";
import { activeSegments, deadPanicLocations, deadTexts, readMap, splitSegments } from "./data.mjs";

const [file, mapPath] = process.argv.slice(2);
if (!mapPath) throw new Error("usage: node scripts/split/dead-data.mjs <module.wasm> <linker map>");
const module = readModule(readFileSync(file));
const segments = activeSegments(module, "dead-data");
const objects = readMap(mapPath, segments, "dead-data");
const text = module.emitText();
const locations = deadPanicLocations(objects, segments, [text]);
const texts = deadTexts(objects, splitSegments(segments, locations).primary, [text]);
const dead = [...locations, ...texts].sort((a, b) => a.start - b.start);
const { primary: kept } = splitSegments(segments, dead);
const memory = module.getMemoryInfo();
// wasm-bindgen exports the memory as "memory"; setMemory writes that export again.
const memoryName = binaryen.getExportInfo(module.getExport("memory")).value;
module.removeExport("memory");
const toSegments = kept.map((s, i) => ({ name: `d${i}`, offset: module.i32.const(s.offset), data: s.data, passive: false }));
module.setMemory(memory.initial, memory.max ?? -1, "memory", toSegments, memory.shared, memory.is64, memoryName);
if (!module.validate()) throw new Error(`dead-data: ${file} does not validate`);
writeFileSync(file, module.emitBinary());
const bytes = dead.reduce((n, o) => n + o.end - o.start, 0);
console.log(`dead-data: ${locations.length} panic locations and paths and ${texts.length} texts (panics' messages) of ${file} no code names any more, ${bytes} bytes, dropped`);
