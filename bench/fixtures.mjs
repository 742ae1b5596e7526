// Deterministic payloads for the benchmark server: 2,000 tools with realistic
// input schemas, a deep structuredContent with its outputSchema, 5 MB of text.

// A small seeded generator, so every run serves the same bytes.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = "account address amount archive balance batch branch bucket cache calendar channel cluster comment commit contact container cursor dataset deploy document draft event export field file filter folder invoice issue job label ledger message metric note order owner page payment pipeline policy project query queue record region release report repository request resource review role schedule secret service session snapshot space status stream subscription tag task team template ticket token topic user version volume webhook workflow".split(" ");

function toolSchema(next, i) {
  const word = () => WORDS[Math.floor(next() * WORDS.length)];
  const properties = {
    [`${word()}_id`]: { type: "string", description: `The id of the ${word()} to act on.`, minLength: 1 },
    limit: { type: "integer", minimum: 1, maximum: 500, default: 50, description: "How many results to return at most." },
    cursor: { type: "string", description: "An opaque cursor from a previous page." },
    filter: { type: "object", description: `Narrows the ${word()}s returned.`, properties: {
      status: { type: "string", enum: ["open", "closed", "archived", "draft"] },
      created_after: { type: "string", format: "date-time" },
      labels: { type: "array", items: { type: "string" }, maxItems: 20 },
    } },
    include: { type: "array", items: { type: "string", enum: ["owner", "history", "metadata", "children"] } },
    dry_run: { type: "boolean", default: false, description: "Validate without changing anything." },
  };
  return {
    name: `${word()}_${word()}_${i}`,
    title: `${word()} ${word()}`.replace(/^./, (c) => c.toUpperCase()),
    description: `Lists or updates ${word()}s of a ${word()}, with paging and filters. Returns the matching ${word()}s and a cursor for the next page when there are more. Requires the ${word()}:read scope.`,
    inputSchema: { type: "object", properties, required: [Object.keys(properties)[0]] },
    annotations: { readOnlyHint: next() < 0.5, idempotentHint: true },
  };
}

const ITEM_SCHEMA = {
  type: "object",
  required: ["id", "name", "tags", "address", "scores"],
  properties: {
    id: { type: "integer" },
    name: { type: "string" },
    active: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    scores: { type: "array", items: { type: "number" } },
    address: { type: "object", required: ["city", "geo"], properties: {
      street: { type: "string" }, city: { type: "string" },
      geo: { type: "object", required: ["lat", "lng"], properties: {
        lat: { type: "number" }, lng: { type: "number" },
        meta: { type: "object", properties: { source: { type: "string" }, accuracy: { type: "number" },
          history: { type: "array", items: { type: "object", properties: { at: { type: "string" }, by: { type: "string" } } } } } },
      } },
    } },
  },
};

export const DEEP_OUTPUT_SCHEMA = { type: "object", required: ["items", "total"], properties: { total: { type: "integer" }, items: { type: "array", items: ITEM_SCHEMA } } };

export function fixtures() {
  const next = random(42);
  const tools = [
    { name: "echo", description: "Echoes text", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    { name: "progress", description: "Sends `count` progress notifications", inputSchema: { type: "object", properties: { count: { type: "integer" } } } },
    { name: "deep", description: "A deep structured result", inputSchema: { type: "object", properties: {} }, outputSchema: DEEP_OUTPUT_SCHEMA },
  ];
  for (let i = 0; i < 2000; i++) tools.push(toolSchema(next, i));
  const items = Array.from({ length: 1500 }, (_, i) => ({
    id: i, name: `item ${i} ${WORDS[i % WORDS.length]}`, active: i % 3 === 0,
    tags: [WORDS[i % 7], WORDS[(i * 3) % 11], WORDS[(i * 5) % 13]],
    scores: [next(), next(), next(), next()],
    address: { street: `${i} ${WORDS[i % 17]} street`, city: WORDS[i % 19],
      geo: { lat: next() * 180 - 90, lng: next() * 360 - 180, meta: { source: "gps", accuracy: next(), history: [{ at: "2026-01-01T00:00:00Z", by: "import" }, { at: "2026-02-01T00:00:00Z", by: "sync" }] } } },
  }));
  const line = "The quick brown fox jumps over the lazy dog, and the dog does not mind at all. 0123456789\n";
  const bigText = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length)).slice(0, 5 * 1024 * 1024);
  return { tools, deepResult: { total: items.length, items }, bigText };
}
