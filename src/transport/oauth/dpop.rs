//! DPoP (RFC 9449, SEP-1932): tokens bound to a key the client holds. Every
//! token request and every request to the MCP server carries a fresh proof,
//! a JWT signed with that key, naming the method and URL (and, to the MCP
//! server, a hash of the token). A stolen token is useless without the key,
//! which WebCrypto keeps non-extractable.
//!
//! The key lives where the tokens do: in IndexedDB when `auth.storage`
//! persists them (a CryptoKey survives there without being exportable), in
//! memory otherwise. Servers may demand a nonce (`use_dpop_nonce`); the last
//! one each origin sent goes into that origin's proofs.

use super::crypto::{auth_error, random_token, sign};
use crate::error::Error;
use crate::protocol::oauth as rules;
use crate::protocol::sha256::sha256;
use js_sys::Promise;
use serde_json::{json, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

// The key storage is JavaScript (IndexedDB, WebCrypto). The npm package's core loads it on
// first use, as a part (`dpop.js` beside the glue), so that a page that never uses DPoP does
// not fetch it with the core; a Rust build imports it as wasm-bindgen's snippet.
#[cfg(not(feature = "core-module"))]
#[wasm_bindgen(module = "/src/dpop.js")]
extern "C" {
    #[wasm_bindgen(js_name = dpopKeyPair)]
    fn key_pair(name: &str, persist: bool) -> Promise;
    #[wasm_bindgen(js_name = dpopPublicJwk)]
    fn public_jwk(pair: &JsValue) -> Promise;
}

/// The key pair stored as `name` (made if there is none) and its public key
/// as a JWK's text.
#[cfg(not(feature = "core-module"))]
async fn stored_key(name: &str, persist: bool) -> Result<(JsValue, JsValue), Error> {
    let pair = JsFuture::from(key_pair(name, persist)).await.map_err(key_error)?;
    let jwk = JsFuture::from(public_jwk(&pair)).await.map_err(key_error)?;
    Ok((pair, jwk))
}

/// The key pair stored as `name` (made if there is none) and its public key
/// as a JWK's text, from the part `dpop`. A part that cannot load is a
/// `network` error, as the package's other parts'.
#[cfg(feature = "core-module")]
async fn stored_key(name: &str, persist: bool) -> Result<(JsValue, JsValue), Error> {
    use wasm_bindgen::JsCast;
    let part = crate::transport::parts::load("dpop")
        .await?
        .ok_or_else(|| auth_error("DPoP key", "its storage (mcp-wasm/dpop.js) was not handed over (setPartLoaders)"))?;
    let call = |export: &str, args: &js_sys::Array| -> Result<JsFuture, JsValue> {
        let function: js_sys::Function = js_sys::Reflect::get(&part, &export.into())?.dyn_into()?;
        Ok(JsFuture::from(Promise::resolve(&function.apply(&JsValue::UNDEFINED, args)?)))
    };
    let pair = call("dpopKeyPair", &js_sys::Array::of2(&name.into(), &persist.into())).map_err(key_error)?.await.map_err(key_error)?;
    let jwk = call("dpopPublicJwk", &js_sys::Array::of1(&pair)).map_err(key_error)?.await.map_err(key_error)?;
    Ok((pair, jwk))
}

fn key_error(e: JsValue) -> Error {
    auth_error("DPoP key", crate::transport::fetch::js_message(&e))
}

/// The key and the nonces of one authorization context.
#[derive(Debug)]
pub(super) struct Dpop {
    private_key: JsValue,
    /// The public key as a JWK, for the proofs' header.
    jwk: Value,
    /// The last `DPoP-Nonce` each origin sent.
    nonces: RefCell<rules::DpopNonces>,
}

/// `htu`: the URL without query or fragment (RFC 9449 §4.2).
fn target_uri(url: &str) -> &str {
    url.split(['?', '#']).next().unwrap_or(url)
}

fn origin(url: &str) -> String {
    rules::split_url(url).map(|(origin, _)| origin).unwrap_or_default()
}

impl Dpop {
    /// The key pair stored as `name`, made on first use.
    pub(super) async fn load(name: &str, persist: bool) -> Result<Self, Error> {
        let (pair, jwk) = stored_key(name, persist).await?;
        let jwk: Value = crate::protocol::json::parse(&jwk.as_string().unwrap_or_default()).map_err(|e| auth_error("DPoP key", e))?;
        let private_key = js_sys::Reflect::get(&pair, &"privateKey".into()).map_err(key_error)?;
        Ok(Self { private_key, jwk, nonces: RefCell::default() })
    }

    /// A fresh proof for `method` on `url`; `access_token` adds its hash (`ath`).
    pub(super) async fn proof(&self, method: &str, url: &str, access_token: Option<&str>) -> Result<String, Error> {
        let header = json!({ "typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk });
        let mut claims = json!({
            "jti": random_token(16)?,
            "htm": method,
            "htu": target_uri(url),
            "iat": (js_sys::Date::now() / 1000.0).floor() as u64,
        });
        if let Some(fields) = claims.as_object_mut() {
            if let Some(token) = access_token {
                fields.insert("ath".into(), Value::String(rules::base64url(&sha256(token.as_bytes()))));
            }
            if let Some(nonce) = self.nonces.borrow().get(&origin(url)) {
                fields.insert("nonce".into(), Value::String(nonce.to_owned()));
            }
        }
        let input = format!("{}.{}", rules::base64url(header.to_string().as_bytes()), rules::base64url(claims.to_string().as_bytes()));
        let signature = sign(&self.private_key, &json!({"name": "ECDSA", "hash": "SHA-256"}), &input, "DPoP proof").await?;
        Ok(format!("{input}.{signature}"))
    }

    /// Keeps the nonce a response from `url` carries; whether it was new.
    pub(super) fn note_nonce(&self, url: &str, response: &web_sys::Response) -> bool {
        let Some(nonce) = crate::transport::fetch::header(response, "dpop-nonce").filter(|n| !n.is_empty()) else { return false };
        self.nonces.borrow_mut().note(origin(url), nonce)
    }
}
