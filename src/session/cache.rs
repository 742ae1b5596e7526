//! The optional response cache of the 2026-07-28 revision: list and read
//! results carry `ttlMs` and `cacheScope`. A `public` entry serves any caller;
//! a `private` one only the same authorization context (a hash of the
//! `Authorization` header in use), so a different token never sees it.
//! Change notifications drop what they make stale.

use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

/// Methods whose results may be cached.
pub const CACHEABLE: [&str; 5] = ["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];

struct Entry {
    value: Value,
    expires_at: f64,
}

/// Cached results by method, params and, for private entries, auth context.
#[derive(Default)]
pub struct ResponseCache {
    entries: RefCell<HashMap<String, Entry>>,
}

impl std::fmt::Debug for ResponseCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseCache").field("entries", &self.entries.borrow().len()).finish()
    }
}

fn key(method: &str, params: Option<&Value>, auth: Option<&str>) -> String {
    let params = params.map(Value::to_string).unwrap_or_default();
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
    /// A fresh cached result for the request, if any.
    pub fn get(&self, method: &str, params: Option<&Value>, auth: &str, now: f64) -> Option<Value> {
        let mut entries = self.entries.borrow_mut();
        for key in [key(method, params, None), key(method, params, Some(auth))] {
            match entries.get(&key) {
                Some(entry) if entry.expires_at > now => return Some(entry.value.clone()),
                Some(_) => {
                    entries.remove(&key);
                }
                None => {}
            }
        }
        None
    }

    /// Keeps a result for its `ttlMs`, under its `cacheScope`.
    pub fn put(&self, method: &str, params: Option<&Value>, auth: &str, result: &Value, now: f64) {
        let ttl = result.get("ttlMs").and_then(Value::as_f64).unwrap_or(0.0);
        if ttl <= 0.0 || !CACHEABLE.contains(&method) {
            return;
        }
        let public = result.get("cacheScope").and_then(Value::as_str) == Some("public");
        let key = key(method, params, (!public).then_some(auth));
        self.entries.borrow_mut().insert(key, Entry { value: result.clone(), expires_at: now + ttl });
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
        self.entries.borrow_mut().retain(|key, _| !stale.iter().any(|method| key.starts_with(&format!("{method}\n"))));
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
}
