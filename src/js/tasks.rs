//! Tasks for JS (2025-11-25, experimental): a tool call that runs as a task
//! behind one awaitable call, and the low-level task methods.

use super::client::{fail, promise, reply_to_js, McpClient};
use super::convert::{params_from_js, to_js};
use super::fields::{field, milliseconds};
use crate::client::{RequestOptions, TaskOptions};
use crate::error::Error;
use js_sys::{Function, Promise};
use serde_json::Value;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The `taskId` a task method needs.
fn task_id(value: &JsValue, method: &str) -> Result<String, Error> {
    match params_from_js(value, "params")? {
        Some(Value::Object(mut p)) => match p.remove("taskId") {
            Some(Value::String(id)) => Ok(id),
            _ => Err(Error::InvalidArgument(format!("{method} needs params.taskId as a string"))),
        },
        _ => Err(Error::InvalidArgument(format!("{method} needs params.taskId as a string"))),
    }
}

/// `ttl`, `pollInterval` and `ontaskstatus` from a `callToolAsTask` options bag.
fn task_options(options: &JsValue, request: RequestOptions, events: Weak<super::events::Events>) -> Result<TaskOptions, Error> {
    if options.is_undefined() || options.is_null() {
        return Ok(TaskOptions { request, ..TaskOptions::default() });
    }
    let ttl_ms = match field(options, "ttl") {
        None => None,
        Some(v) => match v.as_f64() {
            Some(ms) if ms.is_finite() && ms >= 0.0 => Some(ms),
            _ => return Err(Error::InvalidArgument("ttl must be a number of milliseconds, zero or more".into())),
        },
    };
    let on_status = match field(options, "ontaskstatus") {
        None => None,
        Some(v) => {
            let callback: Function = v.dyn_into().map_err(|_| Error::InvalidArgument("ontaskstatus must be a function".into()))?;
            let listener: crate::client::tasks::TaskStatusListener = Rc::new(move |task: &Value| {
                let value = to_js(task).unwrap_or(JsValue::UNDEFINED);
                if let (Err(thrown), Some(events)) = (callback.call1(&JsValue::UNDEFINED, &value), events.upgrade()) {
                    events.dispatch_error(&thrown);
                }
            });
            Some(listener)
        }
    };
    Ok(TaskOptions { request, ttl_ms, poll_interval_ms: milliseconds(options, "pollInterval")?, on_status })
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
        let (client, call) = (self.client.clone(), self.call(&options));
        let events = Rc::downgrade(&self.events);
        promise(Box::pin(async move {
            let call = call?;
            let params = params_from_js(&params, "params").map_err(fail)?;
            let params = params.ok_or_else(|| fail(Error::InvalidArgument("callToolAsTask needs params".into())))?;
            let task = task_options(&options, call.options.clone(), events).map_err(fail)?;
            let result = client.call_tool_as_task(params, &task).await.map_err(|e| call.reject(e))?;
            to_js(&result).map_err(fail)
        }))
    }

    /// `tasks/get`: a task's current state.
    #[wasm_bindgen(js_name = getTask, unchecked_return_type = "Promise<GetTaskResult>")]
    pub fn get_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ taskId: string }")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.task_request("tasks/get", "getTask", params, options)
    }

    /// `tasks/result`: waits for a task to end and returns its result.
    #[wasm_bindgen(js_name = getTaskResult, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn get_task_result(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ taskId: string }")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.task_request("tasks/result", "getTaskResult", params, options)
    }

    /// `tasks/cancel`: asks the server to cancel a task.
    #[wasm_bindgen(js_name = cancelTask, unchecked_return_type = "Promise<CancelTaskResult>")]
    pub fn cancel_task(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ taskId: string }")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        self.task_request("tasks/cancel", "cancelTask", params, options)
    }

    /// `tasks/list`: one page of the tasks the server keeps for this client.
    #[wasm_bindgen(js_name = listTasks, unchecked_return_type = "Promise<ListTasksResult>")]
    pub fn list_tasks(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PaginatedRequestParams")] params: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RequestOptions")] options: JsValue,
    ) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let params = params_from_js(&params, "params").map_err(fail)?;
            let reply = client.list_tasks_reply(params, &call.options).await.map_err(|e| call.reject(e))?;
            reply_to_js(&reply).map_err(fail)
        }))
    }
}

impl McpClient {
    fn task_request(&self, method: &'static str, name: &'static str, params: JsValue, options: JsValue) -> Promise {
        let (client, call) = (self.client.clone(), self.call(&options));
        promise(Box::pin(async move {
            let call = call?;
            let id = task_id(&params, name).map_err(fail)?;
            let result = client.task_request(method, &id, &call.options).await.map_err(|e| call.reject(e))?;
            to_js(&result).map_err(fail)
        }))
    }
}
