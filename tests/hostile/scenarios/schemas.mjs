// Schemas and patterns a server hands the client to evaluate: the client's
// validator must stop within its budget (limit-exceeded) or decide in linear
// time (invalid-result), and never hold the thread.
import { McpClient } from "mcp-wasm";
import { expectEcho, expectFailure, expectSuccess, textOf } from "../expect.mjs";

/** Connects and lists tools, which is where the client learns each outputSchema. */
async function connectListed({ peer, track }, attack, options) {
  const client = track(await McpClient.connect(peer.url(attack), { timeout: 5_000, ...options }));
  await client.listTools();
  return client;
}

export async function schemaBomb(ctx) {
  const { check } = ctx;
  const client = await connectListed(ctx, "schema-bomb");
  await expectFailure(check, "an outputSchema whose anyOf refers to itself twice", client.callTool({ name: "ref-cycle" }), "limit-exceeded");
  await expectFailure(check, "an outputSchema of 40 levels of anyOf over a 40-deep array failing at its leaf",
    client.callTool({ name: "deep-anyof" }), "limit-exceeded");
  const matched = await expectSuccess(check, "a plain outputSchema that the structuredContent matches", client.callTool({ name: "plain-match" }));
  check(matched?.structuredContent?.n === 2, "its structuredContent arrives", JSON.stringify(matched));
  const wrong = await expectFailure(check, "a plain outputSchema that the structuredContent does not match",
    client.callTool({ name: "plain-mismatch" }), "invalid-result");
  check(/at \/n: expected integer, found a number/.test(wrong?.message ?? ""), "the report names the path and the type", wrong?.message);
  await expectEcho(check, client);
}

export async function elicitationBomb(ctx) {
  const { check, peer } = ctx;
  const asked = [];
  const problems = [];
  const client = await connectListed(ctx, "elicit-bomb", {
    handlers: { elicitation: (params) => { asked.push(params.message); return { action: "accept", content: { x: 1 } }; } },
  });
  client.addEventListener("error", (event) => problems.push(event.error));
  const result = await expectSuccess(check, "a tool call that elicits with a $ref bomb as requestedSchema", client.callTool({ name: "ask" }));
  check(asked.length === 1, "the elicitation handler is asked once and accepts", `asked ${asked.length} times`);
  const answer = (await peer.stats("elicit-bomb")).elicitationAnswer;
  check(answer?.error && !("result" in answer), "the server gets a JSON-RPC error, not the accepted content", JSON.stringify(answer));
  check(textOf(result) === `refused: ${answer.error.code}`, "the tool call settles with what the server made of the refusal", textOf(result));
  check(problems.some((e) => e?.name === "McpClientError" && e.kind === "limit-exceeded"), "an error event of kind limit-exceeded is dispatched",
    problems.map((e) => `${e?.name} ${e?.kind}`).join(", ") || "no error event");
  await expectEcho(check, client);
}

export async function regexBomb(ctx) {
  const { check } = ctx;
  const client = await connectListed(ctx, "regex-bomb");
  await expectFailure(check, "pattern ^(a+)+$ against 40 a's and a ! (no match, in linear time)", client.callTool({ name: "redos" }), "invalid-result");
  await expectFailure(check, "a look-ahead pattern", client.callTool({ name: "lookaround" }), "limit-exceeded");
  await expectFailure(check, "a backreference pattern", client.callTool({ name: "backreference" }), "limit-exceeded");
  await expectEcho(check, client);
}

export async function depthBomb(ctx) {
  const { check } = ctx;
  const client = await connectListed(ctx, "depth-bomb");
  const chains = (await client.listTools()).tools.filter((t) => t.name.startsWith("chain-"));
  check(chains.length === 12, "the peer offers a chain for each keyword that recurses", `${chains.length} chains`);
  for (const { name } of chains) {
    const error = await expectFailure(check, `an outputSchema of 300 levels of ${name.slice(6)}`, client.callTool({ name }), "limit-exceeded");
    check(/nests deeper than 256/.test(error?.message ?? ""), `… ${name}: says how deep it may nest`, error?.message);
  }
  await expectEcho(check, client);
}
