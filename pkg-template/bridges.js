// ToolBridge: an MCP client's tools in an LLM API's function-calling format, the model's tool
// calls back as MCP calls, and tool results as the API's tool-result message. Plain JS: it only
// reshapes JSON, which the engine does natively and which would cost the core module 12 KB gzip
// in Rust (bench/analysis.md, "Thirteenth round"). The Rust API's host::bridges
// (src/host/bridges.rs) follows the same rules; both are held to tests/fixtures/bridges.json.
import { McpClientError } from "./mcp_wasm.js";
import { NAME_RULES, assignNames } from "./naming.js";

export { qualifiedNames } from "./naming.js";

const PROVIDERS = { "openai-chat": "openai", "openai-responses": "openai", anthropic: "anthropic", gemini: "gemini" };

const invalid = (message) => new McpClientError("invalid-argument", message);
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const textOf = (value, key) => (isObject(value) && typeof value[key] === "string" ? value[key] : undefined);
const listOf = (value) => (Array.isArray(value) ? value : []);
// A member as JSON has it: one whose value is undefined is not there.
const has = (value, key) => isObject(value) && Object.hasOwn(value, key) && value[key] !== undefined;

// A value as JSON: what the caller passed, copied, so the bridge never shares or keeps their objects.
function json(value, what) {
  if (value === undefined) return null;
  let text;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw invalid(`${what} is not JSON-compatible: ${error?.message ?? error}`);
  }
  if (text === undefined) throw invalid(`${what} is not JSON-compatible: it has no JSON form (a function or a symbol?)`);
  return JSON.parse(text);
}

// Where the pointer /a/0/b leads, by object members and array indices alike, as JSON Pointer reads.
function at(value, ...path) {
  for (const step of path) {
    if (!(Array.isArray(value) || isObject(value)) || !Object.hasOwn(value, step)) return undefined;
    value = value[step];
  }
  return value;
}

// The tool's inputSchema as an object schema the APIs take: MCP asks servers for one, and the
// APIs refuse a whole request over one tool's. OpenAI's and Anthropic's refuse a top-level
// combination too: it becomes one object with every branch's properties (the first one named
// wins), requiring what the top level requires. Each change is noted; the server still checks
// the arguments against its own schema.
function parameters(tool, name, notes) {
  const note = (what) => notes.push(`${name}: ${what}`);
  let schema = has(tool, "inputSchema") ? tool.inputSchema : { type: "object" };
  if (!isObject(schema) || (has(schema, "type") && schema.type !== "object")) {
    note("its input schema is not an object's; offered with no parameters");
    return { type: "object", properties: {} };
  }
  const { anyOf, oneOf, allOf, enum: _enum, not, ...rest } = schema;
  if (Object.keys(rest).length < Object.keys(schema).length) {
    const named = [rest, ...listOf(allOf), ...listOf(anyOf), ...listOf(oneOf)]
      .flatMap((branch) => (isObject(branch?.properties) ? Object.entries(branch.properties) : []));
    // Reversed, so that the first branch to name a property wins; fromEntries keeps one named
    // __proto__ a property, as JSON.parse does.
    schema = { ...rest, properties: Object.fromEntries(named.reverse()) };
    note("flattened the top level of its input schema");
  }
  if (!has(schema, "type")) {
    schema.type = "object";
    note('added `type: "object"` to its input schema');
  }
  if (!Object.hasOwn(schema, "properties")) {
    schema.properties = {};
    note("added an empty `properties` to its input schema");
  }
  return schema;
}

function definitions(provider, tools, notes) {
  const entries = tools.map(([name, tool]) => {
    const description = textOf(tool, "description") ?? textOf(tool, "title") ?? "";
    const schema = parameters(tool, name, notes);
    switch (provider) {
      case "openai-chat":
        return { type: "function", function: { name, description, parameters: schema } };
      case "openai-responses":
        return { type: "function", name, description, parameters: schema, strict: false };
      case "anthropic":
        return { name, description, input_schema: schema };
      default:
        return { name, description, parametersJsonSchema: schema };
    }
  });
  return provider === "gemini" ? [{ functionDeclarations: entries }] : entries;
}

// The part of a reply found at a pointer, or the whole reply when the pointer leads nowhere (a part
// that is there but null is kept: it holds no calls).
const orWhole = (part, reply) => (part === undefined ? reply : part);

function argumentsOf(raw, name) {
  if (raw === undefined || (typeof raw === "string" && raw.trim() === "")) return {};
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw invalid(`the arguments of ${name} are not valid JSON: ${error.message}`);
    }
  }
  if (!isObject(value)) throw invalid(`the arguments of ${name} are not a JSON object`);
  return value;
}

// The tool calls in a reply: an OpenAI chat completion or its message, a Responses response or its
// output, an Anthropic message or its content, a Gemini response or its content.
function toolCalls(provider, reply) {
  switch (provider) {
    case "openai-chat": {
      const message = orWhole(at(reply, "choices", "0", "message"), reply);
      return listOf(at(message, "tool_calls")).map((call) => {
        const name = textOf(at(call, "function"), "name") ?? "";
        return { id: textOf(call, "id"), name, arguments: argumentsOf(at(call, "function", "arguments"), name) };
      });
    }
    case "gemini": {
      const content = orWhole(at(reply, "candidates", "0", "content"), reply);
      return listOf(at(content, "parts"))
        .filter((part) => has(part, "functionCall"))
        .map(({ functionCall: call }) => {
          const name = textOf(call, "name") ?? "";
          return { id: textOf(call, "id"), name, arguments: argumentsOf(at(call, "args"), name) };
        });
    }
    default: {
      const [field, kind, id, args] =
        provider === "anthropic" ? ["content", "tool_use", "id", "input"] : ["output", "function_call", "call_id", "arguments"];
      const items = Array.isArray(reply) ? reply : listOf(at(reply, field));
      return items
        .filter((item) => textOf(item, "type") === kind)
        .map((item) => {
          const name = textOf(item, "name") ?? "";
          return { id: textOf(item, id), name, arguments: argumentsOf(at(item, args), name) };
        });
    }
  }
}

// UTF-8 bytes, as a base64 text's size is given.
const utf8 = new TextEncoder();
const byteLength = (text) => utf8.encode(text).length;

// One content block as text, for APIs (or block types) that take only text.
function asText(block) {
  const kind = textOf(block, "type");
  switch (kind) {
    case "text":
      return textOf(block, "text") ?? "";
    case "resource_link":
      return `[resource ${textOf(block, "uri") ?? ""}]`;
    case "resource": {
      const resource = at(block, "resource");
      const blob = textOf(resource, "blob");
      const size = blob === undefined ? 0 : byteLength(blob);
      return textOf(resource, "text") ?? `[resource ${textOf(resource, "uri") ?? ""} (${size} bytes base64)]`;
    }
    case "image":
    case "audio":
      return `[${kind} ${textOf(block, "mimeType") ?? ""}]`;
    default:
      return `[${kind ?? "unknown"} content]`;
  }
}

// The result's content, with structuredContent as JSON text when no text block carries it already
// (the spec asks servers to; not all do).
function contentBlocks(result) {
  const blocks = [...listOf(at(result, "content"))];
  if (has(result, "structuredContent") && !blocks.some((block) => textOf(block, "type") === "text")) {
    blocks.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  }
  return blocks;
}

// Content for APIs that take text and images: anything else becomes text, and is reported.
function mediaParts(blocks, tool, notes, image, text) {
  return blocks.map((block) => {
    const [kind, mime, data] = [textOf(block, "type"), textOf(block, "mimeType"), textOf(block, "data")];
    if (kind === "image" && /^image\/(png|jpeg|gif|webp)$/.test(mime) && data !== undefined) return image(mime, data);
    if (kind !== "text") notes.push(`${tool}: a block of type ${kind ?? "unknown"} was sent as text`);
    return text(asText(block));
  });
}

function toolResult(provider, call, result, notes) {
  const blocks = contentBlocks(result);
  const isError = at(result, "isError") === true;
  const id = call.id ?? null;
  const textOnly = (what) => {
    for (const block of blocks) {
      const kind = textOf(block, "type") ?? "unknown";
      if (kind !== "text") notes.push(`${call.name}: ${what} take text only; a block of type ${kind} was sent as a placeholder`);
    }
    return blocks.map(asText).join("\n");
  };
  switch (provider) {
    case "openai-chat":
      return { role: "tool", tool_call_id: id, content: textOnly("OpenAI chat tool messages") };
    case "openai-responses": {
      const image = (mime, data) => ({ type: "input_image", image_url: `data:${mime};base64,${data}` });
      const output = mediaParts(blocks, call.name, notes, image, (text) => ({ type: "input_text", text }));
      return { type: "function_call_output", call_id: id, output };
    }
    case "anthropic": {
      const content = mediaParts(blocks, call.name, notes,
        (mime, data) => ({ type: "image", source: { type: "base64", media_type: mime, data } }), (text) => ({ type: "text", text }));
      const block = { type: "tool_result", tool_use_id: id, content };
      if (isError) block.is_error = true;
      return { role: "user", content: [block] };
    }
    default: {
      const response = { [isError ? "error" : "output"]: textOnly("Gemini function responses") };
      if (has(result, "structuredContent")) response.structuredContent = result.structuredContent;
      const functionResponse = { name: call.name, response };
      if (call.id !== undefined) functionResponse.id = call.id;
      return { role: "user", parts: [{ functionResponse }] };
    }
  }
}

// How many lines of notes on tool results a bridge keeps: a long chat with a server whose results
// hold many images would otherwise add to them for as long as the bridge lives.
const RESULT_NOTES = 1000;

/**
 * Converts between MCP tools and one LLM API's function calling. Tool names the API would refuse
 * are rewritten (and mapped back when the model calls them); anything else the API cannot take is
 * listed in `notes`.
 */
export class ToolBridge {
  #provider;
  // offered name -> MCP tool name
  #names = new Map();
  #definitions;
  #notes = [];
  #resultNotes = [];

  /** A bridge for `provider` over `tools` (as `listTools` returns them). */
  constructor(provider, tools) {
    if (typeof provider !== "string" || !Object.hasOwn(PROVIDERS, provider)) {
      throw invalid(`unknown provider ${JSON.stringify(String(provider))}: use ${Object.keys(PROVIDERS).join(", ")}`);
    }
    const list = json(tools, "tools");
    if (!Array.isArray(list)) throw invalid("tools must be an array of MCP tools");
    const mcpNames = list.map((tool) => {
      const name = textOf(tool, "name");
      if (name === undefined) throw invalid("every tool needs a name");
      return name;
    });
    const offered = assignNames(mcpNames.map((name) => ["", name]), "", NAME_RULES[PROVIDERS[provider]]);
    offered.forEach((name, i) => {
      this.#names.set(name, mcpNames[i]);
      if (name !== mcpNames[i]) this.#notes.push(`${mcpNames[i]}: offered as ${name}, a name the API accepts`);
    });
    this.#provider = provider;
    this.#definitions = definitions(provider, offered.map((name, i) => [name, list[i]]), this.#notes);
  }

  /** The tool definitions to send to the model (a copy each time). */
  get definitions() {
    return structuredClone(this.#definitions);
  }

  /**
   * What was adjusted for this API, one line each: for the definitions, then for the tool results
   * that lost something on the way (the last 1,000 lines of those).
   */
  get notes() {
    return this.#notes.concat(this.#resultNotes);
  }

  /**
   * The tool calls in a model reply, with MCP tool names. Throws an `McpClientError` of kind
   * `invalid-argument` if arguments are not a JSON object or a call names a tool the bridge did not
   * offer.
   */
  parseToolCalls(reply) {
    return toolCalls(this.#provider, json(reply, "reply")).map((call) => {
      const tool = this.#names.get(call.name);
      if (tool === undefined) throw invalid(`the model called ${call.name}, which was not offered`);
      return { id: call.id ?? null, name: tool, offeredName: call.name, arguments: call.arguments };
    });
  }

  /** The API's tool-result message for a call and its `CallToolResult`. */
  toolResultMessage(call, result) {
    const given = json(call, "call");
    const name = textOf(given, has(given, "offeredName") ? "offeredName" : "name") ?? "";
    const added = [];
    const message = toolResult(this.#provider, { id: textOf(given, "id"), name }, json(result, "result"), added);
    const kept = this.#resultNotes.concat(added);
    this.#resultNotes = kept.length > RESULT_NOTES ? kept.slice(kept.length - RESULT_NOTES) : kept;
    return message;
  }

  /** Nothing to release: the bridge is plain JS. Kept from the releases whose bridge lived in wasm. */
  free() {}

  /** The same as {@link ToolBridge.free}. */
  [Symbol.dispose]() {}
}
