//! The rules of Streamable HTTP that need no network: which headers to send,
//! how to read a response's status and content type, and what error each
//! failure becomes. The wasm transport applies them; native tests check them.

use crate::error::Error;

/// `Accept` on every POST: the spec requires both types.
pub const ACCEPT_POST: &str = "application/json, text/event-stream";
/// Header carrying the MCP session id.
pub const SESSION_ID: &str = "mcp-session-id";
/// Header carrying the negotiated protocol revision.
pub const PROTOCOL_VERSION: &str = "mcp-protocol-version";

/// How a successful POST response carries its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResponseBody {
    /// No body to read (202 Accepted).
    Empty,
    /// One JSON-RPC message (or a batch) as `application/json`.
    Json,
    /// A `text/event-stream` of messages.
    EventStream,
}

/// Reads a 2xx response's status and `Content-Type`.
///
/// # Errors
/// [`Error::Protocol`] for a content type that is neither JSON nor SSE, or a
/// request answered with 202, which leaves it without any way to get a result.
pub fn classify(status: u16, content_type: Option<&str>, expects_response: bool) -> Result<ResponseBody, Error> {
    // A POSTed notification or response is answered with 202 and no body; a
    // server that sends a body anyway says nothing the client waits for.
    if !expects_response {
        return Ok(ResponseBody::Empty);
    }
    if status == 202 || status == 204 {
        return Err(Error::protocol(crate::error::cold_format!("the server answered a request with HTTP {status} and no body")));
    }
    let essence = content_type.map(|ct| before_byte(ct, |b| b == b';').trim_ascii().to_ascii_lowercase()).unwrap_or_default();
    match essence.as_str() {
        "application/json" => Ok(ResponseBody::Json),
        "text/event-stream" => Ok(ResponseBody::EventStream),
        "" => Err(Error::protocol(crate::error::cold_format!("HTTP {status} response has no Content-Type"))),
        other => {
            Err(Error::protocol(crate::error::cold_format!("expected application/json or text/event-stream, got Content-Type {other:?}")))
        }
    }
}

/// What a browser lets the client read of a response, for errors that can
/// name the CORS setting at fault.
#[derive(Clone, Copy, Debug, Default)]
pub struct Readable {
    /// Whether a `WWW-Authenticate` header was readable.
    pub www_authenticate: bool,
    /// Whether this was a request after `initialize` sent without a session
    /// id, because none could be read from the `initialize` response.
    pub without_session: bool,
}

/// The hint for a request the server refused because it carried no session
/// id, when the client never saw one: the usual cause is CORS.
pub const SESSION_ID_HINT: &str = "the server expects an Mcp-Session-Id, but its initialize response carried none the client could read; \
in a browser, the server must list mcp-session-id in Access-Control-Expose-Headers";

/// The hint for a 401 or 403 whose challenge could not be read.
pub const WWW_AUTHENTICATE_HINT: &str = "no WWW-Authenticate header could be read; \
in a browser, the server must list WWW-Authenticate in Access-Control-Expose-Headers for the client to see its challenge";

/// The error for a non-2xx response. `body` is the response text, which often
/// holds a JSON-RPC error explaining the refusal.
pub fn status_error_with(status: u16, status_text: &str, body: &str, sent_session_id: bool, readable: Readable) -> Error {
    match status_error(status, status_text, body, sent_session_id) {
        Error::Http { status: 400, message, code } if !sent_session_id && readable.without_session => {
            Error::Http { status: 400, message: crate::error::cold_format!("{message} ({SESSION_ID_HINT})"), code }
        }
        Error::Http { status: status @ (401 | 403), message, code } if !readable.www_authenticate => {
            Error::Http { status, message: crate::error::cold_format!("{message} ({WWW_AUTHENTICATE_HINT})"), code }
        }
        other => other,
    }
}

/// The error for a non-2xx response. `body` is the response text, which often
/// holds a JSON-RPC error explaining the refusal.
pub fn status_error(status: u16, status_text: &str, body: &str, sent_session_id: bool) -> Error {
    if status == 404 && sent_session_id {
        return Error::SessionExpired { status };
    }
    // Servers explain refusals with a JSON-RPC error body, not always a
    // well-formed response (server-everything leaves out `id`).
    let error_body = crate::protocol::json::parse(body).ok().and_then(|v| v.get("error").cloned());
    let explained = error_body.as_ref().and_then(|e| e.get("message")?.as_str().map(str::to_owned));
    let code = error_body.as_ref().and_then(|e| e.get("code")?.as_i64());
    // An unsupported-version refusal lists what the server speaks: keep that in the message.
    let supported = error_body.as_ref().and_then(|e| e.get("data")?.get("supported")?.as_array().cloned());
    let explained = match (explained, supported) {
        (Some(message), Some(versions)) => {
            let versions: Vec<&str> = versions.iter().filter_map(serde_json::Value::as_str).collect();
            // In the form `protocol::modern::named_versions` reads back.
            Some(crate::error::cold_format!("{message} (the server speaks {})", versions.join(", ")))
        }
        (explained, _) => explained,
    };
    // The spec says an ended session gets 404, but the TypeScript SDK's
    // servers (server-everything among them) answer 400 with a JSON-RPC error
    // such as "Bad Request: No valid session ID provided". A 400 to a request
    // that carried a session id, whose error names the session, is read as
    // expiry too; any other 400 stays an HTTP error.
    let names_session = explained.as_deref().is_some_and(|m| m.to_ascii_lowercase().contains("session"));
    if status == 400 && sent_session_id && names_session {
        return Error::SessionExpired { status };
    }
    let message = explained.unwrap_or_else(|| {
        let text = body.trim_ascii();
        if text.is_empty() || text.len() > 200 || text.starts_with('<') {
            if status_text.is_empty() {
                let mut text = "HTTP ".to_owned();
                crate::protocol::json_write::write_u64(&mut text, u64::from(status));
                text
            } else {
                status_text.to_owned()
            }
        } else {
            text.to_owned()
        }
    });
    Error::Http { status, message, code }
}

/// `text` up to its first ASCII byte that `stop` picks. By bytes rather than
/// `split`, whose pattern searchers the first call's module would carry for
/// these two uses alone.
fn before_byte(text: &str, stop: impl Fn(u8) -> bool) -> &str {
    text.bytes().position(stop).and_then(|end| text.get(..end)).unwrap_or(text)
}

/// A run of ASCII digits as a number, saturating at `u64::MAX`: a
/// `Content-Length`, an SSE `retry`. `None` for anything else, and for
/// nothing at all. Written out rather than `str::parse`, whose generic
/// parser (signs, radixes) the first call's module would carry for this alone.
pub fn decimal(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    text.iter().try_fold(0u64, |n, &b| b.is_ascii_digit().then(|| n.saturating_mul(10).saturating_add(u64::from(b - b'0'))))
}

/// The JSON-RPC error object in a response body, if the body is one.
pub fn json_rpc_error(body: &str) -> Option<crate::protocol::jsonrpc::ErrorObject> {
    let error = crate::protocol::json::parse(body).ok()?.get("error")?.clone();
    Some(crate::protocol::jsonrpc::ErrorObject {
        code: error.get("code")?.as_i64()?,
        message: error.get("message")?.as_str()?.to_owned(),
        data: error.get("data").cloned(),
    })
}

/// Unicode's `White_Space`, as `char::is_whitespace` has it: spelled out, as
/// `std`'s table lookup cost the first call's module more than the list.
fn is_white_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | ' ' | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}')
}

/// Checks that an endpoint is an absolute `http:` or `https:` URL with a host.
///
/// # Errors
/// [`Error::InvalidArgument`] saying what is wrong.
pub fn check_endpoint(url: &str) -> Result<(), Error> {
    let lower = url.to_ascii_lowercase();
    let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")).ok_or_else(|| {
        Error::invalid_argument(crate::error::cold_format!("the server URL must be an absolute http(s) URL, got {url:?}"))
    })?;
    let host = before_byte(rest, |b| matches!(b, b'/' | b'?' | b'#'));
    if host.is_empty() || url.chars().any(is_white_space) {
        return Err(Error::invalid_argument(crate::error::cold_format!("the server URL {url:?} has no host or contains spaces")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A −32022 refusal keeps the versions the server lists in its text, where the
    /// client reads them back for its error.
    #[test]
    fn a_version_refusal_names_what_the_server_speaks() {
        let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25","data":{"supported":["2026-07-28"]}}}"#;
        let Error::Http { status: 400, message, code: Some(-32022) } = status_error(400, "Bad Request", body, false) else {
            panic!("not an HTTP error")
        };
        assert_eq!(message, "Unsupported protocol version: 2025-11-25 (the server speaks 2026-07-28)");
        assert_eq!(crate::protocol::modern::named_versions(&message), Some("2026-07-28"));
    }

    #[test]
    fn white_space_is_std_s_on_every_char() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            assert_eq!(is_white_space(c), c.is_whitespace(), "{c:?}");
        }
    }

    #[test]
    fn decimals_are_digits_only_and_saturate() {
        assert_eq!(decimal(b"0"), Some(0));
        assert_eq!(decimal(b"5301238"), Some(5_301_238));
        assert_eq!(decimal(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(decimal(b"99999999999999999999999"), Some(u64::MAX));
        for text in [&b""[..], b"+5", b"-1", b" 5", b"5 ", b"1e3", b"0x10", "٣".as_bytes()] {
            assert_eq!(decimal(text), None, "{text:?}");
        }
    }

    #[test]
    fn content_types() {
        assert_eq!(classify(200, Some("application/json; charset=utf-8"), true).ok(), Some(ResponseBody::Json));
        assert_eq!(classify(200, Some("Text/Event-Stream"), true).ok(), Some(ResponseBody::EventStream));
        assert_eq!(classify(202, None, false).ok(), Some(ResponseBody::Empty));
        // The conformance mock answers notifications/initialized with a 200 JSON body.
        assert_eq!(classify(200, Some("application/json"), false).ok(), Some(ResponseBody::Empty));
        assert_eq!(classify(200, Some("text/plain"), false).ok(), Some(ResponseBody::Empty));
        assert!(matches!(classify(200, Some("text/html"), true), Err(Error::Protocol(_))));
        assert!(matches!(classify(200, None, true), Err(Error::Protocol(_))));
        assert!(matches!(classify(202, None, true), Err(Error::Protocol(_))));
    }

    #[test]
    fn status_errors_explain_themselves() {
        let body = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}"#;
        match status_error(400, "Bad Request", body, false) {
            Error::Http { status: 400, message, code } => {
                assert_eq!(message, "Bad Request: No valid session ID provided");
                assert_eq!(code, Some(-32000));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(status_error(404, "Not Found", "", true), Error::SessionExpired { status: 404 }));
        // The 400 heuristic: only with a session id sent and an error that names the session.
        let expired = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;
        assert!(matches!(status_error(400, "Bad Request", expired, true), Error::SessionExpired { status: 400 }));
        let other = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: invalid JSON"},"id":null}"#;
        assert!(matches!(status_error(400, "Bad Request", other, true), Error::Http { status: 400, .. }));
        assert!(matches!(status_error(404, "Not Found", "", false), Error::Http { status: 404, .. }));
        match status_error(502, "Bad Gateway", "<html>proxy</html>", false) {
            Error::Http { status: 502, message, .. } => assert_eq!(message, "Bad Gateway"),
            other => panic!("{other:?}"),
        }
        match status_error(500, "", "", false) {
            Error::Http { message, .. } => assert_eq!(message, "HTTP 500"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn cors_hints_name_the_header() {
        let no_session = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;
        let after_handshake = Readable { www_authenticate: false, without_session: true };
        match status_error_with(400, "Bad Request", no_session, false, after_handshake) {
            Error::Http { message, .. } => {
                assert!(message.contains("Access-Control-Expose-Headers") && message.contains("mcp-session-id"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        match status_error_with(401, "Unauthorized", "", true, Readable::default()) {
            Error::Http { status: 401, message, .. } => assert!(message.contains("WWW-Authenticate"), "{message}"),
            other => panic!("{other:?}"),
        }
        match status_error_with(401, "Unauthorized", "", true, Readable { www_authenticate: true, without_session: false }) {
            Error::Http { message, .. } => assert_eq!(message, "Unauthorized"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn endpoints() {
        assert!(check_endpoint("http://127.0.0.1:38011/mcp").is_ok());
        assert!(check_endpoint("HTTPS://example.com").is_ok());
        for bad in ["", "127.0.0.1/mcp", "ftp://x/", "http://", "http:///mcp", "https://a b/", "javascript:alert(1)"] {
            assert!(matches!(check_endpoint(bad), Err(Error::InvalidArgument(_))), "{bad}");
        }
    }
}
