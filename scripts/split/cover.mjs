// Block coverage of the split's profile, to find the code a first call never runs inside the
// functions it does run, which the split, moving whole functions, keeps in the primary. Adds
// to a module that instrument.mjs wrote a report at the start of each `if` arm and after each
// nested block, loop or `if` in a block's list, through the import that reports a function's
// entry, numbered from MARKS_FROM up, and writes what each region holds: its function, the
// region it lies in, its size in expressions, the calls in it, and whether it could move into
// a function of its own as it is (`closed`) or with its exits coded (`movable`).
// scripts/build.sh marks the profile's module so, and cold-report.mjs and outline.mjs read the
// regions with the profile (target/split/regions.json and profile.json).
//   node scripts/split/cover.mjs <instrumented.wasm> <out.wasm> <regions.json>
import { readFileSync, writeFileSync } from "node:fs";
import { allFunctions, binaryen, definedFunctions, readModule } from "./binaryen.mjs";
import { MARKS_FROM } from "./cover-marks.mjs";
import { CHILD_KEYS, LEAVES, LIST_KEYS, each, outwardBranches } from "./expressions.mjs";

const [input, output, regionsPath] = process.argv.slice(2);
const module = readModule(readFileSync(input));
const B = binaryen;
// The import instrument.mjs added, as binaryen named it when it read the module back.
const MARK = allFunctions(module).find((f) => f.module === "__split" && f.base === "m").name;
const regions = [];

function size(expression) {
  let n = 0;
  each(expression, () => n++);
  return n;
}
// The callees named in a region, to tell where in the source it is.
function callees(expression, out = new Set()) {
  each(expression, (_, id, info) => {
    if (id === B.CallId && out.size < 6) out.add(info.target);
  });
  return out;
}

// Whether a region can be moved into a function of its own as it is: it never falls through
// (it returns or traps: the type of its last expression is unreachable) and branches to no
// label outside it.
function closed(list) {
  const last = list[list.length - 1];
  return Boolean(last) && B.getExpressionType(last) === B.unreachable && outwardBranches(list).length === 0;
}

// Whether an `if` arm could move into a function of its own with its exits coded: it
// gives no value, and its branches out of it carry none and are no br_table.
function movable(arm) {
  const type = B.getExpressionType(arm);
  return (type === B.none || type === B.unreachable) && outwardBranches([arm]).every((branch) => !branch.value && !branch.table);
}

function mark(fn, parent, measure) {
  const id = MARKS_FROM + regions.length;
  regions.push({ fn, parent, size: measure.reduce((n, e) => n + size(e), 0), closed: closed(measure), calls: [...measure.reduce((s, e) => callees(e, s), new Set())] });
  return { id, call: module.call(MARK, [module.i32.const(id)], B.none) };
}

// Adds the reports under `expression`, whose code lies in region `parent`.
function visit(expression, fn, parent) {
  const id = B.getExpressionId(expression);
  if (LEAVES.has(id)) return;
  const info = B.getExpressionInfo(expression);
  if (id === B.IfId) {
    visit(info.condition, fn, parent);
    for (const [key, setter] of [["ifTrue", "_BinaryenIfSetIfTrue"], ["ifFalse", "_BinaryenIfSetIfFalse"]]) {
      const arm = info[key];
      if (!arm) continue;
      const m = mark(fn, parent, [arm]);
      regions[m.id - MARKS_FROM].movable = movable(arm);
      visit(arm, fn, m.id);
      const type = B.getExpressionType(arm);
      B[setter](expression, module.block(null, [m.call, arm], type === B.unreachable ? undefined : type));
    }
    return;
  }
  if (id === B.BlockId) {
    const children = info.children;
    let region = parent;
    const inserts = [];
    children.forEach((child, i) => {
      const previous = i > 0 ? B.getExpressionId(children[i - 1]) : null;
      if (previous === B.BlockId || previous === B.LoopId || previous === B.IfId) {
        const m = mark(fn, region, children.slice(i));
        inserts.push([i, m.call]);
        region = m.id;
      }
      visit(child, fn, region);
    });
    for (const [i, call] of inserts.reverse()) B._BinaryenBlockInsertChildAt(expression, i, call);
    return;
  }
  const list = LIST_KEYS[id];
  if (list) for (const item of info[list]) visit(item, fn, parent);
  for (const key of CHILD_KEYS[id] ?? []) if (info[key]) visit(info[key], fn, parent);
}

definedFunctions(module).forEach((fn, ordinal) => {
  if (fn.name.startsWith("__split")) return;
  visit(fn.body, ordinal, -1 - ordinal);
});
if (!module.validate()) throw new Error("cover: the module does not validate");
writeFileSync(output, module.emitBinary());
writeFileSync(regionsPath, JSON.stringify({ names: definedFunctions(module).map((f) => f.name), regions }));
console.log(`cover: ${regions.length} regions`);
