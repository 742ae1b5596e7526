use futures::future::{FutureExt, LocalBoxFuture};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

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

/// `work`, or `deadline` if it ends first ([`within`]).
#[must_use = "a future does nothing unless awaited"]
pub struct Within<F> {
    work: F,
    deadline: LocalBoxFuture<'static, ()>,
}

impl<F> std::fmt::Debug for Within<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Within")
    }
}

/// Runs `work` until it ends, with its output, or until `deadline` ends
/// first, with `None`: a timeout when `deadline` is a [`Runtime::sleep`].
/// A future of its own rather than `futures::future::select`, whose poll,
/// generic over both sides and handing back the one left, took about 0.5 KB
/// of the first call's module for each pair of types.
pub fn within<F: Future + Unpin>(work: F, deadline: LocalBoxFuture<'static, ()>) -> Within<F> {
    Within { work, deadline }
}

impl<F: Future + Unpin> Future for Within<F> {
    type Output = Option<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Poll::Ready(output) = self.work.poll_unpin(cx) {
            return Poll::Ready(Some(output));
        }
        self.deadline.poll_unpin(cx).map(|()| None)
    }
}

#[cfg(test)]
mod tests {
    use super::within;
    use futures::executor::block_on;
    use futures::future::{self, FutureExt};

    #[test]
    fn the_work_that_ends_first_gives_its_output() {
        assert_eq!(block_on(within(future::ready(5), future::pending().boxed_local())), Some(5));
    }

    #[test]
    fn a_deadline_that_ends_first_gives_none() {
        assert_eq!(block_on(within(future::pending::<u8>(), future::ready(()).boxed_local())), None);
    }

    #[test]
    fn work_and_deadline_ready_together_give_the_work() {
        assert_eq!(block_on(within(future::ready("done"), future::ready(()).boxed_local())), Some("done"));
    }
}
