// The data half of the split (scripts/split/split.mjs): the static data only the rest
// reads moves into the rest, which writes it into the shared memory when it is
// instantiated. The linker's map (rust-lld's --Map, which scripts/build.sh asks for)
// names each static object: its address and size. An object stays in the primary when
// the primary can reach it:
// - a constant in the primary's code (an i32.const, a load's or store's offset, either
//   half of an i64.const, a lane of a v128.const) lies in it, or a few bytes before it
//   (SLACK, TEXT_SLACK below: LLVM may address neighbouring objects from one base, and a
//   loop may start from a pointer before an array) or at its end (one past it);
// - a 4-byte-aligned word of an object that stays holds an address in it (vtables,
//   string slices in statics, panic locations);
// - the profile's runs read or wrote it (the bytes instrument.mjs reports).
// An object moves only when, besides, the rest's code points into it (or into an object
// that points to it): an object no code names is reached by arithmetic from another,
// which may be the primary's (late-text.mjs lifts this for text, where zeros read by mistake
// are a wrong message, not a crash: the loose objects). Anything the map does not name stays
// too, and so does what a pointer in it points to. Data is
// read-only but for a few statics, and a moved one is one the primary never touches, so
// writing its first value when the rest loads is what the program would have seen.
import { readFileSync } from "node:fs";
import { dataSegments } from "./binaryen.mjs";

// How far after a constant of the primary's code an object stays. The eighteenth round saw
// the profile touch objects the constants missed, the farthest 24 bytes from one (LLVM
// addressing neighbouring objects from one base: one of two adjacent vtables chosen by adding
// 20), and kept 64 bytes; but the profile then reported 8-byte blocks, so an object that
// merely began in a block beside a touched one counted as touched. Reported byte by byte
// (5 December 2026), the profile's runs touch nothing the constants miss even with no slack
// at all. An object that holds pointers (a vtable, a table of slots) keeps 32 bytes, more than
// that old 24, since a pointer read from zeros calls slot 0 and traps; text keeps 8, since
// text read from zeros is wrong text, not a crash. Before a constant, an object is reached
// only by a pointer one past its end (a slice's end, a loop that runs backwards): wasm's offsets
// add, so a pointer further past the end would be a constant inside the object or at its end.
// Together: 5.3 KB of data that merely neighboured the primary's out of it, 2.3 KB gzip
// ("Twenty-fourth round").
const SLACK = 32;
const TEXT_SLACK = 8;

/** The byte at `address` in `segments` ({ offset, data }); 0 outside them, as memory starts. */
export function byteAt(segments, address) {
  for (const s of segments) if (address >= s.offset && address < s.offset + s.data.length) return s.data[address - s.offset];
  return 0;
}

/** The little-endian 32-bit word at `address` in `segments`. */
function wordAt(segments, address) {
  const byte = (a) => byteAt(segments, a);
  return (byte(address) | (byte(address + 1) << 8) | (byte(address + 2) << 16) | (byte(address + 3) << 24)) >>> 0;
}

/** Whether one of the ascending `values` lies in [lo, hi]. */
function anyBetween(values, lo, hi) {
  let l = 0, h = values.length;
  while (l < h) {
    const m = (l + h) >> 1;
    if (values[m] < lo) l = m + 1;
    else h = m;
  }
  return l < values.length && values[l] <= hi;
}

/** Whether the bytes from `start` to `end` are text alone (printable ASCII, tabs, line feeds and UTF-8's upper bytes): no pointer. */
export function isText(byte, start, end) {
  for (let a = start; a < end; a++) {
    const b = byte(a);
    if (!((b >= 0x20 && b !== 0x7f) || b === 0x0a || b === 0x09)) return false;
  }
  return end > start;
}

/** Every 4-byte-aligned word of `segments` ({ offset, data }): where vtables and slices keep their pointers. */
export function dataWords(segments) {
  const words = [];
  for (const { offset, data } of segments) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let at = (4 - (offset % 4)) % 4; at + 4 <= data.byteLength; at += 4) words.push(view.getUint32(at, true));
  }
  return words;
}

/** A module's data segments as { offset, data } copies that the data steps edit; all must be active. */
export function activeSegments(module, who) {
  return dataSegments(module).map((info) => {
    if (info.passive) throw new Error(`${who}: data segment ${info.name} is passive; expected active segments only`);
    return { offset: info.offset, data: new Uint8Array(info.data) };
  });
}

/**
 * The objects of the linker's map at `mapPath`, which must describe the data in `segments`: a map
 * of another link would move or drop the wrong bytes. Its objects start where the data does and
 * end within it (or in the zeros after it, which no segment holds).
 */
export function readMap(mapPath, segments, who) {
  const objects = mapObjects(readFileSync(mapPath, "utf8"));
  const low = Math.min(...segments.map((s) => s.offset));
  if (!objects.length || objects[0].start !== low) throw new Error(`${who}: ${mapPath} does not describe this module's data (its first object is not at ${low})`);
  return objects;
}

/** The data objects a rust-lld map names, as [start, end) address ranges, in address order. */
export function mapObjects(mapText) {
  const objects = [];
  for (const line of mapText.split("\n")) {
    // "    Addr      Off     Size Out     In": an input section's line ends in "file:(section)".
    const m = line.match(/^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S.*:\((\.(?:rodata|data)[^)]*)\)\s*$/);
    if (!m) continue;
    const start = parseInt(m[1], 16);
    const size = parseInt(m[2], 16);
    if (size > 0) objects.push({ start, end: start + size });
  }
  objects.sort((a, b) => a.start - b.start);
  return objects;
}

// Every number in the module's text that could be an address: see the list above.
export function codeConstants(text) {
  const out = [];
  for (const line of text.split("\n")) {
    if (line.startsWith(" (data ")) continue; // a segment's own offset is no reference
    for (const m of line.matchAll(/i32\.const (-?\d+)|offset=(\d+)/g)) out.push(Number(BigInt.asUintN(32, BigInt(m[1] ?? m[2]))));
    for (const m of line.matchAll(/i64\.const (-?\d+)/g)) {
      const v = BigInt.asUintN(64, BigInt(m[1]));
      out.push(Number(v & 0xffffffffn), Number(v >> 32n));
    }
    for (const m of line.matchAll(/v128\.const i32x4 ((?:\S+\s*){4})/g)) {
      for (const lane of m[1].trim().split(/\s+/)) out.push(Number(BigInt.asUintN(32, BigInt(lane.replace(/\)+$/, "")))));
    }
  }
  return out;
}

/**
 * The panics' static locations that no code passes any more, and the source paths only
 * they named: scripts/trap-panics.mjs made the panic entry points trap, and -Oz dropped
 * the location every call site handed them. A location is a 16-byte object (the file as
 * a pointer and a length, the line, the column) whose file is a string object ending in
 * `.rs`; it is dead when no constant of either half's code (`texts`) lies in it and no
 * other object points into it. A path is dead when no constant lies in it and only dead
 * locations point to it. Returns the dead objects, which hold bytes nothing can read.
 */
export function deadPanicLocations(objects, segments, texts) {
  const byte = (address) => byteAt(segments, address);
  const word = (address) => wordAt(segments, address);
  // Whether one of the sorted `addresses` lies in the object `o`.
  const liesIn = (addresses, o) => anyBetween(addresses, o.start, o.end - 1);
  const constants = texts.flatMap(codeConstants).sort((a, b) => a - b);
  const named = (o) => liesIn(constants, o);
  const index = new Map(objects.map((o, i) => [o.start, i]));
  const endsInRs = (start, length) => length > 3 && length < 512
    && [0x2e, 0x72, 0x73].every((c, k) => byte(start + length - 3 + k) === c);
  const locations = new Set();
  objects.forEach((o, i) => {
    if (o.end - o.start !== 16 || named(o)) return;
    const file = index.get(word(o.start));
    if (file !== undefined && word(o.start + 4) <= objects[file].end - objects[file].start && endsInRs(word(o.start), word(o.start + 4))) locations.add(i);
  });
  // Pointers held by every object that stays: into a location keeps it; into a path keeps it.
  const pointers = [];
  objects.forEach((o, i) => {
    if (locations.has(i)) return;
    for (let a = o.start + ((4 - (o.start % 4)) % 4); a + 4 <= o.end; a += 4) pointers.push(word(a));
  });
  pointers.sort((a, b) => a - b);
  const within = (o) => liesIn(pointers, o);
  const dead = new Set();
  const paths = new Set();
  for (const i of locations) {
    if (within(objects[i])) continue;
    dead.add(i);
    paths.add(index.get(word(objects[i].start)));
  }
  for (const i of paths) if (!named(objects[i]) && !within(objects[i])) dead.add(i);
  return [...dead].sort((a, b) => a - b).map((i) => objects[i]);
}

// How far from any constant of the code an object of text must lie for deadTexts to drop it:
// twice the farthest neighbour LLVM was seen to address from one base (24 bytes, SLACK above).
const FAR = 64;

/**
 * The objects of text nothing reads: no constant of either half's code (`texts`) within FAR
 * bytes of them, no word of the data pointing into them, none of the profile's runs touching
 * them (`touched`). What is left of this kind is the panics' messages ("assertion failed: …",
 * "called `Option::unwrap()` on a `None` value"): scripts/trap-panics.mjs made every panic
 * trap before its message is read, and -Oz dropped what handed the message on. Only text
 * goes: were the analysis ever wrong, the bytes read would be zeros, a wrong message and not
 * a crash, as TEXT_SLACK says; an object that may hold a pointer stays whatever names it.
 */
export function deadTexts(objects, segments, texts, touched = []) {
  const byte = (address) => byteAt(segments, address);
  const sorted = (list) => Float64Array.from(list).sort();
  const constants = sorted(texts.flatMap(codeConstants));
  const words = sorted(dataWords(segments));
  const reads = sorted(touched);
  return objects.filter((o) => isText(byte, o.start, o.end)
    && !anyBetween(constants, o.start - FAR, o.end + FAR)
    && !anyBetween(words, o.start, o.end)
    && !anyBetween(reads, o.start, o.end - 1));
}

/**
 * Decides which objects move. `segments` are the primary's active data segments
 * ({ offset, data }); `text` is the primary's code as binaryen prints it; `touched` the
 * addresses of the static data the profile's runs read or wrote. Returns the objects that
 * move, those only the touched bytes kept (references the analysis of the code missed), those
 * the code of `text` keeps, with the same slack as the primary's, and the loose ones: objects of
 * bytes other than zeros that neither the primary keeps nor the rest's code names.
 */
export function movedObjects(objects, segments, text, touched = [], restText = "") {
  const byte = (address) => byteAt(segments, address);
  const word = (address) => wordAt(segments, address);
  const low = Math.min(...segments.map((s) => s.offset));
  const high = Math.max(...segments.map((s) => s.offset + s.data.length));
  // The objects within `slack` bytes of an address, by binary search over their starts.
  const longest = Math.max(...objects.map((o) => o.end - o.start));
  const near = (address, slack) => {
    const found = [];
    let lo = 0, hi = objects.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (objects[mid].start <= address + slack) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0 && objects[i].start >= address - slack - longest; i--) {
      if (address > objects[i].end) continue;
      if (objects[i].start > address + Math.min(slack, textual(i) ? TEXT_SLACK : slack)) continue;
      found.push(i);
    }
    return found;
  };
  // Whether an object holds text alone: no pointer.
  const texts = new Map();
  const textual = (i) => {
    if (!texts.has(i)) texts.set(i, isText(byte, objects[i].start, objects[i].end));
    return texts.get(i);
  };
  // The objects reachable from `roots` (addresses, each with a slack) through the
  // pointers the reached objects hold.
  const reach = (set, roots) => {
    const queue = [];
    const add = (address, slack) => {
      if (address < low - slack || address > high + slack) return;
      for (const i of near(address, slack)) if (!set.has(i)) { set.add(i); queue.push(i); }
    };
    for (const [address, slack] of roots) add(address, slack);
    while (queue.length) {
      const { start, end } = objects[queue.pop()];
      for (let a = start + ((4 - (start % 4)) % 4); a + 4 <= end; a += 4) {
        add(word(a), 0);
      }
    }
    return set;
  };
  // Bytes the map does not name stay, and a pointer among them keeps what it points to.
  const covered = new Uint8Array(high - low);
  for (const o of objects) covered.fill(1, Math.max(0, o.start - low), Math.max(0, Math.min(high, o.end) - low));
  const unnamed = [];
  for (let a = low + ((4 - (low % 4)) % 4); a + 4 <= high; a += 4) {
    if (covered[a - low] && covered[a + 3 - low]) continue;
    unnamed.push([word(a), 0]);
  }
  const kept = reach(new Set(), [...codeConstants(text).map((c) => [c, SLACK]), ...unnamed]);
  // What the profile's runs touched stays whatever the code says; an object only they
  // found is a reference the analysis above missed, reported by the caller.
  const found = new Set(kept);
  reach(kept, touched.map((address) => [address, 0]));
  const named = reach(new Set(), codeConstants(restText).map((c) => [c, 0]));
  const zeros = (o) => {
    for (let a = o.start; a < o.end; a++) if (byte(a) !== 0) return false;
    return true;
  };
  // All zeros: nothing to move.
  const moved = objects.filter((o, i) => !kept.has(i) && named.has(i) && !zeros(o));
  return {
    moved,
    loose: objects.filter((o, i) => !kept.has(i) && !named.has(i) && !zeros(o)),
    missed: [...kept].filter((i) => !found.has(i)).sort((a, b) => a - b).map((i) => objects[i]),
    kept: [...found].map((i) => objects[i]),
  };
}

/**
 * The primary's segments without the moved bytes (split at runs of 16 zeros, which need no
 * segment), and the rest's: one per run of adjacent moved objects.
 */
export function splitSegments(segments, moved) {
  const primary = [];
  for (const s of segments) {
    const data = Uint8Array.from(s.data);
    for (const o of moved) {
      for (let a = Math.max(o.start, s.offset); a < Math.min(o.end, s.offset + data.length); a++) data[a - s.offset] = 0;
    }
    for (let i = 0; i < data.length;) {
      while (i < data.length && data[i] === 0) i++;
      if (i === data.length) break;
      const start = i;
      let end = i;
      for (let zeros = 0; i < data.length && zeros < 16; i++) {
        if (data[i] === 0) zeros++;
        else zeros = 0, end = i + 1;
      }
      primary.push({ offset: s.offset + start, data: data.subarray(start, end) });
    }
  }
  const rest = [];
  for (const o of moved) {
    const last = rest.at(-1);
    const bytes = Array.from({ length: o.end - o.start }, (_, k) => byteAt(segments, o.start + k));
    if (last && last.offset + last.bytes.length === o.start) last.bytes.push(...bytes);
    else rest.push({ offset: o.start, bytes });
  }
  return { primary, rest: rest.map(({ offset, bytes }) => ({ offset, data: Uint8Array.from(bytes) })) };
}
