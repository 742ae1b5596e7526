//! The rules of MCP authorization (OAuth 2.1 with RFC 9728, RFC 8414, OIDC
//! discovery, RFC 8707 and RFC 9207) that need no network: reading a
//! challenge, which metadata URLs to try in which order, which scopes and
//! client authentication to use, and what a callback must carry. The wasm
//! flow in `transport::oauth` applies them over `fetch`.

mod nonces;
#[cfg(test)]
mod tests;

pub use nonces::{DpopNonces, MAX_NONCE_ORIGINS};

pub use super::encoding::{base64, base64_decode, base64url};
use super::encoding::{percent_decode, Escapes};
use serde_json::Value;
use std::collections::BTreeMap;

/// A `WWW-Authenticate` challenge of the `Bearer` or `DPoP` scheme.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// The scheme, lowercased: `bearer` or `dpop`.
    pub scheme: String,
    /// Its auth-params, keys lowercased.
    pub params: BTreeMap<String, String>,
}

impl Challenge {
    /// `resource_metadata`: where the protected-resource metadata is.
    pub fn resource_metadata(&self) -> Option<&str> {
        self.params.get("resource_metadata").map(String::as_str)
    }
    /// `scope`: what the resource wants.
    pub fn scope(&self) -> Option<&str> {
        self.params.get("scope").map(String::as_str).filter(|s| !s.is_empty())
    }
    /// `error`, e.g. `insufficient_scope`.
    pub fn error(&self) -> Option<&str> {
        self.params.get("error").map(String::as_str)
    }
}

/// Every challenge of a `WWW-Authenticate` header, in order: `scheme` then
/// comma-separated `name=value` params, values plain or quoted (with
/// commas and escaped quotes inside). A token68 credential is skipped.
pub fn parse_challenges(header: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let mut challenges: Vec<(String, BTreeMap<String, String>)> = Vec::new();
    let mut rest = header;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        let end = rest.find([' ', '\t', ',', '=']).unwrap_or(rest.len());
        let Some((word, after)) = rest.split_at_checked(end) else { break };
        if word.is_empty() {
            // A stray `=` (a token68's padding): skip it.
            match after.get(1..) {
                Some(tail) => {
                    rest = tail;
                    continue;
                }
                None => break,
            }
        }
        let after_spaces = after.trim_start_matches([' ', '\t']);
        match after_spaces.strip_prefix('=') {
            Some(value) if !challenges.is_empty() => {
                let (value, remaining) = auth_param_value(value.trim_start_matches([' ', '\t']));
                if let Some((_, params)) = challenges.last_mut() {
                    params.insert(word.to_ascii_lowercase(), value);
                }
                rest = remaining;
            }
            Some(_) => {
                // A param before any scheme: skip to the next comma.
                rest = after_spaces.split_once(',').map_or("", |(_, tail)| tail);
            }
            None => {
                challenges.push((word.to_ascii_lowercase(), BTreeMap::new()));
                rest = after;
            }
        }
    }
    challenges
}

/// A quoted-string or token value, and what follows it.
fn auth_param_value(text: &str) -> (String, &str) {
    let Some(quoted) = text.strip_prefix('"') else {
        let end = text.find([',', ' ', '\t']).unwrap_or(text.len());
        let (value, remaining) = text.split_at_checked(end).unwrap_or((text, ""));
        return (value.to_owned(), remaining);
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    let mut end = quoted.len();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            '"' => {
                end = i + 1;
                break;
            }
            other => value.push(other),
        }
    }
    (value, quoted.get(end..).unwrap_or_default())
}

/// The `Bearer` or `DPoP` challenge of a `WWW-Authenticate` header (other
/// schemes are skipped). When the header has both, the first is returned,
/// with params only the other gives (`resource_metadata`, say) added.
pub fn parse_challenge(header: &str) -> Option<Challenge> {
    let mut ours = parse_challenges(header).into_iter().filter(|(scheme, _)| scheme == "bearer" || scheme == "dpop");
    let (scheme, mut params) = ours.next()?;
    for (_, more) in ours {
        for (name, value) in more {
            params.entry(name).or_insert(value);
        }
    }
    Some(Challenge { scheme, params })
}

/// An absolute URL's origin (`scheme://host[:port]`) and path (without query or fragment).
pub fn split_url(url: &str) -> Option<(String, String)> {
    let (scheme, after) = url.split_once("://")?;
    let host_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let (host, rest) = after.split_at_checked(host_end)?;
    let path = rest.split(['?', '#']).next().unwrap_or_default();
    Some((format!("{}://{}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase()), path.to_owned()))
}

/// Whether an access token can go in an `Authorization` header as it is:
/// one or more visible ASCII characters (RFC 6750's `b64token` is a subset).
/// A token endpoint's token with a line break, a space or a character past
/// ASCII would make every request fail before it is sent, so no 401 ever
/// came to replace it: such a token is refused when it is issued, and
/// forgotten when it is found in storage.
pub fn access_token_usable(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether an authorization server's endpoint may be used: HTTPS, or plain
/// HTTP on a loopback host (a local development server). Anything else, such
/// as a `javascript:` URL a hostile server advertises as its
/// `authorization_endpoint`, would run in the page once opened.
pub fn endpoint_allowed(uri: &str) -> bool {
    redirect_uri_allowed(uri)
}

/// Whether a redirect URI is one OAuth 2.1 allows a browser or native client:
/// HTTPS, or plain HTTP on a loopback host, and never with a fragment, a
/// space or a control character (which `fetch` strips or refuses, and which
/// an issuer must not hold: the client keeps its issuers one per line).
pub fn redirect_uri_allowed(uri: &str) -> bool {
    let Some((origin, _)) = split_url(uri) else { return false };
    if uri.contains('#') || uri.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return false;
    }
    if let Some(authority) = origin.strip_prefix("https://") {
        return !authority_host(authority).is_empty();
    }
    let Some(authority) = origin.strip_prefix("http://") else { return false };
    let host = authority_host(authority);
    let name = match host.find(']') {
        Some(end) if host.starts_with('[') => host.get(..=end).unwrap_or_default(),
        _ => host.split(':').next().unwrap_or_default(),
    };
    matches!(name, "localhost" | "127.0.0.1" | "[::1]")
}

/// The host and port an authority names: what follows the last `@` (the
/// browser connects to example.com for `http://localhost:1@example.com`),
/// up to a backslash, which ends the authority as a slash does.
fn authority_host(authority: &str) -> &str {
    let authority = authority.split('\\').next().unwrap_or_default();
    authority.rsplit('@').next().unwrap_or_default()
}

/// The protected-resource metadata URLs to try, in order (RFC 9728): the
/// challenge's `resource_metadata`, else the path-based well-known URL, then
/// the root one.
pub fn resource_metadata_urls(mcp_url: &str, challenge: Option<&Challenge>) -> Vec<String> {
    if let Some(url) = challenge.and_then(Challenge::resource_metadata) {
        return vec![url.to_owned()];
    }
    let Some((origin, path)) = split_url(mcp_url) else { return Vec::new() };
    let path = path.trim_end_matches('/');
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!("{origin}/.well-known/oauth-protected-resource{path}"));
    }
    urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    urls
}

/// The authorization-server metadata URLs to try for `issuer`, in the
/// spec's order: RFC 8414, then OIDC discovery in both placements.
pub fn authorization_server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some((origin, path)) = split_url(issuer) else { return Vec::new() };
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        vec![format!("{origin}/.well-known/oauth-authorization-server"), format!("{origin}/.well-known/openid-configuration")]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// The resource indicator (RFC 8707) for an MCP URL: no fragment, lowercase
/// scheme and host, no trailing slash on a path.
pub fn canonical_resource(mcp_url: &str) -> String {
    let without_fragment = mcp_url.split('#').next().unwrap_or(mcp_url);
    match split_url(without_fragment) {
        Some((origin, path)) => {
            // The query begins after the scheme: a `?` before `://` is none
            // (it made the result grow each time it was canonicalised again).
            let after_scheme = without_fragment.split_once("://").map_or("", |(_, after)| after);
            let query = after_scheme.find('?').and_then(|q| after_scheme.get(q..)).unwrap_or_default();
            format!("{origin}{}{query}", path.trim_end_matches('/'))
        }
        None => without_fragment.to_owned(),
    }
}

/// Whether the protected-resource metadata's `resource` is the MCP server the
/// client talks to; a client must not get tokens for another resource.
pub fn resource_matches(metadata_resource: &str, mcp_url: &str) -> bool {
    canonical_resource(metadata_resource) == canonical_resource(mcp_url)
        || canonical_resource(mcp_url).starts_with(&format!("{}/", canonical_resource(metadata_resource)))
}

/// Checks authorization-server metadata: its `issuer` must equal the issuer
/// the URL was built from, and the code flow needs PKCE S256.
pub fn check_authorization_server(metadata: &Value, issuer: &str, needs_pkce: bool) -> Result<(), String> {
    match metadata.get("issuer").and_then(Value::as_str) {
        Some(found) if found == issuer => {}
        Some(found) => return Err(format!("the authorization server metadata names issuer {found:?}, not {issuer:?}")),
        None => return Err("the authorization server metadata has no issuer".into()),
    }
    let s256 = metadata
        .get("code_challenge_methods_supported")
        .and_then(Value::as_array)
        .is_some_and(|methods| methods.iter().any(|m| m == "S256"));
    if needs_pkce && !s256 {
        return Err("the authorization server does not list PKCE S256 in code_challenge_methods_supported".into());
    }
    Ok(())
}

/// The scopes to ask for: the challenge's, else everything the resource
/// lists, else none; plus `offline_access` when the server offers it, so a
/// refresh token can come back.
pub fn select_scope(challenge: Option<&str>, resource_scopes: Option<&Value>, offline_access_offered: bool) -> Option<String> {
    let mut scopes: Vec<String> = match challenge {
        Some(scope) => scope.split_whitespace().map(str::to_owned).collect(),
        None => resource_scopes
            .and_then(Value::as_array)
            .map(|s| s.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default(),
    };
    if offline_access_offered && !scopes.is_empty() && !scopes.iter().any(|s| s == "offline_access") {
        scopes.push("offline_access".into());
    }
    (!scopes.is_empty()).then(|| scopes.join(" "))
}

/// The union of two scope strings, in first-seen order (step-up keeps what
/// was granted and adds what the resource now asks for).
/// At most [`MAX_SCOPES`] of them: each is looked for among those kept, and a
/// server's `scope` of 256 KiB holds some 60,000 (2e9 comparisons).
pub fn scope_union(held: Option<&str>, wanted: Option<&str>) -> Option<String> {
    let mut scopes: Vec<&str> = Vec::new();
    for scope in held.into_iter().chain(wanted).flat_map(str::split_whitespace) {
        if scopes.len() == MAX_SCOPES {
            break;
        }
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    (!scopes.is_empty()).then(|| scopes.join(" "))
}

/// The most scopes a step-up asks for; real ones ask for a handful.
pub const MAX_SCOPES: usize = 256;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    /// A public client: `client_id` in the body only.
    None,
    /// `client_secret_basic`: HTTP Basic.
    Basic,
    /// `client_secret_post`: the secret in the body.
    Post,
}

/// The token-endpoint authentication to use: what the registration said, or
/// else the first the server supports that the client can do.
pub fn choose_client_auth(registered: Option<&str>, supported: Option<&Value>, has_secret: bool) -> ClientAuth {
    let named = |name: &str| match name {
        "client_secret_basic" if has_secret => Some(ClientAuth::Basic),
        "client_secret_post" if has_secret => Some(ClientAuth::Post),
        "none" => Some(ClientAuth::None),
        _ => None,
    };
    if let Some(auth) = registered.and_then(named) {
        return auth;
    }
    let supported: Vec<&str> =
        supported.and_then(Value::as_array).map(|v| v.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    if supported.is_empty() {
        // RFC 8414's default is client_secret_basic.
        return if has_secret { ClientAuth::Basic } else { ClientAuth::None };
    }
    supported.into_iter().find_map(named).unwrap_or(if has_secret { ClientAuth::Basic } else { ClientAuth::None })
}

/// The DER bytes inside a PEM block (e.g. `-----BEGIN PRIVATE KEY-----`).
pub fn pem_body(pem: &str) -> Option<Vec<u8>> {
    let body: String = pem.lines().filter(|line| !line.starts_with("-----")).collect();
    base64_decode(&body).filter(|der| !der.is_empty())
}

/// The signing input of a JWT client assertion (RFC 7523): the client is both
/// issuer and subject, the audience is the authorization server.
pub fn jwt_signing_input(algorithm: &str, client_id: &str, audience: &str, jti: &str, now_s: u64) -> String {
    let header = serde_json::json!({ "alg": algorithm, "typ": "JWT" });
    let claims = serde_json::json!({
        "iss": client_id, "sub": client_id, "aud": audience, "jti": jti, "iat": now_s, "exp": now_s + 300,
    });
    format!("{}.{}", base64url(header.to_string().as_bytes()), base64url(claims.to_string().as_bytes()))
}

/// `application/x-www-form-urlencoded` encoding.
pub fn form_encode(pairs: &[(&str, &str)]) -> String {
    fn encode(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for byte in text.bytes() {
            match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => out.push(char::from(byte)),
                b' ' => out.push('+'),
                other => out.push_str(&format!("%{other:02X}")),
            }
        }
        out
    }
    pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&")
}

/// Decodes one `application/x-www-form-urlencoded` query into pairs.
pub fn form_decode(query: &str) -> Vec<(String, String)> {
    let decode = |text: &str| String::from_utf8_lossy(&percent_decode(text, true, Escapes::Lenient).unwrap_or_default()).into_owned();
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(pair), String::new()),
        })
        .collect()
}

/// What the authorization callback carried, once checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callback {
    /// The authorization code.
    pub code: String,
}

/// Checks the redirect back from the authorization endpoint: the `state` must
/// be ours, and `iss` (RFC 9207) the issuer, and required when the server
/// says it sends it. An error from an issuer that fails the check is not
/// repeated, so a forged redirect cannot put words in the client's mouth.
pub fn check_callback(callback_url: &str, state: &str, issuer: &str, iss_required: bool) -> Result<Callback, String> {
    let query = callback_url.split_once('?').map(|(_, q)| q.split('#').next().unwrap_or(q)).unwrap_or_default();
    let params: BTreeMap<String, String> = form_decode(query).into_iter().collect();
    match params.get("iss") {
        Some(iss) if iss != issuer => return Err(format!("the callback's iss {iss:?} is not the issuer {issuer:?}; ignoring it")),
        None if iss_required => return Err("the authorization server promises iss in callbacks, and this one has none".into()),
        _ => {}
    }
    if params.get("state").map(String::as_str) != Some(state) {
        return Err("the callback's state is not the one the client sent".into());
    }
    if let Some(error) = params.get("error") {
        let description = params.get("error_description").map(|d| format!(": {d}")).unwrap_or_default();
        return Err(format!("authorization failed: {error}{description}"));
    }
    params.get("code").map(|code| Callback { code: code.clone() }).ok_or_else(|| "the callback carries no code".into())
}
