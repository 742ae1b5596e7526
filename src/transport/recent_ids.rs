//! Remembers recent SSE event ids, so an event delivered twice (a proxy that
//! repeats, a replay that overlaps) reaches the session once.

/// The last `capacity` event ids seen on one logical stream. A short list
/// searched in order: a few hundred ids compare in microseconds, and a hash
/// set of strings would compile in a hash table the first call needs for
/// nothing else. A ring in a `Vec`, not a `VecDeque`, whose code for strings
/// the first call would need for this alone.
#[derive(Debug)]
pub struct RecentIds {
    ids: Vec<String>,
    /// Where the next id goes once the ring is full: the oldest one's place.
    oldest: usize,
    capacity: usize,
}

impl RecentIds {
    /// Remembers up to `capacity` ids; older ones are forgotten first.
    pub fn new(capacity: usize) -> Self {
        Self { ids: Vec::new(), oldest: 0, capacity }
    }

    /// Records `id`; `false` if it was seen recently (a duplicate).
    pub fn first_time(&mut self, id: &str) -> bool {
        if self.ids.iter().any(|seen| seen == id) {
            return false;
        }
        if self.ids.len() < self.capacity {
            self.ids.push(id.to_owned());
        } else if let Some(slot) = self.ids.get_mut(self.oldest) {
            *slot = id.to_owned();
            self.oldest = (self.oldest + 1) % self.capacity.max(1);
        }
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
        assert!(!ids.first_time("c"), "still remembered");
        assert!(ids.first_time("b"), "forgotten: the oldest of the ring went first");
        assert!(!ids.first_time("a") && ids.first_time("c"), "the ring goes round");
    }
}
