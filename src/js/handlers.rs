//! The user's `sampling`, `elicitation` and `roots` functions as the client's
//! [`Handlers`]. Each may return a value or a Promise; a throw or a rejection
//! becomes a JSON-RPC error (its `code` if a safe integer, else −32603).
//! Each gets `ctx.signal`, aborted when the answer is no longer wanted.

use super::convert::{from_js, to_js};
use crate::client::{Handlers, JsonHandler, RequestContext};
use crate::error::Error;
use crate::protocol::jsonrpc::{codes, ErrorObject};
use crate::transport::fetch::js_message;
use futures::future::{self, Either, FutureExt};
use js_sys::{Function, Object, Promise, Reflect};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

fn handler(object: &JsValue, name: &str) -> Result<Option<Function>, Error> {
    match Reflect::get(object, &JsValue::from_str(name)) {
        Ok(v) if v.is_undefined() || v.is_null() => Ok(None),
        Ok(v) if v.is_function() => Ok(Some(v.unchecked_into())),
        _ => Err(Error::invalid_argument(format!("handlers.{name} must be a function"))),
    }
}

/// The JSON-RPC error for a value a handler threw or rejected with.
fn thrown_to_error(thrown: &JsValue) -> ErrorObject {
    let field = |name: &str| Reflect::get(thrown, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    // A DOMException's `code` is its legacy number (23 for `AbortSignal.timeout()`'s), no
    // JSON-RPC code: told apart by its constructor's name, with no import of its own.
    let constructor = field("constructor");
    let dom_exception =
        Reflect::get(&constructor, &JsValue::from_str("name")).ok().and_then(|name| name.as_string()).as_deref() == Some("DOMException");
    let code = field("code").as_f64().filter(|c| !dom_exception && c.fract() == 0.0 && c.abs() <= 9_007_199_254_740_991.0);
    let data = field("data");
    ErrorObject {
        code: code.map_or(codes::INTERNAL_ERROR, |c| c as i64),
        message: thrown_message(thrown),
        data: if data.is_undefined() { None } else { from_js(&data, "error.data").ok() },
    }
}

/// What a handler threw, in words ([`js_message`]), with `throw undefined`
/// said as such, so that the server reads what was thrown.
fn thrown_message(thrown: &JsValue) -> String {
    if thrown.is_undefined() {
        return "the handler threw undefined".into();
    }
    js_message(thrown)
}

/// Calls the function and waits for its value, however it delivers it.
async fn call(function: &Function, args: &[&JsValue]) -> Result<JsValue, ErrorObject> {
    let returned = match args {
        [ctx] => function.call1(&JsValue::UNDEFINED, ctx),
        [params, ctx] => function.call2(&JsValue::UNDEFINED, params, ctx),
        _ => function.call0(&JsValue::UNDEFINED),
    }
    .map_err(|e| thrown_to_error(&e))?;
    JsFuture::from(Promise::resolve(&returned)).await.map_err(|e| thrown_to_error(&e))
}

/// The handler's `ctx.signal`, aborted if its answer stops being wanted without a word: a
/// round of input requests that fails on one request drops the others' futures while their
/// handlers still run (a dialog open, a model call under way).
struct SignalOnDrop(Option<AbortController>);

impl SignalOnDrop {
    /// The handler settled, or heard why it should stop: nothing more to tell it.
    fn disarm(&mut self) {
        self.0 = None;
    }
}

impl Drop for SignalOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort_with_reason(&JsValue::from_str("the request is no longer wanted"));
        }
    }
}

/// Adapts one JS function: `(params, ctx)`, or `(ctx)` for roots.
fn adapt(function: Function, takes_params: bool) -> JsonHandler {
    Rc::new(move |params: Value, ctx: RequestContext| {
        let function = function.clone();
        async move {
            let internal = |message: String| ErrorObject::new(codes::INTERNAL_ERROR, message);
            let controller = AbortController::new().map_err(|e| internal(js_message(&e)))?;
            let js_ctx = Object::new();
            let _ = Reflect::set(&js_ctx, &"signal".into(), &controller.signal());
            let _ = Reflect::set(&js_ctx, &"requestId".into(), &to_js(&ctx.id.to_value()).unwrap_or(JsValue::NULL));
            let js_params = to_js(&params).map_err(|e| internal(e.to_string()))?;
            let js_ctx: JsValue = js_ctx.into();
            let args: Vec<&JsValue> = if takes_params { vec![&js_params, &js_ctx] } else { vec![&js_ctx] };
            let mut unwanted = SignalOnDrop(Some(controller.clone()));
            let answer = match future::select(Box::pin(call(&function, &args)), ctx.cancelled()).await {
                Either::Left((answer, _)) => {
                    unwanted.disarm();
                    answer?
                }
                Either::Right((reason, running)) => {
                    unwanted.disarm();
                    controller.abort_with_reason(&JsValue::from_str(&reason));
                    // The answer is no longer wanted, and nothing is sent for it; but the handler
                    // holds its place among `maxServerRequests` until it settles (one that heeds
                    // its signal settles now).
                    let _ = running.await;
                    return Err(internal(reason));
                }
            };
            from_js(&answer, "the handler's answer").map_err(|e| internal(e.to_string()))
        }
        .boxed_local()
    })
}

/// Reads `handlers` (`undefined` for none) into the client's handlers.
///
/// # Errors
/// [`Error::InvalidArgument`] if a present handler is not a function.
pub fn handlers_from_js(handlers: &JsValue) -> Result<Handlers, Error> {
    if handlers.is_undefined() || handlers.is_null() {
        return Ok(Handlers::default());
    }
    given_handlers(handlers)
}

// Apart from the check above, which every connect runs: the core's split (scripts/split/)
// leaves a function that a first call never enters out of the module a page loads first,
// and a connect with `handlers` waits for the rest anyway (pkg-template/rest-gate.js).
#[inline(never)]
fn given_handlers(handlers: &JsValue) -> Result<Handlers, Error> {
    if !handlers.is_object() {
        return Err(Error::invalid_argument("handlers must be an object".into()));
    }
    let mut out = Handlers::default();
    if let Some(f) = handler(handlers, "sampling")? {
        out = out.sampling_json(adapt(f, true));
    }
    if let Some(f) = handler(handlers, "elicitation")? {
        out = out.elicitation_json(adapt(f, true));
    }
    if let Some(f) = handler(handlers, "roots")? {
        out = out.roots_json(adapt(f, false));
    }
    Ok(out)
}
