// The OAuth redirect URI: hands the authorization response back to the
// inspector that opened this popup, which then closes it.
import { completeAuthorization } from "mcp-wasm";

document.querySelector("#result").textContent = completeAuthorization()
  ? "Signed in: you can close this window."
  : "This page finishes a sign-in started by the inspector; there is nothing to do here.";
