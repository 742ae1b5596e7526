// Runs the client scenarios of the official conformance suite (@modelcontextprotocol/conformance,
// pinned in package-lock.json) against tests/conformance/client.mjs, one at a time, and scores
// them as the suite's requirement files do:
//   - every scenario `client:` lists in requirements/2025-11-25.yaml, at the 2025-11-25 wire;
//   - every scenario `client:` lists in requirements/2026-07-28.yaml, at the 2026-07-28 wire;
//   - the extensions (the auth extensions both files list as not scored, and the sep-2640 skills
//     scenarios, which neither lists) at both wires;
//   - the rest of `conformance list --client` (not scored anywhere), at each wire it is tagged for.
//
//   node tests/conformance/run.mjs [scenario…]     (default: all of the above)
//   CONFORMANCE_TIMEOUT_MS=20000                   per-scenario limit for the client
//
// A run passes when the runner exits 0 (no FAILURE or WARNING check, no client crash or
// timeout), at least one check succeeded, and the driver did not exit 2 ("not implemented").
// A scenario that only reports SKIPPED checks fails. Expected failures are listed in
// tests/conformance/expected-failures.yml as `scenario@revision`; a listed run that passes is an
// error too (stale entry). Exits 0 when every failure is listed and every listed run failed.
import { spawnSync } from "node:child_process";
import { readFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "node_modules/.bin");
const PACKAGE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance");
const OUT = path.join(ROOT, "test-results/conformance");
const TIMEOUT_MS = Number(process.env.CONFORMANCE_TIMEOUT_MS ?? 20_000);
const COMMAND = "node tests/conformance/client.mjs";
const REVISIONS = ["2025-11-25", "2026-07-28"];
// The runner needs Node 22 (node_modules/.bin/node, the dev dependency node@22).
const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` };

function conformance(args) {
  return spawnSync(path.join(BIN, "conformance"), args, { cwd: ROOT, env, encoding: "utf8", maxBuffer: 64 << 20 });
}

// Every client scenario with the revisions it is tagged for ("extension" or dates).
function listed() {
  const out = conformance(["list", "--client"]);
  const scenarios = new Map();
  for (const [, name, tags] of out.stdout.matchAll(/^ {2}- (\S+) \[([^\]]*)\]/gm)) scenarios.set(name, tags.split(","));
  if (scenarios.size === 0) throw new Error(`conformance list --client gave nothing:\n${out.stdout}${out.stderr}`);
  return scenarios;
}

function requirements(revision) {
  const doc = parse(readFileSync(path.join(PACKAGE, `requirements/${revision}.yaml`), "utf8"));
  const extensions = (doc.not_scored ?? []).filter((e) => e.leg === "client" && e.reason === "extension").map((e) => e.scenario);
  return { scored: doc.client ?? [], extensions };
}

// The runs to make: [scenario, revision, group].
function plan(all) {
  const runs = [];
  const seen = new Set();
  const add = (scenario, revision, group) => {
    const key = `${scenario}@${revision}`;
    if (seen.has(key)) return;
    seen.add(key);
    runs.push({ scenario, revision, group, key });
  };
  const extensions = new Set([...all].filter(([, tags]) => tags.includes("extension")).map(([name]) => name));
  for (const revision of REVISIONS) {
    const { scored, extensions: listedExtensions } = requirements(revision);
    for (const scenario of scored) add(scenario, revision, `scored ${revision}`);
    for (const scenario of listedExtensions) extensions.add(scenario);
  }
  for (const scenario of extensions) for (const revision of REVISIONS) add(scenario, revision, "extension");
  for (const [scenario, tags] of all) {
    const revisions = tags.filter((t) => REVISIONS.includes(t));
    for (const revision of revisions.length ? revisions : ["2025-11-25"]) add(scenario, revision, "not scored");
  }
  return runs;
}

function runOne({ scenario, revision }) {
  const args = ["client", "--command", COMMAND, "--scenario", scenario, "--spec-version", revision, "--force",
    "--timeout", String(TIMEOUT_MS), "-o", path.join(OUT, "runs")];
  const result = conformance(args);
  const log = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(log);
  const succeeded = counts ? Number(counts[1]) : 0;
  const notImplemented = /Client exited with code 2\b/.test(log);
  const timedOut = /Client timed out/i.test(log);
  const passed = result.status === 0 && succeeded > 0 && !notImplemented && !timedOut && !/OVERALL: FAILED/.test(log);
  const summary = counts ? `${counts[1]}/${counts[2]} ok, ${counts[3]} failed, ${counts[4]} warnings` : "no checks";
  const notes = [notImplemented && "not implemented", timedOut && "client timed out"].filter(Boolean).join("; ");
  return { passed, log, summary: notes ? `${summary}; ${notes}` : summary };
}

const all = listed();
let runs = plan(all);
const only = process.argv.slice(2);
if (only.length) {
  for (const name of only) if (!all.has(name)) throw new Error(`unknown client scenario: ${name}`);
  runs = runs.filter((r) => only.includes(r.scenario));
}
const baseline = parse(readFileSync(path.join(ROOT, "tests/conformance/expected-failures.yml"), "utf8"))?.client ?? [];
rmSync(OUT, { recursive: true, force: true });
mkdirSync(path.join(OUT, "logs"), { recursive: true });

const problems = [];
const outcome = new Map();
for (const run of runs) {
  const started = Date.now();
  const { passed, log, summary } = runOne(run);
  const file = path.join(OUT, "logs", `${run.key.replace(/[/@]/g, "_")}.log`);
  writeFileSync(file, log);
  const expected = baseline.includes(run.key);
  const verdict = passed ? (expected ? "XPASS" : "PASS") : expected ? "xfail" : "FAIL";
  if (verdict === "XPASS") problems.push(`stale baseline entry (now passes): ${run.key}`);
  if (verdict === "FAIL") problems.push(`unexpected failure: ${run.key} (log: ${path.relative(ROOT, file)})`);
  outcome.set(run.key, passed);
  console.log(`${verdict.padEnd(5)} ${run.key.padEnd(58)} ${summary} (${Date.now() - started} ms)`);
}
for (const entry of baseline) if (!runs.some((r) => r.key === entry) && !only.length) problems.push(`baseline names no run: ${entry}`);

// The score, as the requirement files count it, and a scenario × revision table.
const score = (group) => {
  const members = runs.filter((r) => r.group === group);
  return `${members.filter((r) => outcome.get(r.key)).length}/${members.length}`;
};
const extensionNames = [...new Set(runs.filter((r) => r.group === "extension").map((r) => r.scenario))];
const extensionsPassed = extensionNames.filter((name) => runs.filter((r) => r.scenario === name).every((r) => outcome.get(r.key)));
const table = ["| scenario | 2025-11-25 | 2026-07-28 | counted as |", "|---|---|---|---|"];
for (const name of new Set(runs.map((r) => r.scenario))) {
  const cell = (revision) => {
    const run = runs.find((r) => r.scenario === name && r.revision === revision);
    return run ? (outcome.get(run.key) ? "pass" : "**fail**") : "–";
  };
  const groups = [...new Set(runs.filter((r) => r.scenario === name).map((r) => r.group.replace(/^scored /, "scored at ")))];
  table.push(`| \`${name}\` | ${cell("2025-11-25")} | ${cell("2026-07-28")} | ${groups.join(", ")} |`);
}
writeFileSync(path.join(OUT, "table.md"), `${table.join("\n")}\n`);
console.log(`\nscored 2025-11-25: ${score("scored 2025-11-25")}, scored 2026-07-28: ${score("scored 2026-07-28")}, ` +
  `extensions: ${extensionsPassed.length}/${extensionNames.length}, not scored: ${score("not scored")}`);
console.log(`table: ${path.relative(ROOT, path.join(OUT, "table.md"))}`);
for (const problem of problems) console.log(`conformance: ${problem}`);
process.exit(problems.length ? 1 : 0);
