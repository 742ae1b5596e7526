// Makes a built module's panics trap at once, as they would a few calls later anyway:
// the npm modules are built with `panic = "abort"` and set no panic hook, so a panic
// formats its message for std's default hook, whose stderr on wasm32-unknown-unknown
// writes nowhere, and then aborts, which is wasm's `unreachable`. The entry points of
// core's and alloc's panics (bounds checks, `unwrap`, `RefCell` borrows, capacity
// overflow, `panic!` itself) become a bare `unreachable` here; the `wasm-opt -Oz` that
// follows (scripts/build.sh) then drops the arguments every call site passed them (the
// panic's location, the index and length of a bounds check), the message formatting
// behind them, and the static locations no code names any more (scripts/split/data.mjs).
// The Rust API is untouched: its users' builds keep their panics and hooks.
//   node scripts/trap-panics.mjs <module.wasm>    (rewrites it in place)
import { readFileSync, writeFileSync } from "node:fs";
import { binaryen, definedFunctions, readModule } from "./split/binaryen.mjs";

// Demangled names (without the crate hashes rustc's v0 mangling adds) of functions that
// only ever panic.
const PANIC_ENTRIES = [
  /^core::panicking::/,
  /^core::option::(unwrap|expect)_failed$/,
  /^core::result::unwrap_failed$/,
  /^core::slice::index::slice_index_fail$/,
  /^core::slice::copy_from_slice_impl::len_mismatch_fail$/,
  /^core::str::slice_error_fail(_rt)?$/,
  /^core::cell::panic_already_(mutably_)?borrowed$/,
  /^core::cell::lazy::panic_poisoned$/,
  /^std::thread::local::panic_access_error$/,
  /^std::panicking::(begin_panic|panic_with_hook|rust_panic_with_hook)\b/,
  /^alloc::raw_vec::(handle_error|capacity_overflow)$/,
  /^alloc::alloc::handle_alloc_error$/,
  /^<alloc::vec::Vec<_, _>>::\w+::assert_failed$/,
  /^<?hashbrown::raw::Fallibility>?::capacity_overflow\b/,
];
// Without these the step would silently do nothing: a toolchain that renamed them fails the build.
const REQUIRED = ["core::panicking::panic_fmt", "core::panicking::panic_bounds_check"];

const [file] = process.argv.slice(2);
if (!file) throw new Error("usage: node scripts/trap-panics.mjs <module.wasm>");
const module = readModule(readFileSync(file));
const demangled = (name) => name.replace(/\[[0-9a-f]+\]/g, "");
const trapped = [];
for (const fn of definedFunctions(module)) {
  const name = demangled(fn.name);
  if (!PANIC_ENTRIES.some((re) => re.test(name))) continue;
  binaryen._BinaryenFunctionSetBody(module.getFunction(fn.name), module.unreachable());
  trapped.push(name);
}
const missing = REQUIRED.filter((name) => !trapped.includes(name));
if (missing.length) throw new Error(`trap-panics: ${file} has no ${missing.join(", ")} (is its name section there?)`);
if (!module.validate()) throw new Error(`trap-panics: ${file} does not validate`);
writeFileSync(file, module.emitBinary());
console.log(`trap-panics: ${trapped.length} panic entry points of ${file} trap at once`);
