//! Option objects passed from JS, read field by field and checked, so a wrong
//! value is an `invalid-argument` error naming the field, never a panic.

use super::abort::is_signal;
use super::connect::{Choice, EraChoice};
use super::convert::from_js;
use crate::error::Error;
use crate::protocol::version;
use crate::session::cache::CacheBounds;
use crate::session::limits::{Limits, MAX_TIMER_MS};
use crate::session::DEFAULT_TIMEOUT_MS;
use crate::transport::legacy_sse::SseReader;
use crate::transport::oauth::{storage_from, Assertion, CorsProxy, EnterpriseIdentity, Grant, OAuthConfig};
use crate::transport::streamable_http::HeaderSource;
use js_sys::{Function, Reflect};
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

/// Options of `McpClient.connect`.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// `clientInfo` for `initialize`.
    pub client_info: Value,
    /// Extra headers for every request.
    pub headers: HeaderSource,
    /// A replacement for the global `fetch`.
    pub fetch: Option<Function>,
    /// The default per-request timeout.
    pub timeout_ms: u32,
    /// The revision to offer.
    pub protocol_version: &'static str,
    /// Aborts the connection attempt.
    pub signal: Option<AbortSignal>,
    /// `handlers`: the sampling, elicitation and roots functions (read by `JsHandlers`).
    pub handlers: JsValue,
    /// `capabilities`: merged over those derived from the handlers.
    pub capabilities: Option<Value>,
    /// `strictCapabilities` (default true): refuse calls the server did not declare support for.
    pub strict: bool,
    /// `validateToolOutput` (default true): check `structuredContent` against `outputSchema`.
    pub validate_output: bool,
    /// `listChanged`: auto-refresh configuration (read by `list_changed`).
    pub list_changed: JsValue,
    /// `transport`: `"auto"` (default), `"streamable-http"` or `"sse"`.
    pub transport: Choice,
    /// `sseReader`: force `"eventsource"` or `"fetch"` for HTTP+SSE.
    pub sse_reader: Option<SseReader>,
    /// `era`: `"auto"` (default), `"modern"` or `"legacy"`; a `protocolVersion` pins it too.
    pub era: EraChoice,
    /// `maxInputRounds`: the cap on multi-round-trip input (default 10).
    pub max_input_rounds: u32,
    /// `cache`: keep list and read results for their `ttlMs`, within these bounds (`None`: off).
    pub cache: Option<CacheBounds>,
    /// `limits`: the bounds on what the server can make the client do.
    pub limits: Limits,
    /// `auth`: the OAuth flow's configuration; its `mcp_url` is the connect target's.
    pub auth: Option<OAuthConfig>,
}

fn text(object: &JsValue, name: &str) -> Result<Option<String>, Error> {
    match field(object, name) {
        None => Ok(None),
        Some(v) => v.as_string().map(Some).ok_or_else(|| invalid(format!("auth.{name} must be a string"))),
    }
}

fn auth_options(object: &JsValue) -> Result<Option<OAuthConfig>, Error> {
    let Some(auth) = field(object, "auth") else { return Ok(None) };
    if !auth.is_object() {
        return Err(invalid("auth must be an object"));
    }
    let redirect_uri = text(&auth, "redirectUri")?;
    if let Some(uri) = &redirect_uri {
        if !crate::protocol::oauth::redirect_uri_allowed(uri) {
            return Err(invalid("auth.redirectUri must be https, or http on localhost, 127.0.0.1 or [::1], without a fragment"));
        }
    }
    let grant = match text(&auth, "grant")?.as_deref() {
        None | Some("authorization_code") => Grant::AuthorizationCode,
        Some("client_credentials") => Grant::ClientCredentials,
        Some("cross_app_access") => Grant::CrossAppAccess,
        Some("jwt_bearer") => Grant::JwtBearer,
        Some(_) => {
            return Err(invalid(
                "auth.grant must be \"authorization_code\", \"client_credentials\", \"cross_app_access\" or \"jwt_bearer\"",
            ))
        }
    };
    let assertion = match field(&auth, "assertion") {
        None if grant == Grant::JwtBearer => return Err(invalid("auth.assertion is required for jwt_bearer")),
        None => None,
        Some(f) if f.is_function() => Some(Assertion::Function(f.unchecked_into())),
        Some(jwt) => {
            Some(Assertion::Fixed(jwt.as_string().ok_or_else(|| invalid("auth.assertion must be a JWT or a function returning one"))?))
        }
    };
    let issuer = text(&auth, "issuer")?;
    if let Some(issuer) = issuer.as_deref().filter(|i| !crate::protocol::oauth::endpoint_allowed(i)) {
        return Err(invalid(format!("auth.issuer {issuer:?} must be https, or http on a loopback host")));
    }
    let identity = match field(&auth, "identity") {
        None if grant == Grant::CrossAppAccess => return Err(invalid("auth.identity is required for cross_app_access")),
        None => None,
        Some(identity) => Some(EnterpriseIdentity {
            id_token: text(&identity, "idToken")?.ok_or_else(|| invalid("auth.identity.idToken must be a string"))?,
            token_endpoint: text(&identity, "tokenEndpoint")?.ok_or_else(|| invalid("auth.identity.tokenEndpoint must be a string"))?,
            client_id: text(&identity, "clientId")?,
        }),
    };
    Ok(Some(OAuthConfig {
        mcp_url: String::new(),
        client_id: text(&auth, "clientId")?,
        client_secret: text(&auth, "clientSecret")?,
        issuer,
        assertion,
        dpop: match field(&auth, "dpop") {
            None => false,
            Some(flag) => flag.as_bool().ok_or_else(|| invalid("auth.dpop must be a boolean"))?,
        },
        client_metadata_url: text(&auth, "clientMetadataUrl")?,
        client_name: text(&auth, "clientName")?.unwrap_or_else(|| "mcp-wasm".into()),
        redirect_uri,
        scope: text(&auth, "scope")?,
        authorize: function(&auth, "authorize")?,
        grant,
        identity,
        token_endpoint_auth_method: text(&auth, "tokenEndpointAuthMethod")?,
        private_key_pem: text(&auth, "privateKey")?,
        storage: Rc::new(
            storage_from(match Reflect::get(&auth, &"storage".into()) {
                // Absent: sessionStorage where there is one. `null` and "memory": memory only.
                Ok(absent) if absent.is_undefined() => {
                    Reflect::get(&js_sys::global(), &"sessionStorage".into()).ok().filter(|s| s.is_object())
                }
                Ok(null) if null.is_null() => None,
                Ok(storage) => Some(storage),
                Err(_) => None,
            })
            .map_err(invalid)?,
        ),
        callback_url: text(&auth, "callbackUrl")?,
        cors_proxy: match field(&auth, "corsProxy") {
            None => None,
            Some(f) if f.is_function() => Some(CorsProxy::Function(f.unchecked_into())),
            Some(p) => Some(CorsProxy::Prefix(p.as_string().ok_or_else(|| invalid("auth.corsProxy must be a URL prefix or a function"))?)),
        },
        signing_algorithm: match text(&auth, "signingAlgorithm")? {
            None => None,
            Some(a) if a == "ES256" || a == "RS256" => Some(a),
            Some(_) => return Err(invalid("auth.signingAlgorithm must be \"ES256\" or \"RS256\"")),
        },
    }))
}

/// Options of a single request.
#[derive(Debug, Default)]
pub struct RequestOptions {
    /// Aborts the request.
    pub signal: Option<AbortSignal>,
    /// Overrides the client's default timeout.
    pub timeout_ms: Option<u32>,
    /// `onprogress`: called with each `notifications/progress` params.
    pub on_progress: Option<Function>,
    /// `resetTimeoutOnProgress`.
    pub reset_timeout_on_progress: bool,
    /// `maxTotalTimeout`, in milliseconds.
    pub max_total_timeout_ms: Option<u32>,
}

fn invalid(what: impl Into<String>) -> Error {
    Error::InvalidArgument(what.into())
}

/// The options object itself: `undefined`/`null` means defaults.
fn options_object(value: &JsValue, what: &str) -> Result<Option<JsValue>, Error> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else if value.is_object() {
        Ok(Some(value.clone()))
    } else {
        Err(invalid(format!("{what} must be an object")))
    }
}

/// A field, with `undefined` and `null` read as absent.
fn field(object: &JsValue, name: &str) -> Option<JsValue> {
    Reflect::get(object, &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

/// A delay or timeout: positive, and no longer than `setTimeout` can hold
/// (a longer one would fire at once in browsers).
fn milliseconds(object: &JsValue, name: &str) -> Result<Option<u32>, Error> {
    let Some(value) = field(object, name) else { return Ok(None) };
    match value.as_f64() {
        Some(ms) if ms.is_finite() && ms > 0.0 && ms <= f64::from(MAX_TIMER_MS) => Ok(Some(ms.ceil() as u32)),
        _ => Err(invalid(format!("{name} must be a positive number of milliseconds, at most {MAX_TIMER_MS} (about 24.8 days)"))),
    }
}

/// A whole number from `range`, or `default` when absent.
fn count(object: &JsValue, name: &str, range: std::ops::RangeInclusive<f64>, default: u64) -> Result<u64, Error> {
    let Some(value) = field(object, name) else { return Ok(default) };
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && range.contains(&n) => Ok(n as u64),
        _ => Err(invalid(format!("{name} must be a whole number from {} to {}", range.start(), range.end()))),
    }
}

/// `limits`: each bound, or its default.
fn limits(object: &JsValue) -> Result<Limits, Error> {
    let defaults = Limits::DEFAULT;
    let Some(limits) = field(object, "limits") else { return Ok(defaults) };
    if !limits.is_object() {
        return Err(invalid("limits must be an object"));
    }
    let usize_max = usize::MAX as f64;
    Ok(Limits {
        max_message_bytes: count(&limits, "maxMessageBytes", 1024.0..=usize_max.min(4e9), defaults.max_message_bytes as u64)? as usize,
        max_server_requests: count(&limits, "maxServerRequests", 1.0..=1024.0, defaults.max_server_requests as u64)? as usize,
        schema: crate::protocol::schema::Limits {
            steps: count(&limits, "validationSteps", 1.0..=1e15, defaults.schema.steps)?,
            ..defaults.schema
        },
        template_steps: count(&limits, "templateSteps", 1.0..=1e15, defaults.template_steps)?,
    })
}

/// `cache`: `true` for the default bounds, an object to set them, `false` for none.
fn cache(object: &JsValue) -> Result<Option<CacheBounds>, Error> {
    let defaults = CacheBounds::DEFAULT;
    match field(object, "cache") {
        None => Ok(None),
        Some(flag) if flag.as_bool().is_some() => Ok(flag.as_bool().filter(|on| *on).map(|_| defaults)),
        Some(bounds) if bounds.is_object() => Ok(Some(CacheBounds {
            max_entries: count(&bounds, "maxEntries", 1.0..=1e6, defaults.max_entries as u64)? as usize,
            max_bytes: count(&bounds, "maxBytes", 1024.0..=4e9, defaults.max_bytes as u64)? as usize,
        })),
        Some(_) => Err(invalid("cache must be a boolean or { maxEntries, maxBytes }")),
    }
}

fn timeout(object: &JsValue) -> Result<Option<u32>, Error> {
    milliseconds(object, "timeout")
}

fn boolean(object: &JsValue, name: &str, default: bool) -> Result<bool, Error> {
    match field(object, name) {
        None => Ok(default),
        Some(v) => v.as_bool().ok_or_else(|| invalid(format!("{name} must be a boolean"))),
    }
}

fn function(object: &JsValue, name: &str) -> Result<Option<Function>, Error> {
    match field(object, name) {
        None => Ok(None),
        Some(f) if f.is_function() => Ok(Some(f.unchecked_into())),
        Some(_) => Err(invalid(format!("{name} must be a function"))),
    }
}

fn signal(object: &JsValue) -> Result<Option<AbortSignal>, Error> {
    match field(object, "signal") {
        None => Ok(None),
        Some(value) if is_signal(&value) => Ok(Some(value.unchecked_into())),
        Some(_) => Err(invalid("signal must be an AbortSignal")),
    }
}

/// Reads the options of a request.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the first bad field.
pub fn request_options(value: &JsValue) -> Result<RequestOptions, Error> {
    let Some(object) = options_object(value, "options")? else { return Ok(RequestOptions::default()) };
    Ok(RequestOptions {
        signal: signal(&object)?,
        timeout_ms: timeout(&object)?,
        on_progress: function(&object, "onprogress")?,
        reset_timeout_on_progress: boolean(&object, "resetTimeoutOnProgress", false)?,
        max_total_timeout_ms: milliseconds(&object, "maxTotalTimeout")?,
    })
}

/// Reads the options of `connect`.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the first bad field.
pub fn connect_options(value: &JsValue) -> Result<ConnectOptions, Error> {
    let object = options_object(value, "options")?.unwrap_or_else(|| js_sys::Object::new().into());
    let client_info = match field(&object, "clientInfo") {
        None => json!({ "name": "mcp-wasm", "version": env!("CARGO_PKG_VERSION") }),
        Some(info) => {
            let info = from_js(&info, "clientInfo")?;
            let is_text = |key: &str| info.get(key).is_some_and(Value::is_string);
            if !(is_text("name") && is_text("version")) {
                return Err(invalid("clientInfo must have string name and version"));
            }
            info
        }
    };
    let headers = match field(&object, "headers") {
        None => HeaderSource::None,
        Some(h) if h.is_function() => HeaderSource::Function(h.unchecked_into()),
        Some(h) if h.is_object() => HeaderSource::Fixed(h),
        Some(_) => return Err(invalid("headers must be a HeadersInit or a function returning one")),
    };
    let fetch = function(&object, "fetch")?;
    let capabilities = match field(&object, "capabilities") {
        None => None,
        Some(c) => match from_js(&c, "capabilities")? {
            c @ Value::Object(_) => Some(c),
            _ => return Err(invalid("capabilities must be an object")),
        },
    };
    let pinned = field(&object, "protocolVersion").map(|v| v.as_string());
    let (protocol_version, version_era) = match pinned {
        None => (version::LATEST_LEGACY, None),
        Some(Some(v)) if v == crate::protocol::modern::VERSION => (version::LATEST_LEGACY, Some(EraChoice::Modern)),
        Some(v) => (
            v.as_deref().and_then(version::supported).ok_or_else(|| {
                invalid(format!("protocolVersion must be {} or one of {}", crate::protocol::modern::VERSION, version::SUPPORTED.join(", ")))
            })?,
            Some(EraChoice::Legacy),
        ),
    };
    let era = match field(&object, "era").map(|e| e.as_string()) {
        None => version_era.unwrap_or(EraChoice::Auto),
        Some(Some(e)) if e == "auto" => EraChoice::Auto,
        Some(Some(e)) if e == "modern" => EraChoice::Modern,
        Some(Some(e)) if e == "legacy" => EraChoice::Legacy,
        Some(_) => return Err(invalid("era must be \"auto\", \"modern\" or \"legacy\"")),
    };
    if version_era.is_some_and(|pinned| era != EraChoice::Auto && era != pinned) {
        return Err(invalid("era and protocolVersion disagree"));
    }
    let era = version_era.unwrap_or(era);
    Ok(ConnectOptions {
        client_info,
        headers,
        fetch,
        timeout_ms: timeout(&object)?.unwrap_or(DEFAULT_TIMEOUT_MS),
        protocol_version,
        signal: signal(&object)?,
        handlers: field(&object, "handlers").unwrap_or(JsValue::UNDEFINED),
        capabilities,
        strict: boolean(&object, "strictCapabilities", true)?,
        validate_output: boolean(&object, "validateToolOutput", true)?,
        list_changed: field(&object, "listChanged").unwrap_or(JsValue::UNDEFINED),
        transport: match field(&object, "transport").map(|t| t.as_string()) {
            None => Choice::Auto,
            Some(Some(t)) if t == "auto" => Choice::Auto,
            Some(Some(t)) if t == "streamable-http" => Choice::StreamableHttp,
            Some(Some(t)) if t == "sse" => Choice::Sse,
            Some(_) => return Err(invalid("transport must be \"auto\", \"streamable-http\" or \"sse\"")),
        },
        era,
        cache: cache(&object)?,
        limits: limits(&object)?,
        auth: auth_options(&object)?,
        max_input_rounds: match field(&object, "maxInputRounds") {
            None => crate::session::mrtr::DEFAULT_MAX_ROUNDS,
            Some(n) => match n.as_f64() {
                Some(n) if (1.0..=100.0).contains(&n) && n.fract() == 0.0 => n as u32,
                _ => return Err(invalid("maxInputRounds must be an integer from 1 to 100")),
            },
        },
        sse_reader: match field(&object, "sseReader").map(|r| r.as_string()) {
            None => None,
            Some(Some(r)) if r == "eventsource" => Some(SseReader::EventSource),
            Some(Some(r)) if r == "fetch" => Some(SseReader::Fetch),
            Some(_) => return Err(invalid("sseReader must be \"eventsource\" or \"fetch\"")),
        },
    })
}

/// The endpoint URL from a `string` or a `URL` object.
///
/// # Errors
/// [`Error::InvalidArgument`] unless it is an absolute http(s) URL.
pub fn endpoint_url(value: &JsValue) -> Result<String, Error> {
    let text = match value.as_string() {
        Some(text) => text,
        None if value.is_object() => field(value, "href").and_then(|h| h.as_string()).unwrap_or_default(),
        None => String::new(),
    };
    crate::transport::http::check_endpoint(&text)?;
    Ok(text)
}
