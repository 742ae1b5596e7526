//! The request path of the 2026-07-28 era: `_meta` on every request,
//! multi-round-trip input through the same handlers as the legacy era, the
//! modern recoveries (a refused revision, changed tool headers), which
//! requests are sent again after a broken stream, and the legacy-only
//! methods refused before anything is sent.

use super::lists::TOOLS;
use super::mrtr::request_with_input;
use super::options::RequestOptions;
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::jsonrpc::Params;
use crate::protocol::modern::{self, Outcome, Recovery, RequestMeta, VersionAnswer};
use crate::session::handler::ClientHandler;
use crate::session::{Answer, LargeResult};
use futures::future::LocalBoxFuture;
use serde_json::Value;
use std::rc::Rc;

/// Methods the 2026-07-28 revision removed. `set_logging_level` and
/// `subscribe_resource` keep working through their modern equivalents and
/// never reach this list's check.
const LEGACY_ONLY: [&str; 5] =
    ["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "notifications/roots/list_changed"];

/// The typed error for a method the modern era does not have.
pub(crate) fn removed(method: &str) -> Error {
    Error::Unsupported(format!("{method}, which the 2026-07-28 revision it speaks removed"))
}

impl ClientState {
    /// `params` with this client's `_meta` for the modern era.
    pub(crate) fn modern_params(&self, params: Option<Params>) -> Params {
        let log_level = self.log_level.borrow().clone();
        let meta = RequestMeta {
            version: modern::VERSION,
            capabilities: &self.offer.capabilities,
            client_info: &self.offer.client_info,
            log_level: log_level.as_deref(),
        };
        params.unwrap_or_else(|| Params::Parsed(Value::Object(serde_json::Map::new()))).with_meta(modern::meta_members(&meta))
    }

    /// Whether a request lost to a broken stream may be sent again: the server
    /// may already have run it. Lists, reads, prompts and completions change
    /// nothing; a tool call only if the tool declared `idempotentHint: true`.
    fn replayable(&self, method: &str, params: Option<&Params>) -> bool {
        if method != "tools/call" {
            return true;
        }
        let tool = params.and_then(|p| p.member("name"));
        self.idempotent_tools.borrow().contains_key(tool.as_ref().and_then(Value::as_str).unwrap_or_default())
    }

    pub(crate) async fn request_modern(&self, method: &str, params: Option<Params>, options: &RequestOptions) -> Result<Reply, Error> {
        if LEGACY_ONLY.contains(&method) {
            return Err(removed(method));
        }
        let outcome = match self.send_modern(method, params.clone(), options).await {
            Err(error) if self.recoverable(&error, method, params.as_ref()) => self.recover_modern(error, method, params, options).await,
            done => done,
        };
        match outcome? {
            Outcome::Complete(result) | Outcome::Task(result) => Ok(Reply::from(result)),
            Outcome::CompleteText(text) => Ok(Reply::from(Answer::Text(LargeResult { text: Rc::new(text), kept: None }))),
            Outcome::InputRequired { .. } => Err(Error::protocol("input was still required after the last round".into())),
        }
    }

    /// One try of a request, its rounds of input included.
    async fn send_modern(&self, method: &str, params: Option<Params>, options: &RequestOptions) -> Result<Outcome, Error> {
        let call = || self.call_options(options);
        let prepare = |p: Option<Params>| self.modern_params(p);
        let handler: &dyn ClientHandler = self.answering.as_ref();
        request_with_input(&self.session, Some(handler), method, params, &prepare, &call, self.settings.max_input_rounds).await
    }

    /// Whether [`ClientState::recover_modern`] has something to do after `error`.
    fn recoverable(&self, error: &Error, method: &str, params: Option<&Params>) -> bool {
        match error {
            Error::Network { .. } => self.replayable(method, params),
            Error::Rpc(error) => match modern::recovery(error) {
                Some(Recovery::RelistAndRetry) => relists(method),
                other => other.is_some(),
            },
            _ => false,
        }
    }

    /// After a first try failed with `error`: a request lost with its stream is sent again
    /// (no resumption in this revision: under a new id), a refused revision once more if
    /// the server lists ours, a request whose headers disagreed with the tool once the
    /// tools are listed again; other refusals become their errors.
    ///
    /// A future of its own, not awaited inline: a request that succeeds never polls it,
    /// and the core's split (scripts/split/) leaves it out of the module a page loads first.
    #[inline(never)]
    fn recover_modern<'a>(
        &'a self,
        error: Error,
        method: &'a str,
        params: Option<Params>,
        options: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Outcome, Error>> {
        Box::pin(async move {
            let mut outcome = Err(error);
            if let (Err(Error::Network { .. }), true) = (&outcome, self.replayable(method, params.as_ref())) {
                outcome = self.send_modern(method, params.clone(), options).await;
            }
            if let Err(Error::Rpc(error)) = &outcome {
                if let Some(answer) = modern::version_answer(error) {
                    outcome = match answer {
                        VersionAnswer::Retry => self.send_modern(method, params.clone(), options).await,
                        VersionAnswer::Unsupported(versions) => return Err(Error::UnsupportedVersion(versions.join(", "))),
                    };
                }
            }
            if let Err(Error::Rpc(error)) = &outcome {
                match modern::recovery(error) {
                    Some(Recovery::RelistAndRetry) if relists(method) => {
                        // What the cache holds is what the server just refused.
                        if let Some(cache) = &self.cache {
                            cache.invalidate("notifications/tools/list_changed");
                        }
                        // Within the caller's cancellation and timeout: a server that pages its
                        // listing slowly cannot hold the call past either. Boxed: listing comes
                        // back here.
                        let quiet = RequestOptions { cancel: options.cancel.clone(), ..RequestOptions::default() };
                        let relist: LocalBoxFuture<'_, _> = Box::pin(self.list_all_pages(TOOLS, &quiet));
                        self.within_call(options, relist).await??;
                        outcome = self.send_modern(method, params, options).await;
                    }
                    Some(Recovery::OtherVersions(versions)) => return Err(Error::UnsupportedVersion(versions.join(", "))),
                    Some(Recovery::MissingCapabilities(needed)) => return Err(Error::MissingCapability(needed.to_string())),
                    Some(Recovery::RelistAndRetry) | None => {}
                }
            }
            outcome
        })
    }
}

/// Whether a header mismatch (−32020) on `method` is met by listing the tools again and
/// retrying. Not on `tools/list` itself, which carries no tool's headers: listing again
/// would meet the same answer, and recovering from it would list again, without end.
fn relists(method: &str) -> bool {
    method != TOOLS.method
}
