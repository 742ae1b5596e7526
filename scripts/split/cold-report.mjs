// What the primary holds that a first call never runs: the regions of cover.mjs that the profile
// did not reach inside the functions it entered, by function and by region, with the calls in
// each to tell where it is in the source (bench/analysis.md, "Twenty-third round"). The build
// writes both inputs:
//   node scripts/split/cold-report.mjs target/split/regions.json target/split/profile.json [rows]
// Sizes are binaryen expressions (the profile's own reports of memory accesses included), a
// measure to rank by, not bytes.
import { readFileSync } from "node:fs";
import { MARKS_FROM } from "./cover-marks.mjs";

const [regionsPath, profilePath, shown = "30"] = process.argv.slice(2);
if (!profilePath) throw new Error("usage: node scripts/split/cold-report.mjs <regions.json> <profile.json> [rows]");
const { names, regions } = JSON.parse(readFileSync(regionsPath, "utf8"));
const seen = new Set(JSON.parse(readFileSync(profilePath, "utf8")).ordinals);
// A region's parent is another region (its mark) or, below 0, its function's entry.
const index = (parent) => (parent >= MARKS_FROM ? parent - MARKS_FROM : parent);
const ran = (i) => (i < 0 ? seen.has(-1 - i) : seen.has(MARKS_FROM + i));
// The regions no run reached whose parent ran: the code under each is all cold.
const cold = [];
regions.forEach((region, i) => {
  if (seen.has(region.fn) && !ran(i) && ran(index(region.parent))) cold.push(region);
});
const sum = (list) => list.reduce((n, r) => n + r.size, 0);
const entered = regions.filter((r) => seen.has(r.fn) && index(r.parent) < 0);
console.log(`cold: ${sum(cold)} expressions in ${cold.length} regions of entered functions (their top-level regions hold ${sum(entered)})`);
console.log(`  in regions that return or trap and branch nowhere outside: ${sum(cold.filter((r) => r.closed))}`);
for (const min of [20, 40, 80]) {
  const movable = cold.filter((r) => r.movable && r.size >= min);
  console.log(`  in \`if\` arms of ${min}+ that give no value and branch out without one: ${sum(movable)} in ${movable.length}`);
}
const byFunction = new Map();
for (const r of cold) byFunction.set(names[r.fn], (byFunction.get(names[r.fn]) ?? 0) + r.size);
console.log("\nby function:");
for (const [name, size] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(shown))) {
  console.log(`${String(size).padStart(7)}  ${name.slice(0, 140)}`);
}
console.log("\nlargest regions:");
for (const r of cold.sort((a, b) => b.size - a.size).slice(0, Number(shown))) {
  console.log(`${String(r.size).padStart(7)}  ${names[r.fn].slice(0, 90)}  calls ${r.calls.slice(0, 4).join(", ").slice(0, 160)}`);
}
