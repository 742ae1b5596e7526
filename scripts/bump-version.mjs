// Sets the version of the crate and the npm package together, for a release:
//   - Cargo.toml's [package] version, and the crate's own entry in Cargo.lock,
//   - pkg-template/package.json's version (scripts/build.sh copies it into pkg/),
//   - CHANGELOG.md: the "## Unreleased" heading becomes "## <version>", with a new, empty
//     "## Unreleased" above it.
// The client sends the crate's version as clientInfo.version (env!("CARGO_PKG_VERSION")),
// so nothing else holds it. The pack tier checks that all of them agree.
//
//   node scripts/bump-version.mjs 0.2.0
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function fail(message) {
  console.error(`bump-version: ${message}`);
  process.exit(1);
}

const version = process.argv[2];
if (process.argv.length !== 3 || !SEMVER.test(version)) fail("usage: node scripts/bump-version.mjs <major.minor.patch[-pre]>");

const files = {};
const load = (file) => (files[file] = readFileSync(path.join(repo, file), "utf8"));

// Replaces exactly one match of `pattern` in `file`, keeping the text around the version.
function setVersion(file, pattern, what) {
  const text = files[file] ?? load(file);
  const matches = [...text.matchAll(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g"))];
  if (matches.length !== 1) fail(`${file}: expected one ${what}, found ${matches.length}`);
  const [match, before, old, after] = matches[0];
  files[file] = text.replace(match, `${before}${version}${after}`);
  return old;
}

const old = setVersion("Cargo.toml", /(^\[package\][^[]*?^version = ")([^"]+)(")/m, "[package] version");
if (old === version) fail(`the version is ${version} already`);
setVersion("Cargo.lock", /(\[\[package\]\]\nname = "mcp-wasm"\nversion = ")([^"]+)(")/, "mcp-wasm entry");
setVersion("pkg-template/package.json", /(^ {2}"version": ")([^"]+)(")/m, "top-level version");

const changelog = load("CHANGELOG.md");
const unreleased = changelog.match(/^## Unreleased\n([\s\S]*?)(?=^## )/m);
if (!unreleased) fail("CHANGELOG.md: no '## Unreleased' section above the previous version");
if (unreleased[1].trim() === "") fail("CHANGELOG.md: the Unreleased section is empty; say what this version adds first");
if (new RegExp(`^## ${version.replace(/\./g, "\\.")}$`, "m").test(changelog)) fail(`CHANGELOG.md: a ${version} section exists already`);
files["CHANGELOG.md"] = changelog.replace(/^## Unreleased\n/m, `## Unreleased\n\n## ${version}\n`);

for (const [file, text] of Object.entries(files)) writeFileSync(path.join(repo, file), text);
console.log(`bump-version: ${old} -> ${version} in Cargo.toml, Cargo.lock, pkg-template/package.json and CHANGELOG.md`);
