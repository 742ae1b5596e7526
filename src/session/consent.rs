//! What a request gives back to its timeout for a person signing in (an
//! OAuth consent page, [`super::Transport::user_wait_ms`]): how long someone
//! takes is not the server's delay, yet a page left open must not hold the
//! request for ever.

/// How long, past its own timeout, a request may wait on a person: ten minutes.
pub(crate) const CONSENT_LIMIT_MS: u32 = 600_000;

/// The consent time one request has been given back, and what it last saw.
#[derive(Debug)]
pub(crate) struct ConsentAllowance {
    seen_ms: u64,
    left_ms: u32,
}

impl ConsentAllowance {
    /// For a request whose timer was just armed, when the transport had
    /// waited `user_wait_ms` on a person in all.
    pub(crate) fn new(user_wait_ms: u64) -> Self {
        Self { seen_ms: user_wait_ms, left_ms: CONSENT_LIMIT_MS }
    }

    /// At the timer's deadline: the time a person took since the timer was
    /// armed, as the next timer's delay, within what is left of the limit;
    /// `None` when there is nothing to give back, and the request times out.
    /// Cold, out of line: a first call never reaches a deadline, and the npm
    /// build's split leaves it to the module that loads later.
    #[cold]
    #[inline(never)]
    pub(crate) fn give_back(&mut self, user_wait_ms: u64) -> Option<u32> {
        let spent = user_wait_ms.saturating_sub(self.seen_ms);
        self.rearmed(user_wait_ms);
        let ms = u32::try_from(spent).unwrap_or(u32::MAX).min(self.left_ms);
        if ms == 0 {
            return None;
        }
        self.left_ms -= ms;
        Some(ms)
    }

    /// The timer was armed anew (progress reset it): consent time counts from here.
    pub(crate) fn rearmed(&mut self, user_wait_ms: u64) {
        self.seen_ms = self.seen_ms.max(user_wait_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_back_what_the_person_took_and_no_more_than_the_limit() {
        let mut allowance = ConsentAllowance::new(1_000);
        assert_eq!(allowance.give_back(1_000), None, "nobody signed in meanwhile");
        assert_eq!(allowance.give_back(1_081), Some(81));
        assert_eq!(allowance.give_back(1_081 + 700_000), Some(CONSENT_LIMIT_MS - 81), "what is left of the limit");
        assert_eq!(allowance.give_back(u64::MAX), None, "the limit is spent");
    }

    #[test]
    fn a_clock_that_goes_back_gives_nothing() {
        let mut allowance = ConsentAllowance::new(500);
        assert_eq!(allowance.give_back(400), None);
        assert_eq!(allowance.give_back(530), Some(30), "counted from the most it saw");
    }
}
