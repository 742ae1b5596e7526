// The split's data step, once more on the optimised halves: text that the primary's final code
// does not reach moves into the rest.
//
// split.mjs decides where each static object goes from the primary's code as it is before
// wasm-opt runs on the halves, and moves only what the rest's code names exactly: an object no
// code names may be reached by arithmetic from a neighbour (data.mjs). wasm-opt then drops more
// of the primary (a panic's call that only traps no longer hands over its message), and the panic
// messages, which no code names exactly, stay in the primary though none of its code reaches them.
// For text alone this step lifts the rule of the exact name: an object of text that the optimised
// primary does not keep by data.mjs's rules (its constants with TEXT_SLACK, the pointers its kept
// data holds, the profile's reads) moves into the rest, which loads before OAuth or the validator
// can run. Were the rules ever wrong, the primary would read zeros, a wrong message and not a crash;
// an object that may hold a pointer stays.
//   node scripts/split/late-text.mjs <primary named> <primary shipped> <rest named> <rest shipped> <linker map> <profile.json>
// Each pair is the same module with and without names (scripts/build.sh), so they must hold the
// same data: the objects are found in the named primary and moved in all four files.
import { readFileSync, writeFileSync } from "node:fs";
import { readModule } from "./binaryen.mjs";
import { activeSegments, byteAt, isText, movedObjects, readMap, splitSegments } from "./data.mjs";
import { readName, readU32, rewriteSection, s32, u32 } from "../wasm-leb.mjs";

const [primaryNamed, primaryShipped, restNamed, restShipped, mapPath, profilePath] = process.argv.slice(2);
if (!profilePath) throw new Error("usage: node scripts/split/late-text.mjs <primary named> <primary shipped> <rest named> <rest shipped> <map> <profile.json>");

const DATA = 11;
const DATA_COUNT = 12;
const CUSTOM = 0;
// The name section's subsection that names data segments, which no longer match once they change.
const DATA_NAMES = 9;

/** A custom section's contents (from `start` to `end` in `wasm`) without the data segments' names, if it is the name section. */
function withoutDataNames(wasm, start, end) {
  const [name, first] = readName(wasm, start);
  if (name !== "name") return wasm.subarray(start, end);
  const parts = [wasm.subarray(start, first)];
  for (let at = first; at < end;) {
    const [size, body] = readU32(wasm, at + 1);
    if (wasm[at] !== DATA_NAMES) parts.push(wasm.subarray(at, body + size));
    at = body + size;
  }
  return Buffer.concat(parts);
}

/** `wasm` with its data section holding `segments` (active, memory 0) and its data count to match. */
function withSegments(wasm, segments) {
  const data = [u32(segments.length)];
  for (const { offset, data: content } of segments) {
    data.push(Buffer.from([0, 0x41]), s32(offset | 0), Buffer.from([0x0b]), u32(content.length), content);
  }
  let out = rewriteSection(wasm, DATA, () => Buffer.concat(data));
  out = rewriteSection(out, DATA_COUNT, () => u32(segments.length));
  return rewriteSection(out, CUSTOM, withoutDataNames);
}

const segmentsOf = (bytes) => activeSegments(readModule(bytes), "late-text");

const named = readFileSync(primaryNamed);
const namedModule = readModule(named);
const segments = activeSegments(namedModule, "late-text");
const objects = readMap(mapPath, segments, "late-text");
const touched = JSON.parse(readFileSync(profilePath, "utf8")).data ?? [];
const { loose } = movedObjects(objects, segments, namedModule.emitText(), touched);
const byte = (address) => byteAt(segments, address);
const moving = loose.filter((o) => isText(byte, o.start, o.end));
const { primary, rest: moved } = splitSegments(segments, moving);

// The shipped primary gets the named one's data: it must hold the same, segment for segment.
const shipped = readFileSync(primaryShipped);
const same = (a, b) => a.length === b.length && a.every((s, i) => s.offset === b[i].offset && Buffer.from(s.data).equals(Buffer.from(b[i].data)));
if (!same(segmentsOf(shipped), segments)) throw new Error(`late-text: ${primaryShipped} holds other data than ${primaryNamed}`);
writeFileSync(primaryNamed, withSegments(named, primary));
writeFileSync(primaryShipped, withSegments(shipped, primary));
for (const path of [restNamed, restShipped]) {
  const bytes = readFileSync(path);
  writeFileSync(path, withSegments(bytes, [...segmentsOf(bytes), ...moved]));
}
// Read back: the primary holds none of the moved bytes, and the rest holds them all.
for (const [primaryPath, restPath] of [[primaryNamed, restNamed], [primaryShipped, restShipped]]) {
  const [inPrimary, inRest] = [primaryPath, restPath].map((path) => segmentsOf(readFileSync(path)));
  for (const o of moving) {
    for (let a = o.start; a < o.end; a++) {
      if (byteAt(inPrimary, a) !== 0 || byteAt(inRest, a) !== byte(a)) throw new Error(`late-text: the move of ${o.start} into ${restPath} did not take`);
    }
  }
}
const length = moving.reduce((n, o) => n + o.end - o.start, 0);
console.log(`late-text: ${moving.length} texts, ${length} bytes, that the optimised primary does not reach, into the rest`);
