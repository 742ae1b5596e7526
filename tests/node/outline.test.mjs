// scripts/split/outline.mjs moves an `if` arm or a block's tail the profile never ran into a
// function of its own: the function with the region moved must compute what it computed before,
// whichever way the region leaves (falling through, branching out of its block, looping again,
// returning, giving a value), with the locals it wrote written back. A small module is marked
// (cover.mjs), given a profile in which only the functions' entries ran, outlined, and run both
// ways.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import binaryen from "binaryen";

const WAT = `(module
  (import "__split" "m" (func $mark (param i32)))
  (func $f (export "f") (param $x i32) (param $y i32) (result i32)
    (local $acc i32)
    (local.set $acc (i32.const 1))
    (block $out
      (loop $again
        (if (i32.gt_s (local.get $x) (i32.const 100))
          (then
            (local.set $acc (i32.add (local.get $acc) (local.get $x)))
            (if (i32.eq (local.get $y) (i32.const 1)) (then (br $out)))
            (if (i32.eq (local.get $y) (i32.const 2)) (then (return (i32.mul (local.get $acc) (i32.const 3)))))
            (if (i32.eq (local.get $y) (i32.const 3)) (then (local.set $x (i32.const 5)) (br $again)))
            (local.set $acc (i32.sub (local.get $acc) (i32.const 7)))))))
    (i32.add (local.get $acc) (local.get $x)))
  (func $g (export "g") (param $x i32) (param $y i32) (result i32)
    (local $acc i32)
    (block $done
      (block $cold
        (br_if $cold (i32.gt_s (local.get $x) (i32.const 100)))
        (local.set $acc (i32.const 1))
        (br $done))
      (local.set $acc (i32.mul (local.get $x) (i32.const 2)))
      (br_if $done (i32.eq (local.get $y) (i32.const 1)))
      (if (i32.eq (local.get $y) (i32.const 2)) (then (return (i32.const 77))))
      (local.set $acc (i32.add (local.get $acc) (local.get $y))))
    (i32.add (local.get $acc) (i32.const 1000)))
  (func $h (export "h") (param $x i32) (param $y i32) (result i32)
    (local $acc i32)
    (local.set $acc (i32.const 3))
    (i32.add
      (if (result i32) (i32.gt_s (local.get $x) (i32.const 100))
        (then
          (local.set $acc (i32.mul (local.get $x) (local.get $y)))
          (if (i32.eq (local.get $y) (i32.const 2)) (then (return (i32.const 55))))
          (i32.add (local.get $acc) (i32.const 9)))
        (else (local.get $y)))
      (local.get $acc)))
  (func $k (export "k") (param $x i32) (param $y i32) (result i32)
    (local $acc i32)
    (block $b (result i32)
      (block $inner
        (br_if $inner (i32.gt_s (local.get $x) (i32.const 100)))
        (local.set $acc (i32.const 4))
        (br $b (local.get $acc)))
      (local.set $acc (i32.add (local.get $x) (local.get $y)))
      (i32.mul (local.get $acc) (i32.sub (local.get $y) (i32.const 1)))))
  (func $d (export "d") (param $x i32) (param $y i32) (result i32)
    (local $t i32)
    (local $acc i32)
    (local.set $acc (i32.const 1))
    (if (i32.gt_s (local.get $x) (i32.const 100))
      (then
        (local.set $t (i32.mul (local.get $x) (i32.const 3)))
        (local.set $acc (i32.add (local.get $t) (local.get $y)))
        (local.set $t (i32.sub (local.get $t) (i32.const 1)))))
    (i32.add (local.get $acc) (i32.const 5))))`;

const run = (script, ...args) => execFileSync(process.execPath, [path.resolve("scripts/split", script), ...args], { encoding: "utf8" });

test("an outlined cold arm or block tail leaves its function computing what it did", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "outline-"));
  const file = (name) => path.join(dir, name);
  // With the functions' names, which the outlined ones are named after.
  binaryen.setDebugInfo(true);
  const module = binaryen.parseText(WAT);
  module.setFeatures(binaryen.Features.All);
  writeFileSync(file("f.wasm"), module.emitBinary());
  run("cover.mjs", file("f.wasm"), file("marked.wasm"), file("regions.json"));
  // Only the functions' entries ran: every arm and tail of them is cold.
  writeFileSync(file("profile.json"), JSON.stringify({ ordinals: [0, 1, 2, 3, 4], data: [] }));
  const report = run("outline.mjs", file("f.wasm"), file("regions.json"), file("profile.json"), file("outlined.wasm"));
  // f's arm, g's tail; h's arm and k's tail, which give a value; d's arm.
  assert.match(report, /outline: 5 cold regions \(2 of them blocks' tails;/);

  const imports = { __split: { m: () => {} } };
  const load = (name) => new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file(name))), imports).exports;
  const [before, after] = [load("f.wasm"), load("outlined.wasm")];
  const outlined = binaryen.readBinary(readFileSync(file("outlined.wasm")));
  assert.equal(outlined.getNumFunctions(), 11, "the import, f, g, h, k, d, and the arms and the tails as functions of their own");
  // d's arm writes $t and $acc, and only $acc is read after it: the exit code and $acc come back.
  const results = binaryen.expandType(binaryen.getFunctionInfo(outlined.getFunction("d$cold0")).results);
  assert.equal(results.length, 2, "a local no code after the region reads is not written back");
  for (const fn of ["f", "g", "h", "k", "d"]) {
    for (const x of [0, 50, 200, 1000]) {
      for (const y of [0, 1, 2, 3, 4]) assert.equal(after[fn](x, y), before[fn](x, y), `${fn}(${x}, ${y})`);
    }
  }
});
