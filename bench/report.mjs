// Turns bench/results.json into BENCHMARKS.md (tables, ratios, targets) and
// bench/chart.svg (time relative to the raw-fetch floor, per metric).
//   node bench/report.mjs          # rewrites both from the last results
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { soakSection } from "./soak/report.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const CLIENTS = ["mcp-wasm", "sdk 1.x", "client 2.x"];
const FLOOR = "raw fetch";
const soak = path.join(here, "soak-results.json");

const ms = (v) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : "–");
const kib = (v) => `${(v / 1024).toFixed(1)} KiB`;
const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : "–");
const mib = (v) => (Number.isFinite(v) ? `${(v / 2 ** 20).toFixed(1)} MiB` : "–");

// Time-like rows: lower is better. Each: [label, pick(result, name)].
function timeRows(r) {
  return [
    ["connect (handshake), median", (n) => r.connect[n]?.median],
    ["sequential `tools/call`, p50", (n) => r.sequential[n]?.p50],
    ["sequential `tools/call`, p99", (n) => r.sequential[n]?.p99],
    ["64 in flight: time per call", (n) => 1000 / r.concurrent[n]?.callsPerSecond],
    [`\`tools/list\`, 2,003 tools (${(r.large.bytes.toolsList / 2 ** 20).toFixed(1)} MiB)`, (n) => r.large.toolsList[n]],
    ["`resources/read`, 5 MiB", (n) => r.large.bigRead[n]],
    [`deep \`structuredContent\` + \`outputSchema\` (${(r.large.bytes.deep / 1024).toFixed(0)} KiB)`, (n) => r.large.deep[n]],
    ["10,000 progress notifications", (n) => r.progress[n]?.median],
  ];
}

function environmentSection(title, r) {
  const names = [...CLIENTS, FLOOR];
  const timer = r.environment?.timerStepMs === undefined ? ""
    : `; ${r.environment.crossOriginIsolated ? "cross-origin isolated, " : ""}timer step ${+(r.environment.timerStepMs * 1000).toFixed(1)} µs`;
  const lines = [`### ${title} (${r.environment?.runtime ?? ""}${timer})`, ""];
  lines.push(`| metric | ${names.join(" | ")} | mcp-wasm ÷ floor | mcp-wasm ÷ faster SDK |`);
  lines.push(`|---|${names.map(() => "---:").join("|")}|---:|---:|`);
  for (const [label, pick] of timeRows(r)) {
    const values = names.map(pick);
    const sdkBest = Math.min(pick("sdk 1.x"), pick("client 2.x"));
    lines.push(`| ${label} | ${values.map(ms).join(" | ")} | ${x(pick("mcp-wasm") / pick(FLOOR))} | ${x(pick("mcp-wasm") / sdkBest)} |`);
  }
  lines.push(`| 64 in flight: calls per second | ${names.map((n) => Math.round(r.concurrent[n]?.callsPerSecond)).join(" | ")} | | |`);
  lines.push("", `\`JSON.parse\` alone of the same bytes: \`tools/list\` ${ms(r.large.jsonParse.toolsList)}, 5 MiB read ${ms(r.large.jsonParse.bigRead)}, deep result ${ms(r.large.jsonParse.deep)}.`);
  if (r.load) {
    const trials = r.loadTrials ? `, median of ${r.loadTrials} fresh browser profiles each` : "";
    lines.push("", `Loading in a fresh page (fetch, compile, instantiate${trials}): mcp-wasm ${ms(r.load["mcp-wasm"])}, sdk 1.x ${ms(r.load["sdk 1.x"])}, client 2.x ${ms(r.load["client 2.x"])}.`);
  }
  if (r.freshWasmMemory) {
    lines.push("", `wasm linear memory in a fresh page, once the package is loaded: ${(r.freshWasmMemory / 2 ** 20).toFixed(1)} MiB (it never shrinks: the figures below follow the large results).`);
  }
  lines.push("", "Memory across 10,000 calls (after a forced GC, every 1,000 calls; first sample after 1,000 calls → last):", "");
  lines.push("| contender | JS heap | growth | wasm linear memory |", "|---|---:|---:|---:|");
  for (const n of names) {
    const samples = r.memory[n] ?? [];
    const first = samples[1] ?? samples[0];
    const last = samples.at(-1);
    const heapGrowth = last?.heap !== undefined && first?.heap !== undefined ? last.heap - first.heap : NaN;
    const wasm = n === "mcp-wasm" && first?.wasm !== undefined ? `${mib(first.wasm)} → ${mib(last.wasm)}` : "";
    lines.push(`| ${n} | ${mib(first?.heap)} → ${mib(last?.heap)} | ${Number.isFinite(heapGrowth) ? `${(heapGrowth / 2 ** 20).toFixed(2)} MiB` : "–"} | ${wasm} |`);
  }
  return lines.join("\n");
}

// Issue 16's targets, each judged on Chromium (the product's main runtime) and on Node.
function targets(results) {
  const rows = [];
  const first = results.sizes["mcp-wasm"].gzip;
  const all = results.sizes["mcp-wasm (everything)"]?.gzip ?? first;
  const smallerSdk = Math.min(results.sizes.sdk1.gzip, results.sizes.sdk2.gzip);
  rows.push(["first call (firstCallGzip) ≤ 100 KiB, the must", kib(first), first <= 100 * 1024]);
  rows.push(["first call (firstCallGzip) ≤ 60 KB, the goal", kib(first), first <= 60 * 1000]);
  rows.push(["everything (allGzip) ≤ 1.5× the smaller SDK bundle", `${kib(all)}, ${x(all / smallerSdk)}`, all <= 1.5 * smallerSdk]);
  for (const [env, r] of [["Chromium", results.chromium], ["Node", results.node]]) {
    const seq = r.sequential["mcp-wasm"].p50;
    rows.push([`${env}: sequential p50 ≤ 1.10× floor`, x(seq / r.sequential[FLOOR].p50), seq / r.sequential[FLOOR].p50 <= 1.1]);
    const inFlight = r.concurrent["mcp-wasm"].callsPerSecond;
    const sdkInFlight = Math.max(r.concurrent["sdk 1.x"].callsPerSecond, r.concurrent["client 2.x"].callsPerSecond);
    rows.push([`${env}: 64 in flight, calls per second ≥ the faster SDK`, x(inFlight / sdkInFlight), inFlight >= sdkInFlight]);
    for (const [key, label] of [["toolsList", "tools/list"], ["bigRead", "5 MiB read"], ["deep", "deep structured"]]) {
      const fastest = Math.min(r.large[key]["sdk 1.x"], r.large[key]["client 2.x"]);
      const ratio = r.large[key]["mcp-wasm"] / fastest;
      rows.push([`${env}: ${label} faster than both SDKs`, `${x(ratio)} the faster SDK`, ratio < 1]);
    }
    const progress = r.progress["mcp-wasm"].median < Math.min(r.progress["sdk 1.x"].median, r.progress["client 2.x"].median);
    rows.push([`${env}: progress stream faster than both SDKs`, x(r.progress["mcp-wasm"].median / Math.min(r.progress["sdk 1.x"].median, r.progress["client 2.x"].median)), progress]);
    const samples = r.memory["mcp-wasm"];
    const wasmFlat = samples[1]?.wasm === samples.at(-1)?.wasm;
    const heapGrowth = (samples.at(-1)?.heap ?? 0) - (samples[1]?.heap ?? 0);
    rows.push([`${env}: memory flat over 10,000 calls`, `wasm ${wasmFlat ? "unchanged" : "grew"}, JS heap ${(heapGrowth / 2 ** 20).toFixed(2)} MiB`, wasmFlat && heapGrowth < 2 * 2 ** 20]);
    if (r.load) {
      const sdkLoad = Math.min(r.load["sdk 1.x"], r.load["client 2.x"]);
      rows.push([`${env}: loading in a fresh page no slower than the faster SDK`, x(r.load["mcp-wasm"] / sdkLoad), r.load["mcp-wasm"] <= sdkLoad]);
    }
    const memoryAfter = samples.at(-1)?.wasm;
    if (r.freshWasmMemory && memoryAfter) {
      const back = memoryAfter <= 2 * r.freshWasmMemory;
      rows.push([`${env}: wasm memory back to a small baseline after the large results`, `${mib(r.freshWasmMemory)} fresh, ${mib(memoryAfter)} after`, back]);
    }
  }
  return rows;
}

function chart(results) {
  const envs = [["Chromium", results.chromium], ["Node", results.node]];
  const colors = { "mcp-wasm": "#2357c6", "sdk 1.x": "#c2410c", "client 2.x": "#15803d" };
  const rowsPer = timeRows(results.chromium).filter(([label]) => !/p99/.test(label)).length;
  const barH = 9;
  const groupH = CLIENTS.length * barH + 10;
  const left = 300;
  const width = 900;
  const scaleMax = 8; // ratios beyond 8× are clipped (and labelled)
  const plotW = width - left - 60;
  const height = envs.length * (rowsPer * groupH + 50) + 60;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">Time relative to the raw-fetch floor (1× = hand-written fetch + JSON.parse; lower is better)</text>`];
  let y = 40;
  for (const [env, r] of envs) {
    parts.push(`<text x="10" y="${y + 14}" font-size="13" font-weight="bold">${env}</text>`);
    y += 24;
    const one = left + plotW / scaleMax;
    const top = y;
    for (const [label, pick] of timeRows(r).filter(([l]) => !/p99/.test(l))) {
      const clean = label.replace(/`/g, "").replace(/&/g, "&amp;").replace(/</g, "&lt;");
      parts.push(`<text x="${left - 8}" y="${y + groupH / 2}" text-anchor="end">${clean}</text>`);
      CLIENTS.forEach((n, i) => {
        const ratio = pick(n) / pick(FLOOR);
        const w = Math.max(1, (Math.min(ratio, scaleMax) / scaleMax) * plotW);
        parts.push(`<rect x="${left}" y="${y + i * barH}" width="${w.toFixed(1)}" height="${barH - 2}" fill="${colors[n]}"/>`);
        parts.push(`<text x="${left + w + 4}" y="${y + i * barH + barH - 2}" font-size="9">${Number.isFinite(ratio) ? ratio.toFixed(2) : "–"}×</text>`);
      });
      y += groupH;
    }
    parts.push(`<line x1="${one}" y1="${top}" x2="${one}" y2="${y}" stroke="#333" stroke-dasharray="3 3"/>`);
    y += 20;
  }
  CLIENTS.forEach((n, i) => {
    parts.push(`<rect x="${left + i * 150}" y="${y}" width="12" height="12" fill="${colors[n]}"/><text x="${left + i * 150 + 18}" y="${y + 10}">${n}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}

export function writeReport(results) {
  const s = results.sizes;
  const sizeRows = [["mcp-wasm: what a page fetches before its first call (firstCallGzip)", s["mcp-wasm"]], ["mcp-wasm: everything the package can load (allGzip)", s["mcp-wasm (everything)"]],
    [`@modelcontextprotocol/sdk ${results.versions["sdk 1.x"]}: Client + Streamable HTTP + SSE`, s.sdk1], [`@modelcontextprotocol/client ${results.versions["client 2.x"]}: Client + Streamable HTTP + SSE`, s.sdk2]];
  const md = [
    "# Benchmarks",
    "",
    "Generated by `bench/report.mjs` from `bench/results.json`. Do not edit by hand: run the command below.",
    "",
    `- **Command:** \`${results.command}\`${results.scale !== 1 ? ` (BENCH_SCALE=${results.scale})` : ""}`,
    `- **Date:** ${results.date}`,
    `- **Machine:** ${results.machine}`,
    `- **Contenders:** mcp-wasm ${results.versions["mcp-wasm"]}, \`@modelcontextprotocol/sdk\` ${results.versions["sdk 1.x"]} (sdk 1.x), \`@modelcontextprotocol/client\` ${results.versions["client 2.x"]} (client 2.x), and a raw \`fetch\` floor (\`bench/floor.mjs\`: the same HTTP exchanges with hand-written JSON and no checks).`,
    "- **Server:** `bench/server.mjs`, the official SDK 1.x low-level `Server` behind Streamable HTTP with sessions on 127.0.0.1 (JSON responses; SSE responses for the progress stream). Every contender speaks 2025-11-25 to it (mcp-wasm with `era: \"legacy\"`: `auto` would add one probe round trip to connect).",
    "- **Method:** in each runtime the contenders share one process (in Chromium, one page) and take turns, the order rotating every round. Figures are medians (and p99) of many rounds; the ratios matter more than absolute times on a shared 2-core machine.",
    "",
    "![Time relative to the raw-fetch floor](bench/chart.svg)",
    "",
    "## Bundle size",
    "",
    "Each SDK is bundled as a browser app ships it: esbuild, minified, ESM (`bench/bundle.mjs`). gzip level 9, brotli quality 11.",
    "",
    "| what | raw | gzip | brotli | gzip ÷ mcp-wasm |",
    "|---|---:|---:|---:|---:|",
    ...sizeRows.map(([label, v]) => `| ${label} | ${kib(v.raw)} | ${kib(v.gzip)} | ${kib(v.brotli)} | ${x(v.gzip / s["mcp-wasm"].gzip)} |`),
    "",
    "## Speed and memory",
    "",
    environmentSection("Headless Chromium", results.chromium),
    "",
    environmentSection("Node", results.node),
    "",
    "## Targets",
    "",
    "| target | measured | met |",
    "|---|---|---|",
    ...targets(results).map(([t, m, ok]) => `| ${t} | ${m} | ${ok ? "yes" : "**no**"} |`),
    "",
    readFileSync(path.join(here, "analysis.md"), "utf8").trim(),
    "",
    // The soak runs on its own (bench/soak.mjs); its last figures stay.
    ...(existsSync(soak) ? [soakSection(JSON.parse(readFileSync(soak, "utf8"))), ""] : []),
  ].join("\n");
  writeFileSync(path.join(repo, "BENCHMARKS.md"), md);
  writeFileSync(path.join(here, "chart.svg"), chart(results));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeReport(JSON.parse(readFileSync(path.join(here, "results.json"), "utf8")));
}
