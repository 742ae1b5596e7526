// quick-check.js, the check of a structuredContent on the parsed result, held to the validator:
// whatever it accepts, the validator accepts; on schemas it reads, it accepts whatever the
// validator accepts; everything else it leaves to the validator. Each test runs twice: with the
// code Node lets it generate for a schema, and with its rules alone, as in a browser or workerd. (Against server-everything:
// quick-check-peer.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import "mcp-wasm";
import { __validateJson, __validatorReady } from "mcp-wasm/raw";
import { __generateChecks, surelyValid as surelyValidText } from "../../pkg/quick-check.js";

/** quick-check.js's check of a schema given as an object, handed over as the core hands it: as text. */
const surelyValid = (schema, value, steps) => surelyValidText(JSON.stringify(schema), value, steps);

const STEPS = 1_000_000;

// The validator's module of the split core, loaded as the entry's loaders load it, by its first check.
assert.equal(__validatorReady(), false);
assert.equal(await __validateJson("{}", "0", 1, 1), null);
assert.equal(__validatorReady(), true);
/** The validator's verdict, a Promise: null when the instance matches. */
const verdict = (schema, value) => __validateJson(JSON.stringify(schema), JSON.stringify(value), STEPS * 10, 64);


// A small deterministic generator, so that a failure can be replayed.
function random(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * Random schemas and instances. `read` is false once the schema uses something quick-check.js
 * leaves to the validator, so that the test can also ask it to accept every match it reads.
 */
function generator(next) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const NAMES = ["a", "b", "c", "__proto__", "toString", "1", "ü"];
  const STRINGS = ["", "x", "héllo", "😀😀", "abc", "a\u0000b"];
  const NUMBERS = [0, -0, 1, -1, 2.5, 1e21, 3, 2 ** 53, -7.25];
  let read = true;
  function schema(depth) {
    if (depth > 3 || next() < 0.1) return pick([true, false, {}]);
    const s = {};
    const kind = pick(["object", "array", "string", "number", "integer", "boolean", "null", "any"]);
    if (kind !== "any") s.type = next() < 0.2 ? [kind, pick(["null", "string"])] : kind;
    if (next() < 0.1) s.enum = [pick(STRINGS), pick(NUMBERS), null];
    if (next() < 0.05) s.const = pick([pick(STRINGS), pick(NUMBERS), true]);
    if (kind === "object" || (kind === "any" && next() < 0.3)) {
      s.properties = Object.fromEntries(NAMES.filter(() => next() < 0.4).map((n) => [n, schema(depth + 1)]));
      if (next() < 0.5) s.required = NAMES.filter(() => next() < 0.25);
      // A name required twice counts once.
      if (s.required?.length > 0 && next() < 0.2) s.required.push(s.required[0]);
      if (next() < 0.3) s.additionalProperties = next() < 0.5 ? false : schema(depth + 1);
      if (next() < 0.1) s.maxProperties = Math.floor(next() * 4);
      if (next() < 0.1) s.minProperties = Math.floor(next() * 3);
    }
    if (kind === "array" && next() < 0.8) s.items = schema(depth + 1);
    if (kind === "array" && next() < 0.2) s.minItems = Math.floor(next() * 3);
    if (kind === "array" && next() < 0.2) s.maxItems = Math.floor(next() * 3);
    if (kind === "string" && next() < 0.3) s.maxLength = Math.floor(next() * 4);
    if (kind === "string" && next() < 0.3) s.minLength = Math.floor(next() * 3);
    if ((kind === "number" || kind === "integer") && next() < 0.3) s[pick(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"])] = pick(NUMBERS);
    if (next() < 0.1) s.anyOf = [schema(depth + 1), schema(depth + 1)];
    if (next() < 0.08) s.allOf = [schema(depth + 1)];
    if (next() < 0.05) s.$ref = "#/$defs/item";
    // A titled enum: a oneOf of constants, some of them repeated.
    if (next() < 0.05) s.oneOf = [pick(STRINGS), pick(STRINGS), pick(NUMBERS)].map((c) => ({ const: c, title: "t" }));
    if (next() < 0.05) {
      read = false;
      const unread = pick(["pattern", "not", "multipleOf", "uniqueItems", "patternProperties", "if", "contains"]);
      s[unread] = { pattern: "^a", not: { type: "null" }, multipleOf: 2, uniqueItems: true,
        patternProperties: { "^a": { type: "string" } }, if: { type: "string" }, contains: { type: "number" } }[unread];
      if (next() < 0.3) s.oneOf = [{ type: "string" }, {}];
    }
    if (next() < 0.03) {
      read = false;
      s.enum = [{ a: 1 }, [1]];
    }
    if (next() < 0.05) s.description = "ignored by both";
    return s;
  }
  function value(depth) {
    const kind = depth > 3 ? pick(["string", "number", "boolean", "null"]) : pick(["object", "object", "array", "string", "number", "boolean", "null"]);
    switch (kind) {
      case "object": return Object.fromEntries(NAMES.filter(() => next() < 0.35).map((n) => [n, value(depth + 1)]));
      case "array": return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      case "string": return pick(STRINGS);
      case "number": return pick(NUMBERS);
      case "boolean": return next() < 0.5;
      default: return null;
    }
  }
  return {
    pair() {
      read = true;
      const root = schema(0);
      const dialect = next() < 0.2 ? { $schema: "http://json-schema.org/draft-07/schema#" } : {};
      const full = typeof root === "object" ? { ...dialect, ...root, $defs: { item: schema(2) } } : root;
      return { schema: full, value: value(0), read };
    },
  };
}

for (const generated of [true, false]) {
  const mode = generated ? "generated code" : "rules alone";
  const setMode = () => assert.equal(__generateChecks(generated), generated, "Node lets quick-check.js generate code");
  test(`the validator finds no mismatch in what quick-check.js accepts; what it reads and the validator accepts, it accepts (${mode})`, async () => {
      setMode();
    const gen = generator(random(20261202));
    let accepted = 0;
    let valid = 0;
    for (let i = 0; i < 20_000; i++) {
      // JSON text in between, as the client sees both: "__proto__" stays an own member.
      const { schema, value, read } = gen.pair();
      const [s, v] = [JSON.parse(JSON.stringify(schema)), JSON.parse(JSON.stringify(value))];
      const quick = surelyValid(s, v, STEPS);
      const judged = await verdict(schema, value);
      if (quick) {
        accepted += 1;
        // The validator's own guards (a $ref back to itself in an alternative the quick check did not
        // need to try, its budget) may stop it: that is no mismatch.
        const mismatch = judged !== null && judged.kind !== "too-costly";
        assert.ok(!mismatch, `quick-check accepted what the validator refuses:\n${JSON.stringify(schema)}\n${JSON.stringify(value)}\n${JSON.stringify(judged)}`);
      }
      if (judged === null) valid += 1;
      if (judged === null && read) {
        assert.ok(quick, `quick-check left a plain match to the validator:\n${JSON.stringify(schema)}\n${JSON.stringify(value)}`);
      }
    }
    // The generator must reach both verdicts often, or the assertions above would hold by default.
    assert.ok(accepted > 2_000 && valid - accepted > 100, `accepted ${accepted}, valid ${valid}`);
  });

  test(`quick-check.js on the cases where JS and the validator could part (${mode})`, async () => {
      setMode();
    const ok = (schema, value) => surelyValid(JSON.parse(JSON.stringify(schema)), JSON.parse(JSON.stringify(value)), STEPS);
    const agree = async (schema, value, expected) => {
      assert.equal(ok(schema, value), expected, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`);
      if (expected) assert.equal(await verdict(schema, value), null);
    };
    await agree({ type: "integer" }, 3, true);
    await agree({ type: "integer" }, 3.5, false);
    await agree({ type: "integer" }, 1e21, true); // a whole number, however written
    await agree({ type: "string", maxLength: 2 }, "😀😀", true); // code points, not UTF-16 units
    await agree({ type: "string", minLength: 3 }, "😀😀", false);
    await agree({ type: "object", additionalProperties: false }, JSON.parse('{"__proto__": 1}'), false);
    await agree({ type: "object", required: ["__proto__"] }, JSON.parse('{"__proto__": 1}'), true);
    await agree({ type: "object", required: ["toString"] }, {}, false);
    await agree({ type: "constructor" }, {}, false);
    await agree({ enum: ["a", 1, null] }, 1, true);
    await agree({ const: { a: 1 } }, { a: 1 }, false); // compound values: the validator compares them
    await agree({ oneOf: [{ const: "a", title: "A" }, { const: "b" }] }, "a", true);
    await agree({ oneOf: [{ const: "a" }, { const: "b" }] }, "c", false);
    await agree({ oneOf: [{ const: "a" }, { const: "a" }] }, "a", false); // two alternatives match
    await agree({ oneOf: [{ const: "a" }, { type: "string" }] }, "a", false); // not constants alone
    await agree({ type: "string", pattern: "^a" }, "abc", false); // patterns: the validator's own engine
    await agree({ $schema: "http://json-schema.org/draft-07/schema#", $ref: "#/$defs/n", type: "string", $defs: { n: { type: "number" } } }, 1, true);
    await agree({ $ref: "#/$defs/n", type: "string", $defs: { n: { type: "number" } } }, 1, false); // 2020-12 reads both
    await agree({ $ref: "#/$defs/a~1b", $defs: { "a/b": {} } }, 1, false); // pointer escapes: the validator's
    await agree({ type: "array", items: [{ type: "string" }] }, ["x"], false); // a tuple
    await agree({ required: "x" }, {}, true); // a keyword of the wrong type is ignored, as the validator ignores it
    await agree({ minimum: "3" }, 1, true);
    // Too much work or too deep: it stops, and the validator decides.
    const wide = Array.from({ length: 5000 }, (_, i) => i);
    assert.equal(surelyValid({ type: "array", items: { type: "integer" } }, wide, 1000), false);
    assert.equal(surelyValid({ type: "array", items: { type: "integer" } }, wide, STEPS), true);
    let deep = {};
    for (let i = 0; i < 80; i++) deep = { anyOf: [deep] };
    assert.equal(surelyValid(deep, 1, STEPS), false);
  });

  test(`quick-check.js keeps a schema's rules between checks, and each check has its own budget (${mode})`, () => {
      setMode();
    const fresh = (v) => JSON.parse(JSON.stringify(v));
    const schema = { type: "object", required: ["items"], properties: { items: { type: "array", items: { $ref: "#/$defs/n" } } }, $defs: { n: { type: "integer" } } };
    const wide = { items: Array.from({ length: 5000 }, (_, i) => i) };
    // A check stopped by its budget leaves nothing behind for the next, which the same rules serve.
    assert.equal(surelyValid(fresh(schema), fresh(wide), 1000), false);
    assert.equal(surelyValid(fresh(schema), fresh(wide), STEPS), true);
    assert.equal(surelyValid(fresh(schema), { items: [1, "2"] }, STEPS), false);
    assert.equal(surelyValid(fresh(schema), { items: [1, 2] }, STEPS), true);
    // More schemas than are kept: each still gets its own rules, and the first comes back right.
    for (let max = 0; max < 40; max++) {
      const bounded = { type: "integer", maximum: max };
      assert.equal(surelyValid(fresh(bounded), max, STEPS), true);
      assert.equal(surelyValid(fresh(bounded), max + 1, STEPS), false);
    }
    assert.equal(surelyValid(fresh(schema), { items: [1, 2.5] }, STEPS), false);
    assert.equal(surelyValid(fresh(schema), fresh(wide), STEPS), true);
    // Schemas whose texts together pass what is kept: each is still read right.
    const large = (n) => ({ type: "object", required: [`p${n}`], properties: Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`p${i}`, { type: i === n ? "integer" : "string", description: "x".repeat(24) }])) });
    for (let round = 0; round < 2; round++) {
      for (const n of [1, 2, 3, 4]) {
        assert.equal(surelyValid(large(n), { [`p${n}`]: 5 }, STEPS), true);
        assert.equal(surelyValid(large(n), { [`p${n}`]: "5" }, STEPS), false);
      }
    }
    // The same text is the same schema, whatever object it arrives as; another text is another.
    assert.equal(surelyValid({ type: "string" }, "a", STEPS), true);
    assert.equal(surelyValid({ type: "number" }, "a", STEPS), false);
  });

  test(`quick-check.js looks up no more names than its budget, however many a schema declares (${mode})`, () => {
    setMode();
    // 2,000 declared members over 2,000 empty objects: looking each name up in each object is 4 million
    // reads, far past the budget; the objects themselves hold nothing to walk.
    const properties = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`p${i}`, { type: "string" }]));
    const schema = { type: "array", items: { type: "object", properties } };
    let reads = 0;
    const counted = { get: (target, name, receiver) => { reads += 1; return Reflect.get(target, name, receiver); } };
    const items = Array.from({ length: 2_000 }, () => new Proxy({}, counted));
    const steps = 20_000;
    // The objects have no members, so the rules' walk of them is cheap: they decide once the code gives up.
    assert.equal(surelyValid(schema, items, steps), true);
    assert.ok(reads <= steps, `${reads} names read`);
  });

  test(`quick-check.js reads each member by its own rule, whatever the order of the names it met before (${mode})`, () => {
      setMode();
    const fresh = (v) => JSON.parse(JSON.stringify(v));
    const schema = { type: "array", items: { type: "object", required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "integer" } }, additionalProperties: { type: "boolean" } } };
    const check = (items) => surelyValid(fresh(schema), fresh(items), STEPS);
    assert.equal(check([{ a: "s", b: 1 }, { b: 1, a: "s" }, { x: true, a: "s", b: 2 }]), true);
    // The names of the object before, at the same positions, with the other's rules.
    assert.equal(check([{ a: "s", b: 1 }, { b: "s", a: 1 }]), false);
    assert.equal(check([{ a: "s", b: 1 }, { a: "s", x: 1 }]), false); // x takes b's place and is no boolean
    assert.equal(check([{ a: "s", b: 1 }, { a: "s", x: true }]), false); // required b is missing
    assert.equal(check([{ a: "s", x: true, b: 1 }, { a: "s", b: 1, x: 2 }]), false);
    // Past the positions remembered: each member still meets its own rule.
    const wide = (last) => Object.fromEntries([...Array.from({ length: 80 }, (_, i) => [`x${i}`, true]), ["a", "s"], ["b", last]]);
    assert.equal(check([wide(1), wide(2)]), true);
    assert.equal(check([wide(1), wide("2")]), false);
    // The same rules in the next check, the names met in another order.
    assert.equal(check([{ b: 1, a: "s" }]), true);
    assert.equal(check([{ b: 1.5, a: "s" }]), false);
  });
}
