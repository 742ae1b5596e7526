//! The user's `sampling`, `elicitation` and `roots` functions as the session's
//! [`ClientHandler`]. Each may return a value or a Promise; a throw or a
//! rejection becomes a JSON-RPC error (its `code` if a safe integer, else
//! −32603). Answers are checked before they are sent; a bad answer is reported
//! locally through an `error` event and answered with −32603.

use super::convert::{from_js, to_js};
use super::events::Events;
use crate::error::Error;
use crate::protocol::capabilities::HandlerSet;
use crate::protocol::elicitation;
use crate::protocol::jsonrpc::{codes, ErrorObject};
use crate::protocol::schema;
use crate::session::handler::{ClientHandler, HandlerResult, InboundContext};
use crate::transport::fetch::js_message;
use futures::future::{self, Either};
use js_sys::{Function, Object, Promise, Reflect};
use serde_json::{Map, Value};
use std::rc::Weak;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortController;

/// Methods the client can serve.
const SAMPLING: &str = "sampling/createMessage";
const ELICITATION: &str = "elicitation/create";
const ROOTS: &str = "roots/list";

/// The handler functions from `McpClientOptions.handlers`.
#[derive(Debug, Default)]
pub struct JsHandlers {
    sampling: Option<Function>,
    elicitation: Option<Function>,
    roots: Option<Function>,
    events: Weak<Events>,
    /// Bounds the check of a form answer against the server's `requestedSchema`.
    schema_limits: schema::Limits,
}

fn handler(object: &JsValue, name: &str) -> Result<Option<Function>, Error> {
    match Reflect::get(object, &JsValue::from_str(name)) {
        Ok(v) if v.is_undefined() || v.is_null() => Ok(None),
        Ok(v) if v.is_function() => Ok(Some(v.unchecked_into())),
        _ => Err(Error::InvalidArgument(format!("handlers.{name} must be a function"))),
    }
}

impl JsHandlers {
    /// Reads `handlers` (`undefined` for none).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if a present handler is not a function.
    pub fn from_js(handlers: &JsValue, events: Weak<Events>, schema_limits: schema::Limits) -> Result<Self, Error> {
        if handlers.is_undefined() || handlers.is_null() {
            return Ok(Self { events, schema_limits, ..Self::default() });
        }
        if !handlers.is_object() {
            return Err(Error::InvalidArgument("handlers must be an object".into()));
        }
        Ok(Self {
            sampling: handler(handlers, "sampling")?,
            elicitation: handler(handlers, "elicitation")?,
            roots: handler(handlers, "roots")?,
            events,
            schema_limits,
        })
    }

    /// Which handlers are present, for the capabilities to declare.
    pub fn present(&self) -> HandlerSet {
        HandlerSet { sampling: self.sampling.is_some(), elicitation: self.elicitation.is_some(), roots: self.roots.is_some() }
    }
}

/// The JSON-RPC error for a value a handler threw or rejected with.
fn thrown_to_error(thrown: &JsValue) -> ErrorObject {
    let field = |name: &str| Reflect::get(thrown, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    let code = field("code").as_f64().filter(|c| c.fract() == 0.0 && c.abs() <= 9_007_199_254_740_991.0);
    let data = field("data");
    ErrorObject {
        code: code.map_or(codes::INTERNAL_ERROR, |c| c as i64),
        message: js_message(thrown),
        data: if data.is_undefined() { None } else { from_js(&data, "error.data").ok() },
    }
}

/// Calls the handler and waits for its value, however it delivers it.
async fn call(function: &Function, args: &[&JsValue]) -> Result<JsValue, ErrorObject> {
    let returned = match args {
        [ctx] => function.call1(&JsValue::UNDEFINED, ctx),
        [params, ctx] => function.call2(&JsValue::UNDEFINED, params, ctx),
        _ => function.call0(&JsValue::UNDEFINED),
    }
    .map_err(|e| thrown_to_error(&e))?;
    JsFuture::from(Promise::resolve(&returned)).await.map_err(|e| thrown_to_error(&e))
}

/// Why a handler's answer is not sent.
enum Refusal {
    /// The answer is wrong.
    Invalid(String),
    /// Checking it would cost more than the client allows.
    TooCostly(String),
}

impl From<String> for Refusal {
    fn from(why: String) -> Self {
        Self::Invalid(why)
    }
}

impl From<&str> for Refusal {
    fn from(why: &str) -> Self {
        Self::Invalid(why.to_owned())
    }
}

/// Checks and completes a handler's answer for `method`.
fn finish(method: &str, params: Option<&Value>, answer: &JsValue, limits: &schema::Limits) -> Result<Value, Refusal> {
    let value = from_js(answer, "the handler's answer").map_err(|e| e.to_string())?;
    match method {
        SAMPLING => {
            let ok = value.get("role").is_some_and(Value::is_string)
                && value.get("model").is_some_and(Value::is_string)
                && value.get("content").is_some_and(|c| c.is_object() || c.is_array());
            ok.then_some(value).ok_or_else(|| "a sampling answer needs role, content and model".into())
        }
        ROOTS => {
            // The handler may return the roots array itself, or `{ roots }`.
            let roots = match value {
                Value::Array(roots) => roots,
                Value::Object(mut map) => match map.remove("roots") {
                    Some(Value::Array(roots)) => roots,
                    _ => return Err("a roots answer must be an array of roots".into()),
                },
                _ => return Err("a roots answer must be an array of roots".into()),
            };
            if roots.iter().any(|r| !r.get("uri").is_some_and(Value::is_string)) {
                return Err("every root needs a string uri".into());
            }
            let mut result = Map::new();
            result.insert("roots".into(), Value::Array(roots));
            Ok(Value::Object(result))
        }
        _ => {
            let mut value = value;
            elicitation::check_result(&value)?;
            let form = params.and_then(|p| p.get("mode")).and_then(Value::as_str).unwrap_or("form") == "form";
            let accepted = value.get("action").and_then(Value::as_str) == Some("accept");
            if form && accepted {
                let schema = params.and_then(|p| p.get("requestedSchema")).cloned().unwrap_or(Value::Null);
                let mut content = match value.get_mut("content").map(Value::take) {
                    Some(Value::Object(content)) => content,
                    _ => Map::new(),
                };
                elicitation::complete_form_answer(&schema, &mut content, limits).map_err(|e| match e {
                    elicitation::AnswerError::Refused(why) => Refusal::Invalid(why),
                    elicitation::AnswerError::TooCostly(why) => Refusal::TooCostly(why),
                })?;
                if let Some(answer) = value.as_object_mut() {
                    answer.insert("content".into(), Value::Object(content));
                }
            }
            Ok(value)
        }
    }
}

impl ClientHandler for JsHandlers {
    fn handle(&self, method: &str, params: Option<Value>, ctx: InboundContext) -> Option<HandlerResult> {
        let function = match method {
            SAMPLING => self.sampling.clone(),
            ELICITATION => self.elicitation.clone(),
            ROOTS => self.roots.clone(),
            _ => None,
        }?;
        let (method, events, limits) = (method.to_owned(), self.events.clone(), self.schema_limits);
        Some(Box::pin(async move {
            let internal = |message: String| ErrorObject::new(codes::INTERNAL_ERROR, message);
            let controller = AbortController::new().map_err(|e| internal(js_message(&e)))?;
            let js_ctx = Object::new();
            let _ = Reflect::set(&js_ctx, &"signal".into(), &controller.signal());
            let _ = Reflect::set(&js_ctx, &"requestId".into(), &to_js(&ctx.id.to_value()).unwrap_or(JsValue::NULL));
            let js_params = params.as_ref().map_or(Ok(JsValue::UNDEFINED), to_js).map_err(|e| internal(e.to_string()))?;
            let args: Vec<&JsValue> = if method == ROOTS { vec![&js_ctx] } else { vec![&js_params, &js_ctx] };
            let answer = match future::select(Box::pin(call(&function, &args)), ctx.cancelled).await {
                Either::Left((answer, _)) => answer?,
                Either::Right((reason, _)) => {
                    controller.abort_with_reason(&JsValue::from_str(&reason));
                    // The session sends nothing for a cancelled request.
                    return future::pending().await;
                }
            };
            finish(&method, params.as_ref(), &answer, &limits).map_err(|refusal| {
                let (error, why) = match refusal {
                    Refusal::Invalid(why) => (Error::Invalid(format!("the {method} handler's answer was refused: {why}")), why),
                    Refusal::TooCostly(why) => (Error::LimitExceeded { limit: "validationSteps", message: why.clone() }, why),
                };
                if let Some(events) = events.upgrade() {
                    events.dispatch_error(&super::error::to_js_error(&error));
                }
                let code = if method == ELICITATION { codes::INVALID_PARAMS } else { codes::INTERNAL_ERROR };
                ErrorObject::new(code, why)
            })
        }))
    }
}
