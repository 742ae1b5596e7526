//! Tasks (2025-11-25, experimental): a tool call that runs as a task, polled
//! to completion behind one awaitable call, and the low-level task methods.

use super::abort::aborted;
use super::client::{js, promise, read_options, ClientState, McpClient, Rejection};
use super::convert::{params_from_js, to_js};
use crate::error::Error;
use crate::protocol::capabilities::declares;
use crate::protocol::{params, results};
use crate::session::Runtime;
use crate::transport::web_runtime::WebRuntime;
use futures::future::{self, Either};
use js_sys::{Function, Promise, Reflect};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How often to poll when the server suggests nothing.
const DEFAULT_POLL_MS: u32 = 1_000;
/// Polling faster than this helps nobody and loads the server.
const MIN_POLL_MS: u32 = 100;

fn check_task(value: &Value) -> Result<(), String> {
    let task = value.get("task").unwrap_or(value);
    let ok = task.get("taskId").is_some_and(Value::is_string) && task.get("status").is_some_and(Value::is_string);
    ok.then_some(()).ok_or_else(|| "a task needs a string taskId and status".into())
}

fn task_id_params(value: &JsValue, method: &str) -> Result<Value, Error> {
    match params_from_js(value, "params")? {
        Some(p) if p.get("taskId").is_some_and(Value::is_string) => Ok(p),
        _ => Err(Error::InvalidArgument(format!("{method} needs params.taskId as a string"))),
    }
}

impl ClientState {
    async fn run_task(&self, mut params: Value, options: JsValue) -> Result<Value, Rejection> {
        let request = read_options(&options)?;
        let field = |name: &str| Reflect::get(&options, &name.into()).ok().filter(|v| !v.is_undefined() && !v.is_null());
        let on_status = field("ontaskstatus").and_then(|f| f.dyn_into::<Function>().ok());
        let ttl = field("ttl").and_then(|v| v.as_f64());
        let poll_override = field("pollInterval").and_then(|v| v.as_f64()).map(|ms| (ms as u32).max(MIN_POLL_MS));
        if self.strict && !declares(&self.identity.borrow().capabilities, &["tasks", "requests", "tools", "call"]) {
            return Err(Error::Unsupported("tools/call as a task: the server did not declare tasks.requests.tools.call".into()).into());
        }
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        if let Some(fields) = params.as_object_mut() {
            fields.insert("task".into(), ttl.map_or_else(|| json!({}), |ttl| json!({ "ttl": ttl })));
        }
        let created = self.request("tools/call", Some(params), &request).await?;
        check_task(&created).map_err(Error::Protocol)?;
        let mut task = created.get("task").cloned().unwrap_or(Value::Null);
        let task_id = task.get("taskId").and_then(Value::as_str).unwrap_or_default().to_owned();
        loop {
            if let Some(callback) = &on_status {
                if let Err(thrown) = callback.call1(&JsValue::UNDEFINED, &to_js(&task).unwrap_or(JsValue::UNDEFINED)) {
                    self.events.dispatch_error(&thrown);
                }
            }
            let status = task.get("status").and_then(Value::as_str).unwrap_or_default().to_owned();
            if matches!(status.as_str(), "completed" | "failed" | "cancelled" | "input_required") {
                // tasks/result waits for the end; an input_required task's
                // requests (elicitation, sampling) arrive on its stream and go
                // to the handlers.
                let result = self.request("tasks/result", Some(json!({ "taskId": task_id })), &request).await?;
                if status == "cancelled" {
                    return Err(Error::Protocol(format!("the server cancelled task {task_id} of tool {name:?}")).into());
                }
                results::check_call_tool(&result).map_err(Error::Protocol)?;
                return Ok(result);
            }
            let wait = poll_override
                .or_else(|| task.get("pollInterval").and_then(Value::as_f64).map(|ms| (ms as u32).max(MIN_POLL_MS)))
                .unwrap_or(DEFAULT_POLL_MS);
            let sleep = WebRuntime.sleep(wait);
            if let Some(signal) = &request.signal {
                if let Either::Right(_) = future::select(sleep, aborted(signal)).await {
                    // Tell the server, best effort, then reject with the caller's reason.
                    let quiet = super::options::RequestOptions::default();
                    let _ = self.request("tasks/cancel", Some(json!({ "taskId": task_id })), &quiet).await;
                    return Err(Rejection(signal.reason()));
                }
            } else {
                sleep.await;
            }
            let current = self.request("tasks/get", Some(json!({ "taskId": task_id })), &request).await?;
            check_task(&current).map_err(Error::Protocol)?;
            task = current;
        }
    }
}

#[wasm_bindgen]
impl McpClient {
    /// Calls a tool as a task (2025-11-25, experimental) and resolves with its
    /// final result: the client polls `tasks/get` (at the server's
    /// `pollInterval`, or `options.pollInterval`), reports each status to
    /// `options.ontaskstatus`, and fetches `tasks/result` at the end, answering
    /// any input the task asks for with the client's handlers. Aborting
    /// `options.signal` sends `tasks/cancel`.
    #[wasm_bindgen(js_name = callToolAsTask, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool_as_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallToolRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TaskCallOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = params_from_js(&params, "params")?.ok_or_else(|| Error::InvalidArgument("callToolAsTask needs params".into()))?;
            params::check_call_tool(&params).map_err(Error::InvalidArgument)?;
            js(&state.run_task(params, options).await?)
        }))
    }

    /// `tasks/get`: a task's current state.
    #[wasm_bindgen(js_name = getTask, unchecked_return_type = "Promise<GetTaskResult>")]
    pub fn get_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ taskId: string }")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.task_request("tasks/get", "getTask", params, options, check_task)
    }

    /// `tasks/result`: waits for a task to end and returns its result.
    #[wasm_bindgen(js_name = getTaskResult, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn get_task_result(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ taskId: string }")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.task_request("tasks/result", "getTaskResult", params, options, |r| results::check_object(r, "tasks/result"))
    }

    /// `tasks/cancel`: asks the server to cancel a task.
    #[wasm_bindgen(js_name = cancelTask, unchecked_return_type = "Promise<CancelTaskResult>")]
    pub fn cancel_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ taskId: string }")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.task_request("tasks/cancel", "cancelTask", params, options, check_task)
    }

    /// `tasks/list`: one page of the tasks the server keeps for this client.
    #[wasm_bindgen(js_name = listTasks, unchecked_return_type = "Promise<ListTasksResult>")]
    pub fn list_tasks(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = params_from_js(&params, "params")?;
            let options = read_options(&options)?;
            js(&state.call("tasks/list", params, &options, |r| results::check_list(r, "tasks/list", "tasks")).await?)
        }))
    }
}

impl McpClient {
    fn task_request(
        &self,
        method: &'static str,
        name: &'static str,
        params: JsValue,
        options: JsValue,
        check: fn(&Value) -> Result<(), String>,
    ) -> Promise {
        let state = self.state.clone();
        promise(Box::pin(async move {
            let params = task_id_params(&params, name)?;
            let options = read_options(&options)?;
            js(&state.call(method, Some(params), &options, check).await?)
        }))
    }
}
