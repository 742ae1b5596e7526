//! The hand-kept parts of the package's `.d.ts`: the MCP schema types
//! (generated from the official JSON Schema by `scripts/gen-schema-types.mjs`)
//! and the API's option, handler and error types.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const MCP_SCHEMA: &str = include_str!("../ts/mcp-schema.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const API: &str = include_str!("../ts/api.d.ts");
