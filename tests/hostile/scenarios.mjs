// The hostile tier's scenarios, in the order they run, shared by Node (run.mjs)
// and the browser page (index.html, where an import map resolves "mcp-wasm").
// Each gets its own namespace on the peer, /<runtime>-<scenario>/<attack>/.
import { checker, describe, settle } from "./expect.mjs";
import { peerOf } from "./peer.mjs";
import { brokenToken, credentialRedirect, heldTokenRequest, issuerChurn, issuerSwitch, pinnedIssuer } from "./scenarios/oauth.mjs";
import { depthBomb, elicitationBomb, regexBomb, schemaBomb } from "./scenarios/schemas.mjs";
import { keptGarbage, legacyEventSource, legacyFetchReader, legacyHeldPost, legacyLongEndpoint, initValues, listBytes, longSessionId, oversizeJson, renamedPages, oversizeSseEvent, structuredValues, valueBomb } from "./scenarios/sizes.mjs";
import { answeredElsewhere, closedClientHoldsNoTimer, eventIds, heldStreams, initializedHeld, listenHeld, repliesHeld, toolLoopFailedStep, duplicateId, floodDefault, withdrawnRequests, supersededListings, floodOfFour, retryOverflow, taskForever } from "./scenarios/streams.mjs";
import { hostHeldConnect, hostRefusedEntry, hostSlowPages, hostSuspendMidListing } from "./scenarios/host.mjs";
import { toolFlood } from "./scenarios/names.mjs";
import { skillBomb } from "./scenarios/skills.mjs";
import { templateBomb, templateCrowd, templateLong } from "./scenarios/templates.mjs";

const SCENARIOS = [
  { name: "schema-bomb", run: schemaBomb },
  { name: "depth-bomb", run: depthBomb },
  { name: "elicit-bomb", run: elicitationBomb },
  { name: "regex-bomb", run: regexBomb },
  { name: "template-bomb", run: templateBomb },
  { name: "template-crowd", run: templateCrowd },
  { name: "template-long", run: templateLong },
  { name: "skill-bomb", run: skillBomb },
  { name: "tool-flood", run: toolFlood },
  { name: "oversize-json", run: oversizeJson },
  { name: "kept-garbage", run: keptGarbage },
  { name: "oversize-sse", run: oversizeSseEvent },
  { name: "value-bomb", run: valueBomb },
  { name: "list-bytes", run: listBytes },
  { name: "renamed-pages", run: renamedPages },
  { name: "long-session-id", run: longSessionId },
  { name: "init-values", run: initValues },
  { name: "structured-values", run: structuredValues },
  { name: "legacy-sse-fetch", run: legacyFetchReader },
  { name: "legacy-sse-held-post", run: legacyHeldPost },
  { name: "legacy-sse-long-endpoint", run: legacyLongEndpoint },
  { name: "legacy-sse-eventsource", run: legacyEventSource, runtimes: ["chromium"] }, // a browser API
  { name: "retry-overflow", run: retryOverflow },
  { name: "answered-elsewhere", run: answeredElsewhere },
  { name: "event-ids", run: eventIds },
  { name: "held-streams", run: heldStreams },
  { name: "tool-loop-failed-step", run: toolLoopFailedStep },
  { name: "initialized-held", run: initializedHeld },
  { name: "replies-held", run: repliesHeld },
  { name: "listen-held", run: listenHeld },
  { name: "retry-timer-after-close", run: closedClientHoldsNoTimer, runtimes: ["node"] }, // needs a process to exit
  { name: "task-forever", run: taskForever },
  { name: "flood", run: floodDefault },
  { name: "flood-limit-4", run: floodOfFour },
  { name: "withdrawn-requests", run: withdrawnRequests },
  { name: "duplicate-id", run: duplicateId },
  { name: "superseded-listings", run: supersededListings },
  { name: "host-held-connect", run: hostHeldConnect },
  { name: "host-refused-entry", run: hostRefusedEntry },
  { name: "host-slow-pages", run: hostSlowPages },
  { name: "host-suspend-mid-listing", run: hostSuspendMidListing },
  { name: "oauth-issuer-switch", run: issuerSwitch },
  { name: "oauth-pinned-issuer", run: pinnedIssuer },
  { name: "oauth-redirect", run: credentialRedirect },
  { name: "oauth-issuer-churn", run: issuerChurn },
  { name: "oauth-broken-token", run: brokenToken },
  { name: "oauth-held-token", run: heldTokenRequest },
];

/** The names of the scenarios that run in `runtime` ("node" or "chromium"). */
export const scenariosFor = (runtime) => SCENARIOS.filter((s) => !s.runtimes || s.runtimes.includes(runtime)).map((s) => s.name);

/**
 * Runs one scenario against the peer at `origin`; resolves with the checks that
 * passed and, if one failed or the scenario threw, `error`. Every client or host
 * it opened is closed afterwards.
 */
export async function runScenario(name, origin, runtime) {
  const scenario = SCENARIOS.find((s) => s.name === name);
  const { check, passed } = checker();
  const opened = [];
  const track = (client) => {
    opened.push(client);
    return client;
  };
  try {
    await scenario.run({ check, peer: peerOf(origin, `${runtime}-${name}`), track });
    return { checks: passed };
  } catch (error) {
    // A failed check throws a plain Error; anything else is unexpected and named.
    return { checks: passed, error: error?.constructor === Error ? error.message : describe(error) };
  } finally {
    await Promise.all(opened.map((client) => settle(client.close(), 6_000)));
  }
}
