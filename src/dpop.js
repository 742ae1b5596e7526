// The JavaScript that OAuth's DPoP code imports (src/transport/oauth/dpop.rs). It is a
// snippet of its own, apart from glue.js, because only the OAuth module uses it: the
// core's glue, which a page fetches before its first call, does not carry it.

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
