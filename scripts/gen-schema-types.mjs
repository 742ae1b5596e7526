#!/usr/bin/env node
// Generates src/ts/mcp-schema.d.ts: TypeScript declarations for every definition in
// the official MCP JSON Schema (`$defs`), with the same names as the schema.
//
//   node scripts/gen-schema-types.mjs           write src/ts/mcp-schema.d.ts
//   node scripts/gen-schema-types.mjs --check   exit 1 if that file is out of date
//
// The output is pasted verbatim into the wasm-bindgen `.d.ts` (typescript_custom_section),
// so it must be a plain ES-module declaration file: only `export type`, no imports, no
// `declare module`, and no `any` (checked below, outside comments).
//
// This is a small purpose-built generator rather than json-schema-to-typescript, whose
// output for this schema has duplicate names (`Annotations1` … `Annotations7`,
// `TaskMetadata5`, …) and `any`. It handles the subset of JSON Schema the MCP schema
// uses and fails loudly on any keyword it does not understand, so a future schema
// that needs more is noticed rather than mistranslated.
//
// Every definition is an `export type` alias, objects included, never an `interface`:
// TypeScript gives object-literal types an implicit index signature but not interfaces,
// so only with aliases is a `CallToolResult` assignable to `Result` (which the schema
// gives `[key: string]: unknown`) or to `Record<string, unknown>`.
//
// Mapping:
//   $ref "#/$defs/X"             X
//   const / enum                 literal / union of literals
//   anyOf / oneOf                union;  allOf  intersection
//   type: [...]                  union of the primitive types; integer → number
//   array + items                T[]
//   object + properties          { known fields }; `required` decides `?`
//   additionalProperties absent  no index signature (TypeScript object types are open
//   or false                     anyway: values carrying extra fields still assign)
//   additionalProperties true/{} `[key: string]: unknown`
//   additionalProperties schema  `[key: string]: T` (unknown if known fields exist too)
//   {} (no constraint)           unknown
//   description                  JSDoc; format/minimum/maximum become @tags

import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const REVISION = "2025-11-25";
const SCHEMA_URL = new URL(`../spec/${REVISION}/schema.json`, import.meta.url);
const OUT_URL = new URL("../src/ts/mcp-schema.d.ts", import.meta.url);
const SCRIPT_NAME = "scripts/gen-schema-types.mjs";

const raw = readFileSync(SCHEMA_URL, "utf8");
const schema = JSON.parse(raw);
const defs = schema.$defs;
if (!defs || typeof defs !== "object") throw new Error(`${fileURLToPath(SCHEMA_URL)}: no $defs`);

// Keywords that only annotate or constrain values in ways TypeScript cannot express.
const ANNOTATIONS = new Set([
  "description", "title", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "default",
  "examples", "deprecated", "readOnly", "writeOnly", "$comment",
]);
const STRUCTURAL = new Set([
  "$ref", "type", "properties", "required", "additionalProperties", "items",
  "enum", "const", "anyOf", "oneOf", "allOf",
]);

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDENT = "  ";

function fail(where, msg) {
  throw new Error(`${where}: ${msg}`);
}

function checkKeywords(s, where) {
  for (const k of Object.keys(s)) {
    if (!STRUCTURAL.has(k) && !ANNOTATIONS.has(k)) fail(where, `unsupported keyword "${k}"`);
  }
}

function refName(ref, where) {
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  if (!m) fail(where, `unsupported $ref "${ref}"`);
  if (!Object.hasOwn(defs, m[1])) fail(where, `$ref to unknown definition "${m[1]}"`);
  if (!IDENT.test(m[1])) fail(where, `definition name "${m[1]}" is not a TypeScript identifier`);
  return m[1];
}

/** JSDoc block for a description plus annotation tags, indented by `ind`; "" if empty. */
function jsdoc(s, ind) {
  const lines = [];
  if (typeof s.description === "string" && s.description.trim() !== "") {
    lines.push(...s.description.trim().split("\n").map((l) => l.trimEnd()));
  }
  const tags = [];
  if (typeof s.format === "string") tags.push(`@format ${s.format}`);
  if (typeof s.minimum === "number") tags.push(`@minimum ${s.minimum}`);
  if (typeof s.maximum === "number") tags.push(`@maximum ${s.maximum}`);
  if (tags.length) {
    if (lines.length) lines.push("");
    lines.push(...tags);
  }
  if (!lines.length) return "";
  const esc = (l) => l.replaceAll("*/", "*\\/");
  if (lines.length === 1) return `${ind}/** ${esc(lines[0])} */\n`;
  return `${ind}/**\n${lines.map((l) => (l ? `${ind} * ${esc(l)}` : `${ind} *`)).join("\n")}\n${ind} */\n`;
}

function isObjectSchema(s) {
  return s.type === "object" || (s.type === undefined && (s.properties || s.additionalProperties !== undefined));
}

// Whether the rendered type needs parentheses before `[]` or inside `&`.
function isCompound(s) {
  if (s.$ref !== undefined) return false;
  if (s.const !== undefined) return false;
  if (Array.isArray(s.enum)) return s.enum.length > 1;
  if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).length > 1;
  if (s.allOf) return s.allOf.length > 1;
  if (Array.isArray(s.type)) return new Set(s.type.map((t) => (t === "integer" ? "number" : t))).size > 1;
  return false;
}

function literal(v, where) {
  if (v === null || ["string", "number", "boolean"].includes(typeof v)) return JSON.stringify(v);
  fail(where, `unsupported literal ${JSON.stringify(v)}`);
}

function primitive(t, s, ind, where) {
  switch (t) {
    case "string": return "string";
    case "number":
    case "integer": return "number";
    case "boolean": return "boolean";
    case "null": return "null";
    case "array": {
      if (s.items === undefined) return "unknown[]";
      if (Array.isArray(s.items) || typeof s.items !== "object") fail(where, "tuple items are not supported");
      const item = render(s.items, ind, `${where}/items`);
      return isCompound(s.items) ? `(${item})[]` : `${item}[]`;
    }
    case "object": return renderObject(s, ind, where);
    default: fail(where, `unsupported type "${t}"`);
  }
}

/** Renders a schema as a TypeScript type expression; nested lines are indented from `ind`. */
function render(s, ind, where) {
  if (s === true) return "unknown";
  if (s === false) return "never";
  if (typeof s !== "object" || s === null) fail(where, "schema is not an object");
  checkKeywords(s, where);

  if (s.$ref !== undefined) return refName(s.$ref, where);
  if (s.const !== undefined) return literal(s.const, `${where}/const`);
  if (Array.isArray(s.enum)) return s.enum.map((v) => literal(v, `${where}/enum`)).join(" | ");
  for (const k of ["anyOf", "oneOf"]) {
    if (s[k]) {
      if (s.type !== undefined && !(s.type === "object" && !s.properties)) fail(where, `${k} combined with type`);
      return s[k].map((m, i) => render(m, ind, `${where}/${k}/${i}`)).join(" | ");
    }
  }
  if (s.allOf) {
    return s.allOf
      .map((m, i) => {
        const t = render(m, ind, `${where}/allOf/${i}`);
        return isCompound(m) ? `(${t})` : t;
      })
      .join(" & ");
  }
  if (Array.isArray(s.type)) {
    const parts = [...new Set(s.type.map((t) => primitive(t, s, ind, where)))];
    return parts.join(" | ");
  }
  if (s.type !== undefined) return primitive(s.type, s, ind, where);
  if (isObjectSchema(s)) return renderObject(s, ind, where);
  return "unknown"; // {} or annotations only: any JSON value
}

/** Body lines of an object type (without braces), each indented with `ind`. */
function objectMembers(s, ind, where) {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  for (const r of required) if (!Object.hasOwn(props, r)) fail(where, `required "${r}" has no property schema`);
  let out = "";
  for (const [name, ps] of Object.entries(props)) {
    const key = IDENT.test(name) ? name : JSON.stringify(name);
    const opt = required.has(name) ? "" : "?";
    out += typeof ps === "object" && ps !== null ? jsdoc(ps, ind) : "";
    out += `${ind}${key}${opt}: ${render(ps, ind, `${where}/properties/${name}`)};\n`;
  }
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== false) {
    const trivial = ap === true || (typeof ap === "object" && Object.keys(ap).length === 0);
    let valueType = trivial ? "unknown" : render(ap, ind, `${where}/additionalProperties`);
    // A typed index signature would also have to cover the known fields; keep it simple.
    if (Object.keys(props).length && valueType !== "unknown") valueType = "unknown";
    out += `${ind}[key: string]: ${valueType};\n`;
  }
  return out;
}

function renderObject(s, ind, where) {
  const body = objectMembers(s, ind + INDENT, where);
  // `type: object` with nothing else, or only an index signature: keep it on one line.
  if (!body) return "{ [key: string]: unknown }";
  if (!body.includes("\n", body.indexOf("\n") + 1) && body.trimStart().startsWith("[key: string]")) {
    return `{ ${body.trim().replace(/;$/, "")} }`;
  }
  return `{\n${body}${ind}}`;
}

/** Top-level declaration for one definition. */
function declare(name, s) {
  const where = `#/$defs/${name}`;
  if (!IDENT.test(name)) fail(where, "definition name is not a TypeScript identifier");
  checkKeywords(s, where);
  const doc = jsdoc(s, "");
  // Long unions (ClientRequest, ContentBlock, …) go one member per line.
  const members = s.anyOf || s.oneOf;
  if (members && members.length > 3) {
    const key = s.anyOf ? "anyOf" : "oneOf";
    const parts = members.map((m, i) => render(m, INDENT, `${where}/${key}/${i}`));
    return `${doc}export type ${name} =\n${parts.map((p) => `${INDENT}| ${p}`).join("\n")};\n`;
  }
  return `${doc}export type ${name} = ${render(s, "", where)};\n`;
}

const sha256 = createHash("sha256").update(raw).digest("hex");
const header = `// Generated from spec/${REVISION}/schema.json — the official JSON Schema of the
// Model Context Protocol, revision ${REVISION} (modelcontextprotocol/modelcontextprotocol,
// schema/${REVISION}/schema.json; sha256 ${sha256}),
// by ${SCRIPT_NAME}. DO NOT EDIT: change the generator and run \`node ${SCRIPT_NAME}\`.
//
// One export per \`$defs\` entry, under the same name. Open JSON values are \`unknown\`.
`;

const names = Object.keys(defs);
const output = header + names.map((n) => "\n" + declare(n, defs[n])).join("");

// Guard the output contract. Comments are stripped first: the spec's prose says "any".
const code = output.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
for (const [re, what] of [
  [/\bany\b/, "`any`"], [/\bimport\b/, "an import"], [/\bdeclare\b/, "`declare`"],
  [/\binterface\b/, "an interface"],
]) {
  const m = re.exec(code);
  if (m) fail(fileURLToPath(OUT_URL), `generated code contains ${what}: …${code.slice(Math.max(0, m.index - 60), m.index + 20)}…`);
}
const exported = [...code.matchAll(/^export type (\w+)\b/gm)].map((m) => m[1]);
if (exported.join() !== names.join()) fail(fileURLToPath(OUT_URL), "exports do not match $defs one to one");

const outPath = fileURLToPath(OUT_URL);
if (process.argv.includes("--check")) {
  let current = "";
  try { current = readFileSync(outPath, "utf8"); } catch {}
  if (current !== output) {
    console.error(`${path.relative(process.cwd(), outPath)} is out of date: run node ${SCRIPT_NAME}`);
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), outPath)} is up to date (${names.length} definitions)`);
} else {
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, output);
  console.log(`wrote ${path.relative(process.cwd(), outPath)}: ${names.length} definitions, ${Buffer.byteLength(output)} bytes`);
}
