// Rendering what servers return: content blocks by type, structuredContent as a
// collapsible tree, resource contents with preview and download. Images and
// audio are shown only from data: URIs of an allowed MIME type (no SVG, which
// can carry script); text is always text.
import { h, pretty } from "./dom.js";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);
const AUDIO_TYPES = new Set(["audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg", "audio/mp3", "audio/ogg", "audio/webm", "audio/flac", "audio/aac", "audio/mp4"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function dataUri(mimeType, data, allowed) {
  const type = String(mimeType ?? "").toLowerCase().split(";")[0].trim();
  if (!allowed.has(type) || typeof data !== "string" || !BASE64.test(data)) return null;
  return `data:${type};base64,${data}`;
}

function refused(what, mimeType) {
  return h("p", { class: "refused" }, `${what} of type ${JSON.stringify(String(mimeType ?? "?"))} not shown (not an allowed type).`);
}

function bytesOf(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// A file name from a URI: its last path segment, with anything odd replaced.
function fileName(uri, fallback) {
  const last = String(uri ?? "").split(/[/?#]/).filter(Boolean).pop() ?? "";
  const clean = last.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80);
  return clean || fallback;
}

/** A button that saves text or base64 bytes as a file. */
export function downloadButton(contents) {
  return h("button", { type: "button", class: "small", data: { testid: "download" }, onclick: () => {
    const body = typeof contents.blob === "string" && BASE64.test(contents.blob) ? bytesOf(contents.blob) : String(contents.text ?? "");
    // application/octet-stream: the browser saves it instead of rendering it.
    const url = URL.createObjectURL(new Blob([body], { type: "application/octet-stream" }));
    const link = h("a", { href: url, download: fileName(contents.uri, "resource") });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } }, "Download");
}

/** One resource's contents (`resources/read`, or an embedded resource). */
export function renderResourceContents(contents) {
  const header = h("p", { class: "uri" }, h("code", {}, String(contents.uri ?? "")), contents.mimeType ? h("span", { class: "muted" }, ` ${contents.mimeType}`) : null);
  let body;
  if (typeof contents.text === "string") body = h("pre", { class: "text", data: { testid: "resource-text" } }, contents.text);
  else if (typeof contents.blob === "string") {
    const image = dataUri(contents.mimeType, contents.blob, IMAGE_TYPES);
    const audio = dataUri(contents.mimeType, contents.blob, AUDIO_TYPES);
    body = image ? h("img", { src: image, alt: `image ${contents.uri}`, class: "preview" })
      : audio ? h("audio", { src: audio, controls: true })
        : h("p", { class: "muted" }, `${Math.floor((contents.blob.length * 3) / 4)} bytes of ${contents.mimeType ?? "binary data"}`);
  }
  return h("div", { class: "resource-contents" }, header, body, downloadButton(contents));
}

/** A content block (text, image, audio, resource_link, resource). */
export function renderBlock(block, { onOpenResource } = {}) {
  switch (block?.type) {
    case "text":
      return h("pre", { class: "text", data: { testid: "content-text" } }, String(block.text ?? ""));
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
        h("strong", {}, String(block.title ?? block.name ?? "resource")), " ", h("code", {}, String(block.uri ?? "")),
        block.description ? h("p", { class: "hint" }, String(block.description)) : null,
        onOpenResource ? h("button", { type: "button", class: "small", onclick: () => onOpenResource(String(block.uri)) }, "Read") : null);
    case "resource":
      return h("div", { class: "embedded", data: { testid: "content-resource" } }, h("p", { class: "muted" }, "Embedded resource"), renderResourceContents(block.resource ?? {}));
    default:
      return h("details", {}, h("summary", {}, `Unknown content type ${JSON.stringify(String(block?.type))}`), h("pre", {}, pretty(block)));
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
  return h("span", { class: "leaf" }, label, h("span", { class: `v-${value === null ? "null" : typeof value}` }, JSON.stringify(value)));
}

/** A CallToolResult: its content, its structuredContent, and isError marked. */
export function renderToolResult(result, options) {
  const failed = result?.isError === true;
  return h("div", { class: failed ? "tool-result is-error" : "tool-result", data: { testid: "tool-result", state: failed ? "tool-error" : "ok" } },
    failed ? h("p", { class: "error-banner", role: "alert" }, "The tool reported an error (isError)") : null,
    (Array.isArray(result?.content) ? result.content : []).map((block) => renderBlock(block, options)),
    result?.structuredContent !== undefined ? h("section", { class: "structured", data: { testid: "structured" } }, h("h4", {}, "structuredContent"), jsonTree(result.structuredContent)) : null);
}

/** A prompt's messages. */
export function renderMessages(messages, options) {
  return h("ol", { class: "messages", data: { testid: "prompt-messages" } }, (Array.isArray(messages) ? messages : []).map((m) =>
    h("li", { class: `message role-${m?.role === "assistant" ? "assistant" : "user"}` }, h("span", { class: "role" }, String(m?.role ?? "?")),
      [m?.content].flat().map((block) => renderBlock(block, options)))));
}
