// quick-check.js on bench/fixtures.mjs's deep result, as a fresh page meets it: each file is loaded
// in a fresh process `runs` times, and each process times its first 15 checks, so that V8's warm-up
// shows (a benchmark's seven rounds are mostly warm-up). Prints, per file, the median of each call
// position and of the first seven together. The files take turns, run by run.
//   node bench/ab-quick-check.mjs <quick-check.js> [<another quick-check.js> ...] [--runs 5]
// (each takes the schema as its JSON text, as quick-check.js has since the twenty-ninth round)
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const CALLS = 15;

if (process.argv[2] === "--child") {
  const { fixtures, DEEP_OUTPUT_SCHEMA } = await import("./fixtures.mjs");
  const text = JSON.stringify(fixtures().deepResult);
  const schemaText = JSON.stringify(DEEP_OUTPUT_SCHEMA);
  const { surelyValid } = await import(process.argv[3]);
  const times = [];
  for (let i = 0; i < CALLS; i++) {
    const value = JSON.parse(text);
    const start = performance.now();
    if (!surelyValid(schemaText, value, 1e6)) throw new Error("quick-check.js could not tell");
    times.push(performance.now() - start);
  }
  console.log(JSON.stringify(times));
} else {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf("--runs");
  const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 5;
  const files = args.map((file) => resolve(file));
  const self = fileURLToPath(import.meta.url);
  const samples = new Map(files.map((file) => [file, []]));
  for (let run = 0; run < runs; run++) {
    for (const file of files) samples.get(file).push(JSON.parse(execFileSync(process.execPath, [self, "--child", file], { encoding: "utf8" })));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];
  for (const [file, rows] of samples) {
    const positions = Array.from({ length: CALLS }, (_, i) => median(rows.map((row) => row[i])).toFixed(1));
    const firstSeven = median(rows.map((row) => row.slice(0, 7).reduce((a, b) => a + b, 0))).toFixed(1);
    console.log(`${file}: first seven ${firstSeven} ms; each: ${positions.join(" ")}`);
  }
}
