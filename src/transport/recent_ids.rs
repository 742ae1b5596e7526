//! Remembers recent SSE event ids, so an event delivered twice (a proxy that
//! repeats, a replay that overlaps) reaches the session once.

use std::collections::VecDeque;

/// The last `capacity` event ids seen on one logical stream. A short list
/// searched in order: a few hundred ids compare in microseconds, and a hash
/// set of strings would compile in a hash table the first call needs for
/// nothing else.
#[derive(Debug)]
pub struct RecentIds {
    order: VecDeque<String>,
    capacity: usize,
}

impl RecentIds {
    /// Remembers up to `capacity` ids; older ones are forgotten first.
    pub fn new(capacity: usize) -> Self {
        Self { order: VecDeque::new(), capacity }
    }

    /// Records `id`; `false` if it was seen recently (a duplicate).
    pub fn first_time(&mut self, id: &str) -> bool {
        if self.order.iter().any(|seen| seen == id) {
            return false;
        }
        if self.order.len() == self.capacity {
            self.order.pop_front();
        }
        self.order.push_back(id.to_owned());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_caught_within_the_window() {
        let mut ids = RecentIds::new(2);
        assert!(ids.first_time("a"));
        assert!(!ids.first_time("a"));
        assert!(ids.first_time("b"));
        assert!(ids.first_time("c"));
        assert!(ids.first_time("a"), "forgotten after two newer ids");
    }
}
