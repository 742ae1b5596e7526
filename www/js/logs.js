// Logs and notifications from every server, with a level filter, and the
// level each server is asked to log at.
import { h, uid, describeError, pretty, asText, clip } from "./dom.js";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const MAX_ENTRIES = 1000;
// The most characters one entry keeps, whether the server logged a string or an object:
// 1000 entries of a server's 16 MiB strings would otherwise stay in the page.
const MAX_TEXT = 2000;

export function logsView(app) {
  const filterId = uid("level");
  const othersId = uid("others");
  const serverLevelId = uid("srvlevel");
  const filter = h("select", { id: filterId, data: { testid: "log-filter" }, onchange: apply }, LEVELS.map((l) => h("option", { value: l }, l)));
  const others = h("input", { id: othersId, type: "checkbox", checked: true, onchange: apply });
  const serverLevel = h("select", { id: serverLevelId }, LEVELS.map((l) => h("option", { value: l, selected: l === "info" }, l)));
  const status = h("span", { class: "muted", role: "status" });
  const entries = h("ol", { class: "log", data: { testid: "log" }, aria: { live: "polite" } });

  function visible(entry) {
    const level = entry.dataset.level;
    if (!level) return others.checked;
    return LEVELS.indexOf(level) >= LEVELS.indexOf(filter.value);
  }

  function apply() {
    for (const entry of entries.children) entry.hidden = !visible(entry);
  }

  app.host.addEventListener("notification", (event) => {
    const { method, params } = event.notification;
    const message = method === "notifications/message";
    const level = message && LEVELS.includes(params?.level) ? params.level : undefined;
    const text = message ? `${params?.logger ? `${asText(params.logger, 200)}: ` : ""}${typeof params?.data === "string" ? clip(params.data, MAX_TEXT) : pretty(params?.data, MAX_TEXT)}`
      : pretty(params ?? {}, MAX_TEXT);
    const entry = h("li", { class: `entry ${level ? `level-${level}` : "other"}`, data: { testid: "log-entry", level: level ?? "", method } },
      h("span", { class: "time" }, new Date().toLocaleTimeString()), " ",
      h("span", { class: "server-tag" }, asText(event.server)), " ",
      h("span", { class: "method" }, level ? level.toUpperCase() : asText(method, 200)), " ",
      h("span", { class: "text" }, text));
    entry.hidden = !visible(entry);
    entries.append(entry);
    while (entries.children.length > MAX_ENTRIES) entries.firstElementChild.remove();
  });

  async function setLevel(event) {
    event.preventDefault();
    const results = await Promise.all(app.host.servers().filter((s) => s.status === "connected").map(async (s) => {
      try {
        await app.host.client(s.name)?.setLoggingLevel(serverLevel.value);
        return `${s.name}: ${serverLevel.value}`;
      } catch (error) {
        return `${s.name}: ${describeError(error)}`;
      }
    }));
    status.textContent = results.join("; ");
  }

  const panel = h("section", { class: "panel" }, h("h2", {}, "Logs and notifications"),
    h("div", { class: "row wrap" },
      h("label", { for: filterId }, "Show messages at or above"), filter,
      others, h("label", { for: othersId }, "Other notifications"),
      h("button", { type: "button", class: "small", onclick: () => entries.replaceChildren() }, "Clear")),
    h("form", { class: "row wrap", onsubmit: setLevel },
      h("label", { for: serverLevelId }, "Ask servers to log at"), serverLevel, h("button", { type: "submit", class: "small" }, "Apply"), status),
    entries);
  return { id: "logs", label: "Logs", panel };
}
