// Forms generated from a JSON Schema: a tool's inputSchema or an elicitation's
// requestedSchema. Types, enums (plain, titled with oneOf/anyOf, legacy
// enumNames), required fields, defaults, formats, ranges, nested objects and
// arrays; anything else falls back to a JSON text field. `read()` returns the
// value and marks every invalid field with a message next to it.
import { h, uid } from "./dom.js";

const MAX_DEPTH = 8;

// A local `$ref` (#/$defs/x, #/definitions/x) resolved against the root schema.
function resolve(schema, root, depth = 0) {
  if (!schema || typeof schema !== "object") return {};
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/") && depth < MAX_DEPTH) {
    let target = root;
    for (const part of schema.$ref.slice(2).split("/")) target = target?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    const { $ref, ...rest } = schema;
    return resolve({ ...target, ...rest }, root, depth + 1);
  }
  return schema;
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
    return schema.enum.map((v, i) => [v, String(names[i] ?? v)]);
  }
  const options = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(options) && options.length > 0 && options.every((o) => o && "const" in o)) {
    return options.map((o) => [o.const, String(o.title ?? o.const)]);
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

function messageFor(schema, value) {
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `At least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `At most ${schema.maxLength} characters`;
    if (schema.format === "email" && !EMAIL.test(value)) return "Not an email address";
    if ((schema.format === "uri" || schema.format === "url") && !URL.canParse(value)) return "Not a URL";
    if (typeof schema.pattern === "string") {
      try {
        if (!new RegExp(schema.pattern, "u").test(value)) return `Must match ${schema.pattern}`;
      } catch {
        // A pattern JS cannot compile is not held against the user.
      }
    }
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

// Each builder returns { node, read() -> { value, present, errors } }.
function field(schema, root, { name, required, initial, depth }) {
  schema = resolve(schema, root);
  const label = String(schema.title ?? name);
  const description = typeof schema.description === "string" ? schema.description : "";
  const start = initial !== undefined ? initial : schema.default;
  const type = typeOf(schema);
  const choices = choicesOf(schema);
  const id = uid("in");
  const named = { name, "data-field": name };

  if (depth > MAX_DEPTH) return jsonField(schema, { label, description, required, start, id, named });

  if (type === "object") {
    const inner = objectFields(schema, root, start, depth + 1);
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
    const items = resolve(schema.items ?? {}, root);
    const itemChoices = choicesOf(items);
    if (itemChoices) return multiSelect(schema, { label, description, required, start, itemChoices, named });
    return arrayField(schema, root, items, { label, description, required, start, depth, named });
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
    const input = h("input", { type: "number", id, step: type === "integer" ? "1" : "any", min: schema.minimum, max: schema.maximum,
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
    const long = (schema.maxLength ?? 0) > 200 || /\n/.test(String(start ?? ""));
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
  const area = h("textarea", { id, rows: 3, class: "json", spellcheck: "false", ...named }, start === undefined ? "" : JSON.stringify(start, null, 2));
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

function arrayField(schema, root, items, { label, description, required, start, depth, named }) {
  const list = h("ol", { class: "array-items" });
  const entries = [];
  const add = (initial) => {
    const item = field(items, root, { name: `${label}[${entries.length}]`, required: true, initial, depth: depth + 1 });
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

function objectFields(schema, root, start, depth) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = Object.entries(schema.properties ?? {});
  const fields = properties.map(([name, sub]) => [name, field(sub, root, {
    name, required: required.has(name), initial: start && typeof start === "object" ? start[name] : undefined, depth,
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
  const resolved = resolve(root, root);
  const fields = objectFields(resolved, root, initial, 0);
  const element = h("div", { class: "schema-form" }, fields.nodes.length ? fields.nodes : h("p", { class: "muted" }, "No arguments."));
  return { element, read: fields.read };
}
