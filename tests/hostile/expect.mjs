// What every hostile scenario asserts, in Node and in the browser alike: an attack
// settles within 2 s with a typed error, and the same client answers the next
// harmless call. Nothing here imports the package: errors are told apart by name.

export const SETTLE_MS = 2_000;

/** The check list of one scenario: `check(ok, what, detail)` records `what` or throws. */
export function checker() {
  const passed = [];
  const check = (ok, what, detail = "") => {
    if (!ok) throw new Error(`${what}${detail === "" ? "" : `: ${detail}`}`);
    passed.push(what);
  };
  return { check, passed };
}

export const describe = (error) => (error ? `${error.name} ${error.kind ?? ""} ${error.message}`.slice(0, 400) : String(error));

/** Resolves with `{ value }` or `{ error }` and `ms`, or `{ hung: true }` if neither comes within `ms`. */
export async function settle(promise, ms = SETTLE_MS) {
  const started = Date.now();
  let timer;
  const hung = new Promise((resolve) => { timer = setTimeout(() => resolve({ hung: true }), ms); });
  const outcome = promise.then((value) => ({ value }), (error) => ({ error }));
  try {
    const result = await Promise.race([outcome, hung]);
    return { ...result, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** Checks that `promise` settles within 2 s with an McpClientError of `kind`; returns the error. */
export async function expectFailure(check, what, promise, kind) {
  const outcome = await settle(promise);
  check(!outcome.hung, `${what}: settles within ${SETTLE_MS} ms`);
  const { error } = outcome;
  check(error?.name === "McpClientError" && error.kind === kind, `${what}: fails with kind ${kind}`,
    error ? describe(error) : `it succeeded: ${JSON.stringify(outcome.value)?.slice(0, 200)}`);
  return error;
}

/** Checks that `promise` resolves within 2 s; returns its value. */
export async function expectSuccess(check, what, promise) {
  const outcome = await settle(promise);
  check(!outcome.hung, `${what}: settles within ${SETTLE_MS} ms`);
  check(!outcome.error, `${what}: succeeds`, describe(outcome.error));
  return outcome.value;
}

export const textOf = (result) => (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");

/** The harmless call after an attack: `echo` answers on the same client. */
export async function expectEcho(check, client, what = "the next call on the same client") {
  const result = await expectSuccess(check, what, client.callTool({ name: "echo", arguments: { message: "still here" } }));
  check(textOf(result) === "echo: still here", `${what}: answers`, JSON.stringify(result));
}
