// A module of the package that `setPartLoaders` (mcp-wasm/raw) hands to the core: what it
// exports is the core's business, so its type says nothing more.
export {};
