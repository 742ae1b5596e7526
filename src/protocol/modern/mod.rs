//! The 2026-07-28 revision's wire rules ("modern era"): no `initialize`;
//! every request carries `_meta` with the version, the client's capabilities
//! and info; results say what they are in `resultType`; a result may ask for
//! input (multi-round-trip requests); `server/discover` describes the server.
//! Everything here is pure and tested natively; the transport and client
//! apply it.

mod headers;
mod result_text;
#[cfg(test)]
mod tests;

pub use headers::{encode_header_value, has_param_headers, param_headers, tool_header_problem};
pub use result_text::complete_text;

use super::jsonrpc::{kind, ErrorObject, Params};
use serde_json::{Map, Value};

/// The modern revision this client speaks.
pub const VERSION: &str = "2026-07-28";

/// `_meta` keys.
pub mod keys {
    /// The protocol revision of the request.
    pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    /// The client's capabilities, per request.
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// The client's `Implementation`.
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// The log level for this request's `notifications/message`.
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
    /// The server's `Implementation`, in result `_meta`.
    pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
    /// The `subscriptions/listen` stream a notification belongs to: the id of its request.
    pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
}

/// Error codes the modern revision adds.
pub mod codes {
    /// The standard headers disagree with the body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// The request needs a client capability it did not declare.
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
    /// The server does not speak the requested revision.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// What goes into every request's `_meta`.
#[derive(Debug, Clone, Copy)]
pub struct RequestMeta<'a> {
    /// The revision.
    pub version: &'a str,
    /// The client's capabilities.
    pub capabilities: &'a Value,
    /// The client's `Implementation`.
    pub client_info: &'a Value,
    /// The log level the user set, if any.
    pub log_level: Option<&'a str>,
}

/// `params` with the modern `_meta` keys added (keys already there, such as
/// `progressToken`, are kept).
pub fn with_meta(params: Option<Value>, meta: &RequestMeta<'_>) -> Value {
    Params::Parsed(params.unwrap_or_else(|| Value::Object(Map::new()))).with_meta(meta_members(meta)).into_value()
}

/// This client's members of a request's `_meta`.
pub fn meta_members(meta: &RequestMeta<'_>) -> Map<String, Value> {
    let mut members = Map::new();
    members.insert(keys::PROTOCOL_VERSION.into(), Value::from(meta.version));
    members.insert(keys::CLIENT_CAPABILITIES.into(), meta.capabilities.clone());
    members.insert(keys::CLIENT_INFO.into(), meta.client_info.clone());
    if let Some(level) = meta.log_level {
        members.insert(keys::LOG_LEVEL.into(), Value::from(level));
    }
    members
}

/// One input the server asks for before it can answer.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequest {
    /// The key the answer goes back under.
    pub key: String,
    /// `sampling/createMessage`, `elicitation/create` or `roots/list`.
    pub method: String,
    /// The request's params.
    pub params: Option<Value>,
}

/// What a modern result is.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The final result, with `resultType` removed (it is consumed here).
    Complete(Value),
    /// The final result as the server's text, `resultType` cut out of it
    /// ([`complete_text`]): a large result the transport kept as text.
    CompleteText(String),
    /// The server needs input first.
    InputRequired {
        /// What it asks for.
        requests: Vec<InputRequest>,
        /// Opaque state to send back byte for byte.
        state: Option<String>,
    },
    /// A task was created (the tasks extension).
    Task(Value),
}

/// Reads `resultType`: absent means `complete` (a legacy server), an unknown
/// value is invalid.
///
/// # Errors
/// What is wrong with the result.
pub fn classify_result(result: Value) -> Result<Outcome, String> {
    let Value::Object(mut map) = result else {
        return Err(crate::error::cold_format!("a result must be an object, not {}", kind(&result)));
    };
    let result_type = match map.get("resultType") {
        None => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(other) => return Err(crate::error::cold_format!("resultType must be a string, not {}", kind(other))),
    };
    // The rest in the server's order, as the text path leaves it: rebuilt rather than
    // shifted, whose removal code the first call's module would carry for this alone, and
    // by `insert`, which it has, rather than `collect`, whose `extend` it would need anew.
    if result_type.is_some() {
        let mut rest = Map::new();
        for (key, value) in map {
            if key != "resultType" {
                rest.insert(key, value);
            }
        }
        map = rest;
    }
    match result_type.as_deref().unwrap_or("complete") {
        "complete" => Ok(Outcome::Complete(Value::Object(map))),
        "task" => Ok(Outcome::Task(Value::Object(map))),
        "input_required" => input_required(map),
        other => Err(crate::error::cold_format!("unknown resultType {other:?}")),
    }
}

/// An `input_required` result's requests and state.
// Apart from `classify_result`: a server that asks for no input never sends one.
#[inline(never)]
fn input_required(mut map: Map<String, Value>) -> Result<Outcome, String> {
    let state = match map.remove("requestState") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return Err("requestState must be a string".into()),
    };
    let requests = match map.remove("inputRequests") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(entries)) => entries
            .into_iter()
            .map(|(key, request)| {
                let method = request.get("method").and_then(Value::as_str).map(str::to_owned);
                match method {
                    Some(method) => Ok(InputRequest { key, method, params: request.get("params").cloned() }),
                    None => Err(crate::error::cold_format!("inputRequests.{key} has no method")),
                }
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("inputRequests must be an object".into()),
    };
    if requests.is_empty() && state.is_none() {
        return Err("an input_required result needs inputRequests or requestState".into());
    }
    Ok(Outcome::InputRequired { requests, state })
}

/// The params of the retry after input: the original params, the answers
/// under the same keys, and the state exactly as received.
pub fn retry_params(original: Option<Value>, responses: Map<String, Value>, state: Option<String>) -> Value {
    let mut params = match original {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    params.insert("inputResponses".into(), Value::Object(responses));
    match state {
        Some(state) => params.insert("requestState".into(), Value::String(state)),
        None => params.remove("requestState"),
    };
    params.into()
}

/// The `Mcp-Name` header: the tool, resource or prompt a request is about.
pub fn mcp_name(method: &str, params: Option<&Params>) -> Option<String> {
    let field = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    match params?.member(field)? {
        Value::String(name) => Some(name),
        _ => None,
    }
}

/// What `server/discover` says about the server.
#[derive(Debug, Clone, PartialEq)]
pub struct Discovery {
    /// Its capabilities.
    pub capabilities: Value,
    /// Its `Implementation`, from the result's `_meta`, if sent.
    pub server_info: Option<Value>,
    /// Its instructions, if any.
    pub instructions: Option<String>,
    /// The revisions it speaks.
    pub supported_versions: Vec<String>,
}

/// Reads a `server/discover` result (after [`classify_result`]).
///
/// # Errors
/// What is wrong with it.
pub fn read_discovery(result: &Value) -> Result<Discovery, String> {
    let capabilities = match result.get("capabilities") {
        Some(c @ Value::Object(_)) => c.clone(),
        _ => return Err("server/discover: capabilities must be an object".into()),
    };
    let supported_versions = match result.get("supportedVersions") {
        Some(Value::Array(v)) => v.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => return Err("server/discover: supportedVersions must be an array".into()),
    };
    Ok(Discovery {
        capabilities,
        server_info: result.get("_meta").and_then(|m| m.get(keys::SERVER_INFO)).filter(|i| i.is_object()).cloned(),
        instructions: result.get("instructions").and_then(Value::as_str).map(str::to_owned),
        supported_versions,
    })
}

/// A modern error the client acts on.
#[derive(Debug, Clone, PartialEq)]
pub enum Recovery {
    /// −32020: re-list the tools and retry once.
    RelistAndRetry,
    /// −32022: the server speaks these revisions instead.
    OtherVersions(Vec<String>),
    /// −32021: the request needs these client capabilities.
    MissingCapabilities(Value),
}

/// What to do about a JSON-RPC error, if it is one of the modern ones.
pub fn recovery(error: &ErrorObject) -> Option<Recovery> {
    match error.code {
        codes::HEADER_MISMATCH => Some(Recovery::RelistAndRetry),
        codes::UNSUPPORTED_PROTOCOL_VERSION => {
            let supported = error.data.as_ref().and_then(|d| d.get("supported")).and_then(Value::as_array);
            Some(Recovery::OtherVersions(supported.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()))
        }
        codes::MISSING_CLIENT_CAPABILITY => Some(Recovery::MissingCapabilities(
            error.data.as_ref().and_then(|d| d.get("requiredCapabilities")).cloned().unwrap_or(Value::Null),
        )),
        _ => None,
    }
}

/// The revisions the text of an HTTP refusal of −32022 names, as
/// `transport::http::status_error` writes them at its end
/// (`… (the server speaks 2026-07-28, …)`): an HTTP error keeps its message
/// and code, not the error's data.
#[must_use]
pub fn named_versions(message: &str) -> Option<&str> {
    // By its last parenthesis rather than a search for the words, which would bring core's string
    // searchers into the module: a revision has no parenthesis in it.
    let inside = message.strip_suffix(')')?;
    let open = inside.bytes().rposition(|b| b == b'(')?;
    let (before, listed) = (inside.get(..open)?, inside.get(open + 1..)?);
    before.ends_with(' ').then_some(listed.strip_prefix("the server speaks ")?)
}

/// What to do about a −32022 answer: the server lists the revisions it speaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionAnswer {
    /// It lists [`VERSION`], which the client speaks: send the request again
    /// (SEP-2575; a server may refuse once and list the very revision it refused).
    Retry,
    /// It speaks none the client speaks: these are what it lists.
    Unsupported(Vec<String>),
}

/// Reads a −32022 refusal; `None` for any other error.
pub fn version_answer(error: &ErrorObject) -> Option<VersionAnswer> {
    match recovery(error)? {
        Recovery::OtherVersions(versions) if versions.iter().any(|v| v == VERSION) => Some(VersionAnswer::Retry),
        Recovery::OtherVersions(versions) => Some(VersionAnswer::Unsupported(versions)),
        _ => None,
    }
}

/// What the answer to the `server/discover` probe says about the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A modern server.
    Modern,
    /// An older server: go on with `initialize`.
    Legacy,
    /// Neither: report the failure as it is (401/403, 5xx).
    Failure,
}

/// Reads the probe's HTTP answer, following the spec's recipe: success or a
/// recognised modern JSON-RPC error means modern; 400, 404 or 405 with an
/// empty or unrecognised body means legacy; anything else is no evidence.
pub fn probe_verdict(status: u16, body: &str) -> Verdict {
    let code = crate::protocol::json::parse(body).ok().and_then(|v| v.get("error")?.get("code")?.as_i64());
    verdict(status, code)
}

/// [`probe_verdict`] from the status and the JSON-RPC error code already read.
pub fn verdict(status: u16, code: Option<i64>) -> Verdict {
    if (200..300).contains(&status) {
        return Verdict::Modern;
    }
    let modern_code = matches!(code, Some(codes::HEADER_MISMATCH | codes::MISSING_CLIENT_CAPABILITY | codes::UNSUPPORTED_PROTOCOL_VERSION));
    match status {
        400 | 404 | 405 if modern_code => Verdict::Modern,
        400 | 404 | 405 => Verdict::Legacy,
        _ => Verdict::Failure,
    }
}
