//! Lists walked lazily: the items of a paginated list as a [`Stream`], each
//! page asked for once the consumer has taken the items of the one before.
//! A consumer that stops early (the first match, a page of a UI) sends no
//! more requests, and only one page is held at a time.

use super::connection::Client;
use super::features::typed;
use super::lists::{page_items, ListKind, PagedListing, PROMPTS, RESOURCES, TEMPLATES, TOOLS};
use super::options::RequestOptions;
use super::paging::SeenCursors;
use crate::error::Error;
use crate::protocol::types::{Prompt, Resource, ResourceTemplate, Tool};
use futures::stream::{self, LocalBoxStream, StreamExt};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::VecDeque;

/// Where a walk stands between pages.
struct Walk {
    client: Client,
    kind: ListKind,
    options: RequestOptions,
    /// What the last page gave and the consumer has not taken yet: its
    /// items, then an error that ends the walk, if any.
    items: VecDeque<Result<Value, Error>>,
    /// The cursor of the page to ask for next (`Some(None)`: the first);
    /// `None` once the last page is in.
    next: Option<Option<String>>,
    seen: SeenCursors,
    /// The listing the walk makes, from its first page on.
    listing: Option<PagedListing>,
}

impl Walk {
    /// Asks for the page at `cursor` and queues its items and, when its next
    /// cursor is one to stop at, the error after them; or the page's error.
    async fn page(&mut self, cursor: Option<String>) {
        let listing = self.listing.get_or_insert_with(|| self.client.state.begin_paged_listing(self.kind));
        let page = match self.client.state.list_paged(self.kind, cursor, &self.options, listing).await {
            Ok(reply) => reply.into_value(),
            Err(error) => return self.items.push_back(Err(error)),
        };
        let (next, stop) = match page.get("nextCursor") {
            None | Some(Value::Null) => (None, None),
            Some(Value::String(next)) if self.seen.first_time(next) && !self.seen.too_many() => (Some(Some(next.clone())), None),
            Some(next) => {
                let next = next.as_str().unwrap_or_default();
                (None, Some(Error::protocol(format!("{}: the server repeated cursor {next:?} or paged too long", self.kind.method))))
            }
        };
        self.next = next;
        match page_items(self.kind, page) {
            Ok(items) => self.items.extend(items.into_iter().map(Ok)),
            Err(error) => self.items.push_back(Err(error)),
        }
        // This page's items are good: they go first, then the error.
        self.items.extend(stop.map(Err));
    }
}

impl Client {
    /// Every item of a list as a stream, a page at a time: the next page is
    /// asked for when the consumer has taken every item of the one before.
    /// Each page is a request with `options`. After an error the stream ends.
    /// Boxed, so that `next()` and `try_next()` need no pinning.
    ///
    /// # Errors
    /// Yields a page's error; `protocol` for a malformed page, a repeated
    /// cursor, or more than [`super::MAX_PAGES`] pages.
    ///
    /// ```no_run
    /// # async fn first_write_tool(client: &mcp_wasm::client::Client) -> Result<(), mcp_wasm::Error> {
    /// use futures::{StreamExt, TryStreamExt};
    /// use mcp_wasm::client::RequestOptions;
    ///
    /// let mut tools = client.stream_tools(RequestOptions::default());
    /// // Pages after the one that holds the match are never asked for.
    /// while let Some(tool) = tools.try_next().await? {
    ///     if tool.name.starts_with("write") {
    ///         break;
    ///     }
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn list_stream(&self, kind: ListKind, options: RequestOptions) -> LocalBoxStream<'static, Result<Value, Error>> {
        let walk = Walk {
            client: self.clone(),
            kind,
            options,
            items: VecDeque::new(),
            next: Some(None),
            seen: SeenCursors::default(),
            listing: None,
        };
        stream::unfold(Some(walk), |walk| async move {
            let mut walk = walk?;
            loop {
                if let Some(item) = walk.items.pop_front() {
                    // An error ends the walk.
                    let go_on = item.is_ok();
                    return Some((item, go_on.then_some(walk)));
                }
                let cursor = walk.next.take()?;
                walk.page(cursor).await;
            }
        })
        .boxed_local()
    }

    fn typed_stream<T: DeserializeOwned + 'static>(
        &self,
        kind: ListKind,
        options: RequestOptions,
    ) -> LocalBoxStream<'static, Result<T, Error>> {
        self.list_stream(kind, options).map(move |item| item.and_then(|item| typed(item, kind.method))).boxed_local()
    }

    /// The server's tools as a stream, a page at a time (see [`Client::list_stream`]).
    pub fn stream_tools(&self, options: RequestOptions) -> LocalBoxStream<'static, Result<Tool, Error>> {
        self.typed_stream(TOOLS, options)
    }

    /// The server's resources as a stream, a page at a time (see [`Client::list_stream`]).
    pub fn stream_resources(&self, options: RequestOptions) -> LocalBoxStream<'static, Result<Resource, Error>> {
        self.typed_stream(RESOURCES, options)
    }

    /// The server's resource templates as a stream, a page at a time (see [`Client::list_stream`]).
    pub fn stream_resource_templates(&self, options: RequestOptions) -> LocalBoxStream<'static, Result<ResourceTemplate, Error>> {
        self.typed_stream(TEMPLATES, options)
    }

    /// The server's prompts as a stream, a page at a time (see [`Client::list_stream`]).
    pub fn stream_prompts(&self, options: RequestOptions) -> LocalBoxStream<'static, Result<Prompt, Error>> {
        self.typed_stream(PROMPTS, options)
    }
}
