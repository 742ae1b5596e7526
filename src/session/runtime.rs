use futures::future::LocalBoxFuture;

/// The two things the session needs from its host: a clock and a way to run
/// background work. The web implementation uses `setTimeout` and
/// `spawn_local`; tests use a manual clock.
pub trait Runtime {
    /// A future that completes after `ms` milliseconds. Dropping it cancels the timer.
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
}
