// scripts/split/outline.mjs moves an `if` arm the profile never took into a function of its own:
// the function with the arm moved must compute what it computed before, whichever way the arm
// leaves (falling through, branching out of its block, looping again, returning), with the
// locals it wrote written back. A small module is marked (cover.mjs), given a profile in which
// only the function's entry ran, outlined, and run both ways.
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
    (i32.add (local.get $acc) (local.get $x))))`;

const run = (script, ...args) => execFileSync(process.execPath, [path.resolve("scripts/split", script), ...args], { encoding: "utf8" });

test("an outlined cold arm leaves its function computing what it did", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "outline-"));
  const file = (name) => path.join(dir, name);
  const module = binaryen.parseText(WAT);
  module.setFeatures(binaryen.Features.All);
  writeFileSync(file("f.wasm"), module.emitBinary());
  run("cover.mjs", file("f.wasm"), file("marked.wasm"), file("regions.json"));
  // Only the function's entry ran: every arm of it is cold.
  writeFileSync(file("profile.json"), JSON.stringify({ ordinals: [0], data: [] }));
  const report = run("outline.mjs", file("f.wasm"), file("regions.json"), file("profile.json"), file("outlined.wasm"));
  assert.match(report, /outline: 1 cold arms/);

  const imports = { __split: { m: () => {} } };
  const load = (name) => new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file(name))), imports).exports.f;
  const [before, after] = [load("f.wasm"), load("outlined.wasm")];
  const outlined = binaryen.readBinary(readFileSync(file("outlined.wasm")));
  assert.equal(outlined.getNumFunctions(), 3, "the import, f, and the arm as a function of its own");
  for (const x of [0, 50, 200, 1000]) {
    for (const y of [0, 1, 2, 3, 4]) assert.equal(after(x, y), before(x, y), `f(${x}, ${y})`);
  }
});
