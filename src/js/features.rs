//! The server features: tools, resources, prompts, completion.

use super::client::ClientState;
use super::client::{js, promise, read_options, McpClient};
use super::connect::Era;
use super::convert::params_from_js;
use super::lists::{self, PROMPTS, RESOURCES, SKILLS, TEMPLATES, TOOLS};
use crate::error::Error;
use crate::protocol::capabilities::check_server_supports;
use crate::protocol::schema::SchemaError;
use crate::protocol::{params, results, schema, skills};
use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// Params that must be an object.
fn required_params(value: &JsValue, method: &str) -> Result<Value, Error> {
    params_from_js(value, "params")?.ok_or_else(|| Error::InvalidArgument(format!("{method} needs params")))
}

/// Params that must carry a string `field`.
fn params_with(value: &JsValue, method: &str, field: &str) -> Result<Value, Error> {
    let params = required_params(value, method)?;
    match params.get(field) {
        Some(Value::String(_)) => Ok(params),
        _ => Err(Error::InvalidArgument(format!("{method} needs params.{field} as a string"))),
    }
}

#[wasm_bindgen]
impl McpClient {
    /// Lists one page of the server's tools. Pass `params.cursor` (a previous
    /// result's `nextCursor`) for the next page, or use {@link McpClient.listAllTools}.
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "Promise<ListToolsResult & CacheHints>")]
    pub fn list_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        lists::list_page(&self.state, TOOLS, params, options)
    }

    /// Lists every tool, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllTools, unchecked_return_type = "Promise<Tool[]>")]
    pub fn list_all_tools(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        lists::list_all(&self.state, TOOLS, options)
    }

    /// Iterates over every tool, fetching pages as the loop goes:
    /// `for await (const tool of client.iterateTools()) …`.
    #[wasm_bindgen(js_name = iterateTools, unchecked_return_type = "AsyncGenerator<Tool, void, undefined>")]
    pub fn iterate_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        lists::iterate(&self.state, TOOLS, options)
    }

    /// Calls a tool. A tool that fails still resolves, with `isError: true`;
    /// only protocol failures reject.
    ///
    /// When the tool (as last listed) has an `outputSchema`, the result's
    /// `structuredContent` is validated against it, and a mismatch rejects
    /// with an `McpClientError` of kind `invalid-result` naming the failing
    /// path. `validateToolOutput: false` at connect turns this off.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallToolRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = required_params(&params, "callTool")?;
            params::check_call_tool(&params).map_err(Error::InvalidArgument)?;
            let name = params.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            let options = read_options(&options)?;
            let reply = state.call_reply("tools/call", Some(params), &options, results::check_call_tool).await?;
            let result = &reply.value;
            let failed = result.get("isError") == Some(&Value::Bool(true));
            let schema = state.output_schemas.borrow().get(&name).cloned();
            if let (true, false, Some(schema)) = (state.validate_output, failed, schema) {
                let structured = result
                    .get("structuredContent")
                    .ok_or_else(|| Error::Invalid(format!("tool {name:?} declares an outputSchema but returned no structuredContent")))?;
                schema::validate_with(&schema, structured, &state.patterns, &state.limits.schema).map_err(|e| match e {
                    SchemaError::Mismatch(e) => {
                        Error::Invalid(format!("the structuredContent of tool {name:?} does not match its outputSchema at {e}"))
                    }
                    SchemaError::TooCostly(e) => Error::LimitExceeded {
                        limit: "validationSteps",
                        message: format!("checking the structuredContent of tool {name:?} against its outputSchema stopped at {e}"),
                    },
                })?;
            }
            reply.to_js()
        }))
    }

    /// Lists one page of the server's resources.
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "Promise<ListResourcesResult & CacheHints>")]
    pub fn list_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        lists::list_page(&self.state, RESOURCES, params, options)
    }

    /// Lists every resource, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllResources, unchecked_return_type = "Promise<Resource[]>")]
    pub fn list_all_resources(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        lists::list_all(&self.state, RESOURCES, options)
    }

    /// Iterates over every resource, fetching pages as the loop goes.
    #[wasm_bindgen(js_name = iterateResources, unchecked_return_type = "AsyncGenerator<Resource, void, undefined>")]
    pub fn iterate_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        lists::iterate(&self.state, RESOURCES, options)
    }

    /// Lists one page of the server's resource templates.
    #[wasm_bindgen(js_name = listResourceTemplates, unchecked_return_type = "Promise<ListResourceTemplatesResult & CacheHints>")]
    pub fn list_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        lists::list_page(&self.state, TEMPLATES, params, options)
    }

    /// Lists every resource template, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllResourceTemplates, unchecked_return_type = "Promise<ResourceTemplate[]>")]
    pub fn list_all_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        lists::list_all(&self.state, TEMPLATES, options)
    }

    /// Iterates over every resource template, fetching pages as the loop goes.
    #[wasm_bindgen(js_name = iterateResourceTemplates, unchecked_return_type = "AsyncGenerator<ResourceTemplate, void, undefined>")]
    pub fn iterate_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        lists::iterate(&self.state, TEMPLATES, options)
    }

    /// Reads a resource: its `contents`, as text or as base64 `blob`s.
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "Promise<ReadResourceResult & CacheHints>")]
    pub fn read_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = params_with(&params, "readResource", "uri")?;
            let options = read_options(&options)?;
            state.call_reply("resources/read", Some(params), &options, results::check_read_resource).await?.to_js()
        }))
    }

    /// Subscribes to a resource: the server then sends
    /// `notifications/resources/updated` events when it changes.
    #[wasm_bindgen(js_name = subscribeResource, unchecked_return_type = "Promise<void>")]
    pub fn subscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SubscribeRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.uri_request("resources/subscribe", "subscribeResource", params, options)
    }

    /// Ends a subscription made with {@link McpClient.subscribeResource}.
    #[wasm_bindgen(js_name = unsubscribeResource, unchecked_return_type = "Promise<void>")]
    pub fn unsubscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "UnsubscribeRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.uri_request("resources/unsubscribe", "unsubscribeResource", params, options)
    }

    /// Lists one page of the server's prompts.
    #[wasm_bindgen(js_name = listPrompts, unchecked_return_type = "Promise<ListPromptsResult & CacheHints>")]
    pub fn list_prompts(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        lists::list_page(&self.state, PROMPTS, params, options)
    }

    /// Lists every prompt, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllPrompts, unchecked_return_type = "Promise<Prompt[]>")]
    pub fn list_all_prompts(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        lists::list_all(&self.state, PROMPTS, options)
    }

    /// Iterates over every prompt, fetching pages as the loop goes.
    #[wasm_bindgen(js_name = iteratePrompts, unchecked_return_type = "AsyncGenerator<Prompt, void, undefined>")]
    pub fn iterate_prompts(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        lists::iterate(&self.state, PROMPTS, options)
    }

    /// Gets a prompt, rendered with `params.arguments`.
    #[wasm_bindgen(js_name = getPrompt, unchecked_return_type = "Promise<GetPromptResult>")]
    pub fn get_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GetPromptRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = params_with(&params, "getPrompt", "name")?;
            let options = read_options(&options)?;
            state.call_reply("prompts/get", Some(params), &options, results::check_get_prompt).await?.to_js()
        }))
    }

    /// Asks the server to complete an argument of a prompt (`ref/prompt`) or
    /// of a resource template (`ref/resource`); `context.arguments` passes the
    /// arguments already chosen.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompleteResult>")]
    pub fn complete(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CompleteRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = required_params(&params, "complete")?;
            let well_formed = params.get("ref").and_then(|r| r.get("type")).is_some_and(Value::is_string)
                && params.get("argument").and_then(|a| a.get("name")).is_some_and(Value::is_string);
            if !well_formed {
                return Err(Error::InvalidArgument("complete needs params.ref.type and params.argument.name".into()).into());
            }
            let options = read_options(&options)?;
            js(&state.call("completion/complete", Some(params), &options, results::check_complete).await?)
        }))
    }
}

#[wasm_bindgen]
impl McpClient {
    /// Lists one page of the server's skills (SEP-2640, extension
    /// `io.modelcontextprotocol/skills`): each with its frontmatter and the
    /// files it is made of, none of them loaded.
    #[wasm_bindgen(js_name = listSkills, unchecked_return_type = "Promise<ListSkillsResult>")]
    pub fn list_skills(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        lists::list_page(&self.state, SKILLS, params, options)
    }

    /// Lists every skill, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllSkills, unchecked_return_type = "Promise<Skill[]>")]
    pub fn list_all_skills(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        lists::list_all(&self.state, SKILLS, options)
    }

    /// Loads a skill as listed: reads its `SKILL.md` and checks it against
    /// the listing (size, `sha256:` digest, and the frontmatter, field by
    /// field) before handing it over.
    ///
    /// @throws {McpClientError} `invalid-result` when the file differs from
    /// the listing; nothing else of the skill should then be read.
    #[wasm_bindgen(js_name = readSkill, unchecked_return_type = "Promise<LoadedSkill>")]
    pub fn read_skill(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Skill")] skill: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let skill = listed_skill(&skill)?;
            let uri = skill.get("uri").and_then(Value::as_str).unwrap_or_default().to_owned();
            let options = read_options(&options)?;
            let text = state.read_skill_text(&uri, &options).await?;
            let file = skills::check_skill(&skill, &text).map_err(|why| Error::Invalid(format!("the skill was refused: {why}")))?;
            js(&serde_json::json!({ "skill": skill, "text": text, "frontmatter": file.frontmatter, "body": file.body }))
        }))
    }

    /// Reads another file of a loaded skill, and checks it against the size
    /// and digest the listing gives for it.
    ///
    /// @throws {McpClientError} `invalid-argument` for a file the skill does
    /// not list; `invalid-result` when it differs from the listing.
    #[wasm_bindgen(js_name = readSkillFile, unchecked_return_type = "Promise<ReadResourceResult>")]
    pub fn read_skill_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Skill")] skill: JsValue,
        uri: String,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let skill = listed_skill(&skill)?;
            let listed = skills::listed_file(&skill, &uri)
                .cloned()
                .ok_or_else(|| Error::InvalidArgument(format!("the skill does not list {uri}")))?;
            let options = read_options(&options)?;
            let result =
                state.call("resources/read", Some(serde_json::json!({ "uri": uri })), &options, results::check_read_resource).await?;
            for content in result.get("contents").and_then(Value::as_array).into_iter().flatten() {
                let bytes = match (content.get("text").and_then(Value::as_str), content.get("blob").and_then(Value::as_str)) {
                    (Some(text), _) => text.as_bytes().to_vec(),
                    (None, Some(blob)) => crate::protocol::encoding::base64_decode(blob)
                        .ok_or_else(|| Error::Protocol(format!("{uri}: the blob is not base64")))?,
                    (None, None) => continue,
                };
                skills::check_file(&listed, &bytes).map_err(|why| Error::Invalid(format!("the skill file was refused: {why}")))?;
            }
            js(&result)
        }))
    }
}

/// A skill as `listSkills` gave it: an object with a string `uri`.
fn listed_skill(value: &JsValue) -> Result<Value, Error> {
    let skill = super::convert::from_js(value, "skill")?;
    match skill.get("uri") {
        Some(Value::String(_)) => Ok(skill),
        _ => Err(Error::InvalidArgument("a skill needs its uri, as listSkills gives it".into())),
    }
}

impl ClientState {
    /// The text of a skill's `SKILL.md`.
    async fn read_skill_text(&self, uri: &str, options: &super::options::RequestOptions) -> Result<String, super::client::Rejection> {
        let result = self.call("resources/read", Some(serde_json::json!({ "uri": uri })), options, results::check_read_resource).await?;
        let text = result
            .get("contents")
            .and_then(Value::as_array)
            .and_then(|contents| contents.iter().find(|c| c.get("uri").and_then(Value::as_str) == Some(uri)).or_else(|| contents.first()))
            .and_then(|content| content.get("text"))
            .and_then(Value::as_str)
            .ok_or_else(|| Error::Protocol(format!("{uri}: the server returned no text")))?;
        Ok(text.to_owned())
    }
}

impl McpClient {
    fn uri_request(&self, method: &'static str, name: &'static str, params: JsValue, options: JsValue) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = params_with(&params, name, "uri")?;
            let options = read_options(&options)?;
            if state.era == Era::Modern {
                // 2026-07-28: subscriptions ride on the subscriptions/listen stream.
                check_server_supports(&state.identity.borrow().capabilities, method).map_err(Error::Unsupported)?;
                let uri = params.get("uri").and_then(Value::as_str).unwrap_or_default().to_owned();
                let changed = if method == "resources/subscribe" {
                    state.subscriptions.borrow_mut().insert(uri)
                } else {
                    state.subscriptions.borrow_mut().remove(&uri)
                };
                if changed {
                    if let Some(acknowledged) = state.restart_listen() {
                        let timeout = options.timeout_ms.unwrap_or(crate::session::DEFAULT_TIMEOUT_MS);
                        let sleep = crate::session::Runtime::sleep(&crate::transport::web_runtime::WebRuntime, timeout);
                        if let futures::future::Either::Right(_) = futures::future::select(acknowledged, sleep).await {
                            return Err(Error::Timeout { ms: timeout }.into());
                        }
                    }
                }
                return Ok(JsValue::UNDEFINED);
            }
            state.call(method, Some(params), &options, |r| results::check_object(r, "subscription")).await?;
            Ok(JsValue::UNDEFINED)
        }))
    }
}
