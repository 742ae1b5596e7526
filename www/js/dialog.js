// A modal dialog that settles once, for the server's requests to the user.
// Dialogs take turns: a server that sends many requests at once gets one
// dialog at a time (the client refuses what goes past its limit).
import { h } from "./dom.js";

let turn = Promise.resolve();

/**
 * Shows a modal dialog built by `build({ done, fail, dialog })` once the
 * dialogs before it are answered, and resolves with what `done` is given (or
 * rejects with `fail`'s error). Escape fires an "escape" event on the dialog
 * for the builder to answer; the server's cancellation (`signal`) closes it,
 * or takes it out of the queue, with the signal's reason.
 */
export function modal(title, testid, build, signal) {
  const shown = turn.then(() => show(title, testid, build, signal));
  turn = shown.catch(() => {});
  return shown;
}

function show(title, testid, build, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const dialog = h("dialog", { class: "modal", data: { testid }, aria: { label: title } });
    let settled = false;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      dialog.close();
      dialog.remove();
      fn(value);
    };
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault(); // Escape: the builder decides what it means
      dialog.dispatchEvent(new Event("escape"));
    });
    signal?.addEventListener("abort", () => finish(reject, signal.reason), { once: true });
    dialog.append(h("h2", {}, title), build({ done: (v) => finish(resolve, v), fail: (e) => finish(reject, e), dialog }));
    document.body.append(dialog);
    dialog.showModal();
  });
}
