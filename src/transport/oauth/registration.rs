//! Who the client is at an authorization server: the pre-registered client
//! (only at the issuer it belongs to), a registration kept from before, a
//! Client ID Metadata Document, or dynamic registration (RFC 7591).

use super::crypto::auth_error;
use super::discovery::OAUTH_REPLY_LIMIT;
use super::{Client, Grant, OAuth, Server};
use crate::error::Error;
use crate::protocol::oauth::{self as rules, ClientAuth};
use crate::transport::fetch::{js_message, read_text_capped, Follow};
use serde_json::{json, Value};
use web_sys::Headers;

/// A registration as kept in storage, under its issuer.
#[derive(serde::Serialize)]
struct StoredClient {
    id: String,
    secret: Option<String>,
    auth: String,
}

impl super::store::Stored for StoredClient {
    fn from_stored(stored: &Value) -> Option<Self> {
        use super::store::{optional_string, string};
        Some(Self { id: string(stored, "id")?, secret: optional_string(stored, "secret")?, auth: string(stored, "auth")? })
    }
}

fn auth_name(auth: ClientAuth) -> &'static str {
    match auth {
        ClientAuth::Basic => "basic",
        ClientAuth::Post => "post",
        ClientAuth::None => "none",
    }
}

fn auth_from_name(name: &str) -> ClientAuth {
    match name {
        "basic" => ClientAuth::Basic,
        "post" => ClientAuth::Post,
        _ => ClientAuth::None,
    }
}

impl OAuth {
    /// The client at `server`, registering if needed.
    ///
    /// # Errors
    /// [`Error::Auth`] when `auth.issuer` pins the pre-registered client to
    /// another authorization server (before any secret is sent), or when the
    /// server offers no way to register.
    pub(super) async fn register(&self, server: &Server) -> Result<Client, Error> {
        if let Some(client) = self.known_client(server).await? {
            return Ok(client);
        }
        let issuer = server.issuer.as_str();
        let cimd = server.metadata.get("client_id_metadata_document_supported") == Some(&Value::Bool(true));
        let client = match (&self.config.client_metadata_url, cimd) {
            (Some(url), true) => Client { issuer: issuer.to_owned(), id: url.clone(), secret: None, auth: ClientAuth::None },
            _ => self.register_dynamically(server).await?,
        };
        let stored = StoredClient { id: client.id.clone(), secret: client.secret.clone(), auth: auth_name(client.auth).into() };
        self.store.save(Some(issuer), "client", &stored).await;
        *self.client.borrow_mut() = Some(client.clone());
        Ok(client)
    }

    /// The client this page already has for `server`'s issuer: in memory,
    /// configured, or kept in `auth.storage` by an earlier page (whose
    /// refresh token needs it). `None` when it must register.
    ///
    /// # Errors
    /// As [`OAuth::register`] for a pinned pre-registered client.
    pub(super) async fn known_client(&self, server: &Server) -> Result<Option<Client>, Error> {
        let issuer = server.issuer.as_str();
        if let Some(client) = self.client.borrow().clone().filter(|client| client.issuer == issuer) {
            return Ok(Some(client));
        }
        let client = match self.preregistered(server)? {
            Some(client) => client,
            None => match self.store.load::<StoredClient>(Some(issuer), "client").await {
                Some(stored) => {
                    Client { issuer: issuer.to_owned(), id: stored.id, secret: stored.secret, auth: auth_from_name(&stored.auth) }
                }
                None => return Ok(None),
            },
        };
        *self.client.borrow_mut() = Some(client.clone());
        Ok(Some(client))
    }

    /// The configured client, if it belongs to `server`: the issuer in
    /// `auth.issuer`, or else the first one it was used with.
    fn preregistered(&self, server: &Server) -> Result<Option<Client>, Error> {
        let Some(id) = self.config.client_id.clone() else { return Ok(None) };
        if let Some(pinned) = self.config.issuer.as_deref().map(|i| i.trim_end_matches('/')) {
            if pinned != server.issuer.trim_end_matches('/') {
                return Err(auth_error(
                    "registration",
                    format!(
                        "auth.issuer pins the pre-registered client to {pinned}, and the server's authorization server is {}; no credentials were sent",
                        server.issuer
                    ),
                ));
            }
        }
        let first = self.pinned.borrow_mut().get_or_insert_with(|| server.issuer.clone()).clone();
        if first != server.issuer {
            // The server moved: the client id and secret stay with their issuer.
            return Ok(None);
        }
        let secret = self.config.client_secret.clone();
        let supported = server.metadata.get("token_endpoint_auth_methods_supported");
        let auth = rules::choose_client_auth(self.config.token_endpoint_auth_method.as_deref(), supported, secret.is_some());
        Ok(Some(Client { issuer: server.issuer.clone(), id, secret, auth }))
    }

    async fn register_dynamically(&self, server: &Server) -> Result<Client, Error> {
        let endpoint = Self::endpoint(server, "registration_endpoint").map_err(|_| {
            auth_error("registration", "the authorization server offers no registration, and no client id is configured for it")
        })?;
        let redirect_uris: Vec<&str> = self.config.redirect_uri.as_deref().into_iter().collect();
        let local = redirect_uris.iter().any(|u| u.contains("://localhost") || u.contains("://127.0.0.1"));
        let method = self.config.token_endpoint_auth_method.clone().unwrap_or_else(|| "none".into());
        let grants: &[&str] = match self.config.grant {
            Grant::AuthorizationCode => &["authorization_code", "refresh_token"],
            Grant::ClientCredentials => &["client_credentials"],
            Grant::CrossAppAccess | Grant::JwtBearer => &["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        };
        let body = json!({
            "client_name": self.config.client_name,
            "redirect_uris": redirect_uris,
            "grant_types": grants,
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": if local { "native" } else { "web" },
        });
        let headers = Headers::new().map_err(|e| auth_error("registration", js_message(&e)))?;
        let _ = headers.set("content-type", "application/json");
        let text = body.to_string();
        let (_controller, response) = self.send("registration", ("POST", &endpoint), headers, Some(&text), Follow::SameOrigin).await?;
        let status = response.status();
        let answer: Value =
            crate::protocol::json::parse(&read_text_capped(&response, OAUTH_REPLY_LIMIT, "oauthReplyBytes").await?).unwrap_or(Value::Null);
        if !(200..300).contains(&status) {
            return Err(auth_error("registration", format!("HTTP {status}: {answer}")));
        }
        let id = answer.get("client_id").and_then(Value::as_str).ok_or_else(|| auth_error("registration", "no client_id"))?;
        let secret = answer.get("client_secret").and_then(Value::as_str).map(str::to_owned);
        let registered = answer.get("token_endpoint_auth_method").and_then(Value::as_str);
        let supported = server.metadata.get("token_endpoint_auth_methods_supported");
        let auth = rules::choose_client_auth(registered.or(Some(method.as_str())), supported, secret.is_some());
        Ok(Client { issuer: server.issuer.clone(), id: id.to_owned(), secret, auth })
    }
}
