// Rendering what servers return: content blocks by type, structuredContent as a
// collapsible tree, resource contents with preview and download. Images and
// audio are shown only from data: URIs of an allowed MIME type (no SVG, which
// can carry script); text is always text.
import { h, pretty, asText, clip } from "./dom.js";

// The most text one block shows: more would freeze layout and scrolling. The rest is
// a download away.
export const TEXT_LIMIT = 200_000;
// The most blocks (content, contents, messages) one result shows.
const BLOCK_LIMIT = 100;

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);
const AUDIO_TYPES = new Set(["audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg", "audio/mp3", "audio/ogg", "audio/webm", "audio/flac", "audio/aac", "audio/mp4"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function dataUri(mimeType, data, allowed) {
  const type = asText(mimeType).toLowerCase().split(";")[0].trim();
  if (!allowed.has(type) || typeof data !== "string" || !BASE64.test(data)) return null;
  return `data:${type};base64,${data}`;
}

function refused(what, mimeType) {
  return h("p", { class: "refused" }, `${what} of type ${JSON.stringify(asText(mimeType ?? "?", 100))} not shown (not an allowed type).`);
}

function bytesOf(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// A file name from a URI: its last path segment, with anything odd replaced.
function fileName(uri, fallback) {
  const last = asText(uri).split(/[/?#]/).filter(Boolean).pop() ?? "";
  const clean = last.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80);
  return clean || fallback;
}

/** A button that saves text or base64 bytes as a file. */
export function downloadButton(contents) {
  return h("button", { type: "button", class: "small", data: { testid: "download" }, onclick: () => {
    const body = typeof contents.blob === "string" && BASE64.test(contents.blob) ? bytesOf(contents.blob) : asText(contents.text);
    // application/octet-stream: the browser saves it instead of rendering it.
    const url = URL.createObjectURL(new Blob([body], { type: "application/octet-stream" }));
    const link = h("a", { href: url, download: fileName(contents.uri, "resource") });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } }, "Download");
}

/**
 * Text in a <pre>, at most TEXT_LIMIT characters of it; past that a note says how
 * much is left out, with a Download button for all of it (or, with `downloadBelow`,
 * a pointer to the one the caller puts below).
 */
function textBlock(text, testid, downloadBelow = false) {
  const pre = h("pre", { class: "text", data: { testid } }, text.length > TEXT_LIMIT ? text.slice(0, TEXT_LIMIT) : text);
  if (text.length <= TEXT_LIMIT) return pre;
  return h("div", { class: "cut-text" }, pre,
    h("p", { class: "muted", data: { testid: "text-cut" } }, `… ${text.length - TEXT_LIMIT} more characters not shown (${text.length} in all). `,
      downloadBelow ? "Download the whole text below." : downloadButton({ text, uri: "text.txt" })));
}

/** One resource's contents (`resources/read`, or an embedded resource). */
export function renderResourceContents(contents) {
  contents = contents && typeof contents === "object" ? contents : {};
  const header = h("p", { class: "uri" }, h("code", {}, asText(contents.uri)), contents.mimeType ? h("span", { class: "muted" }, ` ${asText(contents.mimeType, 100)}`) : null);
  let body;
  if (typeof contents.text === "string") body = textBlock(contents.text, "resource-text", true);
  else if (typeof contents.blob === "string") {
    const image = dataUri(contents.mimeType, contents.blob, IMAGE_TYPES);
    const audio = dataUri(contents.mimeType, contents.blob, AUDIO_TYPES);
    body = image ? h("img", { src: image, alt: `image ${asText(contents.uri, 200)}`, class: "preview" })
      : audio ? h("audio", { src: audio, controls: true })
        : h("p", { class: "muted" }, `${Math.floor((contents.blob.length * 3) / 4)} bytes of ${asText(contents.mimeType ?? "binary data", 100)}`);
  }
  return h("div", { class: "resource-contents" }, header, body, downloadButton(contents));
}

/** A content block (text, image, audio, resource_link, resource). */
export function renderBlock(block, { onOpenResource } = {}) {
  switch (block?.type) {
    case "text":
      return textBlock(asText(block.text), "content-text");
    case "image": {
      const src = dataUri(block.mimeType, block.data, IMAGE_TYPES);
      return src ? h("img", { src, alt: "image from the server", class: "preview", data: { testid: "content-image" } }) : refused("Image", block.mimeType);
    }
    case "audio": {
      const src = dataUri(block.mimeType, block.data, AUDIO_TYPES);
      return src ? h("audio", { src, controls: true, data: { testid: "content-audio" } }) : refused("Audio", block.mimeType);
    }
    case "resource_link":
      return h("div", { class: "resource-link", data: { testid: "content-link" } },
        h("strong", {}, asText(block.title ?? block.name ?? "resource")), " ", h("code", {}, asText(block.uri)),
        block.description ? h("p", { class: "hint" }, asText(block.description)) : null,
        onOpenResource ? h("button", { type: "button", class: "small", onclick: () => onOpenResource(asText(block.uri)) }, "Read") : null);
    case "resource":
      return h("div", { class: "embedded", data: { testid: "content-resource" } }, h("p", { class: "muted" }, "Embedded resource"), renderResourceContents(block.resource ?? {}));
    default:
      return h("details", {}, h("summary", {}, `Unknown content type ${JSON.stringify(asText(block?.type, 100))}`), h("pre", {}, pretty(block, TEXT_LIMIT)));
  }
}

/** A collapsible tree of a JSON value; the first levels are open. */
export function jsonTree(value, key = null, depth = 0) {
  const label = key === null ? null : h("span", { class: "key" }, `${key}: `);
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const shown = entries.slice(0, 500);
    return h("details", { class: "tree", open: depth < 2 }, h("summary", {}, label, h("span", { class: "muted" }, summary)),
      h("ul", {}, shown.map(([k, v]) => h("li", {}, jsonTree(v, k, depth + 1))),
        entries.length > shown.length ? h("li", { class: "muted" }, `… ${entries.length - shown.length} more`) : null));
  }
  return h("span", { class: "leaf" }, label, h("span", { class: `v-${value === null ? "null" : typeof value}` }, clip(JSON.stringify(value) ?? "undefined", 10_000)));
}

/**
 * Each of the first BLOCK_LIMIT items through `render`, one failing item shown as such
 * instead of taking the others with it, and a note for the rest.
 */
export function renderEach(items, render, what = "blocks") {
  const list = Array.isArray(items) ? items : [];
  return [list.slice(0, BLOCK_LIMIT).map((item) => {
    try {
      return render(item);
    } catch (error) {
      return h("p", { class: "refused" }, `(a part that cannot be shown: ${asText(error?.message)})`);
    }
  }), list.length > BLOCK_LIMIT ? h("p", { class: "muted", data: { testid: "blocks-cut" } }, `… ${list.length - BLOCK_LIMIT} more ${what} not shown.`) : null];
}

/** A CallToolResult: its content, its structuredContent, and isError marked. */
export function renderToolResult(result, options) {
  const failed = result?.isError === true;
  return h("div", { class: failed ? "tool-result is-error" : "tool-result", data: { testid: "tool-result", state: failed ? "tool-error" : "ok" } },
    failed ? h("p", { class: "error-banner", role: "alert" }, "The tool reported an error (isError)") : null,
    renderEach(result?.content, (block) => renderBlock(block, options)),
    result?.structuredContent !== undefined ? h("section", { class: "structured", data: { testid: "structured" } }, h("h4", {}, "structuredContent"), jsonTree(result.structuredContent)) : null);
}

/** A prompt's messages. */
export function renderMessages(messages, options) {
  return h("ol", { class: "messages", data: { testid: "prompt-messages" } }, renderEach(messages, (m) =>
    h("li", { class: `message role-${m?.role === "assistant" ? "assistant" : "user"}` }, h("span", { class: "role" }, asText(m?.role ?? "?", 100)),
      renderEach([m?.content].flat(), (block) => renderBlock(block, options))), "messages"));
}
