// Tasks (2025-11-25, experimental) on McpClient, in plain JS over `McpClient.request`: a tool call
// that runs as a task, polled to completion behind one awaitable call, and the low-level task
// methods. tasks.js loads this module the first time a page uses a task; the core module carries
// none of it. The Rust API's client::tasks (src/client/tasks.rs) keeps the same rules, and
// tests/node/tasks.test.mjs holds these to a server that runs tasks.
import { McpClientError, __restReady } from "./mcp_wasm.js";

// How often to poll when neither the caller nor the server says.
const DEFAULT_POLL_MS = 1_000;
// Polling faster than this helps nobody and loads the server.
const MIN_POLL_MS = 100;
// A server's pollInterval is followed up to a minute: a longer one would leave the call asleep,
// out of its timeout's reach, for as long as the server liked.
const MAX_POLL_MS = 60_000;
// The longest delay setTimeout keeps, as the core's own `milliseconds` options allow.
const MAX_TIMER_MS = 2_147_483_647;
// Statuses after which tasks/result answers at once (input_required: the task's questions arrive
// on that request's stream and go to the client's handlers).
const ENDED = new Set(["completed", "failed", "cancelled", "input_required"]);
// What a tool call as a task needs the server to declare, when the client checks capabilities.
const TOOL_CALL_TASKS = ["tasks", "requests", "tools", "call"];

const invalid = (message) => new McpClientError("invalid-argument", `invalid argument: ${message}`);
const broken = (message) => new McpClientError("protocol", `protocol error: ${message}`);
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** How a JSON value is named in messages, as the core names it. */
function kind(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return { boolean: "a boolean", number: "a number", string: "a string" }[typeof value] ?? "an object";
}

function objectResult(value, method) {
  if (!isObject(value)) throw broken(`the ${method} result is ${kind(value)}, not an object`);
  return value;
}

/** A task, or a result holding one: its string `taskId` and `status`, else a protocol error. */
function taskOf(value) {
  const task = isObject(value) && isObject(value.task) ? value.task : value;
  if (!isObject(task) || typeof task.taskId !== "string" || typeof task.status !== "string") {
    throw broken("a task needs a string taskId and status");
  }
  return task;
}

function checkTaskList(value) {
  const { nextCursor, tasks } = objectResult(value, "tasks/list");
  if (nextCursor !== undefined && nextCursor !== null && typeof nextCursor !== "string") {
    throw broken(`tasks/list.nextCursor is ${kind(nextCursor)}, not a string`);
  }
  if (tasks === undefined) throw broken("tasks/list: the result has no tasks array");
  if (!Array.isArray(tasks)) throw broken(`tasks/list: tasks is ${kind(tasks)}, not an array`);
  const stray = tasks.findIndex((task) => !isObject(task));
  if (stray >= 0) throw broken(`tasks/list: tasks[${stray}] is not an object`);
}

/** `params`, an object or nothing; what else would go out is refused as the core refuses it. */
function paramsObject(params) {
  if (params === undefined || params === null) return undefined;
  if (!isObject(params)) throw invalid(`params must be an object, not ${kind(params)}`);
  return params;
}

function milliseconds(options, name) {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !(value > 0 && value <= MAX_TIMER_MS)) {
    throw invalid(`${name} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days)`);
  }
  return Math.ceil(value);
}

/** `ttl`, `pollInterval`, `maxTotalTimeout`, `ontaskstatus` and `signal` of a callToolAsTask options bag. */
function taskOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") throw invalid("options must be an object");
  const { ttl, ontaskstatus, signal } = options;
  if (ttl !== undefined && !(typeof ttl === "number" && Number.isFinite(ttl) && ttl >= 0)) {
    throw invalid("ttl must be a number of milliseconds, zero or more");
  }
  if (ontaskstatus !== undefined && typeof ontaskstatus !== "function") throw invalid("ontaskstatus must be a function");
  // The task follows its progress itself, so the core does not see this option to check it.
  if (options.onprogress !== undefined && typeof options.onprogress !== "function") throw invalid("onprogress must be a function");
  return { ttl, ontaskstatus, signal, pollInterval: milliseconds(options, "pollInterval"), maxTotalTimeout: milliseconds(options, "maxTotalTimeout") };
}

/**
 * Watches `client` for its `close` event while a task call runs, so that a close between two
 * waits is not missed: `closed` says whether it came, and it calls `wake` when it does. `stop`
 * removes the listener.
 */
function watchClose(client) {
  const watch = { closed: false, wake: undefined };
  const closed = () => {
    watch.closed = true;
    watch.wake?.();
  };
  client.addEventListener("close", closed, { once: true });
  watch.stop = () => {
    try {
      client.removeEventListener("close", closed);
    } catch {
      // The client was freed meanwhile: nothing is left to remove.
    }
  };
  return watch;
}

/**
 * Waits `ms`, or less: false when `signal` aborts first, true when the time is up or the client
 * closes (its next request then fails with `closed`). The timer and the listener go either way.
 */
function sleep(watch, ms, signal) {
  return new Promise((resolve) => {
    let timer;
    const done = (slept) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      watch.wake = undefined;
      resolve(slept);
    };
    const aborted = () => done(false);
    if (signal?.aborted) return done(false);
    if (watch.closed) return done(true);
    timer = setTimeout(() => done(true), Math.min(ms, MAX_TIMER_MS));
    signal?.addEventListener("abort", aborted, { once: true });
    watch.wake = () => done(true);
  });
}

/** Tells `ontaskstatus`; a callback that throws, or rejects, is reported as the client's `error` event. */
function report(client, ontaskstatus, task) {
  if (ontaskstatus === undefined) return;
  try {
    const returned = ontaskstatus(task);
    if (typeof returned?.then === "function") returned.then(undefined, (thrown) => client.__reportError(thrown));
  } catch (thrown) {
    client.__reportError(thrown);
  }
}

// Progress tokens of tasks, unique in the page and apart from the core's numeric ones.
let tokens = 0;

/**
 * Follows a task's progress: the tools/call's token stays valid for the task's whole life
 * (2025-11-25), long after that request has ended, so a listener of the client's takes it rather
 * than the request. Gives the params to send, and what stops following.
 */
function followProgress(client, params, onprogress) {
  if (onprogress === undefined) return [params, () => {}];
  const meta = isObject(params._meta) ? params._meta : {};
  const token = meta.progressToken ?? `task-${++tokens}-${Math.random().toString(36).slice(2)}`;
  const listener = ({ params: progress }) => {
    if (progress?.progressToken !== token) return;
    try {
      onprogress(progress);
    } catch (thrown) {
      client.__reportError(thrown);
    }
  };
  client.addEventListener("notifications/progress", listener);
  const stop = () => {
    try {
      client.removeEventListener("notifications/progress", listener);
    } catch {
      // The client was freed meanwhile: nothing is left to remove.
    }
  };
  return [{ ...params, _meta: { ...meta, progressToken: token } }, stop];
}

export async function callToolAsTask(client, params, options) {
  const { ttl, ontaskstatus, signal, pollInterval, maxTotalTimeout } = taskOptions(options);
  if (paramsObject(params) === undefined) throw invalid("callToolAsTask needs params");
  const { name } = params;
  if (typeof name !== "string") throw invalid("callTool needs params.name, the tool's name as a string");
  if (params.arguments !== undefined && params.arguments !== null && !isObject(params.arguments)) {
    throw invalid("params.arguments must be an object");
  }
  // A tool that the last whole listing of the tools did not declare a task tool of must not be
  // called as one (2025-11-25; its server answers with an error): it is called plainly.
  if (__restReady() && client.__taskSupport(name) === "forbidden") return client.callTool(params, options);
  // maxTotalTimeout caps the whole call, its polls and the waits between them: each request is
  // given what is left of it.
  const deadline = maxTotalTimeout === undefined ? undefined : Date.now() + maxTotalTimeout;
  const left = () => (deadline === undefined ? Infinity : deadline - Date.now());
  const own = options?.onprogress === undefined ? options : { ...options, onprogress: undefined };
  const bounded = () => (deadline === undefined ? own : { ...own, maxTotalTimeout: Math.max(Math.ceil(left()), 1) });
  const [sent, stopFollowing] = followProgress(client, params, options?.onprogress);
  const closing = watchClose(client);
  // The task's id while it runs: a call that fails then leaves nobody to follow the task, so it
  // is given up.
  let running;
  const outOfTime = () => new McpClientError("timeout", `request timed out after ${maxTotalTimeout} ms`);
  // The result, checked as callTool checks one (its shape, then the tool's outputSchema).
  const checked = async (result) => {
    await client.__checkToolResult(name, result);
    return result;
  };
  try {
    const created = await client.request("tools/call", { ...sent, task: ttl === undefined ? {} : { ttl } }, own, TOOL_CALL_TASKS);
    // A server that does not run this tool as a task runs the call at once (the spec lets a
    // receiver ignore the task field), and answers with its result.
    if (isObject(created) && created.task === undefined && created.content !== undefined) return await checked(created);
    let task = taskOf(created);
    const { taskId } = task;
    running = taskId;
    for (;;) {
      // Read before the callback sees the task, which it may change.
      const { status, pollInterval: suggested } = task;
      report(client, ontaskstatus, task);
      if (status === "completed" || status === "failed" || status === "cancelled") running = undefined;
      if (ENDED.has(status)) {
        // An input_required task's end may be far off: past the request's timeout, polling takes over again.
        const ended = await client.request("tasks/result", { taskId }, bounded(), true).then((result) => ({ result }), (error) => {
          if (status === "input_required" && error?.kind === "timeout" && left() > 0) return undefined;
          throw error;
        });
        if (ended !== undefined) {
          if (status === "cancelled") throw broken(`the server cancelled task ${taskId} of tool ${JSON.stringify(name)}`);
          running = undefined;
          return await checked(ended.result);
        }
      } else {
        const fromServer = typeof suggested === "number" ? Math.min(Math.max(suggested, MIN_POLL_MS), MAX_POLL_MS) : undefined;
        const wait = pollInterval === undefined ? (fromServer ?? DEFAULT_POLL_MS) : Math.max(pollInterval, MIN_POLL_MS);
        if (!(await sleep(closing, Math.min(wait, Math.max(left(), 0)), signal))) throw signal.reason;
        if (left() <= 0) throw outOfTime();
      }
      // An abort that came as the wait ended: this request rejects with its reason before sending.
      task = taskOf(await client.request("tasks/get", { taskId }, bounded(), true));
    }
  } catch (error) {
    if (running !== undefined) client.request("tasks/cancel", { taskId: running }, undefined, true).catch(() => {});
    // A request that ran into the cap ends the call as the cap does.
    throw error?.kind === "timeout" && left() <= 0 ? outOfTime() : error;
  } finally {
    stopFollowing();
    closing.stop();
  }
}

function taskRequest(client, method, name, params, options) {
  const { taskId } = paramsObject(params) ?? {};
  if (typeof taskId !== "string") throw invalid(`${name} needs params.taskId as a string`);
  return client.request(method, { taskId }, options, true);
}

export async function getTask(client, params, options) {
  const result = await taskRequest(client, "tasks/get", "getTask", params, options);
  taskOf(result);
  return result;
}

export async function getTaskResult(client, params, options) {
  return objectResult(await taskRequest(client, "tasks/result", "getTaskResult", params, options), "tasks/result");
}

export async function cancelTask(client, params, options) {
  const result = await taskRequest(client, "tasks/cancel", "cancelTask", params, options);
  taskOf(result);
  return result;
}

export async function listTasks(client, params, options) {
  const given = paramsObject(params);
  if (given?.cursor !== undefined && given.cursor !== null && typeof given.cursor !== "string") {
    throw invalid("params.cursor must be a string");
  }
  const result = await client.request("tasks/list", given, options, true);
  checkTaskList(result);
  return result;
}
