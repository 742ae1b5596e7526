// Building DOM without HTML parsing. Everything a server sends (names,
// descriptions, results, errors) reaches the page through these helpers as
// text nodes or attribute values, so a hostile server cannot inject markup.

/**
 * `h("button", { class: "x", onclick }, "text", child)`: an element whose
 * children are nodes or strings (strings become text nodes, never markup).
 * `on*` props are listeners, `data`/`aria` objects become data-/aria-
 * attributes, `false`/`null`/`undefined` props are skipped.
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    else if (key === "aria") for (const [k, v] of Object.entries(value)) node.setAttribute(`aria-${k}`, String(v));
    else if (key === "class") node.className = value;
    else if (key === "value" || key === "checked" || key === "selected" || key === "indeterminate") node[key] = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces the children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

let ids = 0;
/** A page-unique id, for label/control pairs. */
export function uid(prefix = "f") {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** JSON for display, with long strings cut so a huge value cannot freeze the page. */
export function pretty(value, limit = 200_000) {
  let text;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}

/** A one-line description of an error from the package or elsewhere. */
export function describeError(error) {
  if (error && typeof error.code === "number") {
    return `McpError ${error.code}: ${error.message}${error.data === undefined ? "" : ` (${pretty(error.data, 500)})`}`;
  }
  if (error && typeof error.kind === "string") {
    return `McpClientError ${error.kind}${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}`;
  }
  if (error?.name === "AbortError") return "Cancelled";
  return `${error?.name ?? "Error"}: ${error?.message ?? String(error)}`;
}
