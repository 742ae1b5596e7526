// Forms generated from a JSON Schema: a tool's inputSchema or an elicitation's
// requestedSchema. Types, enums (plain, titled with oneOf/anyOf, legacy
// enumNames), required fields, defaults, formats, ranges, nested objects and
// arrays; anything else falls back to a JSON text field. `read()` returns the
// value and marks every invalid field with a message next to it.
import { h, uid, asText, pretty } from "./dom.js";

const MAX_DEPTH = 8;
// The most fields (and choice boxes) one form builds. A few hundred bytes of schema
// can describe millions of fields (six properties that each $ref the next level, eight
// levels deep); past this budget a subtree is one raw-JSON field instead.
const MAX_FIELDS = 500;

/**
 * A local `$ref` (#/$defs/x, #/definitions/x) resolved against the root schema.
 * `refs` are the refs being expanded on the path down to this field: one met again
 * there is a cycle, which the caller shows as a raw-JSON field (`cycle: true`)
 * instead of expanding it level after level. Returns `{ schema, refs, cycle }`.
 */
function resolve(schema, root, refs = new Set()) {
  for (let hops = 0; schema && typeof schema === "object" && typeof schema.$ref === "string" && schema.$ref.startsWith("#/"); hops++) {
    if (refs.has(schema.$ref) || hops >= MAX_DEPTH) return { schema, refs, cycle: true };
    refs = new Set(refs).add(schema.$ref);
    let target = root;
    for (const part of schema.$ref.slice(2).split("/")) target = target?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    const { $ref, ...rest } = schema;
    schema = { ...(target && typeof target === "object" ? target : {}), ...rest };
  }
  return { schema: schema && typeof schema === "object" ? schema : {}, refs, cycle: false };
}

// Takes `count` fields from the form's budget; false once it would run out.
function spend(form, count = 1) {
  if (form.budget < count) return false;
  form.budget -= count;
  return true;
}

function typeOf(schema) {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type) return type;
  if (schema.properties) return "object";
  if (schema.items) return "array";
  if (Array.isArray(schema.enum)) return typeof schema.enum[0] === "number" ? "number" : "string";
  if (choicesOf(schema)) return "string";
  return undefined;
}

// The choices of an enum field, as [value, label] pairs, or null.
function choicesOf(schema) {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((v, i) => [v, asText(names[i] ?? v)]);
  }
  const options = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(options) && options.length > 0 && options.every((o) => o && "const" in o)) {
    return options.map((o) => [o.const, asText(o.title ?? o.const)]);
  }
  return null;
}

// No "time": the browser's control gives HH:MM, which is no RFC 3339 time.
const INPUT_TYPES = { email: "email", uri: "url", url: "url", date: "date", "date-time": "datetime-local" };

// An RFC 3339 date-time as the local "YYYY-MM-DDTHH:MM" a datetime-local control shows.
function localDateTime(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// A bound from the schema, or undefined when it is not a number: comparing with
// a server's object would call its valueOf and toString, which may throw.
const bound = (schema, key) => (typeof schema[key] === "number" ? schema[key] : undefined);
const BOUNDS = ["minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"];

function messageFor(original, value) {
  // Only the bounds that are numbers, and the format.
  const schema = { format: original.format, ...Object.fromEntries(BOUNDS.map((key) => [key, bound(original, key)])) };
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `At least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `At most ${schema.maxLength} characters`;
    // No address is longer than 320 characters, and EMAIL is quadratic on a long one a server's default could give.
    if (schema.format === "email" && (value.length > 320 || !EMAIL.test(value))) return "Not an email address";
    if ((schema.format === "uri" || schema.format === "url") && !URL.canParse(value)) return "Not a URL";
    // `pattern` is not checked here: the page's RegExp backtracks, and a server's
    // pattern such as ^(a+)+$ would freeze the tab. The server checks its tools'
    // arguments, and the package checks an elicitation's answer against the schema,
    // pattern included, with a linear-time matcher before anything is sent. The
    // pattern is shown as a hint instead (see patternHint).
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return `At least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `At most ${schema.maximum}`;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return `More than ${schema.exclusiveMinimum}`;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return `Less than ${schema.exclusiveMaximum}`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return `Choose at least ${schema.minItems}`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `Choose at most ${schema.maxItems}`;
  }
  return "";
}

// A labelled row: the control, its description and its error message.
function row(label, required, description, control, controlId) {
  const error = h("p", { class: "field-error", id: uid("err"), role: "alert", hidden: true });
  const hint = description ? h("p", { class: "hint", id: uid("hint") }, description) : null;
  const describedBy = [hint?.id, error.id].filter(Boolean).join(" ");
  const target = controlId ? control.querySelector?.(`#${controlId}`) ?? control : control;
  target.setAttribute?.("aria-describedby", describedBy);
  const node = h("div", { class: "field" },
    controlId ? h("label", { for: controlId }, label, required ? h("span", { class: "req", aria: { hidden: "true" } }, " *") : null) : null,
    control, hint, error);
  const show = (message) => {
    error.textContent = message;
    error.hidden = !message;
    target.setAttribute?.("aria-invalid", message ? "true" : "false");
  };
  return { node, show };
}

// The pattern a string must match, as a hint (it is not run here, see messageFor).
function patternHint(schema) {
  return typeof schema.pattern === "string" ? `Must match the pattern ${asText(schema.pattern).slice(0, 200)}` : "";
}

// Each builder returns { node, read() -> { value, present, errors } }. `form` is
// { root, budget }, shared by every field of one form; `refs` the $refs expanded above.
function field(raw, form, { name, required, initial, depth, refs }) {
  const resolved = resolve(raw, form.root, refs);
  const schema = resolved.schema;
  const label = asText(schema.title ?? name);
  const description = [typeof schema.description === "string" ? schema.description : "", patternHint(schema)].filter(Boolean).join(" · ");
  const start = initial !== undefined ? initial : schema.default;
  const type = typeOf(schema);
  const choices = choicesOf(schema);
  const id = uid("in");
  const named = { name, "data-field": name };

  // Too deep, a $ref cycle or the form's budget spent: this subtree is typed as JSON.
  if (depth > MAX_DEPTH || resolved.cycle || !spend(form)) return jsonField(schema, { label, description, required, start, id, named });

  if (type === "object") {
    const inner = objectFields(schema, form, start, { depth: depth + 1, refs: resolved.refs });
    if (!inner) return jsonField(schema, { label, description, required, start, id, named });
    const node = h("fieldset", { class: "object", ...named }, h("legend", {}, label, required ? " *" : ""), description ? h("p", { class: "hint" }, description) : null, inner.nodes);
    return { node, read: () => {
      const result = inner.read();
      const empty = Object.keys(result.value).length === 0;
      // An optional object left empty is simply absent, whatever its children require.
      if (!required && empty) return { value: undefined, present: false, errors: [] };
      return { value: result.value, present: true, errors: result.errors };
    } };
  }

  if (type === "array") {
    const items = resolve(schema.items ?? {}, form.root, resolved.refs);
    const itemChoices = items.cycle ? null : choicesOf(items.schema);
    // A box per choice, a field per initial item (each spends its own): more than the budget left is one JSON field.
    const fits = itemChoices ? spend(form, itemChoices.length) : (Array.isArray(start) ? start.length : 0) <= form.budget;
    if (!fits) return jsonField(schema, { label, description, required, start, id, named });
    if (itemChoices) return multiSelect(schema, { label, description, required, start, itemChoices, named });
    return arrayField(schema, form, schema.items ?? {}, { label, description, required, start, depth, refs: resolved.refs, named });
  }

  if (choices) {
    const select = h("select", { id, ...named },
      h("option", { value: "" }, required ? "— choose —" : "(none)"),
      choices.map(([value, text], i) => h("option", { value: String(i), selected: start !== undefined && value === start }, text)));
    const r = row(label, required, description, select, id);
    return { node: r.node, read: () => {
      const picked = select.value === "" ? undefined : choices[Number(select.value)][0];
      const message = picked === undefined && required ? "Required" : "";
      r.show(message);
      return { value: picked, present: picked !== undefined, errors: message ? [`${label}: ${message}`] : [] };
    } };
  }

  if (type === "boolean") {
    const box = h("input", { type: "checkbox", id, checked: start === true, ...named });
    let touched = false;
    box.addEventListener("change", () => { touched = true; });
    const r = row(label, required, description, h("span", { class: "check" }, box), id);
    return { node: r.node, read: () => ({ value: box.checked, present: required || touched || start !== undefined, errors: [] }) };
  }

  if (type === "number" || type === "integer") {
    const input = h("input", { type: "number", id, step: type === "integer" ? "1" : "any", min: bound(schema, "minimum"), max: bound(schema, "maximum"),
      value: typeof start === "number" ? String(start) : "", inputmode: type === "integer" ? "numeric" : "decimal", ...named });
    const r = row(label, required, description, input, id);
    return { node: r.node, read: () => {
      const text = input.value.trim();
      let message = "";
      let value;
      if (text === "") message = required ? "Required" : "";
      else {
        value = Number(text);
        if (!Number.isFinite(value)) message = "Not a number";
        else if (type === "integer" && !Number.isInteger(value)) message = "Must be a whole number";
        else message = messageFor(schema, value);
      }
      r.show(message);
      return { value, present: value !== undefined, errors: message ? [`${label}: ${message}`] : [] };
    } };
  }

  if (type === "string") {
    const inputType = INPUT_TYPES[schema.format] ?? "text";
    const long = (bound(schema, "maxLength") ?? 0) > 200 || (typeof start === "string" && start.includes("\n"));
    const startText = typeof start === "string" ? (inputType === "datetime-local" ? localDateTime(start) : start) : "";
    const input = long
      ? h("textarea", { id, rows: 4, ...named }, startText)
      : h("input", { type: inputType, id, value: startText, autocomplete: "off", spellcheck: "false", ...named });
    const r = row(label, required, description, input, id);
    return { node: r.node, read: () => {
      let value = input.value;
      if (inputType === "datetime-local" && value) value = new Date(value).toISOString();
      const message = value === "" ? (required ? "Required" : "") : messageFor(schema, value);
      r.show(message);
      return { value: value === "" ? undefined : value, present: value !== "", errors: message ? [`${label}: ${message}`] : [] };
    } };
  }

  return jsonField(schema, { label, description, required, start, id, named });
}

// A field the form cannot model: JSON text.
function jsonField(schema, { label, description, required, start, id, named }) {
  const area = h("textarea", { id, rows: 3, class: "json", spellcheck: "false", ...named }, start === undefined ? "" : pretty(start));
  const r = row(`${label} (JSON)`, required, description, area, id);
  return { node: r.node, read: () => {
    const text = area.value.trim();
    if (text === "") {
      const message = required ? "Required" : "";
      r.show(message);
      return { value: undefined, present: false, errors: message ? [`${label}: ${message}`] : [] };
    }
    try {
      const value = JSON.parse(text);
      r.show("");
      return { value, present: true, errors: [] };
    } catch (error) {
      r.show(`Not JSON: ${error.message}`);
      return { value: undefined, present: false, errors: [`${label}: not JSON`] };
    }
  } };
}

function multiSelect(schema, { label, description, required, start, itemChoices, named }) {
  const chosen = new Set(Array.isArray(start) ? start : []);
  const boxes = itemChoices.map(([value, text]) => {
    const id = uid("opt");
    const box = h("input", { type: "checkbox", id, checked: chosen.has(value) });
    return { value, box, node: h("span", { class: "check" }, box, h("label", { for: id }, text)) };
  });
  const group = h("fieldset", { class: "choices", ...named }, h("legend", {}, label, required ? " *" : ""), boxes.map((b) => b.node));
  const r = row(label, required, description, group, null);
  return { node: r.node, read: () => {
    const value = boxes.filter((b) => b.box.checked).map((b) => b.value);
    const message = value.length === 0 && required ? "Required" : messageFor(schema, value);
    r.show(message);
    return { value, present: value.length > 0 || required, errors: message ? [`${label}: ${message}`] : [] };
  } };
}

function arrayField(schema, form, items, { label, description, required, start, depth, refs, named }) {
  const list = h("ol", { class: "array-items" });
  const entries = [];
  const add = (initial) => {
    const item = field(items, form, { name: `${label}[${entries.length}]`, required: true, initial, depth: depth + 1, refs });
    const entry = { item };
    const remove = h("button", { type: "button", class: "small", onclick: () => {
      entries.splice(entries.indexOf(entry), 1);
      entry.node.remove();
    } }, "Remove");
    entry.node = h("li", {}, item.node, remove);
    entries.push(entry);
    list.append(entry.node);
  };
  for (const value of Array.isArray(start) ? start : []) add(value);
  const group = h("fieldset", { class: "array", ...named }, h("legend", {}, label, required ? " *" : ""), list,
    h("button", { type: "button", class: "small", onclick: () => add(undefined) }, "Add item"));
  const r = row(label, required, description, group, null);
  return { node: r.node, read: () => {
    const results = entries.map((e) => e.item.read());
    const value = results.map((res) => res.value);
    const message = messageFor(schema, value);
    r.show(message);
    return { value, present: required || value.length > 0, errors: [...results.flatMap((res) => res.errors), ...(message ? [`${label}: ${message}`] : [])] };
  } };
}

// The fields of an object's properties, or null when there are more than the
// form's budget has left (the caller then shows the object as JSON).
function objectFields(schema, form, start, { depth, refs }) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = schema.properties && typeof schema.properties === "object" ? Object.entries(schema.properties) : [];
  if (properties.length > form.budget) return null;
  const fields = properties.map(([name, sub]) => [name, field(sub, form, {
    name, required: required.has(name), initial: start && typeof start === "object" ? start[name] : undefined, depth, refs,
  })]);
  return {
    nodes: fields.map(([, f]) => f.node),
    read: () => {
      const value = {};
      const errors = [];
      for (const [name, f] of fields) {
        const result = f.read();
        errors.push(...result.errors);
        if (result.present && result.value !== undefined) value[name] = result.value;
      }
      return { value, errors };
    },
  };
}

/**
 * A form for an object schema. `initial` pre-fills it (defaults otherwise).
 * Returns `{ element, read }`; `read()` gives `{ value, errors }` and shows
 * each field's message.
 */
export function schemaForm(schema, initial) {
  const root = schema && typeof schema === "object" ? schema : {};
  const form = { root, budget: MAX_FIELDS };
  const resolved = resolve(root, root);
  const fields = resolved.cycle ? null : objectFields(resolved.schema, form, initial, { depth: 0, refs: resolved.refs });
  if (!fields) return wholeAsJson(initial);
  const element = h("div", { class: "schema-form" }, fields.nodes.length ? fields.nodes : h("p", { class: "muted" }, "No arguments."));
  return { element, read: fields.read };
}

// A form too large to build field by field: the arguments as one JSON object.
function wholeAsJson(initial) {
  const area = jsonField({}, { label: "Arguments", description: `The schema asks for more than ${MAX_FIELDS} fields: type the arguments as JSON.`,
    required: false, start: initial, id: uid("in"), named: { name: "arguments", "data-field": "arguments" } });
  return { element: h("div", { class: "schema-form" }, area.node), read: () => {
    const result = area.read();
    const value = result.value && typeof result.value === "object" && !Array.isArray(result.value) ? result.value : {};
    const errors = result.value === undefined || value === result.value ? result.errors : [...result.errors, "Arguments: must be a JSON object"];
    return { value, errors };
  } };
}
