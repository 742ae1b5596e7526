// The browser entry's loader for the rest of the core (rest-gate.js): fetched and compiled
// off the page's thread when a method first needs it or the first tool call has settled,
// or, if the primary reaches it before that, fetched and compiled synchronously: a
// synchronous XMLHttpRequest, and a compile that Firefox and Safari allow on a page's
// thread at any size, and Chrome and Edge since 115 (up to 8 MB; 4 KB before).
// A fetch that stalls fails after `deadline`, as a bundler's lazy chunk does (webpack's
// `chunkLoadTimeout` is the same two minutes), so that the next call that needs the
// module fetches it again rather than wait on it for ever.
export function webRestLoader(url, deadline = 120_000) {
  return {
    sync() {
      const request = new XMLHttpRequest();
      request.open("GET", url, false);
      // A synchronous request on a page's thread cannot ask for an ArrayBuffer: this
      // charset hands each byte over as one character.
      request.overrideMimeType("text/plain; charset=x-user-defined");
      request.send();
      if (request.status !== 200) throw new Error(`mcp-wasm: fetching ${url} failed: ${request.status}`);
      const text = request.responseText;
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      return bytes;
    },
    async load() {
      const response = await fetch(url, { signal: AbortSignal.timeout(deadline) });
      if (!response.ok) throw new Error(`mcp-wasm: fetching ${url} failed: ${response.status}`);
      return response.headers.get("content-type") === "application/wasm"
        ? WebAssembly.compileStreaming(response)
        : response.arrayBuffer();
    },
  };
}
