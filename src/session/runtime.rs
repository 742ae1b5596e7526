use futures::future::LocalBoxFuture;

/// What the session and the client need from their host: a clock, timers,
/// a way to run background work, and randomness for reconnection jitter.
/// The web implementation uses `setTimeout`, `Date.now`, `Math.random` and
/// `spawn_local`; native tests use a manual clock.
pub trait Runtime {
    /// A future that completes after `ms` milliseconds. Dropping it cancels the timer.
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
    /// The current time in milliseconds since the Unix epoch.
    fn now_ms(&self) -> f64;
    /// A number in `[0, 1)`, for jitter; it need not be secure.
    fn random(&self) -> f64;
}
