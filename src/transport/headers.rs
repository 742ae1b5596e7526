//! The extra headers a user adds to every request of either HTTP transport
//! (Streamable HTTP and HTTP+SSE): given once, or asked of a function before
//! each request so that a token can be refreshed.

use super::fetch::js_message;
use crate::error::Error;
use js_sys::{Function, Promise};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::Headers;

/// Extra headers for every request, e.g. `Authorization`.
#[derive(Clone, Default)]
pub enum HeaderSource {
    /// No extra headers.
    #[default]
    None,
    /// A `HeadersInit` value, used as given on every request.
    Fixed(JsValue),
    /// A function returning a `HeadersInit` or a Promise of one, called before
    /// every request so that tokens can be refreshed.
    Function(Function),
}

/// Which kind of source, never the headers: they carry credentials.
impl std::fmt::Debug for HeaderSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::None => "None",
            Self::Fixed(_) => "Fixed(<redacted>)",
            Self::Function(_) => "Function",
        })
    }
}

impl HeaderSource {
    /// The headers to send now: calls the function, if that is what was given.
    pub(crate) async fn resolve(&self) -> Result<JsValue, Error> {
        match self {
            Self::None => Ok(JsValue::UNDEFINED),
            Self::Fixed(value) => Ok(value.clone()),
            Self::Function(f) => {
                let failed = |e: JsValue| Error::invalid_argument(format!("the headers function failed: {}", js_message(&e)));
                let value = f.call0(&JsValue::UNDEFINED).map_err(failed)?;
                JsFuture::from(Promise::resolve(&value)).await.map_err(failed)
            }
        }
    }

    /// A fresh `Headers` holding them (`new Headers(init)` accepts every
    /// HeadersInit form), for the transport to add its own to.
    pub(crate) async fn to_headers(&self) -> Result<Headers, Error> {
        let user = self.resolve().await?;
        let invalid = |e: JsValue| Error::invalid_argument(format!("invalid headers: {}", js_message(&e)));
        if user.is_undefined() || user.is_null() {
            Headers::new().map_err(invalid)
        } else {
            Headers::new_with_str_sequence_sequence(&user).map_err(invalid)
        }
    }
}
