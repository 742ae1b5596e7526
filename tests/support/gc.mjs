// Runs the garbage collector from a test or a build script, and gives what it finalizes
// time to run: finalizers run in tasks of their own, after the collection.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc;

/** Collects garbage up to `rounds` times, each followed by 20 ms of the event loop, until `done()` holds. */
export async function collectGarbage({ rounds = 10, done = () => false } = {}) {
  if (gc === undefined) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc");
  }
  for (let round = 0; round < rounds && !done(); round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
