// Writes every ```ts block of README.md to tests/types/readme/example-N.ts, so
// that `tsc -p tests/types` type-checks the README's examples against the
// package's .d.ts and they cannot drift from the API. Each block is its own
// module; the output folder is rebuilt each run and not committed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const out = new URL("./readme/", import.meta.url);
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
if (blocks.length === 0) throw new Error("README.md has no ```ts examples");
blocks.forEach((code, i) => {
  writeFileSync(new URL(`example-${i + 1}.ts`, out), `// From README.md, example ${i + 1}.\nexport {};\n${code}`);
});
console.log(`readme: ${blocks.length} TypeScript examples extracted`);
