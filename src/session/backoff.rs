//! How long to wait before reconnecting a stream: the server's `retry` when it
//! sent one (2025-11-25 says the client MUST wait it), growing by a factor on
//! each failed attempt, capped, with a little random jitter so that many
//! clients do not return at the same instant.

/// A reconnection schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backoff {
    /// The first delay when the server sent no `retry`.
    pub initial_ms: u32,
    /// The longest delay.
    pub max_ms: u32,
    /// The growth per failed attempt.
    pub factor: f64,
    /// The most jitter added, as a fraction of the delay.
    pub jitter: f64,
}

/// The schedule for every stream the client follows.
pub const DEFAULT: Backoff = Backoff { initial_ms: 1_000, max_ms: 30_000, factor: 1.5, jitter: 0.1 };

impl Backoff {
    /// The delay before attempt `attempt` (0 for the first), given the
    /// server's `retry` and a random number in `[0, 1)`.
    pub fn delay(&self, attempt: u32, server_retry: Option<u32>, random: f64) -> u32 {
        let base = f64::from(server_retry.unwrap_or(self.initial_ms));
        let grown = base * self.factor.powi(i32::try_from(attempt).unwrap_or(i32::MAX));
        // Never below what the server asked for, even if it asked for more than the cap.
        let capped = grown.min(f64::from(self.max_ms).max(base));
        let jittered = capped * (1.0 + self.jitter * random.clamp(0.0, 1.0));
        if jittered >= f64::from(u32::MAX) {
            u32::MAX
        } else {
            jittered as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_retry_is_the_first_delay() {
        assert_eq!(DEFAULT.delay(0, Some(500), 0.0), 500);
        assert!(DEFAULT.delay(0, Some(500), 0.999) < 551);
        assert_eq!(DEFAULT.delay(0, None, 0.0), 1_000);
    }

    #[test]
    fn delays_grow_and_stop_at_the_cap() {
        let delays: Vec<u32> = (0..12).map(|a| DEFAULT.delay(a, None, 0.0)).collect();
        assert!(delays.windows(2).all(|w| w[0] <= w[1]), "{delays:?}");
        assert_eq!(delays[11], 30_000);
        assert_eq!(DEFAULT.delay(40, Some(60_000), 0.0), 60_000, "a larger server retry wins over the cap");
        assert_eq!(DEFAULT.delay(u32::MAX, Some(u32::MAX), 1.0), u32::MAX);
    }
}
