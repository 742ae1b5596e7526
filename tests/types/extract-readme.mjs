// Writes every ```ts block of README.md and docs/*.md to tests/types/readme/,
// one module per block, so that `tsc -p tests/types` type-checks the
// documentation's examples against the package's .d.ts and they cannot drift
// from the API. The output folder is rebuilt each run and not committed.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);
const sources = ["README.md", ...readdirSync(new URL("docs/", root)).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const out = new URL("./readme/", import.meta.url);
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
let count = 0;
for (const source of sources) {
  const text = readFileSync(new URL(source, root), "utf8");
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (source === "README.md" && blocks.length === 0) throw new Error("README.md has no ```ts examples");
  const stem = source.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-");
  blocks.forEach((code, i) => {
    count += 1;
    writeFileSync(new URL(`${stem}-${i + 1}.ts`, out), `// From ${source}, example ${i + 1}.\nexport {};\n${code}`);
  });
}
console.log(`docs: ${count} TypeScript examples extracted from ${sources.length} files`);
