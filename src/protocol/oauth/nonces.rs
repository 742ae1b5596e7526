//! The `DPoP-Nonce` values servers hand out (RFC 9449 §8, §9): the last one
//! from each origin goes into that origin's next proofs.

use std::collections::HashMap;

/// How many origins' nonces are kept. Each authorization server a server
/// names brings an origin; past this many, the book starts again (a forgotten
/// nonce costs one retry, as the server asks for it again).
pub const MAX_NONCE_ORIGINS: usize = 32;

/// The last nonce each origin sent, for at most [`MAX_NONCE_ORIGINS`] origins.
#[derive(Debug, Default)]
pub struct DpopNonces(HashMap<String, String>);

impl DpopNonces {
    /// The nonce to put in a proof for `origin`.
    pub fn get(&self, origin: &str) -> Option<&str> {
        self.0.get(origin).map(String::as_str)
    }

    /// Keeps `nonce` as `origin`'s; whether it differs from the one kept.
    pub fn note(&mut self, origin: String, nonce: String) -> bool {
        if self.0.len() >= MAX_NONCE_ORIGINS && !self.0.contains_key(&origin) {
            self.0.clear();
        }
        let changed = self.0.get(&origin) != Some(&nonce);
        self.0.insert(origin, nonce);
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_nonce_of_each_origin_and_says_when_it_changed() {
        let mut nonces = DpopNonces::default();
        assert!(nonces.note("https://as.example".into(), "n1".into()));
        assert!(!nonces.note("https://as.example".into(), "n1".into()), "the same nonce again is no news");
        assert!(nonces.note("https://as.example".into(), "n2".into()));
        assert!(nonces.note("https://mcp.example".into(), "m1".into()));
        assert_eq!(nonces.get("https://as.example"), Some("n2"));
        assert_eq!(nonces.get("https://mcp.example"), Some("m1"));
        assert_eq!(nonces.get("https://other.example"), None);
    }

    #[test]
    fn an_origin_past_the_bound_starts_the_book_again() {
        let mut nonces = DpopNonces::default();
        let origin = |n: usize| format!("https://as{n}.example");
        for n in 0..MAX_NONCE_ORIGINS {
            nonces.note(origin(n), format!("nonce-{n}"));
        }
        assert_eq!(nonces.0.len(), MAX_NONCE_ORIGINS);
        assert!(!nonces.note(origin(0), "nonce-0".into()), "a known origin at the bound forgets nothing");
        assert_eq!(nonces.get(&origin(MAX_NONCE_ORIGINS - 1)), Some("nonce-31"));
        for n in MAX_NONCE_ORIGINS..10 * MAX_NONCE_ORIGINS {
            nonces.note(origin(n), format!("nonce-{n}"));
            assert!(nonces.0.len() <= MAX_NONCE_ORIGINS, "{} origins after {n}", nonces.0.len());
        }
        let last = 10 * MAX_NONCE_ORIGINS - 1;
        assert_eq!(nonces.get(&origin(last)), Some(format!("nonce-{last}").as_str()), "the newest is kept");
        assert_eq!(nonces.get(&origin(0)), None, "the oldest are forgotten");
    }
}
