// Names the glue's module in a copy of the package's Node sender (pkg-template/node-fetch.js), which
// hands itself to the glue: wasm-bindgen puts the glue under a hashed path, found in mcp_wasm.js.
//   node scripts/name-glue.mjs <package dir>
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gluePathIn } from "./glue-path.mjs";

const dir = process.argv[2];
const glue = gluePathIn(readFileSync(path.join(dir, "mcp_wasm.js"), "utf8"));
const file = path.join(dir, "node-fetch.js");
const sender = readFileSync(file, "utf8");
const placeholder = '"./glue-snippet.js"';
if (!glue || !sender.includes(placeholder)) {
  console.error(`name-glue: no glue in ${dir}/mcp_wasm.js, or no ${placeholder} in node-fetch.js`);
  process.exit(1);
}
writeFileSync(file, sender.replace(placeholder, JSON.stringify(glue)));
