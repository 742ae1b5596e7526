// Moves the cold regions of the functions a first call runs into functions of their own, so
// that the split (split.mjs) leaves them in the rest: the split moves whole functions, and a
// branch the profile never took stays in the primary with the function that has it.
//
// The regions are cover.mjs's, numbered by the same walk over this module (the profile ran the
// instrumented copy, whose walk meets the same `if`s and blocks in the same order: a function
// whose count of regions differs is left alone): `if` arms, and the tails of blocks (the code
// after a nested block, loop or `if`, to the block's end). A region moves when the profile
// entered its function and the region it lies in but not the region itself, nor did the runs
// made while the rest cannot load (profile.mjs's guard); when it gives nothing or one number;
// and when its branches out of it carry no value and are no `br_table`. The new function takes
// every local the region uses and returns an exit code, the locals it writes, the function's
// result when it returns and the region's value when it falls through; the region becomes a
// call that writes the locals back and branches, returns or falls through (with its value) as
// the code says. scripts/build.sh splits the module this writes (bench/analysis.md,
// "Twenty-fourth round"); tests/node/outline.test.mjs holds what it does to a function.
//   node scripts/split/outline.mjs <core.wasm> <regions.json> <profile.json> <out.wasm>
import { readFileSync, writeFileSync } from "node:fs";
import { binaryen, definedFunctions, readModule } from "./binaryen.mjs";
import { MARKS_FROM } from "./cover-marks.mjs";
import { CHILD_KEYS, LEAVES, LIST_KEYS, each, outwardBranches } from "./expressions.mjs";
import { walk } from "./walk.mjs";

const B = binaryen;
// Regions smaller than this cost more as a call than they save (on the core of 5 December 2026,
// the first call's gzip at 4, 6, 8, 10, 14 and 20: 91,167, 90,902, 90,797, 90,870, 91,099, 91,558).
const MIN_SIZE = 8;
const [input, regionsPath, profilePath, output] = process.argv.slice(2);
if (!output) throw new Error("usage: node scripts/split/outline.mjs <core.wasm> <regions.json> <profile.json> <out.wasm>");
const module = readModule(readFileSync(input));
const { regions } = JSON.parse(readFileSync(regionsPath, "utf8"));
const profile = JSON.parse(readFileSync(profilePath, "utf8"));
const seen = new Set(profile.ordinals);
// The regions a page runs while the rest cannot load or has not yet (profile.mjs, runGuarded)
// count as run: moved, they would load the rest when it cannot be, or in the middle of a call.
const guarded = new Set(profile.guard ?? []);
const ran = (i) => (i < 0 ? seen.has(-1 - i) : seen.has(MARKS_FROM + i) || guarded.has(MARKS_FROM + i));
const parentIndex = (parent) => (parent >= MARKS_FROM ? parent - MARKS_FROM : parent);


const size = (expression) => {
  let n = 0;
  each(expression, () => n++);
  return n;
};

// What a region (its list of expressions) uses: its locals, those it writes, where it branches
// out, whether it returns.
function survey(list) {
  const used = new Set();
  const written = new Set();
  let returns = false;
  for (const expression of list) {
    each(expression, (e, id, info) => {
      if (id === B.LocalGetId) used.add(B.getExpressionInfo(e).index);
      else if (id === B.LocalSetId) {
        used.add(info.index);
        written.add(info.index);
      } else if (id === B.ReturnId) returns = true;
    });
  }
  const branches = outwardBranches(list);
  return {
    used: [...used].sort((a, b) => a - b),
    written: [...written].sort((a, b) => a - b),
    out: [...new Set(branches.map((branch) => branch.name))],
    returns,
    movable: branches.every((branch) => !branch.value && !branch.table),
  };
}

const ZERO = {
  [B.i32]: () => module.i32.const(0),
  [B.i64]: () => module.i64.const(0n),
  [B.f32]: () => module.f32.const(0),
  [B.f64]: () => module.f64.const(0),
};

// The locals that code after `region` (an expression of `body`) may read: binaryen's code is
// structured, so what runs after a region lies after it in the order of the walk, unless a loop
// around it goes back, in which case the outermost such loop runs again whole. Reads in arms
// that cannot both run, and reads after a write, count too: never fewer than may be read.
function liveAfter(body, region) {
  let index = 0;
  let start = -1;
  const loops = [];
  const reads = [];
  each(body, (expression, id, info) => {
    if (expression === region) start = index;
    if (id === B.LoopId) loops.push([index, size(expression)]);
    else if (id === B.LocalGetId) reads.push([index, B.getExpressionInfo(expression).index]);
    index++;
  });
  if (start < 0) throw new Error("outline: a region is not in its function");
  const end = start + size(region);
  const from = Math.min(end, ...loops.filter(([at, n]) => at < start && at + n >= end).map(([at]) => at));
  return new Set(reads.filter(([at]) => at >= from && (at < start || at >= end || from < start)).map(([, local]) => local));
}

let moved = 0;
let movedSize = 0;
let tails = 0;
// Whether a region `survey` describes can move out of a function like `fnInfo`: its branches out
// carry no value and are no br_table, and a return's values can be given back.
function canMove(fnInfo, { movable, returns }) {
  return movable && !(returns && B.expandType(fnInfo.results).some((t) => !ZERO[t]));
}

// Moves `arm` (an expression that gives no value, or one number) into a function of its own;
// `install` puts the call that replaces it where it was; `surveyed` is its survey, if taken.
function outline(fnRef, fnInfo, arm, install, index, surveyed = survey([arm])) {
  const armType = B.getExpressionType(arm);
  const valueType = armType === B.none || armType === B.unreachable ? null : armType;
  if (valueType !== null && !ZERO[valueType]) return false;
  const localTypes = [...B.expandType(fnInfo.params), ...fnInfo.vars];
  const resultTypes = B.expandType(fnInfo.results);
  if (!canMove(fnInfo, surveyed)) return false;
  const { used, written: writes, out, returns } = surveyed;
  // Only the locals read after the region need writing back (liveAfter).
  const live = liveAfter(fnInfo.body, arm);
  const written = writes.filter((local) => live.has(local));
  const slot = new Map(used.map((local, i) => [local, i]));
  const exits = new Map(out.map((name, i) => [name, i + 1]));
  const RET = out.length + 1;
  const results = [B.i32, ...written.map((local) => localTypes[local]), ...(returns ? resultTypes : []), ...(valueType ? [valueType] : [])];
  const resultType = B.createType(results);
  const tuple = results.length > 1;
  // The new function's params are the arm's locals in order; a return's value goes through a var
  // after them, and the value the arm gives when it falls through through the next.
  const returnVar = used.length;
  const valueVar = used.length + (returns ? 1 : 0);
  const finish = (code, returned, value) => {
    const values = [module.i32.const(code), ...written.map((local) => module.local.get(slot.get(local), localTypes[local]))];
    if (returns) values.push(...(returned ?? resultTypes.map((t) => ZERO[t]())));
    if (valueType) values.push(value ?? ZERO[valueType]());
    return tuple ? module.tuple.make(values) : values[0];
  };
  const body = walk(module.copyExpression(arm), (expression, { id }) => {
    // Read anew: walk.mjs hands over what the expression held before its children were replaced.
    const info = LEAVES.has(id) ? { id } : B.getExpressionInfo(expression);
    if (id === B.LocalGetId) {
      B._BinaryenLocalGetSetIndex(expression, slot.get(B.getExpressionInfo(expression).index));
    } else if (id === B.LocalSetId) {
      B._BinaryenLocalSetSetIndex(expression, slot.get(info.index));
    } else if (id === B.BreakId && exits.has(info.name)) {
      const leave = module.return(finish(exits.get(info.name)));
      return info.condition ? module.if(info.condition, leave) : leave;
    } else if (id === B.ReturnId) {
      if (!info.value) return module.return(finish(RET, []));
      if (resultTypes.length !== 1) throw new Error("outline: a multi-value return");
      return module.block(null, [module.local.set(returnVar, info.value), module.return(finish(RET, [module.local.get(returnVar, resultTypes[0])]))]);
    }
    return undefined;
  });
  const name = `${fnInfo.name}$cold${index}`;
  const params = B.createType(used.map((local) => localTypes[local]));
  const vars = [...(returns ? [resultTypes[0]] : []), ...(valueType ? [valueType] : [])];
  const tail = armType === B.unreachable ? [body]
    : valueType ? [module.local.set(valueVar, body), finish(0, undefined, module.local.get(valueVar, valueType))]
      : [body, finish(0)];
  module.addFunction(name, params, resultType, vars, module.block(null, tail, resultType));

  // The arm becomes a call, then the locals written back, then its exit.
  const t = B._BinaryenFunctionAddVar(fnRef, resultType);
  const code = () => (tuple ? module.tuple.extract(module.local.get(t, resultType), 0) : module.local.get(t, B.i32));
  const steps = [module.local.set(t, module.call(name, used.map((local) => module.local.get(local, localTypes[local])), resultType))];
  written.forEach((local, i) => steps.push(module.local.set(local, module.tuple.extract(module.local.get(t, resultType), i + 1))));
  for (const [label, k] of exits) steps.push(module.br(label, module.i32.eq(code(), module.i32.const(k))));
  if (returns) {
    const value = resultTypes.length ? module.tuple.extract(module.local.get(t, resultType), 1 + written.length) : undefined;
    steps.push(module.if(module.i32.eq(code(), module.i32.const(RET)), module.return(value)));
  }
  if (armType === B.unreachable) steps.push(module.unreachable());
  if (valueType) steps.push(module.tuple.extract(module.local.get(t, resultType), results.length - 1));
  const replacement = module.block(null, steps, armType === B.unreachable ? B.unreachable : valueType ?? B.none);
  install(replacement);
  moved++;
  movedSize += size(arm);
  return true;
}

// cover.mjs's walk, numbering the same regions; the arms to move are noted, then moved.
let next = 0;
function visit(expression, found) {
  const id = B.getExpressionId(expression);
  if (LEAVES.has(id)) return;
  const info = B.getExpressionInfo(expression);
  if (id === B.IfId) {
    visit(info.condition, found);
    for (const key of ["ifTrue", "ifFalse"]) {
      if (!info[key]) continue;
      found.push({ index: next++, ifExpr: expression, key });
      visit(info[key], found);
    }
    return;
  }
  if (id === B.BlockId) {
    info.children.forEach((child, i) => {
      const previous = i > 0 ? B.getExpressionId(info.children[i - 1]) : null;
      if (previous === B.BlockId || previous === B.LoopId || previous === B.IfId) found.push({ index: next++, block: expression, at: i });
      visit(child, found);
    });
    return;
  }
  const list = LIST_KEYS[id];
  if (list) for (const item of info[list]) visit(item, found);
  for (const key of CHILD_KEYS[id] ?? []) if (info[key]) visit(info[key], found);
}

// A future's `poll` (and a stream's `poll_next`) takes one branch when what it waits for is there
// and another when it is not yet: which one a call meets depends on timing, not on rarity, so a
// profile that never saw one proves nothing (a oneshot receiver polled after its value had come
// was outlined once, and a first call in CI loaded the rest). Their regions stay, and so do those
// of the executor that runs them (`js_sys::futures`), and of the `Drop` impls and slices' drops,
// whose loops over their elements run when a collection is not empty when dropped (a client's
// waiters, at its finalizer: outlined once, and the finalizer loaded the rest one run in six), and
// of an `Rc`'s drop glue, where which holder lets go last is timing too.
const TIMED = /as core::future::future::Future>::poll|Stream>::poll_next|^js_sys::futures::|as core::ops::drop::Drop>::drop|drop_in_place<\[|drop_in_place<alloc::rc::Rc</;

const perFunction = new Map();
regions.forEach((r) => perFunction.set(r.fn, (perFunction.get(r.fn) ?? 0) + 1));
let skipped = 0;
definedFunctions(module).forEach((fn, ordinal) => {
  const first = next;
  const found = [];
  visit(fn.body, found);
  if (next - first !== (perFunction.get(ordinal) ?? 0)) {
    skipped++;
    return;
  }
  if (!seen.has(ordinal) || TIMED.test(fn.name)) return;
  const fnRef = module.getFunction(fn.name);
  let count = 0;
  // The innermost first: moving a region leaves the regions around it as they were numbered
  // (a region moves only when the one it lies in ran, so no region inside one that moves has).
  for (const { index, ifExpr, key, block, at } of found.reverse()) {
    const region = regions[index];
    if (!region || region.fn !== ordinal || ran(index) || !ran(parentIndex(region.parent))) continue;
    const fnInfo = B.getFunctionInfo(fnRef);
    if (ifExpr) {
      const arm = B.getExpressionInfo(ifExpr)[key];
      if (size(arm) < MIN_SIZE) continue;
      const setter = key === "ifTrue" ? "_BinaryenIfSetIfTrue" : "_BinaryenIfSetIfFalse";
      if (outline(fnRef, fnInfo, arm, (replacement) => B[setter](ifExpr, replacement), count)) count++;
      continue;
    }
    // A block's tail: the code after a nested block, loop or `if`, to the block's end. Its
    // expressions go into a block of their own, which moves.
    const children = B.getExpressionInfo(block).children;
    const tail = children.slice(at);
    if (tail.reduce((n, e) => n + size(e), 0) < MIN_SIZE) continue;
    // Surveyed before the block is reshaped; the block that wraps the tail has no label of its
    // own, so its survey is the same.
    const surveyed = survey(tail);
    if (!canMove(fnInfo, surveyed)) continue;
    for (let i = children.length - 1; i >= at; i--) B._BinaryenBlockRemoveChildAt(block, i);
    const wrapped = module.block(null, tail, B.getExpressionType(tail[tail.length - 1]));
    B._BinaryenBlockAppendChild(block, wrapped);
    if (outline(fnRef, fnInfo, wrapped, (replacement) => B._BinaryenBlockSetChildAt(block, at, replacement), count, surveyed)) {
      count++;
      tails++;
    }
  }
});
if (!module.validate()) throw new Error("outline: the module does not validate");
writeFileSync(output, module.emitBinary());
console.log(`outline: ${moved} cold regions (${tails} of them blocks' tails; ${movedSize} expressions) moved into functions of their own; ${skipped} functions skipped, their regions not matched`);
