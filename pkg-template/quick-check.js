// A quick JSON Schema check of a tool's structuredContent, on the object that the result's one
// JSON.parse already built, and of an elicitation answer: the core loads it the first time one
// needs checking, before the validator module. It only ever accepts. A schema keyword it does not
// read (pattern, not, if, a oneOf of more than constants, a $ref beyond "#/$defs/…", …) or any
// doubt makes it answer "cannot tell", and the validator module then decides and words the
// report, so a mismatch is always the validator's. It mirrors that validator
// (src/protocol/schema/keywords.rs): keywords that it does not know are ignored, a keyword whose
// value has the wrong type is ignored, `integer` is a number without a fraction, and a length
// counts code points. Its guards are its own: an `anyOf` is decided by the first alternative that
// matches, where the validator tries every one and may stop on a later one that leads back to
// itself; a value accepted so matches the schema all the same.
// tests/node/quick-check.test.mjs holds the two together.

// Stops the check: too much work, or nested too deep. The validator module then runs, within
// its own limits, and reports what it finds.
const STOP = Symbol("stop");
// Below the validator's own depth limit (256), so that a schema this check accepts never makes
// the validator stop for depth.
const MAX_DEPTH = 64;
// How many positions of an object's members each rule remembers the names of (see `seenNames`).
const SEEN_MAX = 64;

const TYPE_BITS = new Map([["null", 1], ["boolean", 2], ["object", 4], ["array", 8], ["string", 16], ["number", 32], ["integer", 64]]);
// The most common leaf, checked without typeBits.
const STRING = TYPE_BITS.get("string");
// Keywords the validator reads and this check does not: where one is present, it cannot tell.
const UNREAD = new Set([
  "additionalItems", "contains", "dependencies", "dependentRequired", "dependentSchemas", "else", "if", "maxContains",
  "minContains", "multipleOf", "not", "pattern", "patternProperties", "prefixItems", "propertyNames", "then",
  "unevaluatedItems", "unevaluatedProperties", "uniqueItems",
]);
// Keywords that say something to people and nothing to a check.
const ANNOTATIONS = new Set(["title", "description", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly", "format"]);
// A `$ref` this check follows: a name under the root's `$defs` or `definitions`, with no
// character that a JSON Pointer or percent-encoding would change.
const PLAIN_REF = /^#\/(\$defs|definitions)\/([A-Za-z0-9_.-]+)$/;

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const isNumber = (v) => typeof v === "number";

// The bits of a schema's `type`, a name or a list of names (an unknown name adds none); undefined
// when the schema has no `type` of either form, which it then does not check.
function typeBitsOf(type) {
  if (typeof type === "string") return TYPE_BITS.get(type) ?? 0;
  if (Array.isArray(type)) return type.reduce((all, name) => all | (TYPE_BITS.get(name) ?? 0), 0);
  return undefined;
}

// Compound values would need the validator's member-by-member comparison.
const compound = (v) => typeof v === "object" && v !== null;

function typeBits(value) {
  if (value === null) return 1;
  switch (typeof value) {
    case "boolean": return 2;
    case "string": return 16;
    case "number": return Number.isInteger(value) ? 96 : 32;
    default: return Array.isArray(value) ? 8 : 4;
  }
}

// Whether `name` is a member of the parsed object `value` itself: a name that objects inherit
// (`toString`, `__proto__`) is asked for.
function ownMember(value, name, inherited) {
  return inherited ? Object.hasOwn(value, name) : value[name] !== undefined;
}

// Whether `value` has one of the types in `bits` (and, a number, is finite).
function leafMatches(bits, value) {
  return (bits & typeBits(value)) !== 0 && (typeof value !== "number" || Number.isFinite(value));
}

function codePoints(text, atMost) {
  let n = 0;
  for (const _ of text) if (++n > atMost) break;
  return n;
}

class Check {
  constructor(root) {
    this.root = root;
    // The work left to the check under way (surelyValid sets it).
    this.left = 0;
    this.draft7 = isObject(root) && typeof root.$schema === "string" && /draft-0[467]/.test(root.$schema);
    // Each schema object read once into a rule: a large instance meets the same few schemas
    // thousands of times.
    this.rules = new Map();
    // The type bits of each rule that checks a type alone: the array or object that holds such
    // values checks them in its own loop, without a call for each.
    this.leaves = new Map();
    this.rule = this.ruleOf(root);
  }

  /** The rule of a schema: a function of a value and its depth, true when it surely matches. */
  ruleOf(schema) {
    let rule = this.rules.get(schema);
    if (rule === undefined) {
      rule = this.read(schema);
      this.rules.set(schema, rule);
    }
    return rule;
  }

  read(schema) {
    if (schema === true) {
      return (value, depth) => {
        if (depth > MAX_DEPTH || --this.left < 0) throw STOP;
        return true;
      };
    }
    if (!isObject(schema)) return () => false;
    for (const key in schema) if (UNREAD.has(key)) return () => false;
    let ref;
    if ("$ref" in schema) {
      const found = PLAIN_REF.exec(schema.$ref);
      const defs = found && isObject(this.root) ? this.root[found[1]] : undefined;
      if (!isObject(defs) || !Object.hasOwn(defs, found[2])) return () => false;
      ref = defs[found[2]];
    }
    // Draft-07 ignores every keyword beside `$ref`.
    const onlyRef = this.draft7 && ref !== undefined;
    const keywords = onlyRef ? {} : schema;
    const { type, enum: options, const: expected, items, required, properties, additionalProperties, allOf, anyOf } = keywords;
    const bits = typeBitsOf(type);
    // A schema of a type alone (and words for people), as most leaves of a schema are. Its work is
    // counted by the array or object that holds the value.
    if (bits !== undefined && Object.keys(schema).every((key) => key === "type" || ANNOTATIONS.has(key))) {
      const leaf = (value) => leafMatches(bits, value);
      this.leaves.set(leaf, bits);
      return leaf;
    }
    const allowed = Array.isArray(options) ? options : undefined;
    const hasConst = "const" in keywords;
    if (allowed?.some(compound) || (hasConst && compound(expected))) return () => false;
    // Draft-07's array form is a tuple.
    if (this.draft7 && Array.isArray(items)) return () => false;
    // A `oneOf` of constants alone, as a titled enum is written: exactly one must equal the value.
    let constants;
    if ("oneOf" in keywords) {
      const constant = (alt) =>
        isObject(alt) && "const" in alt && !compound(alt.const) && Object.keys(alt).every((key) => key === "const" || ANNOTATIONS.has(key));
      if (!Array.isArray(keywords.oneOf) || !keywords.oneOf.every(constant)) return () => false;
      constants = keywords.oneOf.map((alt) => alt.const);
    }
    const bound = (name) => (isNumber(keywords[name]) ? keywords[name] : undefined);
    const [maximum, minimum] = ["maximum", "minimum"].map(bound);
    const [exclusiveMaximum, exclusiveMinimum] = ["exclusiveMaximum", "exclusiveMinimum"].map(bound);
    const [maxLength, minLength, maxItems, minItems] = ["maxLength", "minLength", "maxItems", "minItems"].map(bound);
    const [maxProperties, minProperties] = ["maxProperties", "minProperties"].map(bound);
    const names = Array.isArray(required) ? required.filter((name) => typeof name === "string") : [];
    // Rules of the schemas below, read once: a `$ref` only when first followed, as it may lead back here.
    let refRule;
    const itemRule = items === undefined ? undefined : this.ruleOf(items);
    // Each member that a keyword names: its rule (or its type bits where the rule checks a type
    // alone; undefined for additionalProperties' rule) and whether it is required.
    let members;
    if (isObject(properties)) {
      members = new Map();
      for (const [name, sub] of Object.entries(properties)) {
        const rule = this.ruleOf(sub);
        members.set(name, { rule: this.leaves.get(rule) ?? rule, required: false });
      }
    }
    const itemBits = this.leaves.get(itemRule);
    const otherRule = additionalProperties === undefined ? undefined : this.ruleOf(additionalProperties);
    const allRules = Array.isArray(allOf) ? allOf.map((sub) => this.ruleOf(sub)) : undefined;
    const anyRules = Array.isArray(anyOf) ? anyOf.map((sub) => this.ruleOf(sub)) : undefined;

    const neededInherited = names.map((name) => name in Object.prototype);
    // The members are walked when a keyword reads them: for-in reads each by its enumeration index,
    // which V8 makes cheaper than looking the declared names up.
    const walks = members !== undefined || otherRule !== undefined
      || maxProperties !== undefined || minProperties !== undefined;
    // Where the members are walked, the walk counts the required ones it meets (a parsed object's
    // names are distinct): a name looked up on an object costs more than one the walk reads.
    const requiredCount = walks ? new Set(names).size : 0;
    if (walks) {
      members ??= new Map();
      for (const name of names) {
        const entry = members.get(name);
        if (entry === undefined) members.set(name, { rule: undefined, required: true });
        else entry.required = true;
      }
    }
    // The names met at each position of the last object walked, and their entries: the objects a
    // schema meets mostly list the same names in the same order, and a name the same as the last
    // one there (a parsed object's names are internalised) costs less than a lookup in `members`.
    const seenNames = [];
    const seenEntries = [];
    const object = (value, depth) => {
      if (walks) {
        let count = 0;
        let required = 0;
        for (const name in value) {
          let entry;
          if (seenNames[count] === name) {
            entry = seenEntries[count];
          } else {
            entry = members.get(name);
            if (count < SEEN_MAX) {
              seenNames[count] = name;
              seenEntries[count] = entry;
            }
          }
          count += 1;
          // A name without a rule of its own falls to additionalProperties.
          let rule = otherRule;
          if (entry !== undefined) {
            if (entry.required) required += 1;
            if (entry.rule !== undefined) rule = entry.rule;
          }
          if (typeof rule === "number") {
            const member = value[name];
            if (rule === STRING ? typeof member !== "string" : !leafMatches(rule, member)) return false;
          } else if (rule !== undefined && !rule(value[name], depth + 1)) {
            return false;
          }
        }
        this.left -= count;
        if ((maxProperties !== undefined && count > maxProperties) || (minProperties !== undefined && count < minProperties)) return false;
        return required === requiredCount;
      }
      for (let i = 0; i < names.length; i++) if (!ownMember(value, names[i], neededInherited[i])) return false;
      return true;
    };

    // An object of declared members, as most of a generated schema is: the keywords that a value
    // of that type alone could fail are all in `object`.
    const plainObject = bits === TYPE_BITS.get("object") && ref === undefined && allowed === undefined && !hasConst
      && constants === undefined && allRules === undefined && anyRules === undefined;
    if (plainObject) {
      return (value, depth) => {
        if (depth > MAX_DEPTH || --this.left < 0) throw STOP;
        return typeof value === "object" && value !== null && !Array.isArray(value) && object(value, depth);
      };
    }

    return (value, depth) => {
      if (depth > MAX_DEPTH || --this.left < 0) throw STOP;
      if (ref !== undefined && !(refRule ??= this.ruleOf(ref))(value, depth + 1)) return false;
      if (onlyRef) return true;
      if (bits !== undefined && (bits & typeBits(value)) === 0) return false;
      if (allowed !== undefined) {
        this.left -= allowed.length;
        if (!allowed.includes(value)) return false;
      }
      if (hasConst && expected !== value) return false;
      if (constants !== undefined) {
        this.left -= constants.length;
        let equal = 0;
        for (const constant of constants) if (constant === value) equal += 1;
        if (equal !== 1) return false;
      }
      switch (typeof value) {
        case "number":
          if (!Number.isFinite(value)) return false;
          if ((maximum !== undefined && value > maximum) || (minimum !== undefined && value < minimum)) return false;
          if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return false;
          if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return false;
          break;
        case "string":
          // A string has at most as many code points as UTF-16 units, and at least half as many.
          if (maxLength !== undefined && value.length > maxLength && codePoints(value, maxLength) > maxLength) return false;
          if (minLength !== undefined && value.length / 2 < minLength && codePoints(value, minLength) < minLength) return false;
          break;
        case "object":
          if (value === null) break;
          if (Array.isArray(value)) {
            if ((maxItems !== undefined && value.length > maxItems) || (minItems !== undefined && value.length < minItems)) return false;
            this.left -= value.length;
            if (itemBits !== undefined) {
              // Indexed loops: an array's iterator is slow until V8 optimises, and a large result is
              // mostly checked before it has (the first calls of a fresh page).
              for (let i = 0; i < value.length; i++) {
                if (itemBits === STRING ? typeof value[i] !== "string" : !leafMatches(itemBits, value[i])) return false;
              }
            } else if (itemRule !== undefined) {
              for (let i = 0; i < value.length; i++) if (!itemRule(value[i], depth + 1)) return false;
            }
          } else if (!object(value, depth)) {
            return false;
          }
          break;
        default:
      }
      if (allRules !== undefined) {
        this.left -= allRules.length;
        for (const rule of allRules) if (!rule(value, depth + 1)) return false;
      }
      if (anyRules === undefined) return true;
      this.left -= anyRules.length;
      return anyRules.some((rule) => rule(value, depth + 1));
    };
  }
}

// Where a module may make code of text, each schema of plain keywords also becomes one function
// (`Generated`): its members read by name, as the JS engine reads a member written in code, and its
// arrays and objects checked in loops of their own, several times faster than the rules above on a
// large result (bench/analysis.md, "Thirty-seventh round"). Only where no Content-Security-Policy
// can refuse it: Node, Deno and Bun. A browser's page or worker never tries, as a refused attempt
// would be reported as a violation of the page's policy; workerd refuses it, and the try finds out.
const MAY_GENERATE = typeof globalThis.process?.versions?.node === "string" && typeof globalThis.document === "undefined" && (() => {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
})();
let generating = MAY_GENERATE;
// The longest schema text made into code: the code is up to about ten times the schema's length.
const GENERATED_TEXT_MAX = 64 * 1024;
// Keywords a generated check reads itself; a schema with any other keyword that the rules read, or
// that the validator reads and the rules do not, is left to its rule, which the code calls.
const TO_RULES = ["$ref", "allOf", "anyOf", "oneOf", "additionalProperties", "maxProperties", "minProperties"];

// The code of one check: statements that return false unless the value in a variable surely
// matches a schema, as the rule of the same schema would decide. Its work is counted against the
// same budget as the rules': an array's length, and for each object the names it looks up.
class Generated {
  constructor(check) {
    this.check = check;
    this.rules = [];
    this.constants = [];
    this.variables = 0;
  }

  static of(check, schemaText) {
    if (schemaText.length > GENERATED_TEXT_MAX) return null;
    const made = new Generated(check);
    try {
      const body = made.node(check.root, "v", 0);
      return new Function("R", "K", "P", "S", "c", `"use strict";return function(v){${body}return true;}`)(
        made.rules, made.constants, codePoints, STOP, check);
    } catch {
      return null;
    }
  }

  constant(value) {
    return `K[${this.constants.push(value) - 1}]`;
  }

  variable() {
    return `v${++this.variables}`;
  }

  /** Whether the code reads `schema` itself, rather than calling its rule. */
  reads(schema) {
    if (!isObject(schema)) return true;
    for (const key in schema) if (UNREAD.has(key) || TO_RULES.includes(key)) return false;
    if (Array.isArray(schema.enum) && schema.enum.some(compound)) return false;
    if ("const" in schema && compound(schema.const)) return false;
    return !(this.check.draft7 && Array.isArray(schema.items));
  }

  node(schema, x, depth) {
    if (schema === true) return "";
    if (!isObject(schema)) return "return false;";
    if (depth >= MAX_DEPTH || !this.reads(schema)) {
      return `if(!R[${this.rules.push(this.check.ruleOf(schema)) - 1}](${x},${depth}))return false;`;
    }
    const { type, enum: options, items, required, properties } = schema;
    const bits = typeBitsOf(type);
    let code = "";
    if (bits !== undefined) code += `if(!(${typeTest(bits, x)}))return false;`;
    if (bits === undefined || (bits & 96) !== 0) code += `if(typeof ${x}==="number"&&!Number.isFinite(${x}))return false;`;
    if (Array.isArray(options)) code += `if((c.left-=${options.length})<0)throw S;if(!${this.constant(options)}.includes(${x}))return false;`;
    if ("const" in schema) code += `if(${x}!==${this.constant(schema.const)})return false;`;
    const bound = (name) => (isNumber(schema[name]) ? this.constant(schema[name]) : undefined);
    const numbers = [["maximum", ">"], ["minimum", "<"], ["exclusiveMaximum", ">="], ["exclusiveMinimum", "<="]]
      .map(([name, past]) => (bound(name) === undefined ? "" : `if(${x}${past}${bound(name)})return false;`)).join("");
    if (numbers) code += `if(typeof ${x}==="number"){${numbers}}`;
    const [maxLength, minLength] = [bound("maxLength"), bound("minLength")];
    let strings = "";
    if (maxLength) strings += `if(${x}.length>${maxLength}&&P(${x},${maxLength})>${maxLength})return false;`;
    if (minLength) strings += `if(${x}.length/2<${minLength}&&P(${x},${minLength})<${minLength})return false;`;
    if (strings) code += `if(typeof ${x}==="string"){${strings}}`;
    const [maxItems, minItems] = [bound("maxItems"), bound("minItems")];
    let array = "";
    if (maxItems) array += `if(${x}.length>${maxItems})return false;`;
    if (minItems) array += `if(${x}.length<${minItems})return false;`;
    if (items !== undefined) {
      const [item, index] = [this.variable(), this.variable()];
      array += `if((c.left-=1+${x}.length)<0)throw S;for(let ${index}=0;${index}<${x}.length;${index}++){const ${item}=${x}[${index}];${this.node(items, item, depth + 1)}}`;
    }
    if (array) code += `if(Array.isArray(${x})){${array}}`;
    const requiredNames = new Set(Array.isArray(required) ? required.filter((name) => typeof name === "string") : []);
    const declared = isObject(properties) ? Object.entries(properties) : [];
    if (requiredNames.size > 0 || declared.length > 0) {
      const declaredNames = new Set(declared.map(([name]) => name));
      const undeclared = [...requiredNames].filter((name) => !declaredNames.has(name));
      const lookups = declared.length + undeclared.length;
      // Each name looked up is work, whatever the object holds: a schema of thousands of members
      // over thousands of small objects is stopped by the budget, as the rules' walk would be.
      let object = `if((c.left-=${1 + lookups})<0)throw S;`;
      const read = (name) => {
        const key = JSON.stringify(name);
        return name in Object.prototype ? `(Object.hasOwn(${x},${key})?${x}[${key}]:undefined)` : `${x}[${key}]`;
      };
      for (const name of undeclared) object += `if(${read(name)}===undefined)return false;`;
      for (const [name, sub] of declared) {
        const member = this.variable();
        const check = this.node(sub, member, depth + 1);
        if (requiredNames.has(name)) object += `{const ${member}=${read(name)};if(${member}===undefined)return false;${check}}`;
        else if (check) object += `{const ${member}=${read(name)};if(${member}!==undefined){${check}}}`;
      }
      code += `if(typeof ${x}==="object"&&${x}!==null&&!Array.isArray(${x})){${object}}`;
    }
    return code;
  }
}

// The test of a value's type against a schema's `type` bits, as `leafMatches` reads them.
function typeTest(bits, x) {
  const tests = [];
  if (bits & 1) tests.push(`${x}===null`);
  if (bits & 2) tests.push(`typeof ${x}==="boolean"`);
  if (bits & 4) tests.push(`(typeof ${x}==="object"&&${x}!==null&&!Array.isArray(${x}))`);
  if (bits & 8) tests.push(`Array.isArray(${x})`);
  if (bits & 16) tests.push(`typeof ${x}==="string"`);
  if (bits & 32) tests.push(`typeof ${x}==="number"`);
  else if (bits & 64) tests.push(`Number.isInteger(${x})`);
  return tests.length > 0 ? tests.join("||") : "false";
}

// Each schema's rules, kept from one check to the next, by the schema's text, which the core hands
// over as it wrote it (a schema it sent as an object, JSON.parse'd there, was stringified again here
// for the key). V8 keeps the code it optimised for a function only while a function made from it
// lives: rules made afresh for every check ran cold again after every full collection, 0.5 ms a
// check of the benchmark's deep result becoming 3 (bench/analysis.md, "Twenty-eighth round"). The
// least recently used goes first, so that at most 32 schemas of at most 1 MiB of text in all are kept.
const KEPT = new Map();
const KEPT_MAX = 32;
const KEPT_TEXT_MAX = 1024 * 1024;
let keptText = 0;

function checkOf(schemaText) {
  let check = KEPT.get(schemaText);
  if (check !== undefined) {
    KEPT.delete(schemaText);
    KEPT.set(schemaText, check);
    return check;
  }
  check = new Check(JSON.parse(schemaText));
  if (schemaText.length > KEPT_TEXT_MAX) return check;
  keptText += schemaText.length;
  KEPT.set(schemaText, check);
  for (const [oldest] of KEPT) {
    if (KEPT.size <= KEPT_MAX && keptText <= KEPT_TEXT_MAX) break;
    KEPT.delete(oldest);
    keptText -= oldest.length;
  }
  return check;
}

/**
 * Whether `value` surely matches the JSON Schema whose JSON text is `schemaText`, checked within
 * `steps` units of work: `true` when it does, `false` when this check cannot tell (the validator
 * module decides then).
 * @param {string} schemaText
 * @param {unknown} value
 * @param {number} steps
 * @returns {boolean}
 */
export function surelyValid(schemaText, value, steps) {
  try {
    const check = checkOf(schemaText);
    if (generating && check.generated === undefined) check.generated = Generated.of(check, schemaText);
    if (generating && check.generated) {
      check.left = steps;
      try {
        return check.generated(value, 0) && check.left >= 0;
      } catch (stop) {
        if (stop !== STOP && !(stop instanceof RangeError)) throw stop;
      }
      // The code counts every name a schema declares for each object; the rules count the members
      // an object has, and a schema of many members over many small objects is theirs to check.
    }
    check.left = steps;
    return check.rule(value, 0) && check.left >= 0;
  } catch (stop) {
    if (stop === STOP || stop instanceof RangeError) return false;
    throw stop;
  }
}

/**
 * For tests: whether checks run generated code where the host allows it (the default), or the
 * rules alone. Returns whether generated code now runs.
 * @param {boolean} on
 * @returns {boolean}
 */
export function __generateChecks(on) {
  generating = on && MAY_GENERATE;
  return generating;
}
