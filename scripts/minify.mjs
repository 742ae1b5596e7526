// Minifies every JS file of the built package in place, with terser, and writes a source
// map beside each (`<file>.map`, the unminified text inside it), which the file names.
//
//   node scripts/minify.mjs <pkg dir>
//
// What a page downloads is the JS as shipped, so it goes without comments or spaces, and
// local names are shortened. Class names are kept: `McpClient.name`, a console's
// `McpClient {…}` and `instanceof` messages read as they are written. Stack traces and
// a debugger find the source through the maps, which a browser fetches only when its
// developer tools are open: they are not part of what a page loads.
//
// A file that comes with a map of its own (`index.js`, bundled by esbuild from
// pkg-template/) keeps pointing at those sources through it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { minify } from "terser";

const [dir] = process.argv.slice(2);
if (!dir) throw new Error("usage: node scripts/minify.mjs <pkg dir>");

// Deno finds the glue's types through this comment, which must stay the file's first line.
const SELF_TYPES = /^\/\* @ts-self-types="[^"]+" \*\/\n/;

// The names a module exports, as bound inside it. A class esbuild's bundle turned into
// `var ToolBridge = class {…}` takes its name from the variable, so these must not be
// shortened; and its `var McpHost = class _McpHost {…}` (a class that names itself
// inside) would be called `_McpHost`: the inner name becomes the outer one.
function exportedNames(source) {
  const names = new Set();
  for (const [, list] of source.matchAll(/\bexport\s*\{([^}]*)\}/g)) {
    for (const item of list.split(",")) {
      const [local, exported = local] = item.trim().split(/\s+as\s+/);
      if (local && local === exported) names.add(local);
    }
  }
  for (const [, name] of source.matchAll(/\bexport\s+(?:async\s+)?(?:class|function\*?|const|let|var)\s+([\w$]+)/g)) names.add(name);
  return names;
}

function innerClassNamesAsOuter(source) {
  let out = source;
  for (const [, outer] of source.matchAll(/\bvar ([\w$]+) = class _\1\b/g)) out = out.replaceAll(new RegExp(`\\b_${outer}\\b`, "g"), outer);
  return out;
}

const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => f.split(path.sep).join("/"));
for (const file of files) {
  const full = path.join(dir, file);
  const name = path.posix.basename(file);
  const mapFile = `${full}.map`;
  const source = readFileSync(full, "utf8");
  const selfTypes = source.match(SELF_TYPES)?.[0] ?? "";
  const inputMap = existsSync(mapFile) ? readFileSync(mapFile, "utf8") : undefined;
  const input = innerClassNamesAsOuter(source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"));
  const { code, map } = await minify({ [name]: input }, {
    module: true,
    keep_classnames: true,
    mangle: { reserved: [...exportedNames(input)] },
    compress: { passes: 2 },
    format: { comments: false, preamble: selfTypes.trimEnd() || undefined },
    sourceMap: { content: inputMap, includeSources: true, url: `${name}.map` },
  });
  writeFileSync(full, code);
  writeFileSync(mapFile, map);
}
