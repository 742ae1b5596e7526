// scripts/split/data.mjs, on made-up modules: which static objects the primary can reach,
// and the segments each half gets. The real module's split is tested by running it
// (split.test.mjs and every tier that loads the package).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mapObjects, movedObjects, splitSegments } from "../../scripts/split/data.mjs";
import { unreachableSlots } from "../../scripts/split/slots.mjs";

const MAP = `    Addr      Off     Size Out     In      Symbol
       -    bb63e     ad83 DATA
  100000    bb63f       30 .rodata
  100000    bb649       10         /x/a.o:(.rodata..Lanon.1)
  100010    bb659       10         /x/a.o:(.rodata..Lanon.2)
                                           _ZN1a3fooE
  100020    bb669        8         <internal>:(.rodata)
  100040    bb689       10         /x/a.o:(.data.counter)
  100050    bb699       10         /x/a.o:(.rodata..Lanon.3)
  100100    bb799      100         /x/a.o:(.bss.zeroes)`;

const word = (n) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

test("the map names each data object, not .bss, not symbols", () => {
  assert.deepEqual(mapObjects(MAP).map((o) => [o.start.toString(16), o.end - o.start]),
    [["100000", 16], ["100010", 16], ["100020", 8], ["100040", 16], ["100050", 16]]);
});

test("an object stays where code or a kept object points into or near it; the rest moves", () => {
  const objects = mapObjects(MAP);
  const data = new Uint8Array(0x60).fill(7);
  data.set(word(0x100054), 0x10); // Lanon.2 holds a pointer into Lanon.3
  const segments = [{ offset: 0x100000, data }];
  // The rest's code names every object but .data.counter, unless told otherwise.
  const REST = [0x100004, 0x100014, 0x100024, 0x100054].map((a) => `(i32.const ${a})`).join(" ");
  const code = (text, touched, rest = REST) => movedObjects(objects, segments, text, touched, rest).moved.map((o) => o.start.toString(16));
  // Nothing in the primary's code: everything the rest's names moves; .data.counter, which no code names, stays.
  assert.deepEqual(code("(i32.const 0)"), ["100000", "100010", "100020", "100050"]);
  // A constant inside Lanon.2 keeps it and, through its word, Lanon.3; the slack keeps the
  // objects up to 32 bytes on (the <internal> one); Lanon.1, which ends 4 bytes before it, and
  // .data.counter, 44 bytes on, move when the rest names them.
  assert.deepEqual(code("(i32.load offset=1048596 (local.get $0))", [], REST + " (i32.const 1048640)"), ["100000", "100040"]);
  // Text keeps less slack: 8 bytes.
  const text = new Uint8Array(0x60).fill(0x61);
  const inText = (constant) => movedObjects(objects, [{ offset: 0x100000, data: text }], `(i32.const ${constant})`, [], REST).moved.map((o) => o.start.toString(16));
  assert.deepEqual(inText(0x100000 - 8), ["100010", "100020", "100050"]);
  assert.deepEqual(inText(0x100000 - 9), ["100000", "100010", "100020", "100050"]);
  // An i64's halves: the high half points into .data.counter, which keeps the neighbour after it
  // within the slack; those 28 bytes and more below it move (only a pointer to its end reaches one from above).
  assert.deepEqual(code(`(i64.const ${(0x100044n << 32n) | 5n})`), ["100000", "100010", "100020"]);
  // A pointer one past an object's end keeps it, and the objects within the slack after it; a
  // pointer 8 bytes past it does not.
  assert.deepEqual(code("(i32.const 1048616)"), ["100000", "100010", "100050"]);
  assert.deepEqual(code("(i32.const 1048624)"), ["100000", "100010", "100020"]);
  // Far from everything, a constant keeps nothing.
  assert.deepEqual(code("(i32.const 1050000)"), ["100000", "100010", "100020", "100050"]);
  // A byte the profile touched keeps its object, and says the analysis missed it.
  assert.deepEqual(code("(i32.const 0)", [0x100053]), ["100000", "100010", "100020"]);
  assert.deepEqual(movedObjects(objects, segments, "(i32.const 0)", [0x100053], REST).missed.map((o) => o.start.toString(16)), ["100050"]);
  // A segment's own offset is no reference.
  assert.deepEqual(code(" (data $0 (i32.const 1048576) \"\")"), ["100000", "100010", "100020", "100050"]);
});

test("the loose objects: neither kept by the primary nor named by the rest (what late-text.mjs moves, if text)", () => {
  const objects = mapObjects(MAP);
  const data = new Uint8Array(0x60).fill(7);
  const segments = [{ offset: 0x100000, data }];
  const loose = (text, rest, touched = []) => movedObjects(objects, segments, text, touched, rest).loose.map((o) => o.start.toString(16));
  // The rest names Lanon.1 (it moves, not loose); the primary's constant keeps Lanon.2 and the
  // <internal> object within its slack; .data.counter and Lanon.3 nobody names.
  assert.deepEqual(loose("(i32.const 1048596)", "(i32.const 1048576)"), ["100040", "100050"]);
  // A touched byte keeps its object; all zeros are nothing to move.
  assert.deepEqual(loose("(i32.const 1048596)", "(i32.const 1048576)", [0x100041]), ["100050"]);
  data.fill(0, 0x50, 0x60);
  assert.deepEqual(loose("(i32.const 1048596)", "(i32.const 1048576)", [0x100041]), []);
});

test("the halves: zeroed bytes leave the primary's segments, runs of moved objects make the rest's", () => {
  const data = new Uint8Array(0x60).fill(1);
  const { primary, rest } = splitSegments([{ offset: 0x100000, data }], [{ start: 0x100000, end: 0x100010 }, { start: 0x100010, end: 0x100020 }, { start: 0x100050, end: 0x100060 }]);
  assert.deepEqual(rest.map((s) => [s.offset.toString(16), s.data.length]), [["100000", 32], ["100050", 16]]);
  assert.deepEqual(primary.map((s) => [s.offset.toString(16), s.data.length]), [["100020", 48]]);
  assert.ok(primary[0].data.every((b) => b === 1));
});

test("a slot of a moved function that no constant of the primary's code and no word of its data holds needs no stub", () => {
  const segments = [{ offset: 1, names: ["a", "b", "c", "d"] }, { offset: 10, names: ["e", "f"] }];
  const moved = new Set(["b", "c", "d", "f"]);
  // Slot 3 (c) is a constant of the code, slot 11 (f) a half of an i64; slot 4 (d) a word of the data, at an aligned address.
  const text = `(call $x (i32.const 3)) (i64.store (local.get $0) (i64.const ${(11n << 32n) | 99n}))`;
  // Slot 2 (b) is in the data only at an unaligned address, where no table of slots lies.
  const data = [{ offset: 0x100000, data: Uint8Array.from([...word(4), 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]) }];
  assert.deepEqual([...unreachableSlots(segments, moved, text, data)], [2]);
  // Functions that stayed (a, e) keep their slots whatever names them.
  assert.deepEqual([...unreachableSlots(segments, new Set(), "", [])], []);
});
