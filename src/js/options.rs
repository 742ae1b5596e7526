//! Option objects passed from JS, read field by field and checked, so a wrong
//! value is an `invalid-argument` error naming the field, never a panic.

use super::abort::{aborted, is_signal};
use super::convert::from_js;
use super::fields::{boolean, count, field, function, invalid, milliseconds};
#[cfg(feature = "modern")]
use crate::client::CacheBounds;
use crate::client::{ClientOptions, EraChoice, TransportChoice};
use crate::error::Error;
use crate::protocol::types::Implementation;
use crate::protocol::version;
use crate::session::limits::Limits;
use crate::session::DEFAULT_TIMEOUT_MS;
use crate::transport::headers::HeaderSource;
#[cfg(feature = "oauth")]
use crate::transport::oauth::OAuthConfig;
use crate::transport::sse::SseReader;
use js_sys::Function;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

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

fn signal(object: &JsValue) -> Result<Option<AbortSignal>, Error> {
    match field(object, "signal") {
        None => Ok(None),
        Some(value) if is_signal(&value) => Ok(Some(value.unchecked_into())),
        Some(_) => Err(invalid("signal must be an AbortSignal")),
    }
}

/// `limits`: each bound, or its default.
fn limits(object: &JsValue) -> Result<Limits, Error> {
    match field(object, "limits") {
        None => Ok(Limits::DEFAULT),
        Some(limits) => given_limits(&limits),
    }
}

// Kept out of `connect_options`: a first call passes no limits, and the core's split
// (scripts/split/) leaves what a first call never runs out of the module a page loads first.
#[inline(never)]
fn given_limits(limits: &JsValue) -> Result<Limits, Error> {
    let defaults = Limits::DEFAULT;
    if !limits.is_object() {
        return Err(invalid("limits must be an object"));
    }
    let usize_max = usize::MAX as u64;
    Ok(Limits {
        max_message_bytes: count(limits, "maxMessageBytes", 1024..=usize_max.min(4_000_000_000), defaults.max_message_bytes as u64)?
            as usize,
        max_server_requests: count(limits, "maxServerRequests", 1..=1024, defaults.max_server_requests as u64)? as usize,
        schema: crate::protocol::schema::Limits {
            steps: count(limits, "validationSteps", 1..=1_000_000_000_000_000, defaults.schema.steps)?,
            ..defaults.schema
        },
        template_steps: count(limits, "templateSteps", 1..=1_000_000_000_000_000, defaults.template_steps)?,
    })
}

/// `cache`: `true` for the default bounds, an object to set them, `false` for none.
#[cfg(feature = "modern")]
fn cache(object: &JsValue) -> Result<Option<CacheBounds>, Error> {
    field(object, "cache").map_or(Ok(None), |cache| given_cache(&cache))
}

// Out of `connect_options`, as `given_limits` is.
#[cfg(feature = "modern")]
#[inline(never)]
fn given_cache(cache: &JsValue) -> Result<Option<CacheBounds>, Error> {
    let defaults = CacheBounds::DEFAULT;
    if let Some(on) = cache.as_bool() {
        Ok(on.then_some(defaults))
    } else if cache.is_object() {
        Ok(Some(CacheBounds {
            max_entries: count(cache, "maxEntries", 1..=1_000_000, defaults.max_entries as u64)? as usize,
            max_bytes: count(cache, "maxBytes", 1024..=4_000_000_000, defaults.max_bytes as u64)? as usize,
        }))
    } else {
        Err(invalid("cache must be a boolean or { maxEntries, maxBytes }"))
    }
}

/// The cancellation an `AbortSignal` gives: a fresh future per attempt.
pub(super) fn cancel_source(signal: &AbortSignal) -> crate::client::CancelSource {
    let signal = signal.clone();
    Rc::new(move || aborted(&signal))
}

/// Options of a single request, and the signal they came with (a call
/// cancelled by it rejects with `signal.reason`).
#[derive(Debug, Default)]
pub struct JsRequestOptions {
    /// The client's options.
    pub options: crate::client::RequestOptions,
    /// The caller's `AbortSignal`.
    pub signal: Option<AbortSignal>,
    /// `onprogress`, wired up by the client (it reports throws as events).
    pub on_progress: Option<Function>,
}

/// Reads the options of a request.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the first bad field.
pub fn request_options(value: &JsValue) -> Result<JsRequestOptions, Error> {
    let Some(object) = options_object(value, "options")? else { return Ok(JsRequestOptions::default()) };
    // Plain fields first, as in `connect_options`.
    let timeout_ms = milliseconds(&object, "timeout")?;
    let reset_timeout_on_progress = boolean(&object, "resetTimeoutOnProgress", false)?;
    let max_total_timeout_ms = milliseconds(&object, "maxTotalTimeout")?;
    let on_progress = function(&object, "onprogress")?;
    let signal = signal(&object)?;
    Ok(JsRequestOptions {
        options: crate::client::RequestOptions {
            timeout_ms,
            cancel: signal.as_ref().map(cancel_source),
            on_progress: None,
            reset_timeout_on_progress,
            max_total_timeout_ms,
        },
        signal,
        on_progress,
    })
}

/// What `connect` is given: the client's options (less the handlers and
/// list watchers, which need the client's events), and the web transport's.
#[derive(Debug)]
pub struct ConnectSettings {
    /// The client's options.
    pub client: ClientOptions,
    /// `handlers`, read by `JsHandlers`.
    pub handlers: JsValue,
    /// `listChanged`, read by the list watchers.
    pub list_changed: JsValue,
    /// Extra headers for every request.
    pub headers: HeaderSource,
    /// A replacement for the global `fetch`.
    pub fetch: Option<Function>,
    /// `sseReader`: force `"eventsource"` or `"fetch"` for HTTP+SSE.
    pub sse_reader: Option<SseReader>,
    /// `auth`: the OAuth flow's configuration; its `mcp_url` is the connect target's.
    #[cfg(feature = "oauth")]
    pub auth: Option<OAuthConfig>,
    /// Aborts the connection attempt.
    pub signal: Option<AbortSignal>,
    /// `trace`: told of every JSON-RPC message in and out.
    pub trace: Option<Function>,
}

/// Reads the options of `connect`.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the first bad field.
pub fn connect_options(value: &JsValue) -> Result<ConnectSettings, Error> {
    let object = options_object(value, "options")?.unwrap_or_else(|| js_sys::Object::new().into());
    // The fields that hold no JS value or heap data are read first, and the fields that do
    // last, so that a wrong value found early leaves nothing to clean up: a first call passes
    // right values, and the cleanup code an error needs is code the page loads first.
    let (protocol_version, era) = era(&object)?;
    let transport = transport(&object)?;
    let sse_reader = sse_reader(&object)?;
    let timeout_ms = milliseconds(&object, "timeout")?.unwrap_or(DEFAULT_TIMEOUT_MS);
    let strict = boolean(&object, "strictCapabilities", true)?;
    let validate_output = boolean(&object, "validateToolOutput", true)?;
    let max_input_rounds = count(&object, "maxInputRounds", 1..=100, u64::from(crate::client::DEFAULT_MAX_ROUNDS))? as u32;
    #[cfg(feature = "modern")]
    let cache = cache(&object)?;
    let limits = limits(&object)?;
    #[cfg(not(feature = "oauth"))]
    if field(&object, "auth").is_some() {
        return Err(invalid("auth: OAuth is left out of this build (Cargo feature `oauth`)"));
    }
    let headers = headers(&object)?;
    let fetch = function(&object, "fetch")?;
    let trace = function(&object, "trace")?;
    let signal = signal(&object)?;
    let capabilities = capabilities(&object)?;
    let client_info = client_info(&object)?;
    #[cfg(feature = "oauth")]
    let auth = super::auth_options::auth_options(&object)?;
    let client = ClientOptions {
        client_info,
        timeout_ms,
        protocol_version,
        era,
        transport,
        capabilities,
        handlers: crate::client::Handlers::default(),
        strict,
        validate_output,
        #[cfg(any(feature = "validator", not(feature = "json-schema")))]
        validator: None,
        #[cfg(all(not(feature = "validator"), feature = "json-schema"))]
        validator: Some(std::rc::Rc::new(super::lazy::LazyValidator)),
        #[cfg(any(feature = "skills", not(feature = "skill-checks")))]
        skill_checker: None,
        #[cfg(all(not(feature = "skills"), feature = "skill-checks"))]
        skill_checker: Some(std::rc::Rc::new(super::lazy::LazySkillChecker)),
        max_input_rounds,
        #[cfg(feature = "modern")]
        cache,
        limits,
        list_changed: Vec::new(),
        cancel: signal.as_ref().map(cancel_source),
        trace: None,
    };
    Ok(ConnectSettings {
        client,
        handlers: field(&object, "handlers").unwrap_or(JsValue::UNDEFINED),
        list_changed: field(&object, "listChanged").unwrap_or(JsValue::UNDEFINED),
        headers,
        fetch,
        sse_reader,
        #[cfg(feature = "oauth")]
        auth,
        signal,
        trace,
    })
}

fn transport(object: &JsValue) -> Result<TransportChoice, Error> {
    match field(object, "transport").map(|t| t.as_string()) {
        None => Ok(TransportChoice::Auto),
        Some(Some(t)) if t == "auto" => Ok(TransportChoice::Auto),
        Some(Some(t)) if t == "streamable-http" => Ok(TransportChoice::StreamableHttp),
        Some(Some(t)) if t == "sse" => Ok(TransportChoice::Sse),
        Some(_) => Err(invalid("transport must be \"auto\", \"streamable-http\" or \"sse\"")),
    }
}

fn sse_reader(object: &JsValue) -> Result<Option<SseReader>, Error> {
    match field(object, "sseReader").map(|r| r.as_string()) {
        None => Ok(None),
        Some(Some(r)) if r == "eventsource" => Ok(Some(SseReader::EventSource)),
        Some(Some(r)) if r == "fetch" => Ok(Some(SseReader::Fetch)),
        Some(_) => Err(invalid("sseReader must be \"eventsource\" or \"fetch\"")),
    }
}

fn headers(object: &JsValue) -> Result<HeaderSource, Error> {
    match field(object, "headers") {
        None => Ok(HeaderSource::None),
        Some(h) if h.is_function() => Ok(HeaderSource::Function(h.unchecked_into())),
        Some(h) if h.is_object() => Ok(HeaderSource::Fixed(h)),
        Some(_) => Err(invalid("headers must be a HeadersInit or a function returning one")),
    }
}

fn capabilities(object: &JsValue) -> Result<Option<Value>, Error> {
    match field(object, "capabilities") {
        None => Ok(None),
        Some(c) => match from_js(&c, "capabilities")? {
            c @ Value::Object(_) => Ok(Some(c)),
            _ => Err(invalid("capabilities must be an object")),
        },
    }
}

fn client_info(object: &JsValue) -> Result<Implementation, Error> {
    match field(object, "clientInfo") {
        None => Ok(Implementation::new("mcp-wasm", env!("CARGO_PKG_VERSION"))),
        Some(info) => {
            Implementation::from_json(from_js(&info, "clientInfo")?).ok_or_else(|| invalid("clientInfo must have string name and version"))
        }
    }
}

/// `protocolVersion` and `era`: a pinned 2026-07-28 means the modern era, a
/// pinned legacy revision is offered and means the legacy era.
fn era(object: &JsValue) -> Result<(&'static str, EraChoice), Error> {
    let pinned = field(object, "protocolVersion").map(|v| v.as_string());
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
    let era = match field(object, "era").map(|e| e.as_string()) {
        None => version_era.unwrap_or(EraChoice::Auto),
        Some(Some(e)) if e == "auto" => EraChoice::Auto,
        Some(Some(e)) if e == "modern" => EraChoice::Modern,
        Some(Some(e)) if e == "legacy" => EraChoice::Legacy,
        Some(_) => return Err(invalid("era must be \"auto\", \"modern\" or \"legacy\"")),
    };
    if version_era.is_some_and(|pinned| era != EraChoice::Auto && era != pinned) {
        return Err(invalid("era and protocolVersion disagree"));
    }
    Ok((protocol_version, version_era.unwrap_or(era)))
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
