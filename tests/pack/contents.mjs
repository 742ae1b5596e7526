// What the npm tarball and the crate must hold, worked out from the sources rather than
// listed by hand: a file belongs in the tarball if an entry point of package.json
// (`exports`, `main`, `types`) reaches it through its imports, and in the crate if it is
// under src/ or something in src/ includes it at compile time. Beside those, only the
// documents a user reads (README, CHANGELOG, licenses) may ship.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The documents that ship in the npm tarball besides the code. */
export const PACKAGE_DOCUMENTS = ["package.json", "README.md", "CHANGELOG.md", "LICENSE-MIT", "LICENSE-APACHE"];
/** What ships in the crate besides src/ and what src/ includes. */
export const CRATE_DOCUMENTS = ["Cargo.toml", "README.md", "CHANGELOG.md", "LICENSE-MIT", "LICENSE-APACHE"];
// Written by cargo package itself: the manifest as written, the lock file, the commit it came from.
const CRATE_GENERATED = ["Cargo.toml.orig", "Cargo.lock", ".cargo_vcs_info.json"];
// Each is listed in spec/README.md as the source and license of the vendored schemas.
const CRATE_NOTICES = ["spec/README.md"];

const MODULE_SPECIFIERS = [
  /\bfrom\s*["']([^"']+)["']/g, // import … from "x", export … from "x"
  /\bimport\s*["']([^"']+)["']/g, // import "x"
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, // import("x"), in code and in .d.ts types
];
const ASSET_URL = /\bnew URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g;
const SOURCE_MAP = /^\/\/# sourceMappingURL=(\S+)\s*$/gm; // scripts/minify.mjs

function targets(value, into) {
  if (typeof value === "string") into.push(value);
  else if (value && typeof value === "object") for (const v of Object.values(value)) targets(v, into);
  return into;
}

function relativeSpecifiers(text) {
  const found = [];
  for (const pattern of MODULE_SPECIFIERS) {
    for (const m of text.matchAll(pattern)) if (m[1].startsWith("./") || m[1].startsWith("../")) found.push(m[1]);
  }
  // new URL("x", import.meta.url) resolves any scheme-less string against the module.
  for (const m of text.matchAll(ASSET_URL)) if (!m[1].includes(":")) found.push(m[1]);
  for (const m of text.matchAll(SOURCE_MAP)) if (!m[1].includes(":")) found.push(`./${m[1]}`);
  return found;
}

/**
 * Every file of the built package in `dir` that an entry point reaches: `{ reached, absent }`,
 * package-relative POSIX paths; `absent` are those reached but not on disk. In a .d.ts,
 * "./x.js" means the declarations "./x.d.ts".
 */
export function packageClosure(dir, manifest) {
  const roots = [...targets(manifest.exports, []), manifest.main, manifest.types].filter(Boolean);
  const queue = roots.map((r) => path.posix.normalize(r));
  const reached = new Set();
  const absent = [];
  while (queue.length > 0) {
    const file = queue.shift();
    if (reached.has(file)) continue;
    reached.add(file);
    const onDisk = path.join(dir, file);
    if (!existsSync(onDisk)) {
      absent.push(file);
      continue;
    }
    const declarations = file.endsWith(".d.ts");
    if (!declarations && !/\.m?js$/.test(file)) continue;
    for (const specifier of relativeSpecifiers(readFileSync(onDisk, "utf8"))) {
      let next = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (declarations) next = next.replace(/\.m?js$/, ".d.ts");
      queue.push(next);
    }
  }
  return { reached, absent };
}

function rustFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".rs"))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/**
 * Files outside src/… that the crate's sources need at compile time (include_str!,
 * include_bytes!, wasm-bindgen's `module = "/…"`), crate-relative POSIX paths; and those
 * inside src/ too, which the crate must hold as well.
 */
export function crateReferences(repo) {
  const found = new Set();
  for (const file of rustFiles(path.join(repo, "src"))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/\binclude_(?:str|bytes)!\(\s*"([^"]+)"\s*\)/g)) {
      found.add(path.relative(repo, path.resolve(path.dirname(file), m[1])).split(path.sep).join("/"));
    }
    for (const m of text.matchAll(/\bmodule\s*=\s*"\/([^"]+)"/g)) found.add(m[1]);
  }
  return found;
}

/** Files of the crate's listing that have no reason to ship. */
export function unexpectedInCrate(listing, references) {
  const allowed = new Set([...CRATE_DOCUMENTS, ...CRATE_GENERATED, ...CRATE_NOTICES, ...references]);
  return listing.filter((f) => !f.startsWith("src/") && !allowed.has(f));
}
