//! Paginated lists (`tools/list`, `resources/list`, `resources/templates/list`,
//! `prompts/list`, `skills/list`): one page or every page, and what listing
//! tools teaches the client (output schemas to validate against, the
//! arguments to mirror into headers, which tools may be called twice).

use super::era::Era;
pub use super::list_kind::{ListKind, PROMPTS, RESOURCES, SKILLS, TEMPLATES, TOOLS};
use super::options::RequestOptions;
use super::paging::{collect_pages, MAX_LIST_MESSAGES};
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::capabilities::declares;
use crate::protocol::jsonrpc::Params;
use crate::protocol::task_support::{TaskSupport, TOOL_CALL_TASKS};
use crate::protocol::{list_text, results};
use crate::session::ConsentTime;
use serde_json::{json, Map, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

impl ClientState {
    /// Fetches one page and checks it; learns from a page of tools, and
    /// forgets the tools a first page without a next one does not list.
    pub(crate) async fn list_page(&self, kind: ListKind, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Error> {
        // A page asked for by its cursor is part of a listing; only a first page may be the whole.
        let whole = params.as_ref().and_then(|p| p.get("cursor")).is_none();
        let listed = Listed::new(if whole { self.begin_tool_listing(kind) } else { None }, self.tool_upsets.get());
        let (page, cursor) = self.list_page_and_cursor(kind, params, options, &listed).await?;
        if whole && cursor.is_none() {
            self.forget_tools_but(std::slice::from_ref(&page), &listed, listed.listing);
        }
        Ok(page)
    }

    /// Begins a listing that its caller walks a page at a time
    /// ([`ClientState::list_paged`]).
    pub(crate) fn begin_paged_listing(&self, kind: ListKind) -> PagedListing {
        // Its pages learn whatever listing begins meanwhile, as pages asked for by cursor do.
        let number = self.begin_tool_listing(kind);
        PagedListing { listed: Listed::new(None, self.tool_upsets.get()), number, pages: Cell::new(0) }
    }

    /// The page at `cursor` (`None`: the first) of `listing`, checked and
    /// learned from as [`ClientState::list_page`] does. The listing's last
    /// page makes it whole: a single page forgets the tools it does not list;
    /// over several, whose names are gone, it is whole only when nothing
    /// learned of tasks from before outlasts it.
    pub(crate) async fn list_paged(
        &self,
        kind: ListKind,
        cursor: Option<String>,
        options: &RequestOptions,
        listing: &PagedListing,
    ) -> Result<Reply, Error> {
        let listed = &listing.listed;
        let (page, next) = self.list_page_and_cursor(kind, cursor.map(|c| json!({ "cursor": c })), options, listed).await?;
        listing.pages.set(listing.pages.get() + 1);
        if next.is_some() {
            return Ok(page);
        }
        if listing.number != Some(self.tool_listings.get()) {
            return Ok(page);
        }
        if listing.pages.get() == 1 {
            self.forget_tools_but(std::slice::from_ref(&page), listed, listing.number);
        } else if self.task_tools.borrow().len() <= listed.tasks.get() {
            self.note_whole_listing(listed);
        }
        Ok(page)
    }

    /// [`ClientState::list_page`], with the page's `nextCursor`; what it
    /// learns of the tools is counted in `listed`.
    async fn list_page_and_cursor(
        &self,
        kind: ListKind,
        params: Option<Value>,
        options: &RequestOptions,
        listed: &Listed,
    ) -> Result<(Reply, Option<String>), Error> {
        let mut page = self.request_reply(kind.method, params.map(Params::Parsed), options).await?;
        if kind == TOOLS {
            self.charge_learning(page.bytes());
        }
        // The modern era may drop tools from the page, which needs the tree.
        let from_text = page.unparsed_text().filter(|_| kind != TOOLS || self.era != Era::Modern);
        // What the tools declare of tasks, read in a pass before the items are: in page order.
        let declared = match from_text {
            Some(text) if kind == TOOLS => list_text::declared_task_support(text),
            _ => Some(Vec::new()),
        };
        let checked =
            from_text.filter(|_| declared.is_some()).and_then(|text| list_text::list_items(text, kind.items, kind.key)).and_then(|read| {
                if kind == TOOLS {
                    // Every tool checked and every schema parsed before any is learned: one
                    // that fails sends the page to the value checks, which refuse it. Read
                    // twice rather than kept between: a page of 2,000 tools would hold their
                    // names and schemas in wasm memory, which never shrinks, beside its text.
                    let parses =
                        |tool: &list_text::ToolFacts<'_>| tool.output_schema.is_none_or(|s| crate::protocol::json::parse(s).is_ok());
                    let mut idempotent = 0;
                    for item in &read.items {
                        let tool = list_text::tool_fact(item).filter(parses)?;
                        idempotent += usize::from(tool.idempotent);
                    }
                    // The first listing sizes the map once, rather than through its doublings.
                    if self.idempotent_tools.borrow().is_empty() {
                        *self.idempotent_tools.borrow_mut() = serde_json::Map::with_capacity(idempotent);
                    }
                    let mut declared = declared.iter().flatten().peekable();
                    for (at, tool) in read.items.iter().filter_map(list_text::tool_fact).enumerate() {
                        let output_schema = tool.output_schema.and_then(|s| crate::protocol::json::parse(s).ok());
                        let task_support = match declared.next_if(|(place, _)| *place == at) {
                            Some((_, support)) => *support,
                            None => TaskSupport::Forbidden,
                        };
                        let facts = LearnedTool { idempotent: tool.idempotent, task_support, output_schema, header_schema: None };
                        self.learn_tool(tool.name, facts, listed);
                    }
                }
                Some(read.next_cursor)
            });
        if let Some(cursor) = checked {
            return Ok((page, cursor));
        }
        page.read_within_limit()?;
        results::check_items_have(page.value(), kind.method, kind.items, kind.key).map_err(Error::Protocol)?;
        if kind == TOOLS {
            results::check_tools(page.value()).map_err(Error::Protocol)?;
            if self.era == Era::Modern {
                drop_invalid_header_tools(page.value_mut());
            }
            self.learn_tools(page.value(), listed);
        }
        let cursor = page.value().get("nextCursor").and_then(Value::as_str).map(str::to_owned);
        Ok((page, cursor))
    }

    /// Every page, each checked (and a large one kept as its text), following
    /// `nextCursor`, until the pages come to more than [`MAX_LIST_MESSAGES`]
    /// times `maxMessageBytes`. A walk of the tools forgets what was learned of tools it
    /// did not meet: a server that renames its tools at every change would
    /// otherwise grow what the client keeps for as long as it runs.
    /// `maxTotalTimeout` caps the whole walk: a server that pages slowly would
    /// otherwise hold it for up to a timeout a page.
    pub(crate) async fn list_all_pages(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Reply>, Error> {
        match options.max_total_timeout_ms {
            Some(ms) => self.within(ms, None, ConsentTime::Counts, self.walk_pages(kind, options)).await?,
            None => self.walk_pages(kind, options).await,
        }
    }

    async fn walk_pages(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Reply>, Error> {
        let listed = Listed::new(self.begin_tool_listing(kind), self.tool_upsets.get());
        let max_bytes = self.settings.limits.max_message_bytes.saturating_mul(MAX_LIST_MESSAGES);
        let pages = collect_pages(max_bytes, Reply::bytes, |cursor| {
            self.list_page_and_cursor(kind, cursor.map(|c| json!({ "cursor": c })), options, &listed)
        })
        .await?;
        self.forget_tools_but(&pages, &listed, listed.listing);
        Ok(pages)
    }

    /// For a listing of the tools, its number among those begun.
    fn begin_tool_listing(&self, kind: ListKind) -> Option<u64> {
        (kind == TOOLS).then(|| {
            self.watch_tool_changes();
            self.tool_listings.set(self.tool_listings.get() + 1);
            self.tool_listings.get()
        })
    }

    /// Forgets the output schemas, header schemas, idempotent hints and task
    /// support of tools that a whole listing, `pages`, did not list; not when a newer
    /// listing began after this one (number `listing`), whose tools this one may not have seen. Only
    /// when the learned outnumber what `listed` counted are the pages' names
    /// read again: a listing of 2,000 tools would otherwise hold their names
    /// a second time in wasm memory, which never shrinks.
    fn forget_tools_but(&self, pages: &[Reply], listed: &Listed, listing: Option<u64>) {
        if listing != Some(self.tool_listings.get()) {
            return;
        }
        self.learned_bytes.set(pages.iter().map(Reply::bytes).sum());
        self.note_whole_listing(listed);
        let stale = self.output_schemas.borrow().len() > listed.schemas.get()
            || self.idempotent_tools.borrow().len() > listed.idempotent.get()
            || self.tool_schemas.borrow().len() > listed.headers.get()
            || self.task_tools.borrow().len() > listed.tasks.get();
        if !stale {
            return;
        }
        let mut names = Map::new();
        for page in pages {
            tool_names(page, &mut names);
        }
        for learned in self.learned_maps() {
            keep_listed(learned, &names);
        }
    }

    /// Counts a page of tools about to be learned from. Only a whole listing
    /// forgets the tools it did not list, so a caller that asks page by page
    /// (`listTools(cursor)`, `iterateTools`) of a server that renames its
    /// tools at every page would grow the learned maps for as long as it
    /// asks. Past twice what one walk may hold, everything learned before the
    /// page is forgotten: the tools it drops go unvalidated, and are called
    /// once only after a broken stream, until a listing names them again.
    fn charge_learning(&self, bytes: usize) {
        let budget = self.settings.limits.max_message_bytes.saturating_mul(2 * MAX_LIST_MESSAGES);
        let mut learned = self.learned_bytes.get().saturating_add(bytes);
        if learned > budget {
            for map in self.learned_maps() {
                map.borrow_mut().clear();
            }
            self.tools_listed.set(false);
            self.tool_upsets.set(self.tool_upsets.get() + 1);
            learned = bytes;
        }
        self.learned_bytes.set(learned);
    }

    /// Every item across all pages.
    pub(crate) async fn list_all(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Value>, Error> {
        let mut items = Vec::new();
        for page in self.list_all_pages(kind, options).await? {
            items.extend(page_items(kind, page.into_value())?);
        }
        Ok(items)
    }

    /// Keeps what later calls of the listed tools need.
    fn learn_tools(&self, page: &Value, listed: &Listed) {
        let tools = page.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else { continue };
            let idempotent = tool.get("annotations").and_then(|a| a.get("idempotentHint")) == Some(&Value::Bool(true));
            // Only 2026-07-28 mirrors arguments into headers, and only those
            // annotated with `x-mcp-header`: keep just those schemas, as a
            // large tools/list would otherwise be copied whole.
            let input =
                tool.get("inputSchema").filter(|input| self.era == Era::Modern && crate::protocol::modern::has_param_headers(input));
            let facts = LearnedTool {
                idempotent,
                task_support: TaskSupport::of_tool(tool),
                output_schema: tool.get("outputSchema").cloned(),
                header_schema: input.cloned(),
            };
            self.learn_tool(name.to_owned(), facts, listed);
        }
    }

    /// Records that a whole listing of the tools, `listed`, ended, unless the
    /// learned maps were cleared or the server said its tools changed since it began.
    fn note_whole_listing(&self, listed: &Listed) {
        if listed.upsets == self.tool_upsets.get() {
            self.tools_listed.set(true);
        }
    }

    /// From the first listing of the tools on, listens for the server's word
    /// that they changed, after which a tool the last listing did not name
    /// may be a new one: unknown, not forbidden. A listing under way then
    /// may have missed it, and is not whole either.
    fn watch_tool_changes(&self) {
        if self.watching_tool_changes.replace(true) {
            return;
        }
        let me = self.me.clone();
        self.events.listen(Rc::new(move |event| {
            if let Some(state) =
                me.upgrade().filter(|_| event.notification().is_some_and(|n| n.method == "notifications/tools/list_changed"))
            {
                state.tools_listed.set(false);
                state.tool_upsets.set(state.tool_upsets.get() + 1);
            }
        }));
    }

    /// How tool `name` may be called, as the tools' listings said: the
    /// `required` and `optional` tools any page declared, and `Forbidden` for
    /// a tool that the last whole listing did not declare a task tool of
    /// (unless the server said since that its tools changed). `None` when
    /// nothing tells, in the 2026-07-28 era (which has no `taskSupport`), and
    /// when the server does not declare `tasks.requests.tools.call`, without
    /// which no tool runs as a task.
    pub(crate) fn task_support(&self, name: &str) -> Option<TaskSupport> {
        if self.era == Era::Modern || !declares(&self.identity.borrow().capabilities, &TOOL_CALL_TASKS) {
            return None;
        }
        match self.task_tools.borrow().get(name) {
            Some(Value::Bool(true)) => Some(TaskSupport::Required),
            Some(_) => Some(TaskSupport::Optional),
            None => self.tools_listed.get().then_some(TaskSupport::Forbidden),
        }
    }

    /// What the client learns of listed tools, each map by tool name.
    fn learned_maps(&self) -> [&RefCell<Map<String, Value>>; 4] {
        [&self.output_schemas, &self.idempotent_tools, &*self.tool_schemas, &self.task_tools]
    }

    /// Keeps what later calls of tool `name` need, unless a whole listing
    /// began after the one `listed` counts for: its facts are newer.
    fn learn_tool(&self, name: String, facts: LearnedTool, listed: &Listed) {
        if listed.listing.is_some_and(|listing| listing != self.tool_listings.get()) {
            return;
        }
        let LearnedTool { idempotent, task_support, output_schema, header_schema } = facts;
        let task = match task_support {
            TaskSupport::Required => Some(true),
            TaskSupport::Optional => Some(false),
            TaskSupport::Forbidden => None,
        };
        let count = |counter: &Cell<usize>, learned: bool| counter.set(counter.get() + usize::from(learned));
        count(&listed.idempotent, idempotent);
        count(&listed.headers, header_schema.is_some());
        count(&listed.schemas, output_schema.is_some());
        count(&listed.tasks, task.is_some());
        if idempotent {
            self.idempotent_tools.borrow_mut().insert(name.clone(), Value::Bool(true));
        } else {
            self.idempotent_tools.borrow_mut().remove(&name);
        }
        match task {
            Some(required) => self.task_tools.borrow_mut().insert(name.clone(), Value::Bool(required)),
            None => self.task_tools.borrow_mut().remove(&name),
        };
        let mut inputs = self.tool_schemas.borrow_mut();
        match header_schema {
            Some(input) => inputs.insert(name.clone(), input),
            None => inputs.remove(&name),
        };
        let mut schemas = self.output_schemas.borrow_mut();
        match output_schema {
            Some(schema) => schemas.insert(name, schema),
            None => schemas.remove(&name),
        };
    }
}

/// The items of a page of `kind`, taken out of it.
///
/// # Errors
/// `protocol` for a page without its items array.
pub(crate) fn page_items(kind: ListKind, mut page: Value) -> Result<Vec<Value>, Error> {
    match page.get_mut(kind.items).map(Value::take) {
        Some(Value::Array(items)) => Ok(items),
        _ => Err(Error::protocol(format!("{}: a page has no {} array", kind.method, kind.items))),
    }
}

/// Keeps the members of `learned` that `listed` names. Moved into a new map
/// rather than `retain`ed: `retain` brought hash table code that the first
/// call's module then shared (69 B of it).
fn keep_listed(learned: &RefCell<Map<String, Value>>, listed: &Map<String, Value>) {
    let mut learned = learned.borrow_mut();
    let mut kept = Map::new();
    for (name, value) in std::mem::take(&mut *learned) {
        if listed.contains_key(&name) {
            kept.insert(name, value);
        }
    }
    *learned = kept;
}

/// How many tools one listing learned an output schema, an idempotent hint,
/// a header schema and a task support of. A tool named twice counts twice, so at most as
/// many old entries as the listing repeats names outlast it.
#[derive(Default)]
struct Listed {
    /// For a whole listing of the tools, its number among those begun.
    listing: Option<u64>,
    schemas: Cell<usize>,
    idempotent: Cell<usize>,
    headers: Cell<usize>,
    tasks: Cell<usize>,
    /// `ClientState::tool_upsets` when the listing began.
    upsets: u64,
}

/// A listing walked a page at a time by its caller (`stream_tools`,
/// `iterateTools`), from [`ClientState::begin_paged_listing`].
pub(crate) struct PagedListing {
    /// What its pages learned.
    listed: Listed,
    /// Its number among the listings of the tools begun (`None` for another list).
    number: Option<u64>,
    /// How many of its pages are in.
    pages: Cell<usize>,
}

/// What one listing says of a tool that later calls of it need.
struct LearnedTool {
    idempotent: bool,
    task_support: TaskSupport,
    output_schema: Option<Value>,
    header_schema: Option<Value>,
}

impl Listed {
    fn new(listing: Option<u64>, upsets: u64) -> Self {
        Self { listing, upsets, ..Self::default() }
    }
}

/// Adds the names of the tools on `page` to `names` (a map as the learned
/// ones are, whose code the module has already, rather than a set of its own).
fn tool_names(page: &Reply, names: &mut Map<String, Value>) {
    if let Some(read) = page.unparsed_text().and_then(|text| list_text::list_items(text, "tools", "name")) {
        for tool in read.items.iter().filter_map(list_text::tool_fact) {
            names.insert(tool.name, Value::Null);
        }
        return;
    }
    let tools = page.value().get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for name in tools.iter().filter_map(|tool| tool.get("name").and_then(Value::as_str)) {
        names.insert(name.to_owned(), Value::Null);
    }
}

/// 2026-07-28: a tool whose `x-mcp-header` annotations are invalid must not
/// be offered, since its calls could not carry the headers the server checks.
fn drop_invalid_header_tools(page: &mut Value) {
    if let Some(Value::Array(tools)) = page.get_mut("tools") {
        tools.retain(|tool| crate::protocol::modern::tool_header_problem(tool).is_none());
    }
}
