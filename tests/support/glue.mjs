// The package's glue module (src/glue.js), which wasm-bindgen puts under a hashed path named in
// mcp_wasm.js: for tests that call its functions or watch what they do.
import { readFileSync } from "node:fs";
import { gluePathIn } from "../../scripts/glue-path.mjs";

const entry = new URL(import.meta.resolve("mcp-wasm"));
const gluePath = gluePathIn(readFileSync(new URL("./mcp_wasm.js", entry), "utf8"));
export const glue = await import(new URL(gluePath, entry).href);
