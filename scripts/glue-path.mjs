// Where wasm-bindgen put src/glue.js: a hashed path under snippets/, named in mcp_wasm.js's imports.
// Undefined when the text imports no glue.
export function gluePathIn(bindings) {
  return bindings.match(/["'](\.\/snippets\/[^"']+\/src\/glue\.js)["']/)?.[1];
}
