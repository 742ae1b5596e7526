//! The server features: tools, resources, prompts, completion, skills and
//! tasks. Each call has a typed form, and a JSON form (`*_reply`) that keeps
//! the result as the server sent it, for bindings that hand it on.

use super::connection::Client;
use super::lists::{ListKind, PROMPTS, RESOURCES, SKILLS, TEMPLATES, TOOLS};
#[cfg(feature = "modern")]
use super::options::Era;
use super::options::RequestOptions;
use super::skill_checker::SkillChecker;
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::jsonrpc::Params;
use crate::protocol::pick::offset_in;
#[cfg(feature = "validator")]
use crate::protocol::schema;
use crate::protocol::schema::{Limits, SchemaError};
use crate::protocol::types::{
    CallToolParams, CallToolResult, CompleteResult, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Skill, Tool,
};
use crate::protocol::{params, results, skills};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};
use std::ops::Range;
use std::rc::Rc;

/// A skill loaded with [`Client::read_skill`], checked against its listing.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSkill {
    /// The skill as listed.
    pub skill: Value,
    /// The whole `SKILL.md`.
    pub text: String,
    /// Its frontmatter, read from the file.
    pub frontmatter: Map<String, Value>,
    /// What follows the frontmatter.
    pub body: String,
}

/// A `structuredContent` to check: parsed, or the server's text of it.
enum Instance<'a> {
    Value(&'a Value),
    Text(&'a str),
}

/// Reads a result into its typed form.
pub(super) fn typed<T: DeserializeOwned>(value: Value, what: &str) -> Result<T, Error> {
    serde_json::from_value(value)
        .map_err(|e| Error::protocol(crate::error::cold_format!("the {what} result does not have the expected shape: {e}")))
}

pub(super) fn to_params<T: serde::Serialize>(params: &T) -> Result<Value, Error> {
    serde_json::to_value(params).map_err(|e| Error::invalid_argument(e.to_string()))
}

fn cursor_params(cursor: Option<&str>) -> Option<Value> {
    cursor.map(|c| json!({ "cursor": c }))
}

/// What is left to check of a `tools/call` result once its shape passed:
/// its `structuredContent` against the tool's `outputSchema`. From
/// [`Client::call_tool_reply_deferring_output`], for
/// [`Client::check_tool_output`].
#[derive(Debug)]
pub struct OutputCheck {
    tool: String,
    schema: Value,
    /// Where `structuredContent` is in the reply's text, for a result kept as text.
    at: Option<Range<usize>>,
    /// The length of `structuredContent` in a message kept outside wasm, whose text lacks it.
    structured_bytes: Option<usize>,
    limits: Limits,
}

impl OutputCheck {
    /// The tool's `outputSchema`, as last listed.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The work the connection allows the check (`limits.validationSteps` and
    /// the allowance per value of the instance).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The length of `structuredContent`'s text, when the result was kept as
    /// text or outside wasm.
    pub fn text_len(&self) -> Option<usize> {
        self.at.as_ref().map(ExactSizeIterator::len).or(self.structured_bytes)
    }
}

impl ClientState {
    /// Sends `tools/call` as it is and checks its result ([`ClientState::check_call_tool`]).
    pub(crate) async fn call_tool_plainly(&self, name: &str, params: Params, options: &RequestOptions) -> Result<Reply, Error> {
        let reply = self.request_reply("tools/call", Some(params), options).await?;
        self.check_call_tool(name, &reply).await?;
        Ok(reply)
    }

    /// Checks a `tools/call` result's shape, then its `structuredContent`
    /// against the tool's listed `outputSchema`, with the validator from the
    /// options, else the built-in one. A large result still in its text is
    /// read once, without building its tree, and its `structuredContent`
    /// goes to the validator as text.
    pub(crate) async fn check_call_tool(&self, name: &str, reply: &Reply) -> Result<(), Error> {
        match self.output_check(name, reply)? {
            Some(check) => self.check_output(reply, &check).await,
            None => Ok(()),
        }
    }

    /// Checks a `tools/call` result's shape, and says whether its
    /// `structuredContent` must still be checked.
    fn output_check(&self, name: &str, reply: &Reply) -> Result<Option<OutputCheck>, Error> {
        let (failed, structured, at) = match reply.unparsed_text().and_then(|text| Some((text, results::check_call_tool_text(text)?))) {
            Some((text, shape)) => {
                let shape = shape.map_err(Error::Protocol)?;
                (
                    shape.failed,
                    shape.structured.is_some(),
                    // A kept message's text lacks it (see `protocol::jsonrpc::elide`): the value has it.
                    shape
                        .structured
                        .filter(|_| reply.kept().is_none())
                        .and_then(|s| offset_in(text, s).map(|start| start..start + s.len())),
                )
            }
            None => {
                let value = reply.value();
                results::check_call_tool(value).map_err(Error::Protocol)?;
                (value.get("isError") == Some(&Value::Bool(true)), value.get("structuredContent").is_some(), None)
            }
        };
        let schema = self.output_schemas.borrow().get(name).cloned();
        let (Some(schema), true, false) = (schema, self.settings.validate_output, failed) else { return Ok(None) };
        if !structured {
            return Err(Error::Invalid(crate::error::cold_format!(
                "tool {name:?} declares an outputSchema but returned no structuredContent"
            )));
        }
        let structured_bytes = reply.kept().and_then(|kept| kept.structured_bytes());
        Ok(Some(OutputCheck { tool: name.to_owned(), schema, at, structured_bytes, limits: self.settings.limits.schema }))
    }

    /// Checks `structuredContent` against the tool's `outputSchema`.
    async fn check_output(&self, reply: &Reply, check: &OutputCheck) -> Result<(), Error> {
        let text = check.at.clone().and_then(|at| reply.checked_text()?.get(at));
        let whole;
        let structured = match text {
            Some(text) => Instance::Text(text),
            None => match reply.read_kept() {
                // What JS parsed the reader may refuse (a number past f64, a lone surrogate,
                // nesting past its limit): then nothing is checked, and the call fails.
                Some(read) => {
                    let cannot = |e: Error| match e {
                        Error::Protocol(e) => Error::protocol(crate::error::cold_format!(
                            "the result of tool {:?} cannot be read to check its outputSchema: {e}",
                            check.tool
                        )),
                        past_a_bound => past_a_bound,
                    };
                    whole = read.map_err(cannot)?;
                    Instance::Value(whole.get("structuredContent").unwrap_or(&Value::Null))
                }
                None => Instance::Value(reply.value().get("structuredContent").unwrap_or(&Value::Null)),
            },
        };
        let (name, schema, limits) = (&check.tool, &check.schema, &self.settings.limits.schema);
        let checked = match (&self.settings.validator, structured) {
            (Some(validator), Instance::Value(value)) => validator.validate(schema, value, limits).await?,
            (Some(validator), Instance::Text(text)) => validator.validate_text(schema, text, limits).await?,
            (None, Instance::Value(value)) => self.builtin_check(schema, value),
            (None, Instance::Text(text)) => self.builtin_check_text(schema, text)?,
        };
        checked.map_err(|e| match e {
            SchemaError::Mismatch(e) => {
                Error::Invalid(crate::error::cold_format!("the structuredContent of tool {name:?} does not match its outputSchema at {e}"))
            }
            SchemaError::TooCostly(e) => Error::LimitExceeded {
                limit: "validationSteps",
                message: crate::error::cold_format!(
                    "checking the structuredContent of tool {name:?} against its outputSchema stopped at {e}"
                ),
            },
        })
    }

    #[cfg(feature = "validator")]
    fn builtin_check(&self, schema: &Value, instance: &Value) -> Result<(), SchemaError> {
        schema::validate_with(schema, instance, &self.patterns, &self.settings.limits.schema)
    }

    /// Without a validator, `structuredContent` is passed on unchecked.
    #[cfg(not(feature = "validator"))]
    fn builtin_check(&self, _: &Value, _: &Value) -> Result<(), SchemaError> {
        Ok(())
    }

    /// [`ClientState::builtin_check`] on the server's text of the instance.
    #[cfg(feature = "validator")]
    fn builtin_check_text(&self, schema: &Value, text: &str) -> Result<Result<(), SchemaError>, Error> {
        schema::validate_text_with(schema, text, &self.patterns, &self.settings.limits.schema)
            .map_err(|e| Error::unread("structuredContent", &e))
    }

    /// Without a validator, the text is not even parsed.
    #[cfg(not(feature = "validator"))]
    #[allow(clippy::unnecessary_wraps)]
    fn builtin_check_text(&self, _: &Value, _: &str) -> Result<Result<(), SchemaError>, Error> {
        Ok(Ok(()))
    }

    /// Adds `uri` to the sorted subscriptions, or removes it; whether that changed them.
    fn change_subscription(&self, subscribe: bool, uri: &str) -> bool {
        let mut subscriptions = self.subscriptions.borrow_mut();
        match (subscribe, subscriptions.binary_search_by(|held| held.as_str().cmp(uri))) {
            (true, Err(at)) => {
                subscriptions.insert(at, uri.to_owned());
                true
            }
            (false, Ok(at)) => {
                subscriptions.remove(at);
                true
            }
            _ => false,
        }
    }

    async fn uri_request(&self, method: &'static str, uri: &str, options: &RequestOptions) -> Result<(), Error> {
        #[cfg(feature = "modern")]
        if self.era == Era::Modern {
            // 2026-07-28: subscriptions ride on the subscriptions/listen stream.
            crate::protocol::capabilities::check_server_supports(&self.identity.borrow().capabilities, method)
                .map_err(Error::Unsupported)?;
            let subscribe = method == "resources/subscribe";
            let changed = self.change_subscription(subscribe, uri);
            self.note_told();
            let timeout = options.timeout_ms.unwrap_or(self.context.default_timeout_ms);
            // A subscription already asked for and not yet acknowledged: this call has its outcome.
            if let Some(joined) = (subscribe && !changed).then(|| self.listening.join_grant(uri)).flatten() {
                return self.joined(joined, timeout).await;
            }
            if let (true, Some(acknowledgement)) = (changed, changed.then(|| self.restart_listen()).flatten()) {
                let judged_here = subscribe.then(|| self.listening.await_grant(uri));
                let mut acknowledged = self.acknowledged(acknowledgement, timeout).await;
                // The acknowledgement carries what the server granted, which may be less than asked;
                // not of `uri` when a call meanwhile took it out of what the stream asks for.
                let asked = || self.subscriptions.borrow().binary_search_by(|held| held.as_str().cmp(uri)).is_ok();
                if acknowledged.is_ok() && subscribe && asked() && !self.listening.granted(uri) {
                    acknowledged = Err(super::listen::ungranted(uri));
                }
                // A change the server never acknowledged did not happen: the set goes back, and so
                // does the stream, so that the next try asks again and the wire matches the set.
                let superseded = judged_here.as_ref().is_some_and(|judged| judged.superseded());
                if acknowledged.is_err() && !superseded && self.change_subscription(!subscribe, uri) {
                    drop(self.restart_listen());
                }
                if let Some(judged) = judged_here {
                    judged.settle(&acknowledged);
                }
                return acknowledged;
            }
            return Ok(());
        }
        // Kept for a renewed session, which has none of the ended one's subscriptions: an
        // unsubscription before it is sent (a renewal it meets must not subscribe again), a
        // subscription once the server has it; either is undone if the request fails.
        let subscribe = method == "resources/subscribe";
        let unsubscribed = !subscribe && self.change_subscription(false, uri);
        let sent = self.request_shaped(method, Some(json!({ "uri": uri })), options, |r| results::check_object(r, "subscription")).await;
        if (subscribe && sent.is_ok()) || (unsubscribed && sent.is_err()) {
            self.change_subscription(true, uri);
        }
        if sent.is_ok() {
            self.note_told();
        }
        sent.map(drop)
    }
}

impl Client {
    /// One page of a list, as the server sent it.
    ///
    /// # Errors
    /// The request's error; `protocol` for a malformed page.
    pub async fn list_page_reply(&self, kind: ListKind, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Error> {
        if let Some(p) = &params {
            params::check_paginated(p).map_err(Error::InvalidArgument)?;
        }
        self.state.list_page(kind, params, options).await
    }

    /// Every item of a list, following `nextCursor` across pages.
    ///
    /// # Errors
    /// Any page's error; `protocol` for a repeated cursor or endless paging.
    pub async fn list_all_json(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Value>, Error> {
        self.state.list_all(kind, options).await
    }

    /// Every page of a list as the server sent it, following `nextCursor`: a
    /// large page keeps its text ([`Reply::text`]), for a consumer that
    /// parses it once itself (`JSON.parse` in JS) instead of taking a tree.
    ///
    /// # Errors
    /// As [`Client::list_all_json`].
    pub async fn list_all_pages(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<Reply>, Error> {
        self.state.list_all_pages(kind, options).await
    }

    async fn list_all_typed<T: DeserializeOwned>(&self, kind: ListKind, options: &RequestOptions) -> Result<Vec<T>, Error> {
        typed(Value::Array(self.list_all_json(kind, options).await?), kind.method)
    }

    async fn page_typed<T: DeserializeOwned>(&self, kind: ListKind, cursor: Option<&str>, options: &RequestOptions) -> Result<T, Error> {
        typed(self.list_page_reply(kind, cursor_params(cursor), options).await?.into_value(), kind.method)
    }

    /// One page of the server's tools.
    ///
    /// # Errors
    /// As [`Client::list_page_reply`].
    pub async fn list_tools(&self, cursor: Option<&str>, options: &RequestOptions) -> Result<ListToolsResult, Error> {
        self.page_typed(TOOLS, cursor, options).await
    }

    /// Every tool.
    ///
    /// # Errors
    /// As [`Client::list_all_json`].
    pub async fn list_all_tools(&self, options: &RequestOptions) -> Result<Vec<Tool>, Error> {
        self.list_all_typed(TOOLS, options).await
    }

    /// How tool `name` may be called (`execution.taskSupport`, 2025-11-25),
    /// as the tools' listings said: `Required` or `Optional` as any page
    /// declared it, and `Forbidden` for a tool that the last whole listing
    /// ([`Client::list_all_tools`], a [`Client::stream_tools`] taken to its
    /// end, a [`Client::list_tools`] of one page; not one during which another
    /// began or the server said its tools changed) did not declare a task
    /// tool of, until the server says its tools
    /// changed. `None` when nothing tells, in the 2026-07-28 era (whose tools
    /// have no such member), and with a server that does not declare
    /// `tasks.requests.tools.call`. [`Client::call_tool`] and
    /// [`Client::call_tool_as_task`] follow it.
    #[must_use]
    pub fn task_support(&self, name: &str) -> Option<crate::protocol::task_support::TaskSupport> {
        self.state.task_support(name)
    }

    /// Calls a tool. A tool that fails still returns, with `is_error`; only
    /// protocol failures are errors. When the tool (as last listed) has an
    /// `outputSchema`, `structured_content` is checked against it. A tool
    /// listed with `execution.taskSupport: "required"` runs as a task
    /// ([`Client::call_tool_as_task`]), which is the only way its server
    /// runs it (with the `tasks` feature).
    ///
    /// # Errors
    /// `invalid-result` for a result that does not match the output schema;
    /// `limit-exceeded` when checking it costs too much; the request's error.
    pub async fn call_tool(&self, params: CallToolParams, options: &RequestOptions) -> Result<CallToolResult, Error> {
        typed(self.call_tool_params(to_params(&params)?.into(), options).await?.into_value(), "tools/call")
    }

    /// [`Client::call_tool`] in JSON: a `Value`, or [`Params`] that may be
    /// the text of large params (see [`Params::from_text`]), which then goes
    /// out as it is.
    ///
    /// # Errors
    /// As [`Client::call_tool`]; `invalid-argument` for params without a `name`.
    pub async fn call_tool_reply(&self, params: impl Into<Params>, options: &RequestOptions) -> Result<Reply, Error> {
        self.call_tool_params(params.into(), options).await
    }

    async fn call_tool_params(&self, params: Params, options: &RequestOptions) -> Result<Reply, Error> {
        let name = params::call_tool_name(&params).map_err(Error::InvalidArgument)?;
        // A tool listed as taskSupport `required` answers a plain call with an error: it runs as a task.
        #[cfg(feature = "tasks")]
        if self.state.task_support(&name) == Some(crate::protocol::task_support::TaskSupport::Required) {
            let options = super::tasks::TaskOptions { request: options.clone(), ..super::tasks::TaskOptions::default() };
            return Ok(Reply::from(self.state.run_task(params.into_value(), &options).await?));
        }
        self.state.call_tool_plainly(&name, params, options).await
    }

    /// [`Client::call_tool_reply`] that checks the result's shape and leaves
    /// the rest to the caller (and sends the call as asked: a tool listed as
    /// needing a task is not run as one here): when the tool has an `outputSchema`, the
    /// [`OutputCheck`] that [`Client::check_tool_output`] takes. For a binding
    /// that can tell faster on the result it converted that it surely
    /// matches, and asks the validator only when it cannot.
    ///
    /// # Errors
    /// As [`Client::call_tool_reply`], but for the `structuredContent` check.
    pub async fn call_tool_reply_deferring_output(
        &self,
        params: impl Into<Params>,
        options: &RequestOptions,
    ) -> Result<(Reply, Option<OutputCheck>), Error> {
        let params = params.into();
        let name = params::call_tool_name(&params).map_err(Error::InvalidArgument)?;
        let reply = self.state.request_reply("tools/call", Some(params), options).await?;
        let check = self.state.output_check(&name, &reply)?;
        Ok((reply, check))
    }

    /// Checks `result` as tool `name`'s `tools/call` result, as [`Client::call_tool`]
    /// checks one: its shape, then its `structuredContent` against the tool's listed
    /// `outputSchema`. For a result that came another way: a task's `tasks/result`.
    ///
    /// # Errors
    /// `protocol` for a result that is not a `CallToolResult`; `invalid-result` for one
    /// that does not match the output schema; `limit-exceeded` when checking it costs too much.
    pub async fn check_call_tool_result(&self, name: &str, result: Value) -> Result<(), Error> {
        self.state.check_call_tool(name, &Reply::from(result)).await
    }

    /// The `structuredContent` check that
    /// [`Client::call_tool_reply_deferring_output`] left, as
    /// [`Client::call_tool`] makes it.
    ///
    /// # Errors
    /// `invalid-result` for a result that does not match the output schema;
    /// `limit-exceeded` when checking it costs too much.
    pub async fn check_tool_output(&self, reply: &Reply, check: &OutputCheck) -> Result<(), Error> {
        self.state.check_output(reply, check).await
    }

    /// One page of the server's resources.
    ///
    /// # Errors
    /// As [`Client::list_page_reply`].
    pub async fn list_resources(&self, cursor: Option<&str>, options: &RequestOptions) -> Result<ListResourcesResult, Error> {
        self.page_typed(RESOURCES, cursor, options).await
    }

    /// Every resource.
    ///
    /// # Errors
    /// As [`Client::list_all_json`].
    pub async fn list_all_resources(&self, options: &RequestOptions) -> Result<Vec<Resource>, Error> {
        self.list_all_typed(RESOURCES, options).await
    }

    /// One page of the server's resource templates.
    ///
    /// # Errors
    /// As [`Client::list_page_reply`].
    pub async fn list_resource_templates(
        &self,
        cursor: Option<&str>,
        options: &RequestOptions,
    ) -> Result<ListResourceTemplatesResult, Error> {
        self.page_typed(TEMPLATES, cursor, options).await
    }

    /// Every resource template.
    ///
    /// # Errors
    /// As [`Client::list_all_json`].
    pub async fn list_all_resource_templates(&self, options: &RequestOptions) -> Result<Vec<ResourceTemplate>, Error> {
        self.list_all_typed(TEMPLATES, options).await
    }

    /// Reads a resource.
    ///
    /// # Errors
    /// The request's error.
    pub async fn read_resource(&self, uri: &str, options: &RequestOptions) -> Result<ReadResourceResult, Error> {
        typed(self.read_resource_reply(json!({ "uri": uri }), options).await?.into_value(), "resources/read")
    }

    /// [`Client::read_resource`] in JSON.
    ///
    /// # Errors
    /// As [`Client::read_resource`].
    pub async fn read_resource_reply(&self, params: Value, options: &RequestOptions) -> Result<Reply, Error> {
        let check_text = results::check_read_resource_text;
        self.state.request_shaped_text_reply("resources/read", Some(params), options, results::check_read_resource, check_text).await
    }

    /// Subscribes to a resource: the server then sends
    /// `notifications/resources/updated` for it. In 2026-07-28 the
    /// subscription rides on the listen stream, and this returns once the
    /// server acknowledged it. A later acknowledgement that leaves it out (the
    /// stream reconnected, or reopened for another resource) gives it up,
    /// with a [`ClientEvent::Problem`](super::ClientEvent::Problem) of kind `unsupported`.
    ///
    /// # Errors
    /// `unsupported` when the server does not offer subscriptions, or (2026-07-28)
    /// when its acknowledgement names what it granted without this resource;
    /// the request's error.
    pub async fn subscribe_resource(&self, uri: &str, options: &RequestOptions) -> Result<(), Error> {
        self.state.uri_request("resources/subscribe", uri, options).await
    }

    /// Ends a subscription.
    ///
    /// # Errors
    /// As [`Client::subscribe_resource`].
    pub async fn unsubscribe_resource(&self, uri: &str, options: &RequestOptions) -> Result<(), Error> {
        self.state.uri_request("resources/unsubscribe", uri, options).await
    }

    /// One page of the server's prompts.
    ///
    /// # Errors
    /// As [`Client::list_page_reply`].
    pub async fn list_prompts(&self, cursor: Option<&str>, options: &RequestOptions) -> Result<ListPromptsResult, Error> {
        self.page_typed(PROMPTS, cursor, options).await
    }

    /// Every prompt.
    ///
    /// # Errors
    /// As [`Client::list_all_json`].
    pub async fn list_all_prompts(&self, options: &RequestOptions) -> Result<Vec<Prompt>, Error> {
        self.list_all_typed(PROMPTS, options).await
    }

    /// Gets a prompt, rendered with `arguments`.
    ///
    /// # Errors
    /// The request's error.
    pub async fn get_prompt(&self, name: &str, arguments: Map<String, Value>, options: &RequestOptions) -> Result<GetPromptResult, Error> {
        let params = json!({ "name": name, "arguments": arguments });
        typed(self.get_prompt_reply(params, options).await?.into_value(), "prompts/get")
    }

    /// [`Client::get_prompt`] in JSON.
    ///
    /// # Errors
    /// As [`Client::get_prompt`].
    pub async fn get_prompt_reply(&self, params: Value, options: &RequestOptions) -> Result<Reply, Error> {
        self.state.request_shaped_reply("prompts/get", Some(params), options, results::check_get_prompt).await
    }

    /// Asks the server to complete an argument of a prompt (`ref/prompt`) or
    /// of a resource template (`ref/resource`).
    ///
    /// # Errors
    /// `invalid-argument` without `ref.type` and `argument.name`; the request's error.
    pub async fn complete(&self, params: Value, options: &RequestOptions) -> Result<CompleteResult, Error> {
        let reply = self.complete_reply(params, options).await?;
        typed(reply.into_value(), "completion/complete")
    }

    /// [`Client::complete`], with the result as the server sent it.
    ///
    /// # Errors
    /// As [`Client::complete`].
    pub async fn complete_reply(&self, params: Value, options: &RequestOptions) -> Result<Reply, Error> {
        let well_formed = params.get("ref").and_then(|r| r.get("type")).is_some_and(Value::is_string)
            && params.get("argument").and_then(|a| a.get("name")).is_some_and(Value::is_string);
        if !well_formed {
            return Err(Error::invalid_argument("complete needs params.ref.type and params.argument.name".into()));
        }
        let state = &self.state;
        if state.settings.strict {
            let identity = state.identity.borrow();
            crate::protocol::capabilities::check_completion(&identity.capabilities, identity.protocol_version)
                .map_err(Error::Unsupported)?;
        }
        let reply = state.request_unchecked("completion/complete", Some(Params::Parsed(params)), options).await?;
        super::requests::shaped(reply, results::check_complete)
    }

    /// One page of the server's skills (SEP-2640), none of them loaded.
    ///
    /// # Errors
    /// `unsupported` when strict and the server does not declare the skills extension.
    pub async fn list_skills(&self, cursor: Option<&str>, options: &RequestOptions) -> Result<ListSkillsResult, Error> {
        self.page_typed(SKILLS, cursor, options).await
    }

    /// Every skill.
    ///
    /// # Errors
    /// As [`Client::list_all_json`].
    pub async fn list_all_skills(&self, options: &RequestOptions) -> Result<Vec<Skill>, Error> {
        self.list_all_typed(SKILLS, options).await
    }

    /// Loads a skill as listed: reads its `SKILL.md` and checks it against
    /// the listing (size, `sha256:` digest, frontmatter field by field).
    ///
    /// # Errors
    /// `invalid-result` when the file differs from the listing (read nothing
    /// else of that skill then); the request's error.
    pub async fn read_skill(&self, skill: Value, options: &RequestOptions) -> Result<LoadedSkill, Error> {
        let uri =
            skill.get("uri").and_then(Value::as_str).ok_or_else(|| Error::invalid_argument("a skill needs its uri".into()))?.to_owned();
        let checker = self.skill_checker()?;
        let result =
            self.state.request_shaped("resources/read", Some(json!({ "uri": uri })), options, results::check_read_resource).await?;
        let contents = result.get("contents").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let text = contents
            .iter()
            .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri.as_str()))
            .or_else(|| contents.first())
            .and_then(|content| content.get("text"))
            .and_then(Value::as_str)
            .ok_or_else(|| Error::protocol(crate::error::cold_format!("{uri}: the server returned no text")))?
            .to_owned();
        let file = checker
            .check_skill(&skill, &text)
            .await?
            .map_err(|why| Error::Invalid(crate::error::cold_format!("the skill was refused: {why}")))?;
        Ok(LoadedSkill { skill, text, frontmatter: file.frontmatter, body: file.body })
    }

    /// Reads another file of a skill, checked against the size and digest
    /// the listing gives for it.
    ///
    /// # Errors
    /// `invalid-argument` for a file the skill does not list; `invalid-result`
    /// when it differs from the listing; the request's error.
    pub async fn read_skill_file(&self, skill: &Value, uri: &str, options: &RequestOptions) -> Result<Reply, Error> {
        let listed = skills::listed_file(skill, uri)
            .cloned()
            .ok_or_else(|| Error::invalid_argument(crate::error::cold_format!("the skill does not list {uri}")))?;
        let checker = self.skill_checker()?;
        let reply = self.read_resource_reply(json!({ "uri": uri }), options).await?;
        for content in reply.value().get("contents").and_then(Value::as_array).into_iter().flatten() {
            let bytes = match (content.get("text").and_then(Value::as_str), content.get("blob").and_then(Value::as_str)) {
                (Some(text), _) => text.as_bytes().to_vec(),
                (None, Some(blob)) => crate::protocol::encoding::base64_decode(blob)
                    .ok_or_else(|| Error::protocol(crate::error::cold_format!("{uri}: the blob is not base64")))?,
                (None, None) => continue,
            };
            checker
                .check_file(&listed, &bytes)
                .await?
                .map_err(|why| Error::Invalid(crate::error::cold_format!("the skill file was refused: {why}")))?;
        }
        Ok(reply)
    }

    /// The skill checker from the options, else the built-in one.
    fn skill_checker(&self) -> Result<Rc<dyn SkillChecker>, Error> {
        if let Some(checker) = &self.state.settings.skill_checker {
            return Ok(checker.clone());
        }
        #[cfg(feature = "skills")]
        return Ok(Rc::new(super::BuiltinSkillChecker));
        #[cfg(not(feature = "skills"))]
        Err(Error::Unsupported(
            "reading a skill needs its files checked: build with the Cargo feature `skills`, or give a skill_checker".into(),
        ))
    }
}
