use futures::future::{FutureExt, LocalBoxFuture};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// What the session and the client need from their host: a clock, timers,
/// a way to run background work, and randomness for reconnection jitter.
/// The web implementation uses `setTimeout`, `Date.now` (through a
/// [`SteadyClock`]), `Math.random` and `spawn_local`; native tests use a
/// manual clock.
pub trait Runtime {
    /// A future that completes after `ms` milliseconds. Dropping it cancels the timer.
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
    /// The current time in milliseconds. Only the time between two readings
    /// matters (debounced list refreshes, cache lifetimes, renewals in a row),
    /// so it need not count from the Unix epoch; it should never go back.
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

/// Time that never goes back, read from a wall clock that may: a step back
/// (the user or NTP setting the clock) counts as no time at all, and time goes
/// on from there. `performance.now()` would be steady already, but in a Worker
/// it may count from each request, and a client outlives requests.
#[derive(Clone, Copy, Debug, Default)]
pub struct SteadyClock {
    /// The last wall-clock reading and the time given for it; `None` before the first.
    last: Option<(f64, f64)>,
}

impl SteadyClock {
    /// A clock that has read nothing yet.
    pub const fn new() -> Self {
        Self { last: None }
    }

    /// The time for the wall clock reading `wall`, never before the last one given.
    pub fn at(&mut self, wall: f64) -> f64 {
        let now = match self.last {
            Some((last_wall, last_now)) => last_now + (wall - last_wall).max(0.0),
            None => wall,
        };
        self.last = Some((wall, now));
        now
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_wall_clock_set_back_stands_still_then_goes_on() {
        let mut clock = super::SteadyClock::default();
        assert_eq!(clock.at(1_000_000.0), 1_000_000.0, "the first reading is the wall clock's");
        assert_eq!(clock.at(1_000_250.0), 1_000_250.0);
        assert_eq!(clock.at(1_000_250.0 - 3_600_000.0), 1_000_250.0, "an hour back is no time");
        assert_eq!(clock.at(1_000_300.0 - 3_600_000.0), 1_000_300.0, "then the next 50 ms count");
        assert_eq!(clock.at(1_000_300.0 + 60_000.0), 1_000_300.0 + 3_660_000.0, "a step forward counts whole");
    }

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
