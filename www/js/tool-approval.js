// Asking the user before the chat's model runs a tool: a description or a
// result from one server can make the model call tools on another, so nothing
// is sent until the user has seen where the call goes and with what.
import { h, pretty } from "./dom.js";
import { modal } from "./dialog.js";

/**
 * Shows the call (server and its URL, tool, arguments, all as text) and resolves with the
 * user's choice: "once", "chat" (allow this tool for the rest of the chat) or
 * "deny". Escape denies; `signal` (the chat's Stop) closes the dialog.
 */
export function askToolApproval({ server, url, call }, signal) {
  const where = server ?? "an unknown server";
  return modal(`Run a tool on ${where}?`, "tool-approval-dialog", ({ done, dialog }) => {
    dialog.addEventListener("escape", () => done("deny"));
    return h("div", {},
      h("p", { class: "hint" }, "The model asks to call this tool. Nothing is sent to the server unless you allow it."),
      h("dl", { class: "info" },
        h("dt", {}, "Server"), h("dd", { data: { testid: "tool-approval-server" } }, where),
        url ? [h("dt", {}, "URL"), h("dd", { data: { testid: "tool-approval-url" } }, h("code", {}, url))] : null,
        h("dt", {}, "Tool"), h("dd", { data: { testid: "tool-approval-tool" } }, h("code", {}, call.name))),
      h("h3", {}, "Arguments"),
      h("pre", { class: "text", data: { testid: "tool-approval-arguments" } }, pretty(call.arguments ?? {}, 20_000)),
      h("div", { class: "row" },
        h("button", { type: "button", data: { testid: "tool-allow-once" }, onclick: () => done("once") }, "Allow once"),
        h("button", { type: "button", data: { testid: "tool-allow-chat" }, onclick: () => done("chat") }, "Allow this tool for this chat"),
        // Focused first, so a stray Enter denies rather than allows.
        h("button", { type: "button", autofocus: true, data: { testid: "tool-deny" }, onclick: () => done("deny") }, "Deny")));
  }, signal);
}
