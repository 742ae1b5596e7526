//! Paginated lists (`tools/list`, `resources/list`, `resources/templates/list`,
//! `prompts/list`, `skills/list`): one page or every page, and what listing
//! tools teaches the client (output schemas to validate against, the
//! arguments to mirror into headers, which tools may be called twice).

use super::era::Era;
pub use super::list_kind::{ListKind, PROMPTS, RESOURCES, SKILLS, TEMPLATES, TOOLS};
use super::options::RequestOptions;
use super::paging::collect_pages;
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::results;
use serde_json::{json, Value};

impl ClientState {
    /// Fetches one page and checks it; learns from a page of tools.
    pub(crate) async fn list_page(&self, kind: ListKind, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Error> {
        let mut page = self.request_reply(kind.method, params, options).await?;
        results::check_items_have(page.value(), kind.method, kind.items, kind.key).map_err(Error::Protocol)?;
        if kind == TOOLS {
            results::check_tools(page.value()).map_err(Error::Protocol)?;
            if self.era == Era::Modern {
                drop_invalid_header_tools(page.value_mut());
            }
            self.learn_tools(page.value());
        }
        Ok(page)
    }

    /// Every item across all pages.
    pub(crate) async fn list_all(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Value>, Error> {
        collect_pages(kind.items, |cursor| async move {
            self.list_page(kind, cursor.map(|c| json!({ "cursor": c })), options).await.map(Reply::into_value)
        })
        .await
    }

    /// Keeps what later calls of the listed tools need.
    fn learn_tools(&self, page: &Value) {
        let tools = page.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let mut schemas = self.output_schemas.borrow_mut();
        let mut inputs = self.tool_schemas.borrow_mut();
        let mut idempotent = self.idempotent_tools.borrow_mut();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else { continue };
            if tool.get("annotations").and_then(|a| a.get("idempotentHint")) == Some(&Value::Bool(true)) {
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
            match tool.get("inputSchema").filter(|input| self.era == Era::Modern && crate::protocol::modern::has_param_headers(input)) {
                Some(input) => inputs.insert(name.to_owned(), input.clone()),
                None => inputs.remove(name),
            };
        }
    }
}

/// 2026-07-28: a tool whose `x-mcp-header` annotations are invalid must not
/// be offered, since its calls could not carry the headers the server checks.
fn drop_invalid_header_tools(page: &mut Value) {
    if let Some(Value::Array(tools)) = page.get_mut("tools") {
        tools.retain(|tool| crate::protocol::modern::tool_header_problem(tool).is_none());
    }
}
