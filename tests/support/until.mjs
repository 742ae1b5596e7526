// Waits for a condition a test cannot be told of (a server's count, a stream closing), polling every
// 20 ms, and fails the test with `what` if it does not hold within `ms`.
import assert from "node:assert/strict";

export async function until(holds, what, ms = 3000) {
  const deadline = Date.now() + ms;
  while (!holds()) {
    if (Date.now() > deadline) assert.fail(`within ${ms / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
