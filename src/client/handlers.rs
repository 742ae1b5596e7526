//! Answering the server's requests: sampling (`sampling/createMessage`),
//! elicitation (`elicitation/create`) and roots (`roots/list`), in both eras
//! (a legacy server's requests, a 2026-07-28 request's input rounds).
//!
//! Handlers are closures, typed ([`Handlers::sampling`] takes a
//! [`CreateMessageParams`] and returns a [`CreateMessageResult`]) or JSON
//! (`*_json`, what the JS binding uses). Every answer is checked before it is
//! sent: a sampling answer needs `role`, `content` and `model`; a roots answer
//! is normalised to `{ roots }`; an accepted form elicitation gets the
//! defaults the user left out (SEP-1034) and is checked against the
//! requested schema, within the validation budget. A refused answer reaches
//! the server as a JSON-RPC error and the client's events as a problem.

use super::events::{ClientEvent, EventHub};
use super::validator::SchemaValidator;
use crate::error::Error;
use crate::protocol::capabilities::{declares, HandlerSet};
use crate::protocol::elicitation::{self, AnswerError};
use crate::protocol::jsonrpc::{codes, ErrorObject, RequestId};
use crate::protocol::schema::{self, SchemaError};
use crate::protocol::types::{CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, Root};
use crate::session::handler::{ClientHandler, HandlerResult, InboundContext};
use futures::future::{self, FutureExt, LocalBoxFuture, Shared};
use serde_json::{Map, Value};
use std::future::Future;
use std::rc::{Rc, Weak};

/// `sampling/createMessage`.
pub const SAMPLING: &str = "sampling/createMessage";
/// `elicitation/create`.
pub const ELICITATION: &str = "elicitation/create";
/// `roots/list`.
pub const ROOTS: &str = "roots/list";

/// What a handler learns about the request it answers.
#[derive(Clone)]
pub struct RequestContext {
    /// The server's id for the request (for an input round, its key).
    pub id: RequestId,
    cancelled: Shared<LocalBoxFuture<'static, String>>,
}

impl std::fmt::Debug for RequestContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestContext").field("id", &self.id).finish()
    }
}

impl RequestContext {
    /// Completes, with the reason, when the answer is no longer wanted: the
    /// server cancelled the request, the client closed, or (for an input
    /// round) the caller cancelled the call or it timed out. The handler
    /// should then end soon with any answer, which is not sent: until it
    /// ends, the request counts against `maxServerRequests`.
    pub fn cancelled(&self) -> LocalBoxFuture<'static, String> {
        self.cancelled.clone().boxed_local()
    }
}

/// A handler in JSON: params in, result or JSON-RPC error out.
pub type JsonHandler = Rc<dyn Fn(Value, RequestContext) -> LocalBoxFuture<'static, Result<Value, ErrorObject>>>;

/// The client's answers to the server's requests. A handler present
/// declares the matching client capability.
///
/// ```
/// use mcp_wasm::client::Handlers;
/// use mcp_wasm::protocol::types::{CreateMessageResult, Root};
/// let handlers = Handlers::default()
///     .sampling(|params, _ctx| async move { Ok(CreateMessageResult::text("my-model", format!("{} messages", params.messages.len()))) })
///     .roots(|_ctx| async { Ok(vec![Root::new("file:///home/ada/project", "project")]) });
/// assert!(handlers.present().sampling && handlers.present().roots && !handlers.present().elicitation);
/// ```
#[derive(Clone, Default)]
pub struct Handlers {
    sampling: Option<JsonHandler>,
    elicitation: Option<JsonHandler>,
    roots: Option<JsonHandler>,
}

impl std::fmt::Debug for Handlers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let present = self.present();
        f.debug_struct("Handlers")
            .field("sampling", &present.sampling)
            .field("elicitation", &present.elicitation)
            .field("roots", &present.roots)
            .finish()
    }
}

/// Wraps a typed handler as a JSON one: params are read into `P`, the answer written from `R`.
fn typed<P, R, F, Fut>(handler: F) -> JsonHandler
where
    P: serde::de::DeserializeOwned + 'static,
    R: serde::Serialize + 'static,
    F: Fn(P, RequestContext) -> Fut + 'static,
    Fut: Future<Output = Result<R, ErrorObject>> + 'static,
{
    Rc::new(move |params: Value, ctx: RequestContext| {
        let params = serde_json::from_value::<P>(params);
        let answer = params.map(|params| handler(params, ctx));
        async move {
            let result = answer.map_err(|e| ErrorObject::new(codes::INVALID_PARAMS, format!("invalid params: {e}")))?.await?;
            serde_json::to_value(result).map_err(|e| ErrorObject::new(codes::INTERNAL_ERROR, e.to_string()))
        }
        .boxed_local()
    })
}

impl Handlers {
    /// Answers `sampling/createMessage`, usually after showing the user the request.
    #[must_use]
    pub fn sampling<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(CreateMessageParams, RequestContext) -> Fut + 'static,
        Fut: Future<Output = Result<CreateMessageResult, ErrorObject>> + 'static,
    {
        self.sampling = Some(typed(handler));
        self
    }

    /// Answers `elicitation/create`: asks the user.
    #[must_use]
    pub fn elicitation<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(ElicitParams, RequestContext) -> Fut + 'static,
        Fut: Future<Output = Result<ElicitResult, ErrorObject>> + 'static,
    {
        self.elicitation = Some(typed(handler));
        self
    }

    /// Answers `roots/list` with the roots the user shares.
    #[must_use]
    pub fn roots<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(RequestContext) -> Fut + 'static,
        Fut: Future<Output = Result<Vec<Root>, ErrorObject>> + 'static,
    {
        let handler = Rc::new(handler);
        self.roots = Some(Rc::new(move |_params: Value, ctx: RequestContext| {
            let answer = handler(ctx);
            async move { serde_json::to_value(answer.await?).map_err(|e| ErrorObject::new(codes::INTERNAL_ERROR, e.to_string())) }
                .boxed_local()
        }));
        self
    }

    /// [`Handlers::sampling`] in JSON.
    #[must_use]
    pub fn sampling_json(mut self, handler: JsonHandler) -> Self {
        self.sampling = Some(handler);
        self
    }

    /// [`Handlers::elicitation`] in JSON.
    #[must_use]
    pub fn elicitation_json(mut self, handler: JsonHandler) -> Self {
        self.elicitation = Some(handler);
        self
    }

    /// [`Handlers::roots`] in JSON; it is given `null` params.
    #[must_use]
    pub fn roots_json(mut self, handler: JsonHandler) -> Self {
        self.roots = Some(handler);
        self
    }

    /// Which handlers are present, for the capabilities to declare.
    pub fn present(&self) -> HandlerSet {
        HandlerSet { sampling: self.sampling.is_some(), elicitation: self.elicitation.is_some(), roots: self.roots.is_some() }
    }

    fn get(&self, method: &str) -> Option<&JsonHandler> {
        match method {
            SAMPLING => self.sampling.as_ref(),
            ELICITATION => self.elicitation.as_ref(),
            ROOTS => self.roots.as_ref(),
            _ => None,
        }
    }
}

/// Why an answer is not sent.
enum Refusal {
    /// The answer is wrong.
    Invalid(String),
    /// Checking it would cost more than the client allows.
    TooCostly(String),
}

impl From<&str> for Refusal {
    fn from(why: &str) -> Self {
        Self::Invalid(why.to_owned())
    }
}

/// Checks and completes a handler's answer to `method`. With `own_validator`,
/// a form answer is left to that validator, as tool output is: the built-in
/// one (when compiled in) does not check it a second time.
fn finish(method: &str, params: &Value, answer: Value, limits: &schema::Limits, own_validator: bool) -> Result<Value, Refusal> {
    match method {
        SAMPLING => {
            let ok = answer.get("role").is_some_and(Value::is_string)
                && answer.get("model").is_some_and(Value::is_string)
                && answer.get("content").is_some_and(|c| c.is_object() || c.is_array());
            ok.then_some(answer).ok_or_else(|| "a sampling answer needs role, content and model".into())
        }
        ROOTS => {
            // The handler may return the roots array itself, or `{ roots }`.
            let roots = match answer {
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
            let mut answer = answer;
            elicitation::check_result(&answer).map_err(Refusal::Invalid)?;
            let form = params.get("mode").and_then(Value::as_str).unwrap_or("form") == "form";
            let accepted = answer.get("action").and_then(Value::as_str) == Some("accept");
            if form && accepted {
                let schema = params.get("requestedSchema").cloned().unwrap_or(Value::Null);
                let mut content = match answer.get_mut("content").map(Value::take) {
                    Some(Value::Object(content)) => content,
                    _ => Map::new(),
                };
                let completed = if own_validator {
                    elicitation::fill_form_answer(&schema, &mut content)
                } else {
                    elicitation::complete_form_answer(&schema, &mut content, limits)
                };
                completed.map_err(|e| match e {
                    AnswerError::Refused(why) => Refusal::Invalid(why),
                    AnswerError::TooCostly(why) => Refusal::TooCostly(why),
                })?;
                if let Some(fields) = answer.as_object_mut() {
                    fields.insert("content".into(), Value::Object(content));
                }
            }
            Ok(answer)
        }
    }
}

/// The handlers, as the session asks for them: dispatch by method, check the
/// answer, report a refusal.
pub(crate) struct Answering {
    handlers: Handlers,
    limits: schema::Limits,
    /// Checks an accepted form's content, in place of the built-in validator.
    validator: Option<Rc<dyn SchemaValidator>>,
    events: Weak<EventHub>,
    /// The capabilities the client declared: a request for what they leave out is refused
    /// without it (2025-11-25).
    declared: Value,
    /// How many requests the handlers were asked: a response cached after a round of input
    /// would answer the next caller with the first one's input.
    asked: std::cell::Cell<u64>,
}

/// Checks an accepted form's completed content with a validator from the options.
async fn check_form(validator: &dyn SchemaValidator, params: &Value, answer: &Value, limits: &schema::Limits) -> Result<(), Refusal> {
    let form = params.get("mode").and_then(Value::as_str).unwrap_or("form") == "form";
    let (true, Some(content)) = (form, answer.get("content").filter(|_| answer.get("action").and_then(Value::as_str) == Some("accept")))
    else {
        return Ok(());
    };
    let schema = params.get("requestedSchema").unwrap_or(&Value::Null);
    let verdict = validator.validate(schema, content, limits).await.map_err(|e| Refusal::Invalid(e.to_string()))?;
    verdict.map_err(|e| match e {
        SchemaError::Mismatch(e) => Refusal::Invalid(format!("the answer does not match the requested schema: {e}")),
        SchemaError::TooCostly(e) => Refusal::TooCostly(format!("the requested schema is too costly to check the answer against: {e}")),
    })
}

impl Answering {
    pub(crate) fn new(
        handlers: Handlers,
        limits: schema::Limits,
        validator: Option<Rc<dyn SchemaValidator>>,
        events: Weak<EventHub>,
        declared: &Value,
    ) -> Self {
        Self { handlers, limits, validator, events, declared: declared.clone(), asked: Default::default() }
    }

    /// How many requests the handlers have been asked so far.
    #[cfg_attr(not(feature = "modern"), allow(dead_code))]
    pub(crate) fn asked(&self) -> u64 {
        self.asked.get()
    }

    /// Why a request is refused before its handler sees it, if it is: it lacks what its
    /// method requires (a handler must not have to check what the schema promises it), or
    /// needs what the client did not declare.
    fn refusal(&self, method: &str, params: &Value) -> Option<&'static str> {
        let has = |field: &str| params.get(field).is_some_and(|value| !value.is_null());
        match method {
            SAMPLING if !params.get("messages").is_some_and(Value::is_array) || !params.get("maxTokens").is_some_and(Value::is_number) => {
                Some("invalid params: sampling/createMessage needs a messages array and a number maxTokens")
            }
            ELICITATION if !params.get("message").is_some_and(Value::is_string) => {
                Some("invalid params: elicitation/create needs a string message")
            }
            SAMPLING | ELICITATION | ROOTS if !declares(&self.declared, &[capability_of(method)]) => {
                Some("the client did not declare this request's capability")
            }
            SAMPLING if !declares(&self.declared, &["sampling", "tools"]) && (has("tools") || has("toolChoice")) => {
                Some("the request has tools, and the client did not declare sampling.tools")
            }
            ELICITATION => {
                let declared = self.declared.get("elicitation").unwrap_or(&Value::Null);
                if params.get("mode").and_then(Value::as_str) == Some("url") {
                    (!declares(declared, &["url"])).then_some("the request is in URL mode, and the client did not declare elicitation.url")
                } else {
                    // An empty `elicitation` declares form mode alone, as 2025-06-18 clients do.
                    let form = declared.as_object().is_some_and(Map::is_empty) || declares(declared, &["form"]);
                    (!form).then_some("the request is in form mode, and the client did not declare elicitation.form")
                }
            }
            _ => None,
        }
    }
}

/// The client capability a server request needs.
fn capability_of(method: &str) -> &'static str {
    match method {
        SAMPLING => "sampling",
        ELICITATION => "elicitation",
        _ => "roots",
    }
}

impl ClientHandler for Answering {
    fn handle(&self, method: &str, params: Option<Value>, ctx: InboundContext) -> Option<HandlerResult> {
        let handler = self.handlers.get(method)?.clone();
        let params = params.unwrap_or(Value::Null);
        if let Some(why) = self.refusal(method, &params) {
            return Some(Box::pin(future::ready(Err(ErrorObject::new(codes::INVALID_PARAMS, why)))));
        }
        self.asked.set(self.asked.get() + 1);
        let (method, events, limits, validator) = (method.to_owned(), self.events.clone(), self.limits, self.validator.clone());
        let context = RequestContext { id: ctx.id, cancelled: ctx.cancelled.shared() };
        Some(Box::pin(async move {
            let answer = handler(params.clone(), context).await?;
            let checked = match (finish(&method, &params, answer, &limits, validator.is_some()), validator) {
                (Ok(answer), Some(validator)) if method == ELICITATION => {
                    check_form(validator.as_ref(), &params, &answer, &limits).await.map(|()| answer)
                }
                (finished, _) => finished,
            };
            checked.map_err(|refusal| {
                let (problem, why) = match refusal {
                    Refusal::Invalid(why) => (Error::Invalid(format!("the {method} handler's answer was refused: {why}")), why),
                    Refusal::TooCostly(why) => (Error::LimitExceeded { limit: "validationSteps", message: why.clone() }, why),
                };
                if let Some(events) = events.upgrade() {
                    events.emit(&ClientEvent::Problem(problem));
                }
                let code = if method == ELICITATION { codes::INVALID_PARAMS } else { codes::INTERNAL_ERROR };
                ErrorObject::new(code, why)
            })
        }))
    }
}
