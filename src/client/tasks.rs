//! Tasks (2025-11-25, experimental): a tool call that runs as a task, polled
//! to completion behind one awaitable call.

use super::connection::Client;
use super::options::RequestOptions;
use super::requests::already_cancelled;
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::capabilities::declares;
use crate::protocol::jsonrpc::Params;
use crate::protocol::{params, results};
use crate::session::ConsentTime;
use futures::future::{self, Either};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// How often to poll when the server suggests nothing.
const DEFAULT_POLL_MS: u32 = 1_000;
/// Polling faster than this helps nobody and loads the server.
const MIN_POLL_MS: u32 = 100;
/// A server's `pollInterval` is followed up to a minute: a longer one would
/// leave the call asleep, out of its timeout's reach, as long as the server
/// liked.
const MAX_POLL_MS: u32 = 60_000;

/// Hears a task's state on creation and after every poll.
pub type TaskStatusListener = Rc<dyn Fn(&Value)>;

/// How a tool call runs as a task.
#[derive(Clone, Default)]
pub struct TaskOptions {
    /// The call's options; cancelling them sends `tasks/cancel`.
    pub request: RequestOptions,
    /// How long the server should keep the task, in milliseconds.
    pub ttl_ms: Option<f64>,
    /// Poll this often, overriding the server's `pollInterval`.
    pub poll_interval_ms: Option<u32>,
    /// Told the task on creation and after every poll.
    pub on_status: Option<TaskStatusListener>,
}

impl std::fmt::Debug for TaskOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskOptions").field("ttl_ms", &self.ttl_ms).field("poll_interval_ms", &self.poll_interval_ms).finish()
    }
}

/// The task a result holds (`{ "task": … }`), or the result itself.
fn task_of(value: &Value) -> &Value {
    value.get("task").filter(|task| task.is_object()).unwrap_or(value)
}

/// Checks a task (or a result holding one): a string `taskId` and `status`.
pub(crate) fn check_task(value: &Value) -> Result<(), String> {
    let task = task_of(value);
    let ok = task.get("taskId").is_some_and(Value::is_string) && task.get("status").is_some_and(Value::is_string);
    ok.then_some(()).ok_or_else(|| "a task needs a string taskId and status".into())
}

impl ClientState {
    /// Runs `params` (a `tools/call`) as a task and returns its final result.
    /// `max_total_timeout_ms` caps the whole run, its polls and the waits
    /// between them; past it the task is given up as a cancellation gives it up.
    pub(crate) async fn run_task(self: &Rc<Self>, params: Value, options: &TaskOptions) -> Result<Value, Error> {
        let Some(ms) = options.request.max_total_timeout_ms else {
            return self.run_task_unbounded(params, options, &RefCell::default()).await;
        };
        let task_id = RefCell::default();
        let outcome = self.within(ms, None, ConsentTime::Counts, self.run_task_unbounded(params, options, &task_id)).await;
        if let (Err(_), Some(task_id)) = (&outcome, task_id.take()) {
            self.cancel_in_background(task_id);
        }
        outcome?
    }

    /// Sends `tasks/cancel` for `task_id` without waiting for its answer: a server that does
    /// not answer it must not hold the caller for the request's timeout.
    fn cancel_in_background(self: &Rc<Self>, task_id: String) {
        let state = Rc::clone(self);
        self.context.runtime.spawn(Box::pin(async move {
            let params = json!({ "taskId": task_id });
            let _ = state.request_reply("tasks/cancel", Some(params.into()), &RequestOptions::default()).await;
        }));
    }

    /// [`ClientState::run_task`] without its cap; the task's id goes into `started` once known.
    async fn run_task_unbounded(
        self: &Rc<Self>,
        mut params: Value,
        options: &TaskOptions,
        started: &RefCell<Option<String>>,
    ) -> Result<Value, Error> {
        let request = &options.request;
        if self.settings.strict && !declares(&self.identity.borrow().capabilities, &["tasks", "requests", "tools", "call"]) {
            return Err(Error::Unsupported("tools/call as a task: the server did not declare tasks.requests.tools.call".into()));
        }
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        if let Some(fields) = params.as_object_mut() {
            fields.insert("task".into(), options.ttl_ms.map_or_else(|| json!({}), |ttl| json!({ "ttl": ttl })));
        }
        let created = self.request_reply("tools/call", Some(Params::Parsed(params)), request).await?.into_value();
        check_task(&created).map_err(Error::Protocol)?;
        let mut task = task_of(&created).clone();
        let task_id = task.get("taskId").and_then(Value::as_str).unwrap_or_default().to_owned();
        started.replace(Some(task_id.clone()));
        loop {
            if let Some(on_status) = &options.on_status {
                on_status(&task);
            }
            let status = task.get("status").and_then(Value::as_str).unwrap_or_default().to_owned();
            if matches!(status.as_str(), "completed" | "failed" | "cancelled" | "input_required") {
                // tasks/result waits for the end; an input_required task's
                // requests (elicitation, sampling) arrive on its stream and
                // go to the handlers.
                let result = self.request_reply("tasks/result", Some(json!({ "taskId": task_id }).into()), request).await?.into_value();
                if status == "cancelled" {
                    return Err(Error::protocol(format!("the server cancelled task {task_id} of tool {name:?}")));
                }
                results::check_call_tool(&result).map_err(Error::Protocol)?;
                return Ok(result);
            }
            let suggested = task.get("pollInterval").and_then(Value::as_f64).map(|ms| (ms as u32).clamp(MIN_POLL_MS, MAX_POLL_MS));
            let wait = options.poll_interval_ms.map(|ms| ms.max(MIN_POLL_MS)).or(suggested).unwrap_or(DEFAULT_POLL_MS);
            // A close wakes the wait: the poll after it fails with `closed`.
            let sleep = future::select(self.context.runtime.sleep(wait), Box::pin(self.session.closed()));
            if let Some(source) = &request.cancel {
                if let Either::Right((reason, _)) = future::select(sleep, source()).await {
                    // Tell the server, and fail with the caller's reason at once.
                    self.cancel_in_background(task_id);
                    return Err(Error::Cancelled { reason });
                }
            } else {
                sleep.await;
            }
            if let Some(reason) = already_cancelled(request) {
                return Err(Error::Cancelled { reason });
            }
            let current = self.request_reply("tasks/get", Some(json!({ "taskId": task_id }).into()), request).await?.into_value();
            check_task(&current).map_err(Error::Protocol)?;
            task = task_of(&current).clone();
        }
    }
}

impl Client {
    /// Calls a tool as a task (2025-11-25, experimental) and returns its final
    /// result, polling `tasks/get` and answering any input it asks for.
    ///
    /// # Errors
    /// `unsupported` when strict and the server does not run tool calls as
    /// tasks; `cancelled` (after `tasks/cancel`); the requests' errors.
    pub async fn call_tool_as_task(&self, params: Value, options: &TaskOptions) -> Result<Value, Error> {
        params::check_call_tool(&params).map_err(Error::InvalidArgument)?;
        self.state.run_task(params, options).await
    }

    /// `tasks/get`, `tasks/result` or `tasks/cancel` for `task_id`.
    ///
    /// # Errors
    /// `invalid-argument` for another method; the request's error.
    pub async fn task_request(&self, method: &str, task_id: &str, options: &RequestOptions) -> Result<Value, Error> {
        let check: super::requests::ShapeCheck = match method {
            "tasks/get" | "tasks/cancel" => check_task,
            "tasks/result" => |r| results::check_object(r, "tasks/result"),
            _ => return Err(Error::invalid_argument(format!("{method} is not a task request"))),
        };
        self.state.request_shaped(method, Some(json!({ "taskId": task_id })), options, check).await
    }

    /// `tasks/list`: one page of the tasks the server keeps for this client.
    ///
    /// # Errors
    /// As [`Client::list_page_reply`].
    pub async fn list_tasks_reply(&self, params: Option<Value>, options: &RequestOptions) -> Result<Reply, Error> {
        if let Some(p) = &params {
            params::check_paginated(p).map_err(Error::InvalidArgument)?;
        }
        self.state.request_shaped_reply("tasks/list", params, options, |r| results::check_list(r, "tasks/list", "tasks")).await
    }
}
