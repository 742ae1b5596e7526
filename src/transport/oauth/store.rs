//! Where an authorization context keeps what outlives a page: tokens, client
//! registrations and a pending authorization, each under the authorization
//! server (issuer) it belongs to, so that nothing one issuer handed out is
//! ever shown to another.

use js_sys::{Function, Promise, Reflect};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// What the store keeps, read back from its JSON: `None` for a value of
/// another shape. Written by hand rather than derived: serde's typed readers
/// report a wrong type through text that can print a float, which brought
/// core's float printing into OAuth's code.
pub trait Stored: Sized {
    /// The value `stored` holds, if it has this shape.
    fn from_stored(stored: &Value) -> Option<Self>;
}

impl Stored for String {
    fn from_stored(stored: &Value) -> Option<Self> {
        stored.as_str().map(str::to_owned)
    }
}

/// How many authorization servers' registrations and tokens one MCP server's
/// context keeps. A server may name a new one at every 401; past this, the
/// least recently saved issuer's are forgotten, so that such a server cannot
/// fill the page's storage.
pub const MAX_ISSUERS: usize = 8;
/// What the store keeps under an issuer.
const PER_ISSUER: [&str; 2] = ["client", "tokens"];

/// The member `name`, a string.
pub fn string(stored: &Value, name: &str) -> Option<String> {
    stored.get(name)?.as_str().map(str::to_owned)
}

/// The member `name`, absent, `null` or a string: `Some(None)` when there is
/// none, `None` when it is something else.
pub fn optional_string(stored: &Value, name: &str) -> Option<Option<String>> {
    match stored.get(name) {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(text)) => Some(Some(text.clone())),
        Some(_) => None,
    }
}

/// The backing store.
pub enum Storage {
    /// A Web-Storage-shaped object (`getItem`, `setItem`, `removeItem`, sync or async).
    Js(JsValue),
    /// This context's memory only: nothing survives the page.
    Memory(RefCell<HashMap<String, String>>),
}

impl Storage {
    /// Memory only.
    pub fn memory() -> Self {
        Self::Memory(RefCell::default())
    }
}

/// The keys of one MCP server's authorization context.
#[derive(Debug)]
pub struct Store {
    storage: Rc<Storage>,
    /// `mcp-wasm:oauth:<resource>`.
    prefix: String,
}

impl Store {
    /// A store for the context of `resource`.
    pub fn new(storage: Rc<Storage>, resource: &str) -> Self {
        Self { storage, prefix: format!("mcp-wasm:oauth:{resource}") }
    }

    /// Whether it is memory only.
    pub fn is_memory(&self) -> bool {
        matches!(*self.storage, Storage::Memory(_))
    }

    /// The key of `what`, under `issuer` when it belongs to one.
    fn key(&self, issuer: Option<&str>, what: &str) -> String {
        match issuer {
            Some(issuer) => format!("{}:{issuer}:{what}", self.prefix),
            None => format!("{}:{what}", self.prefix),
        }
    }

    async fn call(storage: &JsValue, method: &str, args: &[JsValue]) -> Option<JsValue> {
        let function = Reflect::get(storage, &method.into()).ok()?.dyn_into::<Function>().ok()?;
        let returned = function.apply(storage, &args.iter().collect()).ok()?;
        JsFuture::from(Promise::resolve(&returned)).await.ok()
    }

    async fn get(&self, key: String) -> Option<String> {
        match &*self.storage {
            Storage::Js(storage) => Self::call(storage, "getItem", &[key.into()]).await?.as_string(),
            Storage::Memory(map) => map.borrow().get(&key).cloned(),
        }
    }

    async fn set(&self, key: String, value: String) {
        match &*self.storage {
            Storage::Js(storage) => {
                let _ = Self::call(storage, "setItem", &[key.into(), value.into()]).await;
            }
            Storage::Memory(map) => {
                map.borrow_mut().insert(key, value);
            }
        }
    }

    async fn remove(&self, key: String) {
        match &*self.storage {
            Storage::Js(storage) => {
                let _ = Self::call(storage, "removeItem", &[key.into()]).await;
            }
            Storage::Memory(map) => {
                map.borrow_mut().remove(&key);
            }
        }
    }

    /// Reads `what` (under `issuer`), if it is there and has the shape of a `T`.
    pub async fn load<T: Stored>(&self, issuer: Option<&str>, what: &str) -> Option<T> {
        let text = self.get(self.key(issuer, what)).await?;
        T::from_stored(&crate::protocol::json::parse(&text).ok()?)
    }

    /// Keeps `value` as `what` (under `issuer`).
    pub async fn save<T: serde::Serialize>(&self, issuer: Option<&str>, what: &str, value: &T) {
        if let Ok(text) = serde_json::to_string(value) {
            self.keep(issuer, what, text).await;
        }
    }

    // Not generic, so that each type saved does not bring a copy of the issuers' upkeep.
    async fn keep(&self, issuer: Option<&str>, what: &str, text: String) {
        if let Some(issuer) = issuer {
            self.remember(issuer).await;
        }
        self.set(self.key(issuer, what), text).await;
    }

    /// Puts `issuer` first in the list of issuers this context keeps things
    /// under (one per line: an issuer is a URL, which holds no line break),
    /// and forgets what the store keeps for those past [`MAX_ISSUERS`].
    async fn remember(&self, issuer: &str) {
        let key = self.key(None, "issuers");
        let listed = self.get(key.clone()).await.unwrap_or_default();
        if listed.split('\n').next() == Some(issuer) {
            return;
        }
        let mut kept = issuer.to_owned();
        let mut count = 1;
        for known in listed.split('\n').filter(|known| !known.is_empty() && *known != issuer) {
            if count < MAX_ISSUERS {
                count += 1;
                kept.push('\n');
                kept.push_str(known);
            } else {
                for what in PER_ISSUER {
                    self.forget(Some(known), what).await;
                }
            }
        }
        self.set(key, kept).await;
    }

    /// Forgets `what` (under `issuer`).
    pub async fn forget(&self, issuer: Option<&str>, what: &str) {
        self.remove(self.key(issuer, what)).await;
    }
}
