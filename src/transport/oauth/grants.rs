//! Getting tokens: the authorization-code flow with PKCE, refresh, client
//! credentials, cross-app access and the JWT-bearer grant. Every token
//! request carries the resource indicator (RFC 8707) as the resource names
//! itself, and follows no redirect to another origin.

use super::crypto::{auth_error, random_token, sha256, sign_assertion};
use super::discovery::OAUTH_REPLY_LIMIT;
use super::{require_secure, Assertion, Client, OAuth, Pending, Server, Tokens};
use crate::error::Error;
use crate::protocol::oauth::{self as rules, Challenge, ClientAuth};
use crate::transport::fetch::{js_message, read_text_capped, AbortOnDrop, Follow};
use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::Headers;

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// Whether a token request goes to the MCP server's authorization server,
/// where DPoP proofs apply, or to an identity provider's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TokenEndpoint {
    Ours,
    IdentityProvider,
}

impl OAuth {
    /// POSTs a form to a token endpoint and reads the JSON answer. With DPoP,
    /// each attempt carries a fresh proof, and a `use_dpop_nonce` refusal is
    /// answered once with the nonce it brings.
    async fn post_form(
        &self,
        url: &str,
        form: &[(&str, &str)],
        basic: Option<(&str, &str)>,
        endpoint: TokenEndpoint,
    ) -> Result<Value, Error> {
        let body = rules::form_encode(form);
        let key = if endpoint == TokenEndpoint::Ours { self.dpop().await? } else { None };
        let mut retried = false;
        loop {
            let headers = Headers::new().map_err(|e| auth_error("token", js_message(&e)))?;
            let _ = headers.set("content-type", "application/x-www-form-urlencoded");
            let _ = headers.set("accept", "application/json");
            if let Some((id, secret)) = basic {
                // RFC 6749 §2.3.1: both parts form-encoded before base64.
                let pair = format!(
                    "{}:{}",
                    rules::form_encode(&[("", id)]).trim_start_matches('='),
                    rules::form_encode(&[("", secret)]).trim_start_matches('=')
                );
                let _ = headers.set("authorization", &format!("Basic {}", rules::base64(pair.as_bytes())));
            }
            if let Some(key) = &key {
                let _ = headers.set("dpop", &key.proof("POST", url, None).await?);
            }
            let (_controller, response) = self.send("token endpoint", ("POST", url), headers, Some(&body), Follow::SameOrigin).await?;
            let status = response.status();
            let fresh_nonce = key.as_ref().is_some_and(|key| key.note_nonce(url, &response));
            let text = read_text_capped(&response, OAUTH_REPLY_LIMIT, "oauthReplyBytes").await?;
            let value: Value = crate::protocol::json::parse(&text).unwrap_or(Value::Null);
            if (200..300).contains(&status) {
                return Ok(value);
            }
            let error = value.get("error").and_then(Value::as_str).unwrap_or("HTTP error");
            if error == "use_dpop_nonce" && fresh_nonce && !retried {
                retried = true;
                continue;
            }
            return Err(auth_error("token endpoint", format!("HTTP {status}: {error}")));
        }
    }

    /// The form fields and Basic credentials of the client's authentication.
    fn client_form<'a>(client: &'a Client, form: &mut Vec<(&'a str, &'a str)>) -> Option<(&'a str, &'a str)> {
        match (client.auth, client.secret.as_deref()) {
            (ClientAuth::Basic, Some(secret)) => Some((client.id.as_str(), secret)),
            (ClientAuth::Post, Some(secret)) => {
                form.push(("client_id", &client.id));
                form.push(("client_secret", secret));
                None
            }
            _ => {
                form.push(("client_id", &client.id));
                None
            }
        }
    }

    /// Keeps the tokens a token endpoint of `server` issued.
    /// `refreshed_with` is the refresh token of a refresh grant, kept when the answer
    /// brings no new one (RFC 6749 §6); a new authorization drops an older grant's.
    async fn keep(&self, server: &Server, answer: &Value, asked_scope: Option<&str>, refreshed_with: Option<&str>) -> Result<(), Error> {
        let access = answer.get("access_token").and_then(Value::as_str).ok_or_else(|| auth_error("token endpoint", "no access_token"))?;
        if !rules::access_token_usable(access) {
            return Err(auth_error("token endpoint", "the access_token holds characters an Authorization header cannot carry"));
        }
        let previous = self.tokens.borrow().clone().filter(|t| t.issuer == server.issuer).unwrap_or_default();
        let text = |name: &str| answer.get(name).and_then(Value::as_str).map(str::to_owned);
        let tokens = Tokens {
            issuer: server.issuer.clone(),
            access: access.to_owned(),
            // A rotating server sends a new refresh token; one that does not keeps the old.
            refresh: text("refresh_token").or_else(|| refreshed_with.map(str::to_owned)),
            scope: text("scope").or_else(|| asked_scope.map(str::to_owned)).or(previous.scope),
            dpop: text("token_type").is_some_and(|kind| kind.eq_ignore_ascii_case("DPoP")),
        };
        *self.tokens.borrow_mut() = Some(tokens.clone());
        self.store.save(Some(&server.issuer), "tokens", &tokens).await;
        self.store.save(None, "issuer", &server.issuer).await;
        Ok(())
    }

    pub(super) async fn refresh(&self, server: &Server, refresh_token: &str) -> Result<(), Error> {
        // After a reload the client comes from storage, with the tokens.
        let client = self.known_client(server).await?.ok_or_else(|| auth_error("refresh", "no client"))?;
        let endpoint = Self::endpoint(server, "token_endpoint")?;
        let mut form = vec![("grant_type", "refresh_token"), ("refresh_token", refresh_token), ("resource", server.resource.as_str())];
        let basic = Self::client_form(&client, &mut form);
        let answer = self.post_form(&endpoint, &form, basic, TokenEndpoint::Ours).await?;
        self.keep(server, &answer, None, Some(refresh_token)).await
    }

    /// The scope to ask for: the configured one, else the challenge's, else the resource's.
    fn scope_for(&self, server: &Server, challenge: Option<&Challenge>, offline: bool) -> Option<String> {
        self.config
            .scope
            .clone()
            .or_else(|| rules::select_scope(challenge.and_then(Challenge::scope), server.resource_scopes.as_ref(), offline))
    }

    pub(super) async fn client_credentials(&self, server: &Server, challenge: Option<&Challenge>) -> Result<(), Error> {
        let client = self.register(server).await?;
        let endpoint = Self::endpoint(server, "token_endpoint")?;
        let scope = self.scope_for(server, challenge, false);
        let mut form = vec![("grant_type", "client_credentials"), ("resource", server.resource.as_str())];
        if let Some(scope) = &scope {
            form.push(("scope", scope));
        }
        let assertion = match &self.config.private_key_pem {
            Some(pem) => {
                let algorithm = self.config.signing_algorithm.as_deref().unwrap_or("ES256");
                Some(sign_assertion(pem, algorithm, &client.id, &server.issuer).await?)
            }
            None => None,
        };
        let basic = match &assertion {
            Some(assertion) => {
                form.push(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"));
                form.push(("client_assertion", assertion));
                form.push(("client_id", &client.id));
                None
            }
            None => Self::client_form(&client, &mut form),
        };
        let answer = self.post_form(&endpoint, &form, basic, TokenEndpoint::Ours).await?;
        self.keep(server, &answer, scope.as_deref(), None).await
    }

    /// SEP-990: trades the ID token for an ID-JAG at the IdP, then the ID-JAG
    /// for an access token at the MCP server's authorization server.
    pub(super) async fn cross_app_access(&self, server: &Server, challenge: Option<&Challenge>) -> Result<(), Error> {
        let identity = self.config.identity.clone().ok_or_else(|| auth_error("token exchange", "no auth.identity"))?;
        require_secure("token exchange", "identity provider's token endpoint", &identity.token_endpoint)?;
        let scope = self.scope_for(server, challenge, false);
        let mut exchange = vec![
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
            ("requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"),
            ("subject_token", identity.id_token.as_str()),
            ("subject_token_type", "urn:ietf:params:oauth:token-type:id_token"),
            ("audience", server.issuer.as_str()),
            ("resource", server.resource.as_str()),
        ];
        if let Some(id) = &identity.client_id {
            exchange.push(("client_id", id));
        }
        if let Some(scope) = &scope {
            exchange.push(("scope", scope));
        }
        let granted = self.post_form(&identity.token_endpoint, &exchange, None, TokenEndpoint::IdentityProvider).await?;
        let assertion = granted
            .get("access_token")
            .and_then(Value::as_str)
            .ok_or_else(|| auth_error("token exchange", "the identity provider returned no ID-JAG"))?
            .to_owned();
        let client = self.register(server).await?;
        let endpoint = Self::endpoint(server, "token_endpoint")?;
        let mut form = vec![("grant_type", JWT_BEARER), ("assertion", assertion.as_str())];
        if let Some(scope) = &scope {
            form.push(("scope", scope));
        }
        let basic = Self::client_form(&client, &mut form);
        let answer = self.post_form(&endpoint, &form, basic, TokenEndpoint::Ours).await?;
        self.keep(server, &answer, scope.as_deref(), None).await
    }

    /// SEP-1933: presents the caller's JWT (workload identity) as the grant.
    /// No registration; a configured client authenticates as usual. A refusal
    /// is final: no retry, no other grant.
    pub(super) async fn jwt_bearer(&self, server: &Server, challenge: Option<&Challenge>) -> Result<(), Error> {
        let assertion = match self.config.assertion.clone().ok_or_else(|| auth_error("assertion", "no auth.assertion"))? {
            Assertion::Fixed(jwt) => jwt,
            Assertion::Function(fetch) => {
                let returned = fetch.call0(&JsValue::UNDEFINED).map_err(|e| auth_error("assertion", js_message(&e)))?;
                let jwt = JsFuture::from(Promise::resolve(&returned)).await.map_err(|e| auth_error("assertion", js_message(&e)))?;
                jwt.as_string().ok_or_else(|| auth_error("assertion", "auth.assertion must give a string"))?
            }
        };
        let endpoint = Self::endpoint(server, "token_endpoint")?;
        let scope = self.scope_for(server, challenge, false);
        let mut form = vec![("grant_type", JWT_BEARER), ("assertion", assertion.as_str()), ("resource", server.resource.as_str())];
        if let Some(scope) = &scope {
            form.push(("scope", scope));
        }
        let client = match self.config.client_id.is_some() {
            true => self.register(server).await.ok(),
            false => None,
        };
        let basic = client.as_ref().and_then(|client| Self::client_form(client, &mut form));
        let answer = self.post_form(&endpoint, &form, basic, TokenEndpoint::Ours).await?;
        self.keep(server, &answer, scope.as_deref(), None).await
    }

    pub(super) async fn authorization_code(&self, server: &Server, challenge: Option<&Challenge>, step_up: bool) -> Result<(), Error> {
        let authorize = self
            .config
            .authorize
            .clone()
            .ok_or_else(|| auth_error("authorization", "the server needs a user's consent, and no authorize function was given"))?;
        let redirect_uri = self.config.redirect_uri.clone().ok_or_else(|| auth_error("authorization", "no redirectUri"))?;
        let client = self.register(server).await?;
        let offline =
            server.metadata.get("scopes_supported").and_then(Value::as_array).is_some_and(|s| s.iter().any(|v| v == "offline_access"));
        let scope = if step_up {
            let held = self.tokens.borrow().as_ref().and_then(|t| t.scope.clone());
            rules::scope_union(held.as_deref(), challenge.and_then(Challenge::scope))
        } else {
            self.scope_for(server, challenge, offline)
        };
        let verifier = random_token(32)?;
        let code_challenge = rules::base64url(&sha256(verifier.as_bytes()).await?);
        let state = random_token(16)?;
        let mut params = vec![
            ("response_type", "code"),
            ("client_id", client.id.as_str()),
            ("redirect_uri", redirect_uri.as_str()),
            ("code_challenge", code_challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", state.as_str()),
            ("resource", server.resource.as_str()),
        ];
        if let Some(scope) = &scope {
            params.push(("scope", scope));
        }
        let endpoint = Self::endpoint(server, "authorization_endpoint")?;
        let separator = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{separator}{}", rules::form_encode(&params));
        // Kept before the user leaves: a redirect flow finishes on another page load.
        let pending = Pending { issuer: server.issuer.clone(), state, verifier, redirect_uri, scope };
        self.store.save(None, "pending", &pending).await;
        // The signal aborts once nobody waits for the answer (connect() aborted or timed out, the
        // client closed): a popup and its listeners can go then rather than when the user gives up.
        let wanted = AbortOnDrop::new()?;
        let context = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&context, &"signal".into(), &wanted.signal());
        let returned = authorize
            .call2(&JsValue::UNDEFINED, &JsValue::from_str(&url), &context)
            .map_err(|e| auth_error("authorization", js_message(&e)))?;
        // The time the person takes is given back to the timeout of the requests waiting on it.
        let consenting = self.consents.start();
        let callback = JsFuture::from(Promise::resolve(&returned)).await.map_err(|e| auth_error("authorization", js_message(&e)))?;
        drop(consenting);
        wanted.finished();
        let callback = callback.as_string().ok_or_else(|| auth_error("authorization", "authorize must resolve with the callback URL"))?;
        self.exchange(server, &callback, pending).await
    }

    /// Checks the callback and trades its code for tokens.
    pub(super) async fn exchange(&self, server: &Server, callback: &str, pending: Pending) -> Result<(), Error> {
        let client = self.register(server).await?;
        let iss_required = server.metadata.get("authorization_response_iss_parameter_supported") == Some(&Value::Bool(true));
        let checked = rules::check_callback(callback, &pending.state, &server.issuer, iss_required);
        self.store.forget(None, "pending").await;
        let code = checked.map_err(|why| auth_error("callback", why))?.code;
        let token_endpoint = Self::endpoint(server, "token_endpoint")?;
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", pending.redirect_uri.as_str()),
            ("code_verifier", pending.verifier.as_str()),
            ("resource", server.resource.as_str()),
        ];
        let basic = Self::client_form(&client, &mut form);
        let answer = self.post_form(&token_endpoint, &form, basic, TokenEndpoint::Ours).await?;
        self.keep(server, &answer, pending.scope.as_deref(), None).await
    }
}
