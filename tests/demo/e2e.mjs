// The demo (www/) end to end in headless Chromium, driven like a user, against
// the bundled server-everything (scripts/peers.sh) and, started here, a hostile
// server (tests/peers/hostile-server.mjs) and a scripted LLM endpoint speaking
// the OpenAI, Anthropic and Gemini wire shapes (tests/peers/scripted-llm.mjs).
// The OAuth sign-in uses the oauth peer. The hostile server's /limits endpoint pushes
// on the page's bounds (see limits() below). Last, the page is built into a static
// folder (scripts/build-www.mjs) and driven from Python's plain http.server.
//
//   node tests/demo/e2e.mjs                       # needs the built pkg/ and the peers
//   SCREENSHOTS=update node tests/demo/e2e.mjs    # also refreshes docs/screenshots/
//
// Screenshots of the main views go to test-results/demo/. Prints `ok <check>` per
// check and `demo: N checks passed`; exits 0 or 1.
import { spawn, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkList, openBrowser, releaseBrowser } from "../support/browser.mjs";
import { startPeer } from "../support/peer-process.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let APP; // the page's origin, on a port the OS picks
const EVERYTHING = process.env.MCP_TEST_URL || "http://127.0.0.1:38011/mcp";
const OAUTH = `${process.env.MCP_OAUTH_TEST_URL || "http://127.0.0.1:38060"}/mcp`;
// The hostile server and the scripted model listen on ports the OS picks (a fixed
// port can be taken by an outgoing connection's ephemeral port).
let HOSTILE_PORT;
let LLM_PORT;
const OUT = path.join(repo, "test-results/demo");
const STEP_TIMEOUT_MS = 20_000;
const OVERALL_TIMEOUT_MS = 240_000;

const browser = {};
const children = [];
const { check, count } = checkList();

async function finish(error) {
  if (error) console.log(`FAIL demo: ${error.message}`);
  else console.log(`demo: ${count()} checks passed`);
  await releaseBrowser(browser);
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(error ? 1 : 0);
}
const overall = setTimeout(() => finish(new Error(`overall timeout after ${OVERALL_TIMEOUT_MS} ms`)), OVERALL_TIMEOUT_MS);


// Starts a peer script on a free port and resolves with the port.
async function peer(script) {
  const { child, port } = await startPeer(script);
  children.push(child);
  return port;
}

async function shot(page, name) {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
}

async function openPage(ctx, query) {
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${APP}/?${query}`);
  await page.waitForFunction(() => ["connected", "error"].includes(document.querySelector("[data-testid=status]")?.dataset.state));
  return { page, errors };
}

// The names of the tools/call requests the page sends to server-everything, as
// they leave the browser: what the server sees, whatever the page shows.
function sentToolCalls(page) {
  const sent = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || request.url() !== EVERYTHING) return;
    const body = request.postDataJSON();
    if (body?.method === "tools/call") sent.push(body.params?.name);
  });
  return sent;
}

// Counts the tool-approval dialogs the page opens, in window.__approvalDialogs.
function countApprovalDialogs(page) {
  return page.evaluate(() => {
    window.__approvalDialogs = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) if (node.dataset?.testid === "tool-approval-dialog") window.__approvalDialogs += 1;
      }
    }).observe(document.body, { childList: true });
  });
}

async function chatSay(page, text) {
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("chat-send").click();
}

// What the scripted LLM endpoint was sent, oldest first.
async function llmRequests() {
  return (await fetch(`http://127.0.0.1:${LLM_PORT}/__requests`)).json();
}

async function configureLlm(page, provider, base) {
  await page.getByTestId("llm-provider").selectOption(provider);
  await page.getByTestId("llm-base").fill(`http://127.0.0.1:${LLM_PORT}${base}`);
  await page.getByTestId("llm-model").fill("scripted-1");
  await page.getByTestId("llm-key").fill(`key-for-${provider}`);
  await page.getByTestId("llm-save").click();
}

// The Anthropic and Gemini APIs through the chat: a denied call, then one allowed once, each
// against server-everything; the request shapes are the APIs' own.
async function chatWithProvider(page, toolCallsSent, { provider, base, path, offered, key }) {
  await configureLlm(page, provider, base);
  check(await page.getByTestId("chat").evaluate((list) => list.children.length) === 0, `${provider}: a new API starts a new chat`);
  const before = (await llmRequests()).length;
  const sentBefore = toolCallsSent.length;
  await chatSay(page, "What is 2 + 3, if I let you?");
  await page.getByTestId("tool-approval-dialog").waitFor();
  await page.getByTestId("tool-deny").click();
  await chatAnswers(page, 1);
  check(toolCallsSent.length === sentBefore && /refused this tool call/.test(await page.getByTestId("chat-assistant").last().innerText()),
    `${provider}: a denied call never reaches the server, and the model is told`);
  await chatSay(page, "What is 2 + 3?");
  await page.getByTestId("tool-approval-dialog").waitFor();
  check(await page.getByTestId("tool-approval-tool").textContent() === "everything__get-sum", `${provider}: the call waits for the user`);
  await page.getByTestId("tool-allow-once").click();
  await chatAnswers(page, 2);
  check((await page.getByTestId("chat-assistant").last().innerText()).includes("The sum of 2 and 3 is 5") && toolCallsSent.length === sentBefore + 1,
    `${provider}: the tool call reaches server-everything and the model answers from its result`);
  const sent = (await llmRequests()).slice(before);
  check(sent.length === 4 && sent.every((r) => r.api === provider && r.path === path && r.apiKey === key) && offered(sent[0].body),
    `${provider}: every request is in the API's wire shape, with the tools and the key`, JSON.stringify(sent.map((r) => [r.api, r.path, r.apiKey])));
}

// Waits for the chat's `count`th answer.
function chatAnswers(page, count) {
  return page.waitForFunction((n) => document.querySelectorAll("[data-testid=chat-assistant]").length >= n, count);
}

const tool = (page, name) => page.locator(`[data-testid=tool-item][data-name="${name}"] button`);
const resultState = (page) => page.getByTestId("result").getAttribute("data-state");
async function waitResult(page) {
  await page.waitForFunction(() => ["ok", "tool-error", "error", "cancelled"].includes(document.querySelector("[data-testid=result]")?.dataset.state));
  return { state: await resultState(page), text: await page.getByTestId("result").innerText() };
}

async function mainFlow(ctx) {
  const { page, errors } = await openPage(ctx, `server=${encodeURIComponent(EVERYTHING)}`);
  check(await page.getByTestId("status").getAttribute("data-state") === "connected", "the page connects by itself", await page.getByTestId("status").textContent());
  await page.waitForSelector("[data-testid=tool-item]");
  check(await tool(page, "everything__get-sum").count() === 1, "the tools are listed under qualified names");

  await page.getByTestId("tab-servers").click();
  const server = page.locator("[data-testid=server][data-name=everything]");
  check(await server.getAttribute("data-status") === "connected" && await server.getByTestId("server-transport").textContent() === "streamable-http"
    && await server.getByTestId("server-era").textContent() === "legacy", "the chosen transport and era are shown");

  // A generated form: validation, then a call with progress.
  await page.getByTestId("tab-tools").click();
  await tool(page, "everything__echo").click();
  await page.getByTestId("call").click();
  check(/Required/.test(await page.getByTestId("call-form").innerText()), "a required field left empty shows a message");
  await page.locator("[data-field=message]").fill("hello from the form");
  await page.getByTestId("call").click();
  check((await waitResult(page)).text.includes("hello from the form"), "the form's values reach the tool");

  await tool(page, "everything__trigger-long-running-operation").click();
  await page.locator("[data-field=duration]").fill("2");
  await page.locator("[data-field=steps]").fill("4");
  await page.getByTestId("call").click();
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=progress]")?.dataset.count ?? 0) >= 2);
  check(/\d \/ 4/.test(await page.getByTestId("progress-text").textContent()), "progress is shown while the call runs");
  await shot(page, "tools-progress");
  const long = await waitResult(page);
  check(long.state === "ok" && /completed/i.test(long.text), "the long call completes", long.text.slice(0, 120));

  // Cancel a long call.
  await page.locator("[data-field=duration]").fill("60");
  await page.locator("[data-field=steps]").fill("60");
  await page.getByTestId("call").click();
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=progress]")?.dataset.count ?? 0) >= 1);
  const cancelledAt = Date.now();
  await page.getByTestId("cancel").click();
  const cancelled = await waitResult(page);
  check(cancelled.state === "cancelled" && Date.now() - cancelledAt < 5000, "a long call is cancelled at once");

  // Raw JSON mode.
  await tool(page, "everything__get-sum").click();
  await page.getByTestId("raw-mode").check();
  await page.getByTestId("raw-args").fill('{"a": 20, "b": 22}');
  await page.getByTestId("call").click();
  check((await waitResult(page)).text.includes("42"), "raw JSON arguments work beside the form");

  // structuredContent as a tree, an image from a data URI.
  await tool(page, "everything__get-structured-content").click();
  await page.locator("[data-field=location]").selectOption({ index: 1 });
  await page.getByTestId("call").click();
  await waitResult(page);
  check(await page.getByTestId("structured").count() === 1, "structuredContent is shown as a tree");
  await tool(page, "everything__get-tiny-image").click();
  await page.getByTestId("call").click();
  await waitResult(page);
  check(/^data:image\/png;base64,/.test(await page.getByTestId("content-image").getAttribute("src")), "an image is shown from its data URI");
  await shot(page, "tools");

  // Nested objects and arrays in a generated form (the page's own module, on a schema of our own).
  const nested = await page.evaluate(async () => {
    const { schemaForm } = await import("/js/schema-form.js");
    const form = schemaForm({ type: "object", required: ["trip"], properties: {
      trip: { type: "object", required: ["city"], properties: { city: { type: "string" }, nights: { type: "integer", minimum: 1, default: 2 } } },
      stops: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
      tags: { type: "array", items: { enum: ["a", "b", "c"] } },
    } });
    document.body.append(form.element);
    const empty = form.read();
    form.element.querySelector("[data-field=city]").value = "Lyon";
    [...form.element.querySelectorAll("button")].find((b) => b.textContent === "Add item").click();
    form.element.querySelector("[data-field=stops] [data-field=name]").value = "Dijon";
    form.element.querySelectorAll("[data-field=tags] input")[1].checked = true;
    const filled = form.read();
    form.element.remove();
    return { errors: empty.errors, value: filled.value };
  });
  check(nested.errors.some((e) => /city: Required/.test(e)), "a nested required field is checked", nested.errors.join());
  check(JSON.stringify(nested.value) === JSON.stringify({ trip: { city: "Lyon", nights: 2 }, stops: [{ name: "Dijon" }], tags: ["b"] }),
    "nested objects and arrays are read back", JSON.stringify(nested.value));

  // Sampling, approved by the user with an edited reply.
  await tool(page, "everything__trigger-sampling-request").click();
  await page.locator("[data-field=prompt]").fill("Say hi");
  await page.getByTestId("call").click();
  const sampling = page.getByTestId("sampling-dialog");
  await sampling.waitFor();
  check((await sampling.innerText()).includes("Say hi"), "the sampling request is shown to the user");
  await page.getByTestId("sampling-reply").fill("Hi from the human in the loop");
  await shot(page, "sampling");
  await page.getByTestId("sampling-approve").click();
  check((await waitResult(page)).text.includes("Hi from the human in the loop"), "the approved reply reaches the server");

  // Elicitation as a generated form.
  await tool(page, "everything__trigger-elicitation-request").click();
  await page.getByTestId("call").click();
  const elicitation = page.getByTestId("elicitation-dialog");
  await elicitation.waitFor();
  const labels = await elicitation.locator("label").allInnerTexts();
  check(labels[0]?.startsWith("String") && labels.some((l) => /Integer/.test(l)), "the elicitation form follows the requested schema", labels.slice(0, 3).join(" | "));
  await elicitation.locator("[data-field=name]").fill("Ada Lovelace");
  await elicitation.locator("[data-field=email]").fill("ada@example.com");
  await shot(page, "elicitation");
  await page.getByTestId("elicitation-accept").click();
  check((await waitResult(page)).text.includes("Ada Lovelace"), "the elicitation answer reaches the server");

  // URL mode: the page opens only once the user agrees.
  const target = `${APP}/callback.html?from=url-elicitation`;
  await tool(page, "everything__trigger-url-elicitation").click();
  await page.locator("[data-field=url]").fill(target);
  const pagesBefore = ctx.pages().length;
  await page.getByTestId("call").click();
  await page.getByTestId("elicitation-dialog").waitFor();
  check(await page.getByTestId("elicitation-url").textContent() === target && ctx.pages().length === pagesBefore, "a URL request shows the URL and opens nothing yet");
  const opened = ctx.waitForEvent("page");
  await page.getByTestId("elicitation-open").click();
  const tab = await opened;
  check(tab.url() === target || (await tab.waitForURL(target).then(() => true)), "the URL opens after the user agrees");
  await tab.close();
  check(/accept/i.test((await waitResult(page)).text), "and the server hears accept");

  // A resource read, then a subscription update as it arrives.
  await tool(page, "everything__toggle-subscriber-updates").click();
  await page.getByTestId("call").click();
  await waitResult(page);
  await page.getByTestId("tab-resources").click();
  await page.locator("[data-testid=resource-item] button").first().click();
  await page.waitForFunction(() => document.querySelector("[data-testid=resource-contents]")?.dataset.state === "ok");
  check((await page.getByTestId("resource-text").first().innerText()).length > 0, "a resource is read and previewed");
  check(await page.getByTestId("download").count() > 0, "it can be downloaded");
  await page.getByTestId("subscribe").click();
  await page.waitForSelector("[data-testid=update]", { timeout: 15_000 });
  check(true, "a subscription update arrives and is shown");
  await shot(page, "resources");

  // Template argument completion.
  await page.locator("[data-testid=template-item] summary").first().click();
  const variable = page.locator("[data-testid=template-item] input").first();
  await variable.pressSequentially("1");
  await page.waitForFunction(() => (document.querySelector("[data-testid=template-item] input")?.dataset.completions ?? "").length > 0);
  check(true, "a template argument is completed by the server");

  // A prompt with completion.
  await page.getByTestId("tab-prompts").click();
  await page.locator('[data-testid=prompt-item][data-name="everything__args-prompt"] button').click();
  await page.getByTestId("arg-city").fill("Paris");
  await page.getByTestId("get-prompt").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=prompt-result]")?.dataset.state === "ok");
  check((await page.getByTestId("prompt-messages").innerText()).includes("Paris"), "a prompt is rendered with its argument");
  await page.locator('[data-testid=prompt-item][data-name="everything__completable-prompt"] button').click();
  await page.getByTestId("arg-department").pressSequentially("E");
  await page.waitForFunction(() => (document.querySelector("[data-testid=arg-department]")?.dataset.completions ?? "").includes("Engineering"));
  check(true, "a prompt argument is completed by the server");
  await shot(page, "prompts");

  // Roots: edited, saved (the server is told), and what the server then sees.
  await page.getByTestId("tab-roots").click();
  await page.getByTestId("root-uri").first().fill("file:///home/ada/notes");
  await page.getByTestId("save-roots").click();
  await page.waitForFunction(() => /told everything/.test(document.querySelector("[data-testid=roots-status]")?.textContent ?? ""));
  await page.getByTestId("tab-tools").click();
  await tool(page, "everything__get-roots-list").click();
  await page.getByTestId("call").click();
  check((await waitResult(page)).text.includes("file:///home/ada/notes"), "edited roots reach the server");

  // Logs, filtered by level.
  await page.getByTestId("tab-logs").click();
  check(await page.getByTestId("log-entry").count() > 0, "notifications reach the logs console");
  await page.getByTestId("log-filter").selectOption("emergency");
  const shown = await page.locator("[data-testid=log-entry][data-level]:not([data-level='']):visible").count();
  const emergencies = await page.locator("[data-testid=log-entry][data-level=emergency]").count();
  check(shown === emergencies, "the level filter hides lower levels");
  await page.getByTestId("log-filter").selectOption("debug");
  await shot(page, "logs");

  // Chat with a scripted model: it calls a tool once the user allows it, sees the result, answers.
  const toolCallsSent = sentToolCalls(page);
  await countApprovalDialogs(page);
  await page.getByTestId("tab-chat").click();
  await page.getByTestId("llm-base").fill(`http://127.0.0.1:${LLM_PORT}/v1`);
  await page.getByTestId("llm-model").fill("scripted-1");
  await page.getByTestId("llm-key").fill("sk-test");
  await page.getByTestId("llm-save").click();
  check(await page.getByTestId("llm-provider").inputValue() === "openai-chat", "the chat speaks OpenAI Chat Completions unless told otherwise");
  await chatSay(page, "What is 2 + 3?");
  const approval = page.getByTestId("tool-approval-dialog");
  await approval.waitFor();
  const sentBeforeApproval = toolCallsSent.length;
  await page.waitForTimeout(200);
  check(toolCallsSent.length === sentBeforeApproval && await page.getByTestId("tool-approval-server").textContent() === "everything"
    && await page.getByTestId("tool-approval-url").textContent() === EVERYTHING
    && await page.getByTestId("tool-approval-tool").textContent() === "everything__get-sum" && /"a": 2/.test(await page.getByTestId("tool-approval-arguments").textContent()),
  "a tool call waits for the user, who sees its server and the server's URL, tool and arguments");
  await page.getByTestId("tool-allow-once").click();
  await chatAnswers(page, 1);
  const call = page.locator("[data-testid=chat-tool-call]");
  check(await call.getAttribute("data-name") === "everything__get-sum" && (await call.innerText()).includes("The sum of 2 and 3 is 5"), "the model's tool call shows inline with its result");
  check((await page.getByTestId("chat-assistant").innerText()).includes("The sum of 2 and 3 is 5"), "the model answers from the tool's result");
  const seen = await llmRequests();
  check(seen.length === 2 && seen[0].body.tools.some((t) => t.function.name === "everything__get-sum") && seen[0].authorization === "Bearer sk-test",
    "the endpoint got every tool and the key");
  check(await page.evaluate(() => localStorage.length === 0 && sessionStorage.length > 0), "the key stays in sessionStorage unless asked");
  check(toolCallsSent.length === sentBeforeApproval + 1, "the call allowed once reached the server");

  // A tool allowed for the chat is not asked about again, until the chat is cleared.
  await chatSay(page, "And 2 + 3 again?");
  await approval.waitFor();
  await page.getByTestId("tool-allow-chat").click();
  await chatAnswers(page, 2);
  await chatSay(page, "Once more?");
  await chatAnswers(page, 3);
  check(await page.evaluate(() => window.__approvalDialogs) === 2 && toolCallsSent.length === sentBeforeApproval + 3,
    "a tool allowed for the chat runs again without asking");
  await page.getByTestId("chat-clear").click();
  check(await page.getByTestId("chat").evaluate((list) => list.children.length) === 0, "clearing the chat empties the transcript");

  // Denied: the server never sees the call; the transcript and the model say it was refused.
  const sentBeforeDenial = toolCallsSent.length;
  await chatSay(page, "What is 2 + 3, if I let you?");
  await approval.waitFor();
  check(await page.evaluate(() => window.__approvalDialogs) === 3, "after clearing, the tool is asked about again");
  await page.getByTestId("tool-deny").click();
  await chatAnswers(page, 1);
  const refused = page.locator("[data-testid=chat-tool-call][data-refused=true]");
  check(await refused.count() === 1 && await refused.getAttribute("data-name") === "everything__get-sum" && /Refused by you/.test(await refused.innerText()),
    "a denied call shows in the transcript as refused");
  check(toolCallsSent.length === sentBeforeDenial, "a denied call never reaches the server", toolCallsSent.slice(sentBeforeDenial).join());
  check((await page.getByTestId("chat-assistant").innerText()).includes("The user refused this tool call"), "the model is told the user refused");

  // The same, over Anthropic's Messages API and Gemini's generateContent.
  await chatWithProvider(page, toolCallsSent, { provider: "anthropic", base: "/v1", path: "/v1/messages", key: "key-for-anthropic",
    offered: (body) => body.max_tokens > 0 && body.tools.some((t) => t.name === "everything__get-sum" && t.input_schema?.type === "object") });
  await chatWithProvider(page, toolCallsSent, { provider: "gemini", base: "/v1beta", path: "/v1beta/models/scripted-1:generateContent", key: "key-for-gemini",
    offered: (body) => Array.isArray(body.contents) && body.tools[0].functionDeclarations.some((d) => d.name === "everything__get-sum") });

  // With a model configured, it drafts the sampling reply for the user to approve.
  await page.getByTestId("tab-tools").click();
  await tool(page, "everything__trigger-sampling-request").click();
  await page.locator("[data-field=prompt]").fill("Write a haiku");
  await page.getByTestId("call").click();
  await page.getByTestId("sampling-dialog").waitFor();
  await page.getByRole("button", { name: "Draft with model" }).click();
  await page.waitForFunction(() => document.querySelector("[data-testid=sampling-reply]")?.value.startsWith("Drafted:"));
  await page.getByTestId("sampling-approve").click();
  const drafted = (await waitResult(page)).text;
  check(/Drafted: .*Write a haiku/.test(drafted) && (await llmRequests()).at(-1).api === "gemini",
    "a model drafts the sampling reply over the chosen API, the user approves it", drafted.slice(0, 300));
  await page.getByTestId("tab-chat").click();
  await shot(page, "chat");

  // The protocol trace: every message both ways, filtered, copied as JSON, bounded.
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: APP });
  await page.getByTestId("tab-trace").click();
  const traced = page.locator("[data-testid=trace-entry]");
  const outMethods = await page.locator("[data-testid=trace-entry][data-direction=out]").evaluateAll((rows) => rows.map((r) => r.dataset.method));
  check(await traced.count() > 50 && await page.locator("[data-testid=trace-entry][data-direction=in]").count() > 0
    && outMethods.indexOf("initialize") >= 0 && outMethods.indexOf("initialize") < outMethods.indexOf("tools/list"),
  "the trace lists the messages both ways, the handshake first", outMethods.slice(0, 4).join());
  await page.getByTestId("trace-direction").selectOption("out");
  await page.getByTestId("trace-method").fill("tools/call");
  const calls = await traced.evaluateAll((rows) => rows.map((r) => [r.dataset.direction, r.dataset.method, r.dataset.server]));
  check(calls.length >= 8 && calls.every(([d, m, server]) => d === "out" && m === "tools/call" && server === "everything"),
    "filtered by direction and method, only the tools/call requests show", JSON.stringify(calls.slice(0, 3)));
  await traced.last().getByTestId("trace-copy").click();
  await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=trace-copy]")].some((b) => b.textContent === "Copied"));
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  await traced.last().getByTestId("trace-toggle").click();
  const shownJson = JSON.parse(await traced.last().getByTestId("trace-json").textContent());
  check(copied.method === "tools/call" && copied.jsonrpc === "2.0" && JSON.stringify(copied) === JSON.stringify(shownJson),
    "a message is copied as its JSON", JSON.stringify(copied).slice(0, 200));
  await page.getByTestId("trace-direction").selectOption("");
  const answered = await traced.evaluateAll((rows) => rows.filter((r) => r.dataset.direction === "in").map((r) => r.querySelector(".method").textContent));
  check(answered.length >= 8 && answered.every((label) => /^tools\/call (result|error) #\d+$/.test(label)),
    "each response is labelled with the request it answers", answered.slice(0, 3).join());
  await page.getByTestId("trace-method").fill("tools/call");
  await traced.nth(2).getByTestId("trace-toggle").click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "trace");
  await page.getByTestId("trace-method").fill("");
  // A chatty client: 600 pings are 1200 messages, and the pane keeps the last 1000.
  await page.evaluate(async () => {
    const client = window.inspector.host.client("everything");
    for (let i = 0; i < 600; i++) await client.ping();
  });
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=trace-entry]").length === 1000);
  // How many messages came before the pings depends on the server's own notifications, so the
  // oldest kept is checked against the newest: the last 1000, consecutive, 200 or more dropped. The
  // three are read at once: a notification the server sends meanwhile moves the ring on.
  const [oldest, newest, count] = await page.evaluate(() => {
    const rows = document.querySelectorAll("[data-testid=trace-entry]");
    return [Number(rows[0]?.dataset.seq), Number(rows[rows.length - 1]?.dataset.seq), document.querySelector("[data-testid=trace-count]")?.textContent];
  });
  check(newest - oldest === 999 && oldest >= 200 && /^1000 of 1000 /.test(count),
    "the trace is a ring of 1000 messages", `${oldest}..${newest} ${count}`);

  // Keyboard: arrow keys move between tabs.
  await page.getByTestId("tab-trace").focus();
  await page.keyboard.press("ArrowRight");
  check(await page.getByTestId("tab-servers").getAttribute("aria-selected") === "true", "the tabs work from the keyboard");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("tab-tools").click();
  await shot(page, "narrow");
  check(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), "the layout fits a narrow screen");
  check(errors.length === 0, "no page errors", errors.join(" | "));
  await page.close();
}

// Several servers at once, one of them behind OAuth, signed in through the popup.
async function oauthAndSeveral(ctx) {
  const { page } = await openPage(ctx, `server=${encodeURIComponent(EVERYTHING)}&view=servers`);
  await page.getByTestId("server-url").fill(OAUTH);
  await page.getByTestId("server-name").fill("secure");
  await page.getByTestId("server-oauth").check();
  const popupOpened = ctx.waitForEvent("page");
  await page.getByTestId("connect").click();
  const popup = await popupOpened;
  await popup.click("[data-testid=allow]");
  await page.waitForSelector("[data-testid=server][data-name=secure][data-status=connected]");
  check(await page.locator("[data-testid=server]").count() === 2, "two servers side by side, each with its status");
  await page.getByTestId("tab-tools").click();
  await tool(page, "secure__whoami").click();
  await page.getByTestId("call").click();
  check(/client_id=client-/.test((await waitResult(page)).text), "the OAuth popup sign-in authorizes the server's tools");

  // Servers are named by their serverInfo.name, made unique; the user can rename one.
  await page.getByTestId("tab-servers").click();
  await page.getByTestId("server-url").fill(EVERYTHING);
  await page.getByTestId("connect").click();
  await page.waitForSelector("[data-testid=server][data-name=everything-2][data-status=connected]");
  check(await page.locator("[data-testid=server]").evaluateAll((rows) => rows.map((r) => r.dataset.name).join()) === "everything,secure,everything-2",
    "a second server with the same serverInfo.name gets a unique name");
  await page.locator("[data-testid=server][data-name=everything-2]").getByTestId("server-rename").click();
  await page.getByTestId("server-rename-input").fill("not a name!");
  await page.getByTestId("server-rename-save").click();
  check(await page.locator("[data-testid=server][data-name=everything-2]").count() === 1, "a name LLM APIs would refuse is not taken");
  await page.getByTestId("server-rename-input").fill("backup");
  await page.getByTestId("server-rename-save").click();
  await page.waitForSelector("[data-testid=server][data-name=backup][data-status=connected]");
  await shot(page, "servers");
  await page.getByTestId("tab-tools").click();
  check(await tool(page, "backup__get-sum").count() === 1 && await page.locator('[data-testid=tool-item][data-name^="everything-2__"]').count() === 0,
    "a renamed server's tools follow its new name");
  await tool(page, "backup__get-sum").click();
  await page.getByTestId("raw-mode").check();
  await page.getByTestId("raw-args").fill('{"a": 1, "b": 1}');
  await page.getByTestId("call").click();
  check((await waitResult(page)).text.includes("2"), "and are called on it");
  await page.getByTestId("tab-trace").click();
  await page.getByTestId("trace-server").selectOption("secure");
  const secure = await page.locator("[data-testid=trace-entry]").evaluateAll((rows) => rows.map((r) => [r.dataset.server, r.dataset.method]));
  check(secure.length > 0 && secure.every(([server]) => server === "secure") && secure.some(([, method]) => method === "server/discover"),
    "the trace filters by server", JSON.stringify(secure.slice(0, 6)));
  await page.getByTestId("trace-server").selectOption("backup");
  const backup = await page.locator("[data-testid=trace-entry]").evaluateAll((rows) => rows.map((r) => r.dataset.method));
  check(backup.includes("initialize") && backup.includes("tools/call"), "a renamed server's earlier messages follow its new name", backup.slice(0, 5).join());
  await page.close();
}

// A hostile server: nothing it sends runs as script or becomes markup.
async function hostile(ctx) {
  const { page, errors } = await openPage(ctx, `server=${encodeURIComponent(`http://127.0.0.1:${HOSTILE_PORT}/mcp`)}`);
  page.on("dialog", (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  await page.waitForSelector("[data-testid=tool-item]");
  // Named after its serverInfo.name, markup and all, cleaned into a name a tool name can carry.
  const name = (await page.locator("[data-testid=tool-item]").first().getAttribute("data-name")).split("__")[0];
  check(/^hostile-img-src-x-onerror[A-Za-z0-9_-]*$/.test(name) && name.length <= 32, "a hostile server's name is cleaned", name);
  await tool(page, `${name}__xss`).click();
  await page.getByTestId("call").click();
  await waitResult(page);
  await tool(page, `${name}__xss-error`).click();
  await page.getByTestId("call").click();
  const failed = await waitResult(page);
  // Sensitive fields are flagged; a javascript: "URL" is never offered to open.
  await tool(page, `${name}__ask-secret`).click();
  await page.getByTestId("call").click();
  await page.getByTestId("elicitation-dialog").waitFor();
  check(await page.getByTestId("sensitive-warning").count() === 2, "password and card fields carry a warning");
  await page.getByTestId("elicitation-decline").click();
  check((await waitResult(page)).text.includes("secret: decline"), "declining is answered as such");
  await tool(page, `${name}__open-link`).click();
  await page.getByTestId("call").click();
  await page.getByTestId("elicitation-dialog").waitFor();
  check(await page.getByTestId("elicitation-open").isDisabled(), "a URL that is not http(s) cannot be opened");
  await page.getByTestId("elicitation-decline").click();
  check((await waitResult(page)).text.includes("link: decline"), "the URL request is declined");

  await page.getByTestId("tab-resources").click();
  await page.locator("[data-testid=resource-item] button").first().click();
  await page.waitForFunction(() => document.querySelector("[data-testid=resource-contents]")?.dataset.state);
  await page.getByTestId("tab-prompts").click();
  await page.locator("[data-testid=prompt-item] button").first().click();
  await page.getByTestId("get-prompt").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=prompt-result]")?.dataset.state === "ok");
  await page.getByTestId("tab-servers").click();
  await page.getByTestId("tab-logs").click();
  await page.waitForTimeout(300);
  const verdict = await page.evaluate(() => ({
    pwned: window.__pwned ?? 0,
    images: [...document.images].map((i) => i.getAttribute("src")).filter((s) => !s?.startsWith("data:image/png") && !s?.startsWith("data:image/jpeg")),
    scripts: document.scripts.length,
    links: [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
    text: document.body.textContent, // every view, shown or not
  }));
  check(verdict.pwned === 0 && errors.length === 0, "no payload ran", `${verdict.pwned} ${errors.join(" | ")}`);
  check(verdict.images.length === 0, "no server image of a refused type or from a URL was created", verdict.images.join(" "));
  check(verdict.scripts === 2 && verdict.links.every((h) => h === "#main"), "no script element or javascript: link was created", `${verdict.scripts} ${verdict.links}`);
  check(verdict.text.includes('<img src=x onerror="window.__pwned') && verdict.text.includes("<script>window.__pwned"), "the markup is shown as text");
  check(/error <img src=x/.test(failed.text) || failed.state === "tool-error", "a hostile error message is text too");
  await shot(page, "hostile");
  await page.close();
}

// Whether the page's main thread answers within `ms`: a page.evaluate round trip.
async function responsive(page, ms = 2000) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  const answered = await Promise.race([page.evaluate(() => true).catch(() => false), late]);
  clearTimeout(timer);
  return answered;
}

// Clicks, and says whether the page then answers within 2 s. A click whose handler never
// returns is never acknowledged, so a click that times out counts as a frozen page too.
async function clickResponsive(page, locator) {
  const clicked = await locator.click({ noWaitAfter: true, timeout: 3000 }).then(() => true, () => false);
  return clicked && responsive(page);
}

// The hostile server's /limits endpoint beside server-everything: values of the wrong type,
// a thousand tools, megabytes of text, a backtracking pattern, schemas that expand to millions
// of fields. The page stays responsive and draws what it can; the other server's lists stay.
async function limits(ctx) {
  const LIMITS = `http://127.0.0.1:${HOSTILE_PORT}/limits`;
  const { page, errors } = await openPage(ctx, `server=${encodeURIComponent(EVERYTHING)}&server=${encodeURIComponent(LIMITS)}`);
  await page.waitForFunction(() => window.inspector?.host.servers().every((s) => s.status === "connected")
    && window.inspector.host.tools.some((t) => t.name === "limits__poison"));

  // {"toString": 1} where a string belongs: String() on it throws, and used to blank every server's lists.
  const listed = async (tab, testid, names) => {
    await page.getByTestId(`tab-${tab}`).click();
    return page.locator(`[data-testid=${testid}]`).evaluateAll((rows, wanted) => wanted.every((w) => rows.some((r) => r.dataset.name === w || r.dataset.uri === w)), names);
  };
  check(await listed("tools", "tool-item", ["everything__get-sum", "limits__poison"]), "a server's objects in place of strings leave the tools of both servers listed");
  check(await listed("prompts", "prompt-item", ["everything__args-prompt", "limits__poison-prompt"]), "and their prompts");
  check(await listed("resources", "resource-item", ["demo://resource/static/document/architecture.md", "limits://poison"]), "and their resources");
  await page.getByTestId("tab-servers").click();
  check(await page.locator("[data-testid=server][data-status=connected]").count() === 2
    && (await page.locator("[data-testid=server][data-name=limits]").getByTestId("server-info").textContent()).includes('{"toString":1}'),
  "and the servers pane shows both, the odd version as JSON");
  await page.getByTestId("tab-tools").click();
  await tool(page, "limits__poison").click();
  await page.getByTestId("call").click();
  check((await waitResult(page)).text.includes("called poison"), "a tool whose fields are objects can be called");
  await page.getByTestId("tab-prompts").click();
  await page.locator('[data-testid=prompt-item][data-name="limits__poison-prompt"] button').click();
  await page.getByTestId("get-prompt").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=prompt-result]")?.dataset.state === "ok");
  check((await page.getByTestId("prompt-messages").innerText()).includes("a prompt"), "and a prompt whose fields are objects is shown");

  // A thousand tools: a few hundred drawn, a note for the rest; the filter finds any of them.
  await page.getByTestId("tab-tools").click();
  const [drawn, more, total] = await page.evaluate(() => [document.querySelectorAll("[data-testid=tool-item]").length,
    document.querySelector("[data-testid=tool-list] [data-testid=list-more]")?.textContent ?? "", window.inspector.host.tools.length]);
  check(total > 1000 && drawn === 300 && more.includes(`${total - drawn} more`), "a long list draws 300 tools and says how many more", `${drawn} of ${total}: ${more}`);
  await page.getByTestId("tool-filter").fill("bulk-99");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=tool-item]").length === 11);
  check(await page.locator("[data-testid=tool-list] [data-testid=list-more]").count() === 0 && await tool(page, "limits__bulk-999").count() === 1,
    "the filter reaches the tools past them");
  await page.getByTestId("tool-filter").fill("");

  // A megabyte of text: 200,000 characters shown, a note, the whole text a download away.
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=tool-item]").length === 300);
  await tool(page, "limits__big-text").click();
  await page.getByTestId("call").click();
  await waitResult(page);
  const result = page.getByTestId("result");
  const shownText = await result.getByTestId("content-text").evaluate((pre) => pre.textContent.length);
  check(shownText === 200_000 && /more characters not shown/.test(await result.getByTestId("text-cut").textContent()) && await result.getByTestId("download").count() === 1,
    "a long text result is cut at 200,000 characters, with a note and a download", String(shownText));
  await page.getByTestId("tab-resources").click();
  await page.locator('[data-testid=resource-item][data-uri="limits://big"] button').click();
  await page.waitForFunction(() => document.querySelector("[data-testid=resource-contents]")?.dataset.state === "ok");
  const contents = page.getByTestId("resource-contents");
  check(await contents.getByTestId("resource-text").evaluate((pre) => pre.textContent.length) === 200_000 && await contents.getByTestId("text-cut").count() === 1,
    "and so is a long resource");

  // Both servers list this URI: a subscription on one is not one on the other.
  const SHARED = "demo://resource/static/document/architecture.md";
  const openShared = async (server) => {
    await page.locator(`[data-testid=resource-item][data-uri="${SHARED}"]`).filter({ has: page.getByText(server, { exact: true }) }).locator("button").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=resource-contents]")?.dataset.state === "ok");
  };
  const subscribeButton = page.getByTestId("subscribe");
  await openShared("everything");
  await subscribeButton.click();
  await page.waitForFunction(() => document.querySelector("[data-testid=subscribe]")?.dataset.state === "subscribed");
  await openShared("limits");
  const elsewhere = await subscribeButton.textContent();
  await openShared("everything");
  check(elsewhere === "Subscribe" && await subscribeButton.textContent() === "Unsubscribe", "a subscription is the server's that listed the URI, not every server's");
  await subscribeButton.click();
  await page.waitForFunction(() => document.querySelector("[data-testid=subscribe]")?.dataset.state === "unsubscribed");

  // Another server's resources/updated for a URI open here is not this resource's update.
  await page.evaluate((uri) => window.inspector.host.callTool("limits__touch", { uri }), SHARED);
  await page.waitForTimeout(500);
  check(await page.getByTestId("update").count() === 0, "another server's update does not touch an open resource");

  // A 100,000-character log string is cut as an object is.
  await page.evaluate(() => window.inspector.host.callTool("limits__chatty", {}));
  await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=log-entry]")].some((e) => e.textContent.includes("zzz")));
  const logged = await page.locator("[data-testid=log-entry] .text").evaluateAll((rows) => Math.max(...rows.filter((r) => r.textContent.includes("zzz")).map((r) => r.textContent.length)));
  check(logged < 3000, "a long log string is cut", String(logged));

  // The connect form's name field is checked by the browser (a pattern valid under the v flag).
  await page.getByTestId("tab-servers").click();
  await page.getByTestId("server-name").fill("not a name!");
  check(await page.getByTestId("server-name").evaluate((input) => !input.validity.valid && input.validity.patternMismatch), "the name field's pattern is in force");
  await page.getByTestId("server-name").fill("");

  // Schemas that expand without end: a $ref cycle, and nine levels of six $refs (6^9 fields).
  await page.getByTestId("tab-tools").click();
  const fields = () => page.evaluate(() => document.querySelectorAll("[data-testid=call-form] input, [data-testid=call-form] textarea").length);
  check(await clickResponsive(page, tool(page, "limits__ref-cycle")) && await fields() < 100, "a schema that refers to itself gives a small form");
  const chained = await clickResponsive(page, tool(page, "limits__ref-chain")) && await fields();
  check(chained > 0 && chained <= 1100 && await page.locator("[data-testid=call-form] textarea.json").count() > 0,
    "a schema of millions of fields stops at the form's budget, the rest as JSON", String(chained));

  // A backtracking pattern on the prefilled value: the call goes out, the page stays responsive.
  await tool(page, "limits__redos").click();
  check(await clickResponsive(page, page.getByTestId("call")), "a server's backtracking pattern does not freeze the page");
  check((await waitResult(page)).text.includes("called redos"), "and the call reaches the server");
  // The same pattern in an elicitation's form (the page's own module).
  const elicited = await Promise.race([page.evaluate(async () => {
    const { schemaForm } = await import("/js/schema-form.js");
    const form = schemaForm({ type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } }, { code: `${"a".repeat(34)}!` });
    return form.read().errors.length;
  }), new Promise((resolve) => setTimeout(() => resolve("frozen"), 2000))]);
  check(elicited === 0, "an elicitation form does not run the pattern either", String(elicited));
  check(errors.length === 0, "no page errors", errors.join(" | "));
  await page.close();
}

// The page as a static folder (scripts/build-www.mjs), served by Python's plain http.server:
// the rewritten import map and CSP load the package, and the page works as it does here.
// "Keep the key" survives a reload (the tab's sessionStorage is read first), and saving again
// keeps the key where it was; unchecking it forgets the key.
async function keptKey(ctx) {
  const { page } = await openPage(ctx, `server=${encodeURIComponent(EVERYTHING)}`);
  const stored = () => page.evaluate(() => localStorage.getItem("mcp-wasm-inspector.llm"));
  const remember = page.getByLabel(/Keep the key after this tab closes/);
  await page.getByTestId("tab-chat").click();
  await page.getByTestId("llm-model").fill("kept-1");
  await page.getByTestId("llm-key").fill("sk-kept");
  await remember.check();
  await page.getByTestId("llm-save").click();
  await page.reload();
  await page.waitForFunction(() => ["connected", "error"].includes(document.querySelector("[data-testid=status]")?.dataset.state));
  await page.getByTestId("tab-chat").click();
  const checked = await remember.isChecked();
  await page.getByTestId("llm-save").click();
  check(checked && /sk-kept/.test((await stored()) ?? ""), "a key kept in localStorage stays kept after a reload and another Save");
  await remember.uncheck();
  await page.getByTestId("llm-save").click();
  check((await stored()) === null, "and unchecking the box forgets it");
  await page.close();
}

async function staticFolder(ctx) {
  const dir = path.join(repo, "test-results/demo-static");
  execFileSync(process.execPath, [path.join(repo, "scripts/build-www.mjs"), dir], { stdio: ["ignore", "ignore", "inherit"] });
  const server = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(server);
  const origin = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("python3 -m http.server did not start within 10 s")), 10_000);
    server.on("error", (error) => { clearTimeout(timer); reject(error); });
    server.stdout.on("data", (d) => {
      const port = String(d).match(/port (\d+)/)?.[1];
      if (port) { clearTimeout(timer); resolve(`http://127.0.0.1:${port}`); }
    });
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => { if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(m.text()); });
  page.on("response", (r) => { if (r.url().startsWith(origin) && r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  await page.goto(`${origin}/?server=${encodeURIComponent(EVERYTHING)}`);
  await page.waitForFunction(() => ["connected", "error"].includes(document.querySelector("[data-testid=status]")?.dataset.state));
  check(await page.getByTestId("status").getAttribute("data-state") === "connected", "the static folder, from a plain static server, connects");
  await tool(page, "everything__get-sum").click();
  await page.getByTestId("raw-mode").check();
  await page.getByTestId("raw-args").fill('{"a": 2, "b": 2}');
  await page.getByTestId("call").click();
  check((await waitResult(page)).text.includes("4") && problems.length === 0, "and calls tools, within its CSP", problems.join(" | "));
  await page.close();
}

try {
  rmSync(OUT, { recursive: true, force: true });
  [HOSTILE_PORT, LLM_PORT] = await Promise.all([peer("tests/peers/hostile-server.mjs"), peer("tests/peers/scripted-llm.mjs")]);
  const ctx = await openBrowser(browser, { wwwDir: "www", profilePrefix: "mcp-wasm-demo-", viewport: { width: 1280, height: 900 } });
  APP = browser.origin;
  await mainFlow(ctx);
  await oauthAndSeveral(ctx);
  await hostile(ctx);
  await limits(ctx);
  await staticFolder(ctx);
  await keptKey(ctx);
  if (process.env.SCREENSHOTS === "update") {
    rmSync(path.join(repo, "docs/screenshots"), { recursive: true, force: true });
    mkdirSync(path.join(repo, "docs/screenshots"), { recursive: true });
    for (const file of readdirSync(OUT)) copyFileSync(path.join(OUT, file), path.join(repo, "docs/screenshots", file));
  }
  clearTimeout(overall);
  await finish();
} catch (error) {
  clearTimeout(overall);
  await finish(error);
}
