import { defineConfig } from "vite";

export default defineConfig({
  // mcp-wasm fetches its .wasm file from next to its own module
  // (`new URL("./mcp_wasm_bg.wasm", import.meta.url)`). Vite's dependency
  // pre-bundling would move the module away from that file, so serve it as is.
  optimizeDeps: { exclude: ["mcp-wasm"] },
  server: {
    // In this repository mcp-wasm is the local build, ../../pkg, outside this
    // folder: let the dev server hand out its files. Not needed (but harmless)
    // in a copy that installs mcp-wasm from npm.
    fs: { allow: [".", "../../pkg"] },
  },
});
