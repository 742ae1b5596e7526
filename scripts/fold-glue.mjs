// Gives the package's glue module (src/glue.js, which wasm-bindgen puts under a hashed path
// named in mcp_wasm.js) to the modules that hand it things, as `__glue` of mcp_wasm.js: the
// Node sender (pkg-template/node-fetch.js) and the tests read it there, so that they always
// reach the one instance the core uses.
//
//   node scripts/fold-glue.mjs <package dir>            # mcp_wasm.js re-exports the glue
//   node scripts/fold-glue.mjs <package dir> --inline   # ... and holds it: one file, not two
//
// --inline is for the shipped package: the glue and mcp_wasm.js are both in a page's first
// call, and compressed together they are 0.3 KB gzip smaller than each on its own
// (bench/analysis.md, "Forty-third round"); the snippet's file is then removed. The profile's
// copy of the package keeps the file, which scripts/split/profile.mjs imports by its path.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { gluePathIn } from "./glue-path.mjs";

const [given, mode] = process.argv.slice(2);
const dir = path.resolve(given);
const bindings = path.join(dir, "mcp_wasm.js");
const glue = gluePathIn(readFileSync(bindings, "utf8"));
if (!glue) {
  console.error(`fold-glue: ${bindings} imports no glue`);
  process.exit(1);
}
const reExport = `export * as __glue from ${JSON.stringify(glue)};\n`;
if (mode !== "--inline") {
  writeFileSync(bindings, readFileSync(bindings, "utf8") + reExport);
} else {
  const entry = path.join(dir, "fold-glue-entry.js");
  writeFileSync(entry, `export * from "./mcp_wasm.js";\nexport { default } from "./mcp_wasm.js";\n${reExport}`);
  try {
    // Only the glue is inlined: whatever else mcp_wasm.js imports stays a module of its own.
    const inlineGlue = {
      name: "inline-glue",
      setup(build) {
        build.onResolve({ filter: /^\.\// }, (args) => {
          const file = path.resolve(args.resolveDir, args.path);
          const own = [entry, bindings, path.resolve(dir, glue)].includes(file);
          return own ? undefined : { path: args.path, external: true };
        });
      },
    };
    await build({
      entryPoints: [entry], outfile: bindings, allowOverwrite: true, bundle: true, format: "esm",
      legalComments: "none", logLevel: "warning", plugins: [inlineGlue],
    });
  } finally {
    rmSync(entry, { force: true });
  }
  // The instance's imports still name the module (a key of the import object), as the wasm does.
  if (/\bfrom\s*["']\.\/snippets\//.test(readFileSync(bindings, "utf8"))) {
    console.error(`fold-glue: ${bindings} still imports a snippet`);
    process.exit(1);
  }
  // snippets/<hash>/src/glue.js is the only snippet (src/dpop.js ships as a part of its own):
  // the directory goes with it.
  rmSync(path.join(dir, "snippets"), { recursive: true, force: true });
}
