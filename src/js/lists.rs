//! Paginated lists (`tools/list`, `resources/list`, `resources/templates/list`,
//! `prompts/list`): one page, every page, or an async iterator over the items.

use super::client::{js, read_options, ClientState, Rejection, Reply};
use super::options::RequestOptions;
use crate::error::Error;
use crate::protocol::{params, results};
use crate::session::paging::{collect_pages, MAX_PAGES};
use js_sys::Promise;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One kind of paginated list.
#[derive(Clone, Copy, Debug)]
pub struct ListKind {
    /// The method, e.g. `tools/list`.
    pub method: &'static str,
    /// The array in each page, e.g. `tools`.
    pub items: &'static str,
    /// The string field every item must have, e.g. `name`.
    pub key: &'static str,
}

/// Tools.
pub const TOOLS: ListKind = ListKind { method: "tools/list", items: "tools", key: "name" };
/// Resources.
pub const RESOURCES: ListKind = ListKind { method: "resources/list", items: "resources", key: "uri" };
/// Resource templates.
pub const TEMPLATES: ListKind = ListKind { method: "resources/templates/list", items: "resourceTemplates", key: "uriTemplate" };
/// Prompts.
pub const PROMPTS: ListKind = ListKind { method: "prompts/list", items: "prompts", key: "name" };
/// Skills (SEP-2640).
pub const SKILLS: ListKind = ListKind { method: "skills/list", items: "skills", key: "uri" };

#[wasm_bindgen(inline_js = r#"
export function pageItems(fetchPage, field) {
  return (async function* () {
    let cursor;
    do {
      const page = await fetchPage(cursor);
      yield* page[field];
      cursor = page.nextCursor;
    } while (cursor !== undefined && cursor !== null);
  })();
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = pageItems)]
    fn page_items(fetch_page: &JsValue, field: &str) -> JsValue;
}

impl ClientState {
    /// Fetches one page and checks it; remembers tools' output schemas.
    pub async fn list_page(&self, kind: ListKind, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Rejection> {
        let mut page = self.request_reply(kind.method, params, options).await?;
        results::check_items_have(&page.value, kind.method, kind.items, kind.key).map_err(Error::Protocol)?;
        if kind.method == TOOLS.method {
            results::check_tools(&page.value).map_err(Error::Protocol)?;
            if self.era == super::connect::Era::Modern {
                drop_invalid_header_tools(page.value_mut());
            }
            self.remember_output_schemas(&page.value);
        }
        Ok(page)
    }

    fn remember_output_schemas(&self, page: &Value) {
        let tools = page.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let mut schemas = self.output_schemas.borrow_mut();
        let mut inputs = self.tool_schemas.borrow_mut();
        let mut idempotent = self.idempotent_tools.borrow_mut();
        for tool in tools {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                let hint = tool.get("annotations").and_then(|a| a.get("idempotentHint")) == Some(&Value::Bool(true));
                if hint {
                    idempotent.insert(name.to_owned());
                } else {
                    idempotent.remove(name);
                }
                match tool.get("outputSchema") {
                    Some(schema) => schemas.insert(name.to_owned(), schema.clone()),
                    None => schemas.remove(name),
                };
                // Only 2026-07-28 mirrors arguments into headers, and only those
                // annotated with `x-mcp-header`: keep just those schemas, as a
                // large tools/list would otherwise be copied whole.
                match tool
                    .get("inputSchema")
                    .filter(|input| self.era == super::connect::Era::Modern && crate::protocol::modern::has_param_headers(input))
                {
                    Some(input) => inputs.insert(name.to_owned(), input.clone()),
                    None => inputs.remove(name),
                };
            }
        }
    }

    /// Every item across all pages.
    pub async fn list_all(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Value>, Rejection> {
        collect_pages(kind.items, |cursor| async move {
            self.list_page(kind, cursor.map(|c| json!({ "cursor": c })), options).await.map(|page| page.value)
        })
        .await
    }
}

/// 2026-07-28: a tool whose `x-mcp-header` annotations are invalid must not
/// be offered, since its calls could not carry the headers the server checks.
fn drop_invalid_header_tools(page: &mut Value) {
    if let Some(Value::Array(tools)) = page.get_mut("tools") {
        tools.retain(|tool| crate::protocol::modern::tool_header_problem(tool).is_none());
    }
}

/// `listX(params?, options?)`.
pub fn list_page(state: &Rc<ClientState>, kind: ListKind, params: JsValue, options: JsValue) -> Promise {
    let state = state.clone();
    super::client::promise(Box::pin(async move {
        let params = super::convert::params_from_js(&params, "params")?;
        if let Some(p) = &params {
            params::check_paginated(p).map_err(Error::InvalidArgument)?;
        }
        let options = read_options(&options)?;
        state.list_page(kind, params, &options).await?.to_js()
    }))
}

/// `listAllX(options?)`.
pub fn list_all(state: &Rc<ClientState>, kind: ListKind, options: JsValue) -> Promise {
    let state = state.clone();
    super::client::promise(Box::pin(async move {
        let options = read_options(&options)?;
        js(&Value::Array(state.list_all(kind, &options).await?))
    }))
}

/// `iterateX(options?)`: an async generator over the items, fetching pages as
/// the consumer goes; a repeated cursor or too many pages ends it with an error.
pub fn iterate(state: &Rc<ClientState>, kind: ListKind, options: JsValue) -> Result<JsValue, JsValue> {
    let options = Rc::new(read_options(&options).map_err(|Rejection(v)| v)?);
    let seen: Rc<RefCell<HashSet<String>>> = Rc::default();
    let state = state.clone();
    let fetch_page = Closure::<dyn FnMut(JsValue) -> Promise>::new(move |cursor: JsValue| {
        let (state, options, seen) = (state.clone(), options.clone(), seen.clone());
        super::client::promise(Box::pin(async move {
            let cursor = cursor.as_string();
            if let Some(c) = &cursor {
                let mut seen = seen.borrow_mut();
                if !seen.insert(c.clone()) || seen.len() > MAX_PAGES {
                    return Err(Error::Protocol(format!("{}: the server repeated cursor {c:?} or paged too long", kind.method)).into());
                }
            }
            state.list_page(kind, cursor.map(|c| json!({ "cursor": c })), &options).await?.to_js()
        }))
    });
    Ok(page_items(&fetch_page.into_js_value(), kind.items))
}
