//! The server features for JS: tools, resources, prompts, completion and
//! skills, each a thin call into the client.

use super::client::{fail, promise, reply_to_js, McpClient};
use super::convert::{from_js, params_from_js, params_text_from_js, to_js};
use super::lazy::surely_valid;
use crate::client::{Client, OutputCheck, Reply, PROMPTS, RESOURCES, SKILLS, TEMPLATES, TOOLS};
use crate::error::Error;
use futures::future::LocalBoxFuture;
use js_sys::Promise;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// Params that must be an object.
fn required_params(value: &JsValue, method: &str) -> Result<Value, Error> {
    params_from_js(value, "params")?.ok_or_else(|| Error::invalid_argument(format!("{method} needs params")))
}

/// Params that must carry a string `field`.
fn params_with(value: &JsValue, method: &str, field: &str) -> Result<Value, Error> {
    let params = required_params(value, method)?;
    match params.get(field) {
        Some(Value::String(_)) => Ok(params),
        _ => Err(Error::invalid_argument(format!("{method} needs params.{field} as a string"))),
    }
}

/// A tool result checked against the tool's `outputSchema`: the object that the result's
/// one parse built, where it lies; the validator module reads the text again only when
/// the quick check cannot tell.
///
/// A future of its own, not awaited inline: most tools have no `outputSchema`, and the
/// core's split (scripts/split/) leaves the code a first call to such a tool never runs
/// out of the module a page loads first.
#[inline(never)]
fn checked_output<'a>(
    client: &'a Client,
    reply: &'a Reply,
    check: &'a OutputCheck,
    result: &'a JsValue,
) -> LocalBoxFuture<'a, Result<(), Error>> {
    Box::pin(async move {
        if !surely_valid(check, result).await {
            client.check_tool_output(reply, check).await?;
        }
        Ok(())
    })
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
        self.list_page(TOOLS, params, options)
    }

    /// Lists every tool, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllTools, unchecked_return_type = "Promise<Tool[]>")]
    pub fn list_all_tools(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        self.list_all(TOOLS, options)
    }

    /// Iterates over every tool, fetching pages as the loop goes:
    /// `for await (const tool of client.iterateTools()) …`.
    #[wasm_bindgen(js_name = iterateTools, unchecked_return_type = "AsyncGenerator<Tool, void, undefined>")]
    pub fn iterate_tools(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.iterate(TOOLS, options)
    }

    /// Calls a tool. A tool that fails still resolves, with `isError: true`;
    /// only protocol failures reject.
    ///
    /// When the tool (as last listed) has an `outputSchema`, the result's
    /// `structuredContent` is validated against it, and a mismatch rejects
    /// with an `McpClientError` of kind `invalid-result` naming the failing
    /// path. `validateToolOutput: false` at connect turns this off.
    ///
    /// With a server that declares `tasks.requests.tools.call`, a tool that
    /// the client's listing of its tools (a `listChanged` watcher's too) declared with
    /// `execution.taskSupport: "required"` (2025-11-25) runs as a task, as
    /// `callToolAsTask` runs one: its server runs it no other way. Before such
    /// a listing, and with `mcp-wasm/raw` (which has no task methods), the call
    /// goes out as asked.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallToolRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let params = params_text_from_js(&params, "callTool").map_err(fail)?;
            let (reply, check) = client.call_tool_reply_deferring_output(params, &call.options).await.map_err(|e| call.reject(e))?;
            let result = reply_to_js(&reply).map_err(fail)?;
            if let Some(check) = check {
                checked_output(&client, &reply, &check, &result).await.map_err(|e| call.reject(e))?;
            }
            Ok(result)
        }))
    }

    /// Lists one page of the server's resources.
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "Promise<ListResourcesResult & CacheHints>")]
    pub fn list_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.list_page(RESOURCES, params, options)
    }

    /// Lists every resource, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllResources, unchecked_return_type = "Promise<Resource[]>")]
    pub fn list_all_resources(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        self.list_all(RESOURCES, options)
    }

    /// Iterates over every resource, fetching pages as the loop goes.
    #[wasm_bindgen(js_name = iterateResources, unchecked_return_type = "AsyncGenerator<Resource, void, undefined>")]
    pub fn iterate_resources(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.iterate(RESOURCES, options)
    }

    /// Lists one page of the server's resource templates.
    #[wasm_bindgen(js_name = listResourceTemplates, unchecked_return_type = "Promise<ListResourceTemplatesResult & CacheHints>")]
    pub fn list_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.list_page(TEMPLATES, params, options)
    }

    /// Lists every resource template, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllResourceTemplates, unchecked_return_type = "Promise<ResourceTemplate[]>")]
    pub fn list_all_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.list_all(TEMPLATES, options)
    }

    /// Iterates over every resource template, fetching pages as the loop goes.
    #[wasm_bindgen(js_name = iterateResourceTemplates, unchecked_return_type = "AsyncGenerator<ResourceTemplate, void, undefined>")]
    pub fn iterate_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.iterate(TEMPLATES, options)
    }

    /// Reads a resource: its `contents`, as text or as base64 `blob`s.
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "Promise<ReadResourceResult & CacheHints>")]
    pub fn read_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ReadResourceRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let params = params_with(&params, "readResource", "uri").map_err(fail)?;
            let reply = client.read_resource_reply(params, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
        }))
    }

    /// Subscribes to a resource: the server then sends
    /// `notifications/resources/updated` events when it changes. In
    /// 2026-07-28 it resolves once the server acknowledged the subscription,
    /// and rejects with kind `unsupported` when the acknowledgement names what
    /// the server granted without this resource. A later acknowledgement that
    /// leaves it out (the stream reconnected, or reopened for another
    /// resource) gives it up, with an `error` event of kind `unsupported`.
    #[wasm_bindgen(js_name = subscribeResource, unchecked_return_type = "Promise<void>")]
    pub fn subscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SubscribeRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.subscription(true, params, options)
    }

    /// Ends a subscription made with {@link McpClient.subscribeResource}.
    #[wasm_bindgen(js_name = unsubscribeResource, unchecked_return_type = "Promise<void>")]
    pub fn unsubscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "UnsubscribeRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.subscription(false, params, options)
    }

    /// Lists one page of the server's prompts.
    #[wasm_bindgen(js_name = listPrompts, unchecked_return_type = "Promise<ListPromptsResult & CacheHints>")]
    pub fn list_prompts(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.list_page(PROMPTS, params, options)
    }

    /// Lists every prompt, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllPrompts, unchecked_return_type = "Promise<Prompt[]>")]
    pub fn list_all_prompts(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        self.list_all(PROMPTS, options)
    }

    /// Iterates over every prompt, fetching pages as the loop goes.
    #[wasm_bindgen(js_name = iteratePrompts, unchecked_return_type = "AsyncGenerator<Prompt, void, undefined>")]
    pub fn iterate_prompts(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.iterate(PROMPTS, options)
    }

    /// Gets a prompt, rendered with `params.arguments`.
    #[wasm_bindgen(js_name = getPrompt, unchecked_return_type = "Promise<GetPromptResult>")]
    pub fn get_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GetPromptRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let params = params_with(&params, "getPrompt", "name").map_err(fail)?;
            let reply = client.get_prompt_reply(params, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
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
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let params = required_params(&params, "complete").map_err(fail)?;
            let reply = client.complete_reply(params, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
        }))
    }

    /// Lists one page of the server's skills (SEP-2640, extension
    /// `io.modelcontextprotocol/skills`): each with its frontmatter and the
    /// files it is made of, none of them loaded.
    #[wasm_bindgen(js_name = listSkills, unchecked_return_type = "Promise<ListSkillsResult>")]
    pub fn list_skills(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.list_page(SKILLS, params, options)
    }

    /// Lists every skill, following `nextCursor` across pages.
    #[wasm_bindgen(js_name = listAllSkills, unchecked_return_type = "Promise<Skill[]>")]
    pub fn list_all_skills(&self, #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue) -> Promise {
        self.list_all(SKILLS, options)
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
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let skill = listed_skill(&skill).map_err(fail)?;
            let loaded = client.read_skill(skill, &call.options).await.map_err(|e| call.reject(e))?;
            let value =
                serde_json::json!({ "skill": loaded.skill, "text": loaded.text, "frontmatter": loaded.frontmatter, "body": loaded.body });
            to_js(&value).map_err(fail)
        }))
    }

    /// Reads another file of a loaded skill, and checks it against the size
    /// and digest the listing gives for it.
    ///
    /// @throws {McpClientError} `invalid-argument` for a file the skill does
    /// not list; `invalid-result` when it differs from the listing.
    #[wasm_bindgen(js_name = readSkillFile, unchecked_return_type = "Promise<ReadResourceResult & CacheHints>")]
    pub fn read_skill_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Skill")] skill: JsValue,
        uri: String,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let skill = listed_skill(&skill).map_err(fail)?;
            let reply = client.read_skill_file(&skill, &uri, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
        }))
    }
}

/// A skill as `listSkills` gave it: an object with a string `uri`.
fn listed_skill(value: &JsValue) -> Result<Value, Error> {
    let skill = from_js(value, "skill")?;
    match skill.get("uri") {
        Some(Value::String(_)) => Ok(skill),
        _ => Err(Error::invalid_argument("a skill needs its uri, as listSkills gives it".into())),
    }
}

impl McpClient {
    fn subscription(&self, subscribe: bool, params: JsValue, options: JsValue) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let name = if subscribe { "subscribeResource" } else { "unsubscribeResource" };
            let params = params_with(&params, name, "uri").map_err(fail)?;
            let uri = params.get("uri").and_then(Value::as_str).unwrap_or_default();
            let done = if subscribe {
                client.subscribe_resource(uri, &call.options).await
            } else {
                client.unsubscribe_resource(uri, &call.options).await
            };
            done.map_err(|e| call.reject(e))?;
            Ok(JsValue::UNDEFINED)
        }))
    }
}
