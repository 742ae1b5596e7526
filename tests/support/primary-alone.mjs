// Where the primary half of the core reached for the rest (scripts/split): the rest then
// loads synchronously, as the entries' loaders do, rather than leave the instance broken,
// and `assertPrimaryAlone` says where (the whole stack, whose bottom says what started it:
// a call, a stream's chunk, a finalizer). For test files that run in a process of their
// own, so that the rest is not loaded when they start.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { __restReady, __setRestLoader } from "mcp-wasm/raw";

export const REST = new URL("../../pkg/mcp_wasm_rest_bg.wasm", import.meta.url);
const OAUTH = { sync: () => readFileSync(new URL("../../pkg/mcp_wasm_oauth_bg.wasm", import.meta.url)) };

Error.stackTraceLimit = 60;
/** The stack of each synchronous load of the rest. */
export const needs = [];
/** The entries' synchronous loader, recording where it was called from. */
export const loadsNow = () => {
  needs.push(new Error("the primary needed the rest").stack);
  return readFileSync(REST);
};
__setRestLoader({ sync: loadsNow, load: async () => readFileSync(REST) }, OAUTH);

/**
 * Sets the entries' loaders, the synchronous one recording as `loadsNow` does and the
 * asynchronous one running `load` (which may throw, as a network down would): returns its
 * count of asynchronous loads.
 */
export function loadWith(load) {
  const counter = { loads: 0 };
  __setRestLoader({
    sync: loadsNow,
    load: async () => {
      counter.loads += 1;
      return load();
    },
  }, OAUTH);
  return counter;
}

/** Fails, with the stack, if anything so far loaded the rest. */
export function assertPrimaryAlone(what) {
  assert.equal(needs.length, 0, `${what}: the primary needed the rest at\n${needs[0]}`);
  assert.equal(__restReady(), false, `${what}: the rest was not needed`);
}
