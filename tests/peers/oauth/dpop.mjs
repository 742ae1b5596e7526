// DPoP (RFC 9449) as the OAuth peer checks it, at the token endpoints and at /mcp: the proof's
// header and signature, its claims against the request, one use per jti, and an optional
// server nonce. The authorization servers and the resource server share one origin, so they
// share one nonce: a client keeps the last nonce per origin, as RFC 9449 §8 lets it.
import { createHash } from "node:crypto";
import { EmbeddedJWK, calculateJwkThumbprint, decodeProtectedHeader, jwtVerify } from "jose";
import { now, random } from "./http.mjs";

const IAT_WINDOW_S = 60;
const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];
const NONCE_MODES = ["off", "as", "rs", "both"];
const PROOF_RECORD_LIMIT = 200;

/** A refused proof; `error` is the OAuth error code to answer with. */
export class DpopRefusal extends Error {
  constructor(error, description) {
    super(description);
    this.error = error;
  }
}

/** What `htu` must be: the request's URL without query and fragment (RFC 9449 §4.2). */
const targetUri = (url) => url.split(/[?#]/)[0];
const tokenHash = (token) => createHash("sha256").update(token).digest("base64url");

export function createDpopChecker({ nonceMode = "off" } = {}) {
  if (!NONCE_MODES.includes(nonceMode)) throw new Error(`DPOP_NONCE must be one of ${NONCE_MODES.join(", ")}`);
  let mode = nonceMode;
  let nonce = random(16);
  let usedJtis = new Map(); // jti -> iat, kept while the iat window could still accept it
  let stats;
  const reset = () => {
    usedJtis = new Map();
    stats = { proofs: [], refused: {}, nonceChallenges: { as: 0, rs: 0 } };
  };
  reset();

  // Both servers name a bad proof so: RFC 9449 §5.2 at the token endpoint, §7.1 at the resource.
  const refuse = (description, reason) => {
    stats.refused[reason] = (stats.refused[reason] ?? 0) + 1;
    throw new DpopRefusal("invalid_dpop_proof", description);
  };

  function forgetOldJtis() {
    for (const [jti, iat] of usedJtis) if (iat < now() - 2 * IAT_WINDOW_S) usedJtis.delete(jti);
  }

  /**
   * Checks `proof` for a request `htm` `htu` made to `who` ("as" or "rs"); `accessToken`, for
   * the resource server, must hash to `ath`. Resolves with the key's RFC 7638 thumbprint.
   */
  async function verify(proof, { who, htm, htu, accessToken }) {
    if (typeof proof !== "string" || proof.split(".").length !== 3) refuse("the DPoP header is not one compact JWS", "malformed");
    let header;
    try { header = decodeProtectedHeader(proof); } catch { refuse("the DPoP proof header is not JSON", "malformed"); }
    if (header.typ !== "dpop+jwt") refuse(`typ must be dpop+jwt, not ${header.typ}`, "typ");
    if (header.alg !== "ES256") refuse(`alg must be ES256, not ${header.alg}`, "alg");
    if (!header.jwk || typeof header.jwk !== "object") refuse("the proof carries no jwk", "jwk");
    const exposed = PRIVATE_JWK_MEMBERS.filter((member) => member in header.jwk);
    if (exposed.length) refuse(`the jwk carries private key members (${exposed.join(", ")})`, "private jwk");
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] }));
    } catch (e) {
      refuse(`the proof's signature does not verify with its jwk (${e.code ?? e.message})`, "signature");
    }
    if (typeof claims.jti !== "string" || claims.jti.length < 8) refuse("jti missing or too short", "jti");
    if (claims.htm !== htm) refuse(`htm is ${claims.htm}, the request is ${htm}`, "htm");
    // Stricter than a server must be: an htu with a query or fragment is refused, not trimmed.
    if (claims.htu !== targetUri(htu)) refuse(`htu is ${claims.htu}, the request went to ${targetUri(htu)}`, "htu");
    if (typeof claims.iat !== "number" || Math.abs(claims.iat - now()) > IAT_WINDOW_S) refuse(`iat ${claims.iat} is not within ${IAT_WINDOW_S} s of now`, "iat");
    forgetOldJtis();
    if (usedJtis.has(claims.jti)) refuse("this proof's jti was used before", "jti reused");
    usedJtis.set(claims.jti, claims.iat);
    if (accessToken !== undefined && claims.ath !== tokenHash(accessToken)) refuse("ath is not the hash of the access token", "ath");
    if (accessToken === undefined && "ath" in claims) refuse("a token request's proof carries ath", "ath");
    if (requiresNonce(who) && claims.nonce !== nonce) {
      stats.nonceChallenges[who] += 1;
      throw new DpopRefusal("use_dpop_nonce", `${who === "as" ? "authorization" : "resource"} server requires the nonce it sent`);
    }
    const jkt = await calculateJwkThumbprint(header.jwk, "sha256");
    if (stats.proofs.length < PROOF_RECORD_LIMIT) {
      stats.proofs.push({ at: who, htm: claims.htm, htu: claims.htu, iat: claims.iat, jti: claims.jti, jkt,
        ath: "ath" in claims, nonce: claims.nonce ?? null });
    }
    return jkt;
  }

  function requiresNonce(who) {
    return mode === "both" || mode === who;
  }

  return {
    verify,
    requiresNonce,
    get nonce() { return nonce; },
    /** Switches the nonce mode and mints a new nonce, so every client must learn it again. */
    setNonceMode(next) {
      if (!NONCE_MODES.includes(next)) throw new Error(`nonce mode must be one of ${NONCE_MODES.join(", ")}`);
      mode = next;
      nonce = random(16);
    },
    get nonceMode() { return mode; },
    reset,
    stats: () => stats,
  };
}
