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
    else if (key === "data") for (const [k, v] of Object.entries(value)) node.dataset[k] = asText(v);
    else if (key === "aria") for (const [k, v] of Object.entries(value)) node.setAttribute(`aria-${k}`, asText(v));
    else if (key === "class") node.className = value;
    else if (key === "value" || key === "checked" || key === "selected" || key === "indeterminate") node[key] = value;
    else node.setAttribute(key, value === true ? "" : asText(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : asText(child));
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
  return clip(json(value, 2), limit);
}

// JSON.stringify, or a tag when the value has none: never String(), which
// throws on an object whose toString a server made a number ({"toString": 1}).
function json(value, indent) {
  try {
    const text = JSON.stringify(value, null, indent);
    if (text !== undefined) return text;
  } catch {
    // A cycle or a BigInt: the tag below.
  }
  return value !== null && typeof value === "object" ? Object.prototype.toString.call(value) : String(value);
}

/** `text` cut to `limit` characters, saying how many more there were. */
export function clip(text, limit) {
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}

/**
 * Display text for anything a server sent where a string was expected: a string
 * as it is, a number or boolean as usual, anything else as JSON cut to `limit`.
 * Never throws, so one odd value cannot stop a view that renders every server.
 */
export function asText(value, limit = 500) {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return clip(json(value), limit);
}

// How many items a list draws: enough to browse, few enough to redraw on a keystroke.
export const LIST_LIMIT = 300;

/**
 * Fills `list` with `render(item)` for the first LIST_LIMIT items, each on its
 * own (an item that fails to render shows as such, the others still show),
 * and a last row that says how many more there are.
 */
export function drawList(list, items, render, more = "narrow the filter to see them") {
  const rows = items.slice(0, LIST_LIMIT).map((item) => {
    try {
      return render(item);
    } catch (error) {
      return h("li", { class: "muted", data: { testid: "bad-item" } }, `(an entry that cannot be shown: ${asText(error?.message)})`);
    }
  });
  const hidden = items.length - rows.length;
  return replace(list, rows, hidden > 0 ? h("li", { class: "muted", data: { testid: "list-more" } }, `… and ${hidden} more: ${more}.`) : null);
}

/** `fn` run once input has paused for `ms`, so a long list is not refiltered on every keystroke. */
export function debounce(fn, ms = 150) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** A one-line description of an error from the package or elsewhere. */
export function describeError(error) {
  if (error && typeof error.code === "number") {
    return `McpError ${error.code}: ${asText(error.message)}${error.data === undefined ? "" : ` (${pretty(error.data, 500)})`}`;
  }
  if (error && typeof error.kind === "string") {
    return `McpClientError ${error.kind}${error.status ? ` (HTTP ${asText(error.status)})` : ""}: ${asText(error.message)}`;
  }
  if (error?.name === "AbortError") return "Cancelled";
  return `${asText(error?.name ?? "Error")}: ${asText(error?.message ?? error)}`;
}
