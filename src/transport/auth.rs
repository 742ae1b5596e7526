//! What the Streamable HTTP transport asks of authorization: the headers of
//! each request, and an answer to a refusal. [`crate::transport::oauth::OAuth`]
//! (Cargo feature `oauth`) is the one this crate has; a Rust program may pass
//! its own as `WebOptions::authorizer`.

use crate::error::Error;
use futures::future::LocalBoxFuture;
use std::rc::Rc;
use web_sys::Response;

/// Authorizes the requests to one MCP server.
pub trait Authorizer: std::fmt::Debug {
    /// Takes up what an earlier page load or invocation kept (tokens),
    /// before the first request.
    fn restore(self: Rc<Self>) -> LocalBoxFuture<'static, ()>;

    /// The headers that authorize a request (`Authorization`, `DPoP`);
    /// none before there is a token.
    ///
    /// # Errors
    /// Whatever keeps the request from being authorized (a proof that cannot
    /// be signed, a configuration that was refused).
    fn request_headers(self: Rc<Self>, method: &str, url: &str) -> LocalBoxFuture<'static, Result<Vec<(String, String)>, Error>>;

    /// Reads what any response of the MCP server says about DPoP (a fresh
    /// nonce is kept); whether it is a `use_dpop_nonce` refusal that one retry
    /// with the new nonce answers.
    fn needs_nonce(&self, url: &str, response: &Response) -> bool;

    /// After a 401: refresh, or run the whole flow.
    ///
    /// # Errors
    /// [`Error::Auth`] naming the step that failed.
    fn unauthorized(self: Rc<Self>, response: &Response) -> LocalBoxFuture<'static, Result<(), Error>>;

    /// After a 403: when it is `insufficient_scope`, authorize again with
    /// the scopes asked for and say `true`; else `false`.
    ///
    /// # Errors
    /// [`Error::Auth`] naming the step that failed.
    fn step_up(self: Rc<Self>, response: &Response) -> LocalBoxFuture<'static, Result<bool, Error>>;

    /// The milliseconds its flows have spent waiting on a person so far (an
    /// `authorize` function showing a consent page), a wait in progress
    /// included; it never decreases. See
    /// [`crate::session::Transport::user_wait_ms`].
    fn user_wait_ms(&self) -> u64 {
        0
    }
}
