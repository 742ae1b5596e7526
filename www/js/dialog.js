// A modal dialog that settles once, for the server's requests to the user.
import { h } from "./dom.js";

/**
 * Shows a modal dialog built by `build({ done, fail, dialog })` and resolves
 * with what `done` is given (or rejects with `fail`'s error). Escape fires an
 * "escape" event on the dialog for the builder to answer; the server's
 * cancellation (`signal`) closes it with the signal's reason.
 */
export function modal(title, testid, build, signal) {
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
