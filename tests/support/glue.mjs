// The package's glue module (src/glue.js), as mcp_wasm.js hands it over (scripts/fold-glue.mjs):
// for tests that call its functions or watch what they do.
import { __glue } from "mcp-wasm/raw";

export const glue = __glue;
