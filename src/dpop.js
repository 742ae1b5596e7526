// The JavaScript that OAuth's DPoP code calls (src/transport/oauth/dpop.rs): apart from
// glue.js, which a page fetches before its first call. A Rust build imports it as a
// wasm-bindgen snippet; the npm package ships it as dpop.js, a part its core loads the
// first time a flow needs a DPoP key (scripts/build.sh).

// DPoP keys: a non-extractable ES256 pair, kept in IndexedDB when asked.
const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };
const generate = () => crypto.subtle.generateKey(ALGORITHM, false, ["sign", "verify"]);
function request(r) {
  return new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
}
export async function dpopKeyPair(name, persist) {
  if (!persist || typeof indexedDB === "undefined") return generate();
  let db;
  try {
    const open = indexedDB.open("mcp-wasm-dpop", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("keys");
    db = await request(open);
    const found = await request(db.transaction("keys").objectStore("keys").get(name));
    if (found?.privateKey && found?.publicKey) return found;
    const pair = await generate();
    await request(db.transaction("keys", "readwrite").objectStore("keys").put(pair, name));
    return pair;
  } catch {
    return generate();
  } finally {
    db?.close();
  }
}
export async function dpopPublicJwk(pair) {
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return JSON.stringify({ kty, crv, x, y });
}
