//! The optional response cache of the 2026-07-28 revision: list and read
//! results carry `ttlMs` and `cacheScope`. A `public` entry serves any caller;
//! a `private` one only the same authorization context (a hash of the
//! `Authorization` header in use), so a different token never sees it.
//! Change notifications drop what they make stale. The server chooses what
//! to cache and for how long, so the cache is bounded in entries and in
//! bytes, and evicts the least recently used entry first.

use super::state::{json_size, Reply};
use crate::protocol::jsonrpc::Params;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Methods whose results may be cached.
pub const CACHEABLE: [&str; 5] = ["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];

/// How much the cache may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheBounds {
    /// Entries at most.
    pub max_entries: usize,
    /// The sum of the entries' sizes (as JSON text, estimated) at most.
    pub max_bytes: usize,
}

impl CacheBounds {
    /// 256 entries and 16 MiB.
    pub const DEFAULT: Self = Self { max_entries: 256, max_bytes: 16 * 1024 * 1024 };
}

impl Default for CacheBounds {
    fn default() -> Self {
        Self::DEFAULT
    }
}

struct Entry {
    value: Reply,
    expires_at: f64,
    bytes: usize,
    /// When it was last put or served, for least-recently-used eviction.
    used: u64,
}

/// Cached results by method, params and, for private entries, auth context.
#[derive(Default)]
pub struct ResponseCache {
    entries: RefCell<HashMap<String, Entry>>,
    bounds: CacheBounds,
    bytes: Cell<usize>,
    clock: Cell<u64>,
    /// How many change notifications have dropped entries' methods so far.
    changes: Cell<u64>,
}

impl std::fmt::Debug for ResponseCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseCache").field("entries", &self.entries.borrow().len()).field("bytes", &self.bytes.get()).finish()
    }
}

fn key(method: &str, params: Option<&str>, auth: Option<&str>) -> String {
    let params = params.unwrap_or_default();
    format!("{method}\n{params}\n{}", auth.unwrap_or("public"))
}

/// A short stable hash of an auth header, so tokens themselves are not kept as keys.
pub fn auth_context(authorization: Option<&str>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in authorization.unwrap_or_default().bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("private:{hash:016x}")
}

impl ResponseCache {
    /// An empty cache that holds at most `bounds`.
    pub fn new(bounds: CacheBounds) -> Self {
        Self { bounds, ..Self::default() }
    }

    fn tick(&self) -> u64 {
        let now = self.clock.get() + 1;
        self.clock.set(now);
        now
    }

    fn remove(&self, entries: &mut HashMap<String, Entry>, key: &str) {
        if let Some(entry) = entries.remove(key) {
            self.bytes.set(self.bytes.get().saturating_sub(entry.bytes));
        }
    }

    /// A fresh cached result for the request, if any.
    pub fn get(&self, method: &str, params: Option<&Value>, auth: &str, now: f64) -> Option<Value> {
        self.get_reply(method, params.cloned().map(Params::Parsed).as_ref(), auth, now).map(Reply::into_value)
    }

    /// [`ResponseCache::get`], as the result was kept: a large result as
    /// its text.
    pub(crate) fn get_reply(&self, method: &str, params: Option<&Params>, auth: &str, now: f64) -> Option<Reply> {
        let params = params.map(Params::to_json);
        let params = params.as_deref();
        let mut entries = self.entries.borrow_mut();
        for key in [key(method, params, None), key(method, params, Some(auth))] {
            let fresh = entries.get(&key).map(|entry| entry.expires_at > now);
            match fresh {
                Some(true) => {
                    let used = self.tick();
                    let entry = entries.get_mut(&key)?;
                    entry.used = used;
                    return Some(entry.value.clone());
                }
                Some(false) => self.remove(&mut entries, &key),
                None => {}
            }
        }
        None
    }

    /// Keeps a result for its `ttlMs`, under its `cacheScope`, evicting the
    /// least recently used entries to stay within the bounds. A result larger
    /// than the whole cache is not kept.
    pub fn put(&self, method: &str, params: Option<&Value>, auth: &str, result: &Value, now: f64) {
        self.put_reply(method, params.cloned().map(Params::Parsed).as_ref(), auth, &Reply::from(result.clone()), now);
    }

    /// [`ResponseCache::put`] for a result as it came: a large result is
    /// kept as its text, and read for `ttlMs` and `cacheScope` without a tree.
    pub(crate) fn put_reply(&self, method: &str, params: Option<&Params>, auth: &str, result: &Reply, now: f64) {
        let [ttl, scope] = result.members(["ttlMs", "cacheScope"]);
        let ttl = ttl.as_ref().and_then(Value::as_f64).unwrap_or(0.0);
        if ttl <= 0.0 || !CACHEABLE.contains(&method) {
            return;
        }
        let bytes = result.text_len().unwrap_or_else(|| json_size(result.value()));
        if bytes > self.bounds.max_bytes {
            return;
        }
        let public = scope.as_ref().and_then(Value::as_str) == Some("public");
        let params = params.map(Params::to_json);
        let key = key(method, params.as_deref(), (!public).then_some(auth));
        let mut entries = self.entries.borrow_mut();
        self.remove(&mut entries, &key);
        while entries.len() >= self.bounds.max_entries || self.bytes.get() + bytes > self.bounds.max_bytes {
            let Some(oldest) = entries.iter().min_by_key(|(_, entry)| entry.used).map(|(key, _)| key.clone()) else { break };
            self.remove(&mut entries, &oldest);
        }
        let used = self.tick();
        self.bytes.set(self.bytes.get() + bytes);
        entries.insert(key, Entry { value: result.clone(), expires_at: now + ttl, bytes, used });
    }

    /// Drops what a notification makes stale.
    pub fn invalidate(&self, notification: &str) {
        let stale: &[&str] = match notification {
            "notifications/tools/list_changed" => &["tools/list"],
            "notifications/prompts/list_changed" => &["prompts/list"],
            "notifications/resources/list_changed" => &["resources/list", "resources/templates/list"],
            "notifications/resources/updated" => &["resources/read"],
            _ => return,
        };
        self.changes.set(self.changes.get() + 1);
        let mut entries = self.entries.borrow_mut();
        let doomed: Vec<String> = entries
            .keys()
            .filter(|key| stale.iter().any(|method| key.strip_prefix(method).is_some_and(|rest| rest.starts_with('\n'))))
            .cloned()
            .collect();
        for key in doomed {
            self.remove(&mut entries, &key);
        }
    }

    /// How many change notifications have made entries stale so far: a result asked for
    /// before one came may be stale already, and is not kept.
    pub fn changes(&self) -> u64 {
        self.changes.get()
    }

    /// How many entries and estimated bytes it holds.
    pub fn usage(&self) -> (usize, usize) {
        (self.entries.borrow().len(), self.bytes.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn public_entries_serve_everyone_until_they_expire() {
        let cache = ResponseCache::default();
        let result = json!({"tools": [], "ttlMs": 1000, "cacheScope": "public"});
        cache.put("tools/list", None, &auth_context(Some("Bearer a")), &result, 0.0);
        assert_eq!(cache.get("tools/list", None, &auth_context(Some("Bearer b")), 999.0), Some(result));
        assert_eq!(cache.get("tools/list", None, &auth_context(None), 1000.0), None);
    }

    #[test]
    fn private_entries_stay_with_their_auth_context() {
        let cache = ResponseCache::default();
        let params = json!({"uri": "a://b"});
        let result = json!({"contents": [], "ttlMs": 1000, "cacheScope": "private"});
        cache.put("resources/read", Some(&params), &auth_context(Some("Bearer a")), &result, 0.0);
        assert!(cache.get("resources/read", Some(&params), &auth_context(Some("Bearer a")), 1.0).is_some());
        assert!(cache.get("resources/read", Some(&params), &auth_context(Some("Bearer b")), 1.0).is_none());
        assert!(cache.get("resources/read", Some(&json!({"uri": "a://c"})), &auth_context(Some("Bearer a")), 1.0).is_none());
    }

    #[test]
    fn zero_ttls_uncacheable_methods_and_notifications() {
        let cache = ResponseCache::default();
        let auth = auth_context(None);
        cache.put("tools/list", None, &auth, &json!({"ttlMs": 0, "cacheScope": "public"}), 0.0);
        cache.put("tools/call", None, &auth, &json!({"ttlMs": 100, "cacheScope": "public"}), 0.0);
        assert!(cache.get("tools/list", None, &auth, 1.0).is_none() && cache.get("tools/call", None, &auth, 1.0).is_none());
        cache.put("tools/list", None, &auth, &json!({"ttlMs": 100, "cacheScope": "public"}), 0.0);
        cache.put("prompts/list", None, &auth, &json!({"ttlMs": 100, "cacheScope": "public"}), 0.0);
        cache.invalidate("notifications/tools/list_changed");
        assert!(cache.get("tools/list", None, &auth, 1.0).is_none());
        assert!(cache.get("prompts/list", None, &auth, 1.0).is_some());
    }

    fn read(uri: &str) -> Value {
        json!({"uri": uri})
    }

    #[test]
    fn the_least_recently_used_entry_goes_first() {
        let cache = ResponseCache::new(CacheBounds { max_entries: 2, max_bytes: 1 << 20 });
        let auth = auth_context(None);
        let result = json!({"contents": [], "ttlMs": 1000, "cacheScope": "public"});
        cache.put("resources/read", Some(&read("a")), &auth, &result, 0.0);
        cache.put("resources/read", Some(&read("b")), &auth, &result, 0.0);
        assert!(cache.get("resources/read", Some(&read("a")), &auth, 1.0).is_some());
        cache.put("resources/read", Some(&read("c")), &auth, &result, 0.0);
        assert!(cache.get("resources/read", Some(&read("b")), &auth, 1.0).is_none(), "b was the least recently used");
        assert!(cache.get("resources/read", Some(&read("a")), &auth, 1.0).is_some());
        assert!(cache.get("resources/read", Some(&read("c")), &auth, 1.0).is_some());
        assert_eq!(cache.usage().0, 2);
    }

    #[test]
    fn bytes_are_bounded_too() {
        let cache = ResponseCache::new(CacheBounds { max_entries: 1000, max_bytes: 10_000 });
        let auth = auth_context(None);
        let big = json!({"contents": [{"uri": "x", "text": "y".repeat(4_000)}], "ttlMs": 1000, "cacheScope": "public"});
        for uri in ["a", "b", "c", "d"] {
            cache.put("resources/read", Some(&read(uri)), &auth, &big, 0.0);
        }
        let (entries, bytes) = cache.usage();
        assert!(entries == 2 && bytes <= 10_000, "{entries} entries, {bytes} bytes");
        let huge = json!({"contents": [{"uri": "x", "text": "y".repeat(20_000)}], "ttlMs": 1000, "cacheScope": "public"});
        cache.put("resources/read", Some(&read("e")), &auth, &huge, 0.0);
        assert!(cache.get("resources/read", Some(&read("e")), &auth, 1.0).is_none(), "larger than the whole cache");
        assert_eq!(cache.usage().0, 2, "and nothing was evicted for it");
        cache.invalidate("notifications/resources/updated");
        assert_eq!(cache.usage(), (0, 0));
    }
}
