// The names under which a host or a ToolBridge offers tools and prompts to a model: plain JS,
// since choosing names is string work that the engine's JSON and strings do in a few hundred
// bytes. The same rules are the Rust API's host::naming (src/host/naming.rs), and both are held
// to the cases in tests/fixtures/bridges.json.
import { McpClientError } from "./mcp_wasm.js";

/**
 * What each LLM API accepts as a function name: at most `maxLen` characters, none that `refused`
 * matches (each refused code point becomes one "_"), and a letter or "_" first where `letterFirst`.
 */
export const NAME_RULES = {
  portable: { maxLen: 64, refused: /[^A-Za-z0-9_-]/gu, letterFirst: true },
  openai: { maxLen: 64, refused: /[^A-Za-z0-9_-]/gu, letterFirst: false },
  anthropic: { maxLen: 64, refused: /[^A-Za-z0-9_-]/gu, letterFirst: false },
  gemini: { maxLen: 64, refused: /[^A-Za-z0-9_.:-]/gu, letterFirst: true },
};

const utf8 = new TextEncoder();

// FNV-1a over the parts' UTF-8 bytes, a zero byte between parts, as eight hex digits: a short,
// stable suffix that keeps two cut or clashing names apart.
function hash(parts) {
  let h = 0x811c9dc5;
  parts.forEach((part, i) => {
    if (i > 0) h = Math.imul(h, 0x01000193) >>> 0;
    // An ASCII prefix is its own UTF-8, read without encoding: a host may hash a hundred thousand
    // names, and most are ASCII.
    let k = 0;
    for (; k < part.length; k++) {
      const unit = part.charCodeAt(k);
      if (unit >= 0x80) break;
      h = Math.imul(h ^ unit, 0x01000193) >>> 0;
    }
    if (k < part.length) {
      const bytes = utf8.encode(part.slice(k));
      for (let b = 0; b < bytes.length; b++) h = Math.imul(h ^ bytes[b], 0x01000193) >>> 0;
    }
  });
  return `_${h.toString(16).padStart(8, "0")}`;
}

// `name` ends with `suffix`, cut to fit `maxLen`. Names are ASCII once qualified, so UTF-16 units are
// characters here.
function withSuffix(name, suffix, maxLen) {
  return name.slice(0, Math.max(0, Math.min(name.length, maxLen - suffix.length))) + suffix;
}

function qualify(server, tool, separator, rules) {
  // Only the first maxLen + 1 code points can reach the name (a longer one is cut); the rest of a
  // name a server made megabytes long is not mapped, only hashed.
  let head = "";
  let count = 0;
  for (const c of server + separator + tool) {
    if (++count > rules.maxLen + 1) break;
    head += c;
  }
  let name = head.replace(rules.refused, "_");
  if (name === "" || (rules.letterFirst && !/^[A-Za-z_]/.test(name))) name = `_${name}`;
  const cut = count > rules.maxLen + 1 || name.length > rules.maxLen;
  return cut ? withSuffix(name, hash([server, tool]), rules.maxLen) : name;
}

function clashes(names) {
  const seen = new Map();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  return names.flatMap((name, i) => (seen.get(name) > 1 ? [i] : []));
}

/** Distinct names for `[server, tool]` pairs, each `server + separator + tool` where it fits. */
export function assignNames(pairs, separator, rules) {
  const names = pairs.map(([server, tool]) => qualify(server, tool, separator, rules));
  for (let round = 0; round < 3; round++) {
    const clashing = clashes(names);
    if (clashing.length === 0) return names;
    for (const i of clashing) names[i] = withSuffix(names[i], hash([pairs[i][0], pairs[i][1], names[i]]), rules.maxLen);
  }
  return numberCopies(names, rules);
}

// Only the same pair given more than once (or a hash collision a server made on purpose) can still
// clash: the first keeps the name, and each later copy is numbered by how many came before it. A
// number that another entry's name already has (a server can list a tool called that) gives way to
// the next of one count shared by all names: those are each tried once, so the work stays linear.
function numberCopies(names, rules) {
  const taken = new Set(names);
  const copiesOf = new Map();
  let spare = 0;
  return names.map((name) => {
    const copies = copiesOf.get(name) ?? 0;
    copiesOf.set(name, copies + 1);
    if (copies === 0) return name;
    let numbered = withSuffix(name, `_${copies}`, rules.maxLen);
    while (taken.has(numbered)) numbered = withSuffix(name, `_${++spare}`, rules.maxLen);
    taken.add(numbered);
    return numbered;
  });
}

// How every prefixed name of `server` begins: `server + separator` with the rules' characters, as
// far as a name cut for its hash suffix keeps it (a hash suffix is "_" and eight hex digits).
function marker(server, separator, rules) {
  return qualify(server, "", separator, { ...rules, maxLen: Infinity }).slice(0, Math.max(0, rules.maxLen - 9));
}

// Only the names that several servers share carry their server's name. `known` are servers that
// may have no entry now (not listed yet, reconnecting) but whose prefixed names a bare one must not take.
function assignOnCollision(pairs, separator, rules, known) {
  // Each tool's first server, and whether another server lists it too: one pass, not a search per
  // pair, since a server can list a hundred thousand tools.
  const servers = new Map();
  for (const [server, tool] of pairs) {
    const seen = servers.get(tool);
    if (seen === undefined) servers.set(tool, { server, shared: false });
    else seen.shared ||= seen.server !== server;
  }
  // A bare name that reads as some server's prefixed one is prefixed too: otherwise a server could
  // list `github__search`, and when github's `search` stops being shared (and so loses its prefix)
  // the name a model already holds would lead to that server instead.
  const markers = [...new Set([...known, ...pairs.map(([server]) => server)])].map((server) => marker(server, separator, rules));
  const names = pairs.map(([server, tool]) => {
    const bare = qualify("", tool, "", rules);
    const prefixed = servers.get(tool).shared || markers.some((start) => bare.startsWith(start));
    return prefixed ? qualify(server, tool, separator, rules) : bare;
  });
  const clashing = clashes(names);
  if (clashing.length === 0) return names;
  const settled = assignNames(clashing.map((i) => pairs[i]), separator, rules);
  clashing.forEach((i, k) => (names[i] = settled[k]));
  return clashes(names).length === 0 ? names : assignNames(pairs, separator, rules);
}

const invalid = (message) => new McpClientError("invalid-argument", message);

function readNaming(naming) {
  if (naming === undefined || naming === null) return { rules: NAME_RULES.portable, separator: "__", onCollision: false };
  if (typeof naming !== "object") throw invalid("naming must be an object");
  // A member that is null counts as left out, as in the client's options.
  const rules = naming.rules ?? "portable";
  const separator = naming.separator ?? "__";
  const prefix = naming.prefix ?? "always";
  if (typeof rules !== "string" || !Object.hasOwn(NAME_RULES, rules)) {
    throw invalid('naming.rules must be "portable", "openai", "anthropic" or "gemini"');
  }
  if (typeof separator !== "string" || utf8.encode(separator).length > 8) {
    throw invalid("naming.separator must be a string of at most 8 characters");
  }
  if (prefix !== "always" && prefix !== "on-collision") throw invalid('naming.prefix must be "always" or "on-collision"');
  return { rules: NAME_RULES[rules], separator, onCollision: prefix === "on-collision" };
}

/**
 * The names under which a host offers each `[server, name]` entry to a model: deterministic (the
 * same entries give the same names in any order), distinct, and within the chosen LLM API's rules
 * for length and characters. A name two entries would share gets a short hash suffix on both.
 * `servers` names every server of the host, those with no entry now included. `McpHost` uses this
 * for its registry.
 * @throws {McpClientError} `invalid-argument` for a bad entry or option.
 */
export function qualifiedNames(entries, naming, servers = []) {
  const { rules, separator, onCollision } = readNaming(naming);
  const pair = (entry) => Array.isArray(entry) && entry.length === 2 && entry.every((part) => typeof part === "string");
  if (!Array.isArray(entries) || !entries.every(pair)) throw invalid("entries must be an array of [server, name] string pairs");
  if (!Array.isArray(servers) || !servers.every((server) => typeof server === "string")) throw invalid("servers must be an array of names");
  return onCollision ? assignOnCollision(entries, separator, rules, servers) : assignNames(entries, separator, rules);
}
