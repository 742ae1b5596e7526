// Validate the JSON-RPC messages our client puts on the wire against the official MCP schema.
//
// Usage:
//   const rec = recordingFetch();                       // pass rec.fetch as the client's `fetch`
//   … drive the client …
//   for (const m of rec.messages()) assertValidClientMessage(m);
//
// The schemas are vendored in <repo>/spec/<version>/schema.json (see spec/README.md), and
// resolved from this file, never from the cwd.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import AjvDraft7 from "ajv";
import addFormats from "ajv-formats";

export const DEFAULT_SPEC_VERSION = "2025-11-25";

export function schemaUrl(version = DEFAULT_SPEC_VERSION) {
  return new URL(`../../spec/${version}/schema.json`, import.meta.url);
}

const validators = new Map();

// One compiled validator set per spec version. Which method belongs to which definition is
// read from the schema itself (ClientRequest / ClientNotification list the client's
// messages, and each definition pins its `method` with `const`), so newer schema versions
// work without a hand-kept table.
function validatorFor(version) {
  let v = validators.get(version);
  if (v) return v;
  const schema = JSON.parse(readFileSync(schemaUrl(version), "utf8"));
  const draft2020 = String(schema.$schema ?? "").includes("2020-12");
  // strict: false because Ajv's strict mode rejects the schema's union types (RequestId is
  // ["string","integer"]); validation itself is unaffected.
  const ajv = new (draft2020 ? Ajv2020 : AjvDraft7)({ strict: false, allErrors: true });
  addFormats(ajv);
  const defsKey = schema.$defs ? "$defs" : "definitions";
  const defs = schema[defsKey];
  ajv.addSchema(schema, "mcp");
  const compile = (name) => ajv.getSchema(`mcp#/${defsKey}/${name}`);
  const byMethod = (union) =>
    new Map((defs[union]?.anyOf ?? []).map(({ $ref }) => {
      const name = $ref.split("/").pop();
      return [defs[name].properties.method.const, name];
    }));
  v = {
    compile,
    requests: byMethod("ClientRequest"),
    notifications: byMethod("ClientNotification"),
  };
  validators.set(version, v);
  return v;
}

/**
 * Returns a list of problems (empty when valid) for one message sent by a client.
 * A request must match JSONRPCRequest and the definition for its method, a notification
 * JSONRPCNotification and its definition; methods that are not client→server messages are
 * problems too. Responses (to server→client requests) must match the JSON-RPC response shapes.
 */
export function clientMessageProblems(msg, version = DEFAULT_SPEC_VERSION) {
  const { compile, requests, notifications } = validatorFor(version);
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    return [`not a JSON-RPC object: ${JSON.stringify(msg)}`];
  }
  const checks = [];
  if ("method" in msg) {
    const isRequest = "id" in msg;
    const table = isRequest ? requests : notifications;
    checks.push(isRequest ? "JSONRPCRequest" : "JSONRPCNotification");
    const specific = table.get(msg.method);
    if (!specific) {
      return [`"${msg.method}" is not a client ${isRequest ? "request" : "notification"} in ${version}`];
    }
    checks.push(specific);
  } else if ("error" in msg) {
    checks.push("JSONRPCErrorResponse");
  } else {
    checks.push("JSONRPCResultResponse");
  }
  const problems = [];
  for (const name of checks) {
    const validate = compile(name);
    if (!validate(msg)) {
      for (const e of validate.errors) problems.push(`${name}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    }
  }
  return problems;
}

export function assertValidClientMessage(msg, version = DEFAULT_SPEC_VERSION) {
  const problems = clientMessageProblems(msg, version);
  if (problems.length) {
    throw new Error(`invalid client message ${JSON.stringify(msg)}:\n  ${problems.join("\n  ")}`);
  }
}

/**
 * A `fetch` that forwards to `inner` and records each request (method, url, headers, body).
 * It accepts every call shape (url + init, or a Request), because we do not know how the wasm
 * side calls it; the body is read from a clone so the request still goes out untouched.
 */
export function recordingFetch(inner = globalThis.fetch) {
  const requests = [];
  const fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : null;
    requests.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body,
    });
    return inner(request);
  };
  // Every JSON-RPC message sent in a POST body (a body may hold one message or a batch).
  const messages = () => requests
    .filter((r) => r.method === "POST" && r.body)
    .flatMap((r) => { const m = JSON.parse(r.body); return Array.isArray(m) ? m : [m]; });
  return { fetch, requests, messages };
}
