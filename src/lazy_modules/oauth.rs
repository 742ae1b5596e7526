//! `startOAuth` and its `OAuthSession`: the OAuth module's exports, which
//! the core's `js::lazy::LazyOAuth` calls for a client with `auth`. The flow
//! is [`OAuth`], as in a build with the `oauth` feature.

use crate::error::Error;
use crate::transport::auth::Authorizer;
use crate::transport::fetch::Fetch;
use crate::transport::oauth::{OAuth, OAuthConfig};
use js_sys::{Array, Function, Object, Promise, Reflect};
use std::future::Future;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::js::abort::aborted;
use crate::js::auth_options;
use futures::future::{self, Either};
use web_sys::AbortSignal;

/// An error as the core reads it back: `{ kind, message }`.
fn rejection(error: &Error) -> JsValue {
    let message = match error {
        Error::Auth(m) | Error::InvalidArgument(m) => m.clone(),
        Error::Network { message } => message.clone(),
        other => other.to_string(),
    };
    let out = Object::new();
    // Setting a plain property on a fresh object cannot fail.
    let _ = Reflect::set(&out, &"kind".into(), &error.kind().into());
    let _ = Reflect::set(&out, &"message".into(), &message.into());
    out.into()
}

/// `work` as a Promise, dropped when `signal` (the core's, aborted when the
/// call waiting for this one is dropped) aborts: its fetches are aborted and
/// nothing after them runs.
fn promise(signal: JsValue, work: impl Future<Output = Result<JsValue, Error>> + 'static) -> Promise {
    let stop = signal.dyn_into::<AbortSignal>().ok().map(|signal| aborted(&signal));
    future_to_promise(async move {
        let outcome = match stop {
            Some(stop) => match future::select(Box::pin(work), stop).await {
                Either::Left((done, _)) => done,
                Either::Right((reason, _)) => Err(Error::Cancelled { reason }),
            },
            None => work.await,
        };
        outcome.map_err(|e| rejection(&e))
    })
}

/// The OAuth flow for one MCP server, configured by the connect options' `auth`.
///
/// # Errors
/// `{ kind: "invalid-argument" }` naming the bad option, or an MCP URL that is
/// neither https nor loopback http.
#[wasm_bindgen(js_name = startOAuth, skip_typescript)]
pub fn start_oauth(mcp_url: String, options: JsValue, fetch: JsValue) -> Result<OAuthSession, JsValue> {
    let config = auth_options::auth_options(&options).map_err(|e| rejection(&e))?;
    let Some(config) = config else { return Err(rejection(&Error::invalid_argument("auth must be an object".to_owned()))) };
    if !crate::protocol::oauth::endpoint_allowed(&mcp_url) {
        let message = format!("with auth, the MCP URL must be https, or http on a loopback host: {mcp_url}");
        return Err(rejection(&Error::invalid_argument(message)));
    }
    let fetch = Fetch::new(fetch.dyn_into::<Function>().ok());
    Ok(OAuthSession(Rc::new(OAuth::new(OAuthConfig { mcp_url, ..config }, fetch))))
}

/// The [`Authorizer`] methods of one OAuth flow, as Promises.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct OAuthSession(Rc<OAuth>);

#[wasm_bindgen]
impl OAuthSession {
    /// Takes up tokens kept in the storage. Each method that returns a
    /// Promise stops when its last argument, an `AbortSignal`, aborts.
    pub fn restore(&self, signal: JsValue) -> Promise {
        let auth = self.0.clone();
        promise(signal, async move {
            Authorizer::restore(auth).await;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// `[name, value]` pairs that authorize a request.
    #[wasm_bindgen(js_name = requestHeaders)]
    pub fn request_headers(&self, method: String, url: String, signal: JsValue) -> Promise {
        let auth = self.0.clone();
        promise(signal, async move {
            let headers = Authorizer::request_headers(auth, &method, &url).await?;
            Ok(headers.into_iter().map(|(name, value)| Array::of2(&name.into(), &value.into())).collect::<Array>().into())
        })
    }

    /// Notes a DPoP nonce; whether the response asks for one retry with it.
    #[wasm_bindgen(js_name = needsNonce)]
    pub fn needs_nonce(&self, url: String, response: web_sys::Response) -> bool {
        Authorizer::needs_nonce(self.0.as_ref(), &url, &response)
    }

    /// After a 401.
    pub fn unauthorized(&self, response: web_sys::Response, signal: JsValue) -> Promise {
        let work = Authorizer::unauthorized(self.0.clone(), &response);
        promise(signal, async move { work.await.map(|()| JsValue::UNDEFINED) })
    }

    /// After a 403: whether it was `insufficient_scope`, now answered.
    #[wasm_bindgen(js_name = stepUp)]
    pub fn step_up(&self, response: web_sys::Response, signal: JsValue) -> Promise {
        let work = Authorizer::step_up(self.0.clone(), &response);
        promise(signal, async move { work.await.map(JsValue::from) })
    }
}
