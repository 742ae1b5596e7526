//! The path every request takes: the capability check, the era's rules, the
//! cache, and in the legacy era the renewal of a session the server ended,
//! with the failed request sent once more in the new session (the old one
//! never received it).

use super::events::ClientEvent;
use super::lifecycle::initialize;
#[cfg(feature = "modern")]
use super::options::Era;
use super::options::RequestOptions;
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::capabilities::check_server_supports;
use crate::protocol::jsonrpc::Params;
use crate::session::{Answer, CallOptions, Channel, ConsentTime};
use futures::future::{self, FutureExt, LocalBoxFuture};
use serde_json::{json, Value};
use std::rc::Rc;

/// How many renewals the server-to-client stream may ask for in a row.
pub(crate) const MAX_STREAM_RENEWALS: u32 = 5;
/// How long without one before the stream's renewals count from zero again.
const STREAM_RENEWALS_QUIET_MS: f64 = 60_000.0;

/// Checks a result's shape.
pub(crate) type ShapeCheck = fn(&Value) -> Result<(), String>;
/// Checks a result's shape on its text; `None` when only the parsed value can tell.
pub(crate) type TextShapeCheck = fn(&str) -> Option<Result<(), String>>;

impl ClientState {
    /// Sends a request; fails with `unsupported` before sending when strict
    /// and the server did not declare what the method needs.
    pub(crate) async fn request_reply(&self, method: &str, params: Option<Params>, options: &RequestOptions) -> Result<Reply, Error> {
        if self.settings.strict {
            check_server_supports(&self.identity.borrow().capabilities, method).map_err(Error::Unsupported)?;
        }
        self.request_unchecked(method, params, options).await
    }

    /// [`ClientState::request_reply`] without the capability check.
    pub(crate) async fn request_unchecked(&self, method: &str, params: Option<Params>, options: &RequestOptions) -> Result<Reply, Error> {
        if let Some(reason) = already_cancelled(options) {
            // Nothing is sent for a request cancelled before it started.
            return Err(Error::Cancelled { reason });
        }
        #[cfg(feature = "modern")]
        if self.era == Era::Modern {
            if let Some(ms) = options.max_total_timeout_ms {
                // Each round of input and each retry is a request of its own, with its own
                // timeout: the cap is on them all.
                return self.within(ms, None, ConsentTime::Counts, self.request_cached(method, params, options)).await?;
            }
            return self.request_cached(method, params, options).await;
        }
        let call = || self.call_options(options);
        if self.renewal.borrow().is_some() {
            self.within_call(options, self.wait_for_renewal()).await?;
        }
        let session_used = self.session.transport().session_id();
        let mut outcome = self.session.request_params(method, params.clone(), call()).await;
        if let Err(Error::SessionExpired { .. }) = outcome {
            outcome = self.renew_and_resend(method, params, options, session_used).await;
        }
        outcome.map(Reply::from)
    }

    /// Sends a legacy-era notification. One the server refuses because it
    /// forgot the session (a 404 for our `Mcp-Session-Id`) starts a new
    /// session, as a request's does, and goes out again in it: the server
    /// never saw it.
    pub(crate) async fn notify_legacy(&self, method: &str, params: Option<Params>) -> Result<(), Error> {
        self.wait_for_renewal().await;
        let session_used = self.session.transport().session_id();
        match self.session.notify_params(method, params.clone()).await {
            Err(Error::SessionExpired { .. }) => self.renew_and_notify(method, params, session_used).await,
            sent => sent,
        }
    }

    /// [`ClientState::notify_legacy`]'s renewal, a future of its own as
    /// `renew_and_resend` is.
    #[inline(never)]
    fn renew_and_notify<'a>(
        &'a self,
        method: &'a str,
        params: Option<Params>,
        session_used: Option<String>,
    ) -> LocalBoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            self.renew_unless_renewed(session_used).await?;
            self.session.notify_params(method, params).await
        })
    }

    /// Renews the session that `session_used` named, unless a renewal has
    /// replaced it already (another request noticed first); then waits for
    /// the one in progress, if any.
    async fn renew_unless_renewed(&self, session_used: Option<String>) -> Result<(), Error> {
        if self.session.transport().session_id() == session_used {
            return self.renew_session().await;
        }
        self.wait_for_renewal().await;
        Ok(())
    }

    /// The server forgot the session, so it never saw the request: start a new one
    /// (unless another request already did), and send the request again.
    ///
    /// A future of its own, not awaited inline: a session that lives never polls it,
    /// and the core's split (scripts/split/) leaves it out of the module a page loads first.
    #[inline(never)]
    fn renew_and_resend<'a>(
        &'a self,
        method: &'a str,
        params: Option<Params>,
        options: &'a RequestOptions,
        session_used: Option<String>,
    ) -> LocalBoxFuture<'a, Result<Answer, Error>> {
        Box::pin(async move {
            self.within_call(options, self.renew_unless_renewed(session_used)).await??;
            self.session.request_params(method, params, self.call_options(options)).await
        })
    }

    /// The modern request path, through the cache when there is one.
    #[cfg(feature = "modern")]
    async fn request_cached(&self, method: &str, params: Option<Params>, options: &RequestOptions) -> Result<Reply, Error> {
        match self.cache.as_ref().filter(|_| super::cache::CACHEABLE.contains(&method)) {
            None => self.request_modern(method, params, options).await,
            Some(cache) => self.through_cache(cache, method, params, options).await,
        }
    }

    /// A cacheable request with the cache on: its answer from the cache, or from the server
    /// and then kept.
    ///
    /// A future of its own, as `renew_and_resend` is: the `cache` option
    /// waits for the rest of the core anyway (pkg-template/rest-gate.js).
    #[cfg(feature = "modern")]
    #[inline(never)]
    fn through_cache<'a>(
        &'a self,
        cache: &'a super::cache::ResponseCache,
        method: &'a str,
        params: Option<Params>,
        options: &'a RequestOptions,
    ) -> LocalBoxFuture<'a, Result<Reply, Error>> {
        Box::pin(async move {
            // The `headers` function it may ask is the user's: the call's timeout and signal bound it.
            let authorization = self.within_call(options, self.session.transport().authorization()).await??;
            let auth = super::cache::auth_context(authorization.as_deref());
            let now = self.context.runtime.now_ms();
            if let Some(hit) = cache.get_reply(method, params.as_ref(), &auth, now) {
                return Ok(hit);
            }
            // Kept only if nothing made it stale on the way (a change notification that came
            // while it did), and if it needed no input: a result after rounds of input answers
            // that input, not the next caller.
            let (changes, asked) = (cache.changes(), self.answering.asked());
            let result = self.request_modern(method, params.clone(), options).await?;
            if cache.changes() == changes && self.answering.asked() == asked {
                cache.put_reply(method, params.as_ref(), &auth, &result, now);
            }
            Ok(result)
        })
    }

    /// [`ClientState::request_reply`], then the result's shape checked.
    pub(crate) async fn request_shaped_reply(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        check: ShapeCheck,
    ) -> Result<Reply, Error> {
        shaped(self.request_reply(method, params.map(Params::Parsed), options).await?, check)
    }

    /// [`ClientState::request_shaped_reply`], checking a result still in its
    /// text (a large result) with `check_text`, without parsing it.
    pub(crate) async fn request_shaped_text_reply(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        check: ShapeCheck,
        check_text: TextShapeCheck,
    ) -> Result<Reply, Error> {
        let reply = self.request_reply(method, params.map(Params::Parsed), options).await?;
        match reply.unparsed_text().and_then(check_text) {
            Some(checked) => checked,
            None => {
                reply.read_within_limit()?;
                check(reply.value())
            }
        }
        .map_err(Error::Protocol)?;
        Ok(reply)
    }

    /// [`ClientState::request_shaped_reply`], for the value alone.
    pub(crate) async fn request_shaped(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        check: ShapeCheck,
    ) -> Result<Value, Error> {
        self.request_shaped_reply(method, params, options, check).await.map(Reply::into_value)
    }

    /// The session's options for one attempt of a request.
    pub(crate) fn call_options(&self, options: &RequestOptions) -> CallOptions {
        CallOptions {
            timeout_ms: options.timeout_ms,
            cancel: options.cancel.as_ref().map(|source| source()),
            on_progress: options.on_progress.clone(),
            reset_timeout_on_progress: options.reset_timeout_on_progress,
            max_total_timeout_ms: options.max_total_timeout_ms,
            unbounded: false,
        }
    }

    /// `work`, which other requests may share (a renewal of the session),
    /// waited for within this request's own cancellation and timeout: the
    /// work goes on for the others, but this caller stops waiting; or work
    /// of the request's own (the listing a header mismatch calls for).
    ///
    /// A future of its own: only a request that meets a renewal or a header
    /// mismatch runs it.
    #[inline(never)]
    pub(crate) fn within_call<'a, T: 'a>(
        &'a self,
        options: &'a RequestOptions,
        work: impl std::future::Future<Output = T> + 'a,
    ) -> LocalBoxFuture<'a, Result<T, Error>> {
        let ms = options.timeout_ms.unwrap_or(self.context.default_timeout_ms);
        self.within(ms, options.cancel.as_ref().map(|source| source()), ConsentTime::GivenBack, work)
    }

    /// `work` until `ms` pass ([`Error::Timeout`]) or `cancel` completes
    /// ([`Error::Cancelled`]); `consent` says whether time on a consent page
    /// is given back (a timeout) or counts (a `maxTotalTimeout`).
    ///
    /// A future of its own: only what `within_call` serves, or a 2026-07-28
    /// request, a task or a walk of every page with a `maxTotalTimeout`, runs it.
    #[inline(never)]
    pub(super) fn within<'a, T: 'a>(
        &'a self,
        ms: u32,
        cancel: Option<LocalBoxFuture<'static, String>>,
        consent: ConsentTime,
        work: impl std::future::Future<Output = T> + 'a,
    ) -> LocalBoxFuture<'a, Result<T, Error>> {
        Box::pin(async move {
            match futures::future::select(Box::pin(work), self.session.stop_after(ms, cancel, consent)).await {
                futures::future::Either::Left((done, _)) => Ok(done),
                futures::future::Either::Right((stopped, _)) => Err(stopped),
            }
        })
    }

    /// Waits for a renewal in progress, so that no request goes out without a session.
    pub(crate) async fn wait_for_renewal(&self) {
        let pending = self.renewal.borrow().clone();
        if let Some(renewal) = pending {
            let _ = renewal.await;
        }
    }

    /// Runs the handshake again after the server ended the session, once for
    /// every request that noticed, and tells listeners.
    pub(crate) async fn renew_session(&self) -> Result<(), Error> {
        let pending = self.renewal.borrow().clone();
        let renewal = match pending {
            Some(renewal) => renewal,
            None => {
                let me = self.me.clone();
                let renewal = async move {
                    let Some(state) = me.upgrade() else { return Err(Error::Closed) };
                    let previous = state.session.transport().session_id();
                    state.session.transport().reset_session();
                    let renewed = initialize(&state.session, &state.offer, &CallOptions::default).await;
                    state.renewal.borrow_mut().take();
                    let renewed = renewed.map_err(Error::from).inspect_err(|_| {
                        // Keep the ended session's id: the next request finds it ended
                        // and renews again, instead of going out without a session.
                        state.session.transport().adopt_session(previous.clone(), None);
                    });
                    *state.identity.borrow_mut() = renewed?;
                    let current = state.session.transport().session_id();
                    state.events.emit(&ClientEvent::SessionRenewed { previous, current });
                    Ok(())
                }
                .boxed_local()
                .shared();
                *self.renewal.borrow_mut() = Some(renewal.clone());
                renewal
            }
        };
        renewal.await
    }

    /// Records that the client has told the server something (a logging
    /// level, a resource subscription): from now on a snapshot carries it,
    /// and every later renewal of the session tells the new one (the modern
    /// era, which has no sessions, never renews). The renewal's part is a
    /// listener of its own rather than a step of every renewal, whose code
    /// the first call's module would carry.
    pub(crate) fn note_told(&self) {
        if self.told.replace(true) {
            return;
        }
        let me = self.me.clone();
        self.events.listen(Rc::new(move |event| {
            if let (ClientEvent::SessionRenewed { .. }, Some(state)) = (event, me.upgrade()) {
                state.restore_after_renewal();
            }
        }));
    }

    /// Tells a renewed session what the ended one had been told and a new
    /// one starts without: the logging level and the resource subscriptions.
    /// In the background, one request after another; each failure is a
    /// problem event. Straight to the session, which renews nothing: a server
    /// that ended each new session at once would otherwise have each restore
    /// renew, and each renewal restore, for ever.
    ///
    /// Each is read again as it goes out: a `setLoggingLevel` or an
    /// unsubscription the user made meanwhile (or resent into the new session
    /// itself) is not undone. A session that ended again, or closed, ends it.
    fn restore_after_renewal(&self) {
        let uris = self.subscriptions.borrow().clone();
        if self.log_level.borrow().is_none() && uris.is_empty() {
            return;
        }
        let me = self.me.clone();
        self.context.runtime.spawn(Box::pin(async move {
            let session = me.upgrade().and_then(|state| state.session.transport().session_id());
            let steps = std::iter::once(None).chain(uris.into_iter().map(Some));
            for uri in steps {
                let Some(state) = me.upgrade() else { return };
                if state.session.transport().session_id() != session {
                    return;
                }
                let Some((method, params)) = state.restore_step(uri) else { continue };
                let call = state.call_options(&RequestOptions::default());
                match state.session.request(method, Some(params), call).await {
                    Err(Error::Closed) => return,
                    Err(error @ Error::SessionExpired { .. }) => return state.events.emit(&ClientEvent::Problem(error)),
                    Err(error) => state.events.emit(&ClientEvent::Problem(error)),
                    Ok(_) => {}
                }
            }
        }));
    }

    /// The request of one step of a restore, as things stand now: the logging
    /// level (`None`), or the subscription to `uri` if it is still held.
    fn restore_step(&self, uri: Option<String>) -> Option<(&'static str, Value)> {
        match uri {
            None => self.log_level.borrow().as_ref().map(|level| ("logging/setLevel", json!({ "level": level }))),
            Some(uri) => self.subscriptions.borrow().contains(&uri).then(|| ("resources/subscribe", json!({ "uri": uri }))),
        }
    }

    /// What the client has told the server, into `snapshot`. Apart from
    /// [`Client::snapshot`](super::Client::snapshot): a page snapshots
    /// before its first call, when it has told the server nothing, and the
    /// core's split (scripts/split/) leaves what a first call never runs out
    /// of the module a page loads first.
    #[inline(never)]
    pub(crate) fn tell(&self, snapshot: &mut super::Snapshot) {
        snapshot.log_level.clone_from(&self.log_level.borrow());
        snapshot.subscriptions.clone_from(&self.subscriptions.borrow());
    }

    /// Takes over what a snapshot says the client had told the server: its
    /// logging level and resource subscriptions. A legacy session the server
    /// kept already has them, and a renewal gives them to the new one; an
    /// HTTP+SSE snapshot has connected anew, so that session is told now.
    pub(crate) fn adopt_told(&self, (level, mut subscriptions): (Option<String>, Vec<String>)) {
        if level.is_none() && subscriptions.is_empty() {
            return;
        }
        // Kept sorted and without repeats; a `Snapshot` made in Rust may be neither.
        subscriptions.sort_unstable();
        subscriptions.dedup();
        *self.log_level.borrow_mut() = level;
        *self.subscriptions.borrow_mut() = subscriptions;
        self.note_told();
        if self.channel == Channel::Sse {
            self.restore_after_renewal();
        }
    }

    /// Renews the session in the background (the GET stream found it gone).
    ///
    /// Renewing opens the stream again, and a server whose stream finds each new
    /// session gone at once (or a balancer that sends the stream elsewhere) would
    /// have the client renew in a loop without a pause: renewals the stream asks
    /// for in a row wait as its reconnections do, and after
    /// [`MAX_STREAM_RENEWALS`] of them within a minute of each other the stream
    /// asks for none; a request that finds the session gone still renews it.
    pub(crate) fn renew_in_background(&self) {
        let runtime = &self.context.runtime;
        let now = runtime.now_ms();
        let (before, last) = self.stream_renewals.get();
        let in_a_row = if now - last > STREAM_RENEWALS_QUIET_MS { 0 } else { before };
        if in_a_row >= MAX_STREAM_RENEWALS {
            self.events.emit(&ClientEvent::Problem(Error::LimitExceeded {
                limit: "session renewals",
                message: crate::error::cold_format!(
                    "the server ended {in_a_row} sessions in a row as the client opened its stream; the stream no longer renews them"
                ),
            }));
            return;
        }
        self.stream_renewals.set((in_a_row + 1, now));
        let delay = in_a_row.checked_sub(1).map_or(0, |attempt| crate::session::backoff::DEFAULT.delay(attempt, None, runtime.random()));
        // A close ends the pause (up to 30 s), and then nothing is renewed.
        let (me, pause) = (self.me.clone(), (delay > 0).then(|| future::select(runtime.sleep(delay), Box::pin(self.session.closed()))));
        runtime.spawn(Box::pin(async move {
            if let Some(pause) = pause {
                pause.await;
            }
            let Some(state) = me.upgrade().filter(|state| !state.session.is_closed()) else { return };
            if let Err(error) = state.renew_session().await {
                state.events.emit(&ClientEvent::Problem(error));
            }
        }));
    }

    /// Closes the session, and the first time tells listeners and ends the
    /// streams: as the pending requests fail, before the transport's goodbye
    /// (an HTTP `DELETE` the server may hold), so that what waits for
    /// `Closed` between requests (a task's poll in JS) stops at once.
    pub(crate) async fn close(&self) {
        #[cfg(feature = "modern")]
        {
            self.listening.stop("the client closed");
            // A subscription waiting for the stream's acknowledgement fails now, not at its timeout.
            let _ = self.listening.refused(Error::Closed);
        }
        let Some(goodbye) = self.session.begin_close() else { return };
        self.events.emit(&ClientEvent::Closed);
        self.events.close();
        goodbye.await;
    }
}

/// The reason, if the call's cancellation has fired already.
pub(crate) fn already_cancelled(options: &RequestOptions) -> Option<String> {
    options.cancel.as_ref().and_then(|source| source().now_or_never())
}

/// `reply`, once it is read within the size limit and `check` accepts its shape.
pub(crate) fn shaped(reply: Reply, check: ShapeCheck) -> Result<Reply, Error> {
    reply.read_within_limit()?;
    check(reply.value()).map_err(Error::Protocol)?;
    Ok(reply)
}
