//! The OAuth module behind [`crate::transport::auth::Authorizer`].

use super::{load, part_error};
use crate::error::Error;
use crate::transport::auth::Authorizer;
use crate::transport::fetch::AbortOnDrop;
use futures::future::LocalBoxFuture;
use js_sys::{Array, Function, Promise, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::Response;

/// OAuth in the core module: the OAuth module is loaded before the first
/// request (in `restore`), and every call goes to its `OAuthSession`,
/// which runs the same flow as a build with the `oauth` feature.
#[derive(Debug)]
pub struct LazyOAuth {
    url: String,
    /// The connect options; the OAuth module reads `auth` from them.
    options: JsValue,
    fetch: JsValue,
    session: RefCell<Option<JsValue>>,
    failure: RefCell<Option<Error>>,
}

impl LazyOAuth {
    /// OAuth for the MCP server at `url`, configured by `options.auth`.
    pub fn authorizer(url: &str, options: JsValue, fetch: Option<Function>) -> Rc<dyn Authorizer> {
        let fetch = fetch.map_or(JsValue::UNDEFINED, JsValue::from);
        Rc::new(Self { url: url.to_owned(), options, fetch, session: RefCell::default(), failure: RefCell::default() })
    }

    /// The module's session, made on first use; a failure to load or to
    /// accept the options stays, as a build without OAuth would refuse.
    async fn session(&self) -> Result<JsValue, Error> {
        if let Some(session) = self.session.borrow().clone() {
            return Ok(session);
        }
        if let Some(failure) = self.failure.borrow().clone() {
            return Err(failure);
        }
        let made = self.make().await;
        // Two requests may have raced to make it: keep the first.
        if let Some(session) = self.session.borrow().clone() {
            return Ok(session);
        }
        match &made {
            Ok(session) => *self.session.borrow_mut() = Some(session.clone()),
            Err(e) => *self.failure.borrow_mut() = Some(e.clone()),
        }
        made
    }

    async fn make(&self) -> Result<JsValue, Error> {
        let Some(part) = load("oauth").await? else {
            return Err(Error::invalid_argument("auth: OAuth is left out of this build (its module was not provided)".to_owned()));
        };
        let start: Function = Reflect::get(&part, &"startOAuth".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| Error::Network { message: "the oauth module has no startOAuth".to_owned() })?;
        start.call3(&JsValue::NULL, &self.url.clone().into(), &self.options, &self.fetch).map_err(|e| part_error(&e))
    }
}

/// Calls `method` of the session and awaits what it returns. The call gets
/// a signal that aborts if this future is dropped (a connect or a request
/// given up): the module's flow stops with it, as it would in one module,
/// instead of going on to exchange a code or open a popup for nobody.
async fn call(session: &JsValue, method: &str, args: &Array) -> Result<JsValue, Error> {
    let function: Function = Reflect::get(session, &method.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| Error::Network { message: format!("the oauth module's session has no {method}") })?;
    let stop = AbortOnDrop::new()?;
    args.push(&stop.signal());
    let pending = function.apply(session, args).map_err(|e| part_error(&e))?;
    let answer = JsFuture::from(Promise::resolve(&pending)).await.map_err(|e| part_error(&e));
    stop.finished();
    answer
}

impl Authorizer for LazyOAuth {
    fn restore(self: Rc<Self>) -> LocalBoxFuture<'static, ()> {
        Box::pin(async move {
            // A failure is kept, and the first request reports it.
            if let Ok(session) = self.session().await {
                let _ = call(&session, "restore", &Array::new()).await;
            }
        })
    }

    fn request_headers(self: Rc<Self>, method: &str, url: &str) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, Error>> {
        let args = Array::of2(&method.into(), &url.into());
        Box::pin(async move {
            let session = self.session().await?;
            let pairs = call(&session, "requestHeaders", &args).await?;
            let pairs: Array = pairs.dyn_into().map_err(|_| Error::Auth("the oauth module's headers are not an array".to_owned()))?;
            Ok(pairs
                .iter()
                .filter_map(|pair| {
                    let pair: Array = pair.dyn_into().ok()?;
                    Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
                })
                .collect())
        })
    }

    fn needs_nonce(&self, url: &str, response: &Response) -> bool {
        let Some(session) = self.session.borrow().clone() else { return false };
        let Some(function) = Reflect::get(&session, &"needsNonce".into()).ok().and_then(|f| f.dyn_into::<Function>().ok()) else {
            return false;
        };
        function.call2(&session, &url.into(), response).is_ok_and(|fresh| fresh.as_bool() == Some(true))
    }

    fn unauthorized(self: Rc<Self>, response: &Response) -> LocalBoxFuture<'static, Result<(), Error>> {
        let args = Array::of1(response);
        Box::pin(async move { call(&self.session().await?, "unauthorized", &args).await.map(drop) })
    }

    fn step_up(self: Rc<Self>, response: &Response) -> LocalBoxFuture<'static, Result<bool, Error>> {
        let args = Array::of1(response);
        Box::pin(async move { Ok(call(&self.session().await?, "stepUp", &args).await?.as_bool() == Some(true)) })
    }
}
