// Resource templates built to backtrack, reached through McpHost.readResource,
// which matches a URI against every server's templates to route it: the match
// stops at its step budget, the server's other templates are not tried after
// one that did, a template too long to match is one that matches nothing, and
// the host stays usable.
import { McpHost } from "mcp-wasm";
import { expectFailure, expectSuccess } from "../expect.mjs";

const URI = `x:${"a/".repeat(200)}`;

export async function templateBomb({ check, peer, track }) {
  const host = track(await McpHost.connect({ bomb: { url: peer.url("template-bomb"), timeout: 5_000 } }));
  check(host.servers().every((s) => s.status === "connected"), "a host connects to the server with 500 templates x:{+a}{+b}…{+h}! and one of 50,000 expressions");
  await expectFailure(check, "readResource of x: and 200 × a/ that only those templates could match", host.readResource({ uri: URI }), "limit-exceeded");

  const listed = await expectSuccess(check, "the host afterwards reads a listed resource", host.readResource({ uri: "hostile://ok" }));
  check(listed.contents?.[0]?.text === "still served", "… with its contents", JSON.stringify(listed));
  await expectSuccess(check, "the host afterwards calls a tool", host.callTool("bomb__echo", { message: "still here" }));

  await host.addServer("plain", peer.url("template-plain"), { timeout: 5_000 });
  const routed = await expectSuccess(check, "with a second server whose template x:{+path} matches, the same URI", host.readResource({ uri: URI }));
  check(routed.contents?.[0]?.text === `plain read of ${URI.length} characters`, "… is routed to that server, past the costly template", JSON.stringify(routed).slice(0, 200));
}

const CROWD_URI = `x:${"a".repeat(48)}`;

export async function templateCrowd({ check, peer, track }) {
  const host = track(await McpHost.connect({ crowd: { url: peer.url("template-crowd"), timeout: 5_000 } }));
  const started = Date.now();
  await expectFailure(check, "readResource of x: and 48 × a against 300 templates that each take nearly their step budget",
    host.readResource({ uri: CROWD_URI }), "limit-exceeded");
  check(Date.now() - started < 500, "… within the server's budget for one read, not 300 budgets", `${Date.now() - started} ms`);
  await host.addServer("plain", peer.url("template-plain"), { timeout: 5_000 });
  const routed = await expectSuccess(check, "with a second server whose template x:{+path} matches, the same URI", host.readResource({ uri: CROWD_URI }));
  check(routed.contents?.[0]?.text === `plain read of ${CROWD_URI.length} characters`, "… is routed to that server", JSON.stringify(routed).slice(0, 200));
  const listed = await expectSuccess(check, "the host afterwards reads a listed resource", host.readResource({ uri: "hostile://ok" }));
  check(listed.contents?.[0]?.text === "still served", "… with its contents", JSON.stringify(listed));
}

/** A real server's templates against long URIs: more than a quick match, well within the read's budget. */
export async function templateLong({ check, peer, track }) {
  const host = track(await McpHost.connect({ long: { url: peer.url("template-long"), timeout: 5_000 } }));
  for (const uri of [`x:${"d/".repeat(200)}f.json`, `x:${"d/".repeat(200)}f.md`]) {
    const read = await expectSuccess(check, `readResource of a ${uri.length}-character URI that the server's second or first template matches`,
      host.readResource({ uri }));
    check(read.contents?.[0]?.text === `long read of ${uri.length} characters`, "… is routed to it", JSON.stringify(read).slice(0, 200));
  }
}
