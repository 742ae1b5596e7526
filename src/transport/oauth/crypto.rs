//! WebCrypto, which browsers, Workers and Node all have: random bytes, SHA-256
//! and ECDSA/RSA signatures, reached through the global `crypto` so that no
//! crypto code is compiled into the module.

use crate::error::Error;
use crate::protocol::oauth as rules;
use crate::transport::fetch::js_message;
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub(super) fn auth_error(step: &str, why: impl std::fmt::Display) -> Error {
    Error::Auth(format!("{step}: {why}"))
}

fn subtle(step: &str) -> Result<Object, Error> {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).map_err(|_| auth_error(step, "no crypto"))?;
    Reflect::get(&crypto, &"subtle".into())
        .ok()
        .and_then(|s| s.dyn_into::<Object>().ok())
        .ok_or_else(|| auth_error(step, "no crypto.subtle"))
}

fn method(object: &Object, name: &str, step: &str) -> Result<Function, Error> {
    Reflect::get(object, &name.into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| auth_error(step, format!("no crypto.subtle.{name}")))
}

/// Small algorithm objects as JS values.
pub(super) fn js_object(value: &Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
}

async fn settle(step: &str, started: Result<JsValue, JsValue>) -> Result<JsValue, Error> {
    let fail = |e: JsValue| auth_error(step, js_message(&e));
    JsFuture::from(Promise::from(started.map_err(fail)?)).await.map_err(fail)
}

/// Random bytes from the platform's CSPRNG.
pub(super) fn random_bytes(length: u32) -> Result<Vec<u8>, Error> {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into()).map_err(|_| auth_error("PKCE", "no crypto"))?;
    let bytes = Uint8Array::new_with_length(length);
    let fill = Reflect::get(&crypto, &"getRandomValues".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
    fill.ok_or_else(|| auth_error("PKCE", "no crypto.getRandomValues"))?
        .call1(&crypto, &bytes)
        .map_err(|e| auth_error("PKCE", js_message(&e)))?;
    Ok(bytes.to_vec())
}

/// A random base64url string of `bytes` bytes of entropy.
pub(super) fn random_token(bytes: u32) -> Result<String, Error> {
    Ok(rules::base64url(&random_bytes(bytes)?))
}

/// SHA-256.
pub(super) async fn sha256(data: &[u8]) -> Result<Vec<u8>, Error> {
    let subtle = subtle("PKCE")?;
    let digest = method(&subtle, "digest", "PKCE")?;
    let buffer = settle("PKCE", digest.call2(&subtle, &"SHA-256".into(), &Uint8Array::from(data))).await?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// Signs `input` with `key`; WebCrypto's ECDSA signature is already the JWS
/// form (r ‖ s).
pub(super) async fn sign(key: &JsValue, algorithm: &Value, input: &str, step: &str) -> Result<String, Error> {
    let subtle = subtle(step)?;
    let sign = method(&subtle, "sign", step)?;
    let signature = settle(step, sign.call3(&subtle, &js_object(algorithm), key, &Uint8Array::from(input.as_bytes()))).await?;
    Ok(rules::base64url(&Uint8Array::new(&signature).to_vec()))
}

/// Signs a JWT client assertion (RFC 7523) with a PKCS#8 PEM key.
pub(super) async fn sign_assertion(pem: &str, algorithm: &str, client_id: &str, audience: &str) -> Result<String, Error> {
    const STEP: &str = "client assertion";
    let der = rules::pem_body(pem).ok_or_else(|| auth_error(STEP, "the private key is not a PEM block"))?;
    let (import, signing) = match algorithm {
        "ES256" => (json!({"name": "ECDSA", "namedCurve": "P-256"}), json!({"name": "ECDSA", "hash": "SHA-256"})),
        "RS256" => (json!({"name": "RSASSA-PKCS1-v1_5", "hash": "SHA-256"}), json!({"name": "RSASSA-PKCS1-v1_5"})),
        other => return Err(auth_error(STEP, format!("unsupported signing algorithm {other}"))),
    };
    let subtle = subtle(STEP)?;
    let import_key = method(&subtle, "importKey", STEP)?;
    let args =
        Array::of5(&"pkcs8".into(), &Uint8Array::from(der.as_slice()), &js_object(&import), &JsValue::FALSE, &Array::of1(&"sign".into()));
    let key = settle(STEP, import_key.apply(&subtle, &args)).await?;
    let jti = random_token(16)?;
    let now = (js_sys::Date::now() / 1000.0) as u64;
    let input = rules::jwt_signing_input(algorithm, client_id, audience, &jti, now);
    let signature = sign(&key, &signing, &input, STEP).await?;
    Ok(format!("{input}.{signature}"))
}
