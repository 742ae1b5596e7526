//! Paginated lists for JS: one page, every page, or an async iterator over
//! the items that fetches pages as the loop goes.

use super::client::{fail, promise, reply_to_js, McpClient};
use super::convert::params_from_js;
use crate::client::lists::PagedListing;
use crate::client::{ListKind, SeenCursors};
use crate::error::Error;
use js_sys::{Array, Promise, Reflect};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/glue.js")]
extern "C" {
    #[wasm_bindgen(js_name = pageItems)]
    fn page_items(fetch_page: &JsValue, field: &str) -> JsValue;
}

impl McpClient {
    /// `listX(params?, options?)`.
    pub(super) fn list_page(&self, kind: ListKind, params: JsValue, options: JsValue) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let params = params_from_js(&params, "params").map_err(fail)?;
            let reply = client.list_page_reply(kind, params, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
        }))
    }

    /// `listAllX(options?)`: each page crosses as JSON once (a large page as
    /// the server's own text), and JS joins their items.
    pub(super) fn list_all(&self, kind: ListKind, options: JsValue) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let pages = client.list_all_pages(kind, &call.options).await.map_err(|e| call.reject(e))?;
            let items = Array::new();
            for page in &pages {
                let page = reply_to_js(page).map_err(fail)?;
                items.push(&Reflect::get(&page, &JsValue::from_str(kind.items)).unwrap_or_else(|_| Array::new().into()));
            }
            Ok(items.flat(1).into())
        }))
    }

    /// `iterateX(options?)`: an async generator over the items, fetching pages
    /// as the consumer goes; a repeated cursor or too many pages ends it with an error.
    pub(super) fn iterate(&self, kind: ListKind, options: JsValue) -> Result<JsValue, JsValue> {
        let call = Rc::new(self.call(&options)?);
        let seen: Rc<RefCell<SeenCursors>> = Rc::default();
        // The listing this walk makes, begun by its first page.
        let listing: Rc<RefCell<Option<Rc<PagedListing>>>> = Rc::default();
        let client = self.client.clone();
        let fetch_page = Closure::<dyn FnMut(JsValue) -> Promise>::new(move |cursor: JsValue| {
            let (client, call, seen) = (client.clone(), call.clone(), seen.clone());
            let listing = listing.borrow_mut().get_or_insert_with(|| Rc::new(client.state.begin_paged_listing(kind))).clone();
            promise(Box::pin(async move {
                let cursor = cursor.as_string();
                if let Some(c) = &cursor {
                    let mut seen = seen.borrow_mut();
                    if !seen.first_time(c) || seen.too_many() {
                        return Err(fail(Error::protocol(format!("{}: the server repeated cursor {c:?} or paged too long", kind.method))));
                    }
                }
                let reply = client.state.list_paged(kind, cursor, &call.options, &listing).await.map_err(|e| call.reject(e))?;
                reply_to_js(&reply).map_err(fail)
            }))
        });
        Ok(page_items(&fetch_page.into_js_value(), kind.items))
    }
}
