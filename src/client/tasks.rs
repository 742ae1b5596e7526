//! Tasks (2025-11-25, experimental): a tool call that runs as a task, polled
//! to completion behind one awaitable call.

use super::connection::Client;
use super::events::{ClientEvent, EventHub, ListenerId, Notification};
use super::options::RequestOptions;
use super::requests::already_cancelled;
use super::state::{ClientState, Reply};
use crate::error::Error;
use crate::protocol::capabilities::declares;
use crate::protocol::jsonrpc::Params;
use crate::protocol::task_support::{TaskSupport, TOOL_CALL_TASKS};
use crate::protocol::types::{CallToolParams, CallToolResult};
use crate::protocol::{params, results};
use crate::session::{ConsentTime, ProgressListener};
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
    /// between them. A run that fails before the task ends (a cancellation, a
    /// timeout, a broken answer) leaves nobody to follow the task, so the
    /// server is asked to cancel it.
    pub(crate) async fn run_task(self: &Rc<Self>, params: Value, options: &TaskOptions) -> Result<Value, Error> {
        // Declared before the run, so dropped after it: an error, or the caller dropping this
        // future, leaves a task that still runs to nobody.
        let running = CancelUnfollowed { state: self, task: RefCell::default() };
        let run = self.run_task_unbounded(params, options, &running.task);
        match options.request.max_total_timeout_ms {
            Some(ms) => match self.within(ms, None, ConsentTime::Counts, run).await {
                Ok(ran) => ran,
                Err(error) => Err(error),
            },
            None => run.await,
        }
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

    /// Gives `params` a progress token (the caller's, if it set one) and sends the progress
    /// that names it to `listener` until the returned guard drops.
    fn follow_task_progress(&self, params: &mut Value, listener: ProgressListener) -> Option<FollowedProgress> {
        let meta = params.as_object_mut()?.entry("_meta").or_insert_with(|| json!({}));
        if !meta.is_object() {
            *meta = json!({});
        }
        let meta = meta.as_object_mut()?;
        // A `null` token is none, as in JS.
        if meta.get("progressToken").is_none_or(Value::is_null) {
            let unique = (self.context.runtime.random() * 9_007_199_254_740_991.0) as u64;
            meta.insert("progressToken".into(), json!(format!("task-{unique:x}")));
        }
        let token = meta.get("progressToken")?.clone();
        let id = self.events.listen(Rc::new(move |event| {
            if let ClientEvent::Notification(Notification { method, params: Some(progress) }) = event {
                if method == "notifications/progress" && progress.get("progressToken") == Some(&token) {
                    listener(progress);
                }
            }
        }));
        Some(FollowedProgress { events: self.events.clone(), id })
    }

    /// [`ClientState::run_task`] without its cap; the task's id is in `running` from its
    /// creation until it ends.
    async fn run_task_unbounded(
        self: &Rc<Self>,
        mut params: Value,
        options: &TaskOptions,
        running: &RefCell<Option<String>>,
    ) -> Result<Value, Error> {
        let request = &options.request;
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        // A tool listed as forbidding tasks is called plainly, as the spec asks of a client (a
        // server answers a task-augmented call of one with an error).
        if self.task_support(&name) == Some(TaskSupport::Forbidden) {
            return Ok(self.call_tool_plainly(&name, Params::Parsed(params), request).await?.into_value());
        }
        if self.settings.strict && !declares(&self.identity.borrow().capabilities, &TOOL_CALL_TASKS) {
            return Err(Error::Unsupported("tools/call as a task: the server did not declare tasks.requests.tools.call".into()));
        }
        // The task's progress comes with the tools/call's token for the task's whole life
        // (2025-11-25), long after that request has ended: a listener of the client's follows
        // it, and none of the requests asks for progress of its own.
        let _following = request.on_progress.clone().and_then(|listener| self.follow_task_progress(&mut params, listener));
        let request = &RequestOptions { on_progress: None, ..request.clone() };
        if let Some(fields) = params.as_object_mut() {
            fields.insert("task".into(), options.ttl_ms.map_or_else(|| json!({}), |ttl| json!({ "ttl": ttl })));
        }
        let created = self.request_reply("tools/call", Some(Params::Parsed(params)), request).await?;
        // A server that does not run this tool as a task runs the call at once (the spec lets
        // a receiver ignore the task field), and answers with its result.
        if created.value().get("task").is_none() && created.value().get("content").is_some() {
            self.check_call_tool(&name, &created).await?;
            return Ok(created.into_value());
        }
        let created = created.into_value();
        check_task(&created).map_err(Error::Protocol)?;
        let mut task = task_of(&created).clone();
        let task_id = task.get("taskId").and_then(Value::as_str).unwrap_or_default().to_owned();
        running.replace(Some(task_id.clone()));
        loop {
            if let Some(on_status) = &options.on_status {
                on_status(&task);
            }
            let status = task.get("status").and_then(Value::as_str).unwrap_or_default().to_owned();
            if matches!(status.as_str(), "completed" | "failed" | "cancelled") {
                running.take();
            }
            if matches!(status.as_str(), "completed" | "failed" | "cancelled" | "input_required") {
                // tasks/result waits for the end; an input_required task's
                // requests (elicitation, sampling) arrive on its stream and
                // go to the handlers. The end may be far off: past the
                // request's timeout, polling takes over again.
                let asked = self.request_reply("tasks/result", Some(json!({ "taskId": task_id }).into()), request).await;
                if !(status == "input_required" && matches!(asked, Err(Error::Timeout { .. }))) {
                    let result = asked?;
                    if status == "cancelled" {
                        return Err(Error::protocol(format!("the server cancelled task {task_id} of tool {name:?}")));
                    }
                    running.take();
                    self.check_call_tool(&name, &result).await?;
                    return Ok(result.into_value());
                }
            } else {
                let suggested = task.get("pollInterval").and_then(Value::as_f64).map(|ms| (ms as u32).clamp(MIN_POLL_MS, MAX_POLL_MS));
                let wait = options.poll_interval_ms.map(|ms| ms.max(MIN_POLL_MS)).or(suggested).unwrap_or(DEFAULT_POLL_MS);
                // A close wakes the wait: the poll after it fails with `closed`.
                let sleep = future::select(self.context.runtime.sleep(wait), Box::pin(self.session.closed()));
                if let Some(source) = &request.cancel {
                    if let Either::Right((reason, _)) = future::select(sleep, source()).await {
                        return Err(Error::Cancelled { reason });
                    }
                } else {
                    sleep.await;
                }
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

/// The id of a task while it runs; when this drops with one (the run
/// failed, or was dropped, before the task ended), the server is asked to
/// cancel that task.
struct CancelUnfollowed<'a> {
    state: &'a Rc<ClientState>,
    task: RefCell<Option<String>>,
}

impl Drop for CancelUnfollowed<'_> {
    fn drop(&mut self) {
        if let Some(task_id) = self.task.take() {
            self.state.cancel_in_background(task_id);
        }
    }
}

/// A task's progress, followed until this drops.
struct FollowedProgress {
    events: Rc<EventHub>,
    id: ListenerId,
}

impl Drop for FollowedProgress {
    fn drop(&mut self) {
        self.events.unlisten(self.id);
    }
}

impl Client {
    /// Calls a tool as a task (2025-11-25, experimental) and returns its final
    /// result, polling `tasks/get` and answering any input it asks for. The
    /// result is checked as [`Client::call_tool`] checks one; a server that
    /// runs the call at once answers with its result, and a tool that the
    /// last whole listing of the tools did not declare a task tool of
    /// (`execution.taskSupport` absent or `forbidden`) is called plainly. The
    /// options' `on_progress` hears the task's progress for its whole life. A
    /// call that fails while its task runs sends `tasks/cancel`: nothing
    /// follows the task any more.
    ///
    /// # Errors
    /// `unsupported` when strict and the server does not run tool calls as
    /// tasks; `cancelled`; `invalid-result` for a result that does not match
    /// the tool's `outputSchema`; the requests' errors.
    pub async fn call_tool_as_task(&self, params: CallToolParams, options: &TaskOptions) -> Result<CallToolResult, Error> {
        let result = self.call_tool_as_task_value(super::features::to_params(&params)?, options).await?;
        super::features::typed(result, "tools/call")
    }

    /// [`Client::call_tool_as_task`] in JSON: the params and the final
    /// result as plain values, for a caller that passes them on as they are.
    ///
    /// # Errors
    /// As [`Client::call_tool_as_task`]; `invalid-argument` for params
    /// without a `name`.
    pub async fn call_tool_as_task_value(&self, params: Value, options: &TaskOptions) -> Result<Value, Error> {
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
