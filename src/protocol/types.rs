//! Typed forms of the MCP messages a Rust program handles most: tools,
//! resources, prompts, completion, sampling, elicitation, roots and skills.
//!
//! Every struct keeps what it does not name: unknown fields, `_meta` and a
//! newer revision's additions land in `extra` and go back out unchanged, so
//! nothing a server sends is lost on the way through. Where a type is not
//! here, `serde_json::Value` is the escape hatch, and every client method
//! has a JSON form.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// Fields a struct does not name, kept as they came.
pub type Extra = Map<String, Value>;

/// A client's or server's name and version (`clientInfo`, `serverInfo`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    /// The programmatic name.
    pub name: String,
    /// The version.
    pub version: String,
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Everything else, `_meta` included.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Implementation {
    /// `{ name, version }`.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self { name: name.into(), version: version.into(), ..Self::default() }
    }

    /// Reads one from a JSON object with string `name` and `version` (and
    /// `title`, if any), keeping every other member in `extra`; `None` for
    /// anything else. What `Deserialize` does, without serde's typed
    /// deserializer and its error texts in the JS build.
    pub fn from_json(value: Value) -> Option<Self> {
        let Value::Object(map) = value else { return None };
        // The other members in the server's order, by `insert` (which the first call's
        // module has) rather than `Map::remove`, which moves the last member into the gap.
        let (mut name, mut version, mut title) = (None, None, None);
        let mut extra = Map::new();
        for (key, value) in map {
            match key.as_str() {
                "name" => name = Some(value),
                "version" => version = Some(value),
                "title" => title = Some(value),
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let text = |value: Option<Value>| match value {
            Some(Value::String(s)) => Some(s),
            _ => None,
        };
        let title = match title {
            None | Some(Value::Null) => None,
            other => Some(text(other)?),
        };
        Some(Self { name: text(name)?, version: text(version)?, title, extra })
    }

    /// The JSON object, as `Serialize` writes it, without serde's serializer
    /// for it in the JS build.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("name".to_owned(), Value::String(self.name.clone()));
        object.insert("version".to_owned(), Value::String(self.version.clone()));
        if let Some(title) = &self.title {
            object.insert("title".to_owned(), Value::String(title.clone()));
        }
        for (key, value) in &self.extra {
            object.insert(key.clone(), value.clone());
        }
        Value::Object(object)
    }
}

/// A tool the server offers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Its name, for `tools/call`.
    pub name: String,
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments.
    #[serde(default)]
    pub input_schema: Value,
    /// The JSON Schema its `structuredContent` follows, if it declares one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Hints such as `readOnlyHint` and `idempotentHint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
    /// Everything else, `_meta` included.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One page of `tools/list`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    /// The tools on this page.
    pub tools: Vec<Tool>,
    /// The cursor of the next page, if there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Everything else: `_meta`, and the 2026-07-28 caching hints.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What `tools/call` sends.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CallToolParams {
    /// The tool.
    pub name: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    /// Everything else, `_meta` included.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CallToolParams {
    /// A call of `name` with no arguments yet.
    pub fn new(name: impl Into<String>) -> Self {
        Self { name: name.into(), ..Self::default() }
    }

    /// Adds the argument `name`.
    #[must_use]
    pub fn argument(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        self.arguments.get_or_insert_with(Map::new).insert(name.into(), value.into());
        self
    }
}

/// What a tool returned. A tool that failed still returns one, with `is_error`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// The result for the model.
    #[serde(default)]
    pub content: Vec<Content>,
    /// The result as data, following the tool's `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Everything else, `_meta` included.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CallToolResult {
    /// The text of every text block, joined by a line feed.
    pub fn text(&self) -> String {
        self.content.iter().filter_map(Content::as_text).collect::<Vec<_>>().join("\n")
    }
}

/// One block of content: in tool results, prompt messages and sampling.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// `type: "text"`.
    Text {
        /// The text.
        text: String,
        /// Everything else: `annotations`, `_meta`.
        extra: Extra,
    },
    /// `type: "image"`: base64 `data` of `mime_type`.
    Image {
        /// Base64 bytes.
        data: String,
        /// Its media type.
        mime_type: String,
        /// Everything else.
        extra: Extra,
    },
    /// `type: "audio"`: base64 `data` of `mime_type`.
    Audio {
        /// Base64 bytes.
        data: String,
        /// Its media type.
        mime_type: String,
        /// Everything else.
        extra: Extra,
    },
    /// `type: "resource_link"`: a resource by its URI.
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// Everything else: `name`, `mimeType`, `description`…
        extra: Extra,
    },
    /// `type: "resource"`: an embedded resource's contents.
    Resource {
        /// The contents.
        resource: ResourceContents,
        /// Everything else.
        extra: Extra,
    },
    /// A type this crate does not know, as it came.
    Other(Value),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text { text: text.into(), extra: Extra::new() }
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Self::Text { text, .. } => Some(text),
            _ => None,
        }
    }
}

fn take_string(map: &mut Map<String, Value>, key: &str) -> Option<String> {
    match map.remove(key) {
        Some(Value::String(text)) => Some(text),
        Some(other) => {
            map.insert(key.to_owned(), other);
            None
        }
        None => None,
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let Value::Object(mut map) = value else { return Ok(Self::Other(value)) };
        let kind = map.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
        let original = map.clone();
        map.remove("type");
        let typed = match kind.as_str() {
            "text" => take_string(&mut map, "text").map(|text| Self::Text { text, extra: map }),
            "image" | "audio" => match (take_string(&mut map, "data"), take_string(&mut map, "mimeType")) {
                (Some(data), Some(mime_type)) if kind == "image" => Some(Self::Image { data, mime_type, extra: map }),
                (Some(data), Some(mime_type)) => Some(Self::Audio { data, mime_type, extra: map }),
                _ => None,
            },
            "resource_link" => take_string(&mut map, "uri").map(|uri| Self::ResourceLink { uri, extra: map }),
            "resource" => match map.remove("resource").map(serde_json::from_value::<ResourceContents>) {
                Some(Ok(resource)) => Some(Self::Resource { resource, extra: map }),
                _ => None,
            },
            _ => None,
        };
        Ok(typed.unwrap_or(Self::Other(Value::Object(original))))
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::new();
        let with = |map: &mut Map<String, Value>, kind: &str, extra: &Extra| {
            map.insert("type".into(), Value::from(kind));
            map.extend(extra.clone());
        };
        match self {
            Self::Text { text, extra } => {
                with(&mut map, "text", extra);
                map.insert("text".into(), Value::from(text.as_str()));
            }
            Self::Image { data, mime_type, extra } | Self::Audio { data, mime_type, extra } => {
                with(&mut map, if matches!(self, Self::Image { .. }) { "image" } else { "audio" }, extra);
                map.insert("data".into(), Value::from(data.as_str()));
                map.insert("mimeType".into(), Value::from(mime_type.as_str()));
            }
            Self::ResourceLink { uri, extra } => {
                with(&mut map, "resource_link", extra);
                map.insert("uri".into(), Value::from(uri.as_str()));
            }
            Self::Resource { resource, extra } => {
                with(&mut map, "resource", extra);
                map.insert("resource".into(), serde_json::to_value(resource).map_err(serde::ser::Error::custom)?);
            }
            Self::Other(value) => return value.serialize(serializer),
        }
        Value::Object(map).serialize(serializer)
    }
}

/// A resource the server lists.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// Its URI, for `resources/read`.
    pub uri: String,
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Everything else: `size`, `annotations`, `_meta`.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A family of resources by URI template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// The RFC 6570 template.
    pub uri_template: String,
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The media type of what it names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One page of `resources/list`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourcesResult {
    /// The resources on this page.
    pub resources: Vec<Resource>,
    /// The cursor of the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One page of `resources/templates/list`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResourceTemplatesResult {
    /// The templates on this page.
    pub resource_templates: Vec<ResourceTemplate>,
    /// The cursor of the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One item of what `resources/read` returns: text or base64 `blob`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContents {
    /// Its URI.
    pub uri: String,
    /// Its media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The text, for a text resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Base64 bytes, for a binary resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What `resources/read` returns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    /// The resource's contents, one or more.
    pub contents: Vec<ResourceContents>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A prompt the server offers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// Its name, for `prompts/get`.
    pub name: String,
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One argument of a prompt.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether it must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One page of `prompts/list`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPromptsResult {
    /// The prompts on this page.
    pub prompts: Vec<Prompt>,
    /// The cursor of the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// A message of a rendered prompt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// `"user"` or `"assistant"`.
    pub role: String,
    /// What it says.
    pub content: Content,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What `prompts/get` returns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    /// What the prompt is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The rendered messages.
    pub messages: Vec<PromptMessage>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What `completion/complete` returns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompleteResult {
    /// The suggestions.
    pub completion: Completion,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// Suggested values for an argument.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// The values, at most 100.
    pub values: Vec<String>,
    /// How many there are in all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether there are more than these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What a server asks of the client's model (`sampling/createMessage`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageParams {
    /// The conversation.
    pub messages: Vec<SamplingMessage>,
    /// The longest answer wanted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// A system prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// Everything else: `modelPreferences`, `temperature`, `tools`, `_meta`…
    #[serde(flatten)]
    pub extra: Extra,
}

/// One message of a sampling conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// `"user"` or `"assistant"`.
    pub role: String,
    /// A content block, or several (2025-11-25 allows arrays).
    pub content: Value,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// What a model said in a sampling answer: one block, or several (since
/// 2025-11-25: text beside `tool_use` blocks, say, which are
/// [`Content::Other`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
// One block is the usual answer, and the field held a `Content` before: boxing it would add an
// allocation to every answer to save bytes of a value that lives for one exchange.
#[allow(clippy::large_enum_variant)]
pub enum SamplingContent {
    /// Several blocks, sent as an array.
    Many(Vec<Content>),
    /// One block.
    One(Content),
}

impl SamplingContent {
    /// The blocks, one or several.
    pub fn blocks(&self) -> &[Content] {
        match self {
            Self::Many(blocks) => blocks,
            Self::One(block) => std::slice::from_ref(block),
        }
    }
}

impl From<Content> for SamplingContent {
    fn from(block: Content) -> Self {
        Self::One(block)
    }
}

impl From<Vec<Content>> for SamplingContent {
    fn from(blocks: Vec<Content>) -> Self {
        Self::Many(blocks)
    }
}

/// The client's model's answer to `sampling/createMessage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    /// Usually `"assistant"`.
    pub role: String,
    /// What the model said: one block, or several.
    pub content: SamplingContent,
    /// Which model answered.
    pub model: String,
    /// Why it stopped, e.g. `"endTurn"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

impl CreateMessageResult {
    /// An assistant's answer from `model` in `content` (a [`Content`] or
    /// several), stopped at the end of its turn: `stop_reason` is for the
    /// caller to change (`"toolUse"` for an answer with `tool_use` blocks).
    pub fn new(model: impl Into<String>, content: impl Into<SamplingContent>) -> Self {
        Self { content: content.into(), ..Self::text(model, "") }
    }

    /// An assistant's text answer from `model`, stopped at the end of its turn.
    pub fn text(model: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            role: "assistant".into(),
            content: SamplingContent::One(Content::text(text)),
            model: model.into(),
            stop_reason: Some("endTurn".into()),
            extra: Extra::new(),
        }
    }
}

/// What a server asks of the user (`elicitation/create`): a form, or a URL to visit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitParams {
    /// What to tell the user.
    pub message: String,
    /// `"form"` (the default) or `"url"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The form's fields, as a flat JSON Schema object (form mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_schema: Option<Value>,
    /// The page to open, with the user's consent (URL mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Everything else: `elicitationId`, `_meta`.
    #[serde(flatten)]
    pub extra: Extra,
}

/// The user's answer to an elicitation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// `"accept"`, `"decline"` or `"cancel"`.
    pub action: String,
    /// The form's values, when accepted (defaults the user left are filled in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

impl ElicitResult {
    /// Accepts with `content`.
    pub fn accept(content: Map<String, Value>) -> Self {
        Self { action: "accept".into(), content: Some(content), extra: Extra::new() }
    }

    /// Declines.
    pub fn decline() -> Self {
        Self { action: "decline".into(), ..Self::default() }
    }
}

/// A root the user shares with the server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A name for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

impl Root {
    /// The root at `uri`, named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self { uri: uri.into(), name: Some(name.into()), extra: Extra::new() }
    }
}

/// A skill as `skills/list` describes it (SEP-2640).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// Its `SKILL.md`.
    pub uri: String,
    /// The `SKILL.md` frontmatter, which the file must match exactly.
    #[serde(default)]
    pub frontmatter: Map<String, Value>,
    /// The files it is made of, with their digest and size.
    #[serde(default)]
    pub resources: Vec<Value>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

/// One page of `skills/list`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSkillsResult {
    /// The skills on this page.
    pub skills: Vec<Skill>,
    /// The cursor of the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Everything else.
    #[serde(flatten)]
    pub extra: Extra,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_and_meta_survive_the_round_trip() {
        let wire = json!({"name": "echo", "inputSchema": {"type": "object"}, "_meta": {"x": 1}, "icons": [{"src": "a.png"}]});
        let tool: Tool = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(tool.extra["_meta"], json!({"x": 1}));
        assert_eq!(serde_json::to_value(&tool).unwrap(), wire);
    }

    #[test]
    fn content_blocks_by_type_and_the_unknown_kept() {
        let result: CallToolResult = serde_json::from_value(json!({"content": [
            {"type": "text", "text": "hi", "annotations": {"audience": ["user"]}},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "a://b", "text": "t"}},
            {"type": "hologram", "beams": 3}
        ], "structuredContent": {"n": 1}}))
        .unwrap();
        assert_eq!(result.text(), "hi");
        assert!(matches!(&result.content[1], Content::Image { mime_type, .. } if mime_type == "image/png"));
        assert!(matches!(&result.content[2], Content::Resource { resource, .. } if resource.text.as_deref() == Some("t")));
        assert_eq!(result.content[3], Content::Other(json!({"type": "hologram", "beams": 3})));
        let back = serde_json::to_value(&result).unwrap();
        assert_eq!(back["content"][0], json!({"type": "text", "text": "hi", "annotations": {"audience": ["user"]}}));
        assert_eq!(back["content"][3], json!({"type": "hologram", "beams": 3}));
    }

    #[test]
    fn implementation_reads_and_writes_json_as_serde_does() {
        let cases = [
            json!({"name": "a", "version": "1"}),
            json!({"name": "a", "version": "1", "title": "A", "_meta": {"k": 1}, "icons": []}),
            json!({"name": "a", "version": "1", "title": null}),
            json!({"name": "a"}),
            json!({"name": "a", "version": 1}),
            json!({"name": "a", "version": "1", "title": 5}),
            json!(["a", "1"]),
        ];
        for case in cases {
            let derived = serde_json::from_value::<Implementation>(case.clone()).ok();
            assert_eq!(Implementation::from_json(case.clone()), derived, "{case}");
            if let Some(info) = derived {
                assert_eq!(info.to_json(), serde_json::to_value(&info).unwrap(), "{case}");
            }
        }
        // A member of `extra` that repeats a field's name wins, as it does with serde.
        let mut info = Implementation::new("a", "1");
        info.extra.insert("name".into(), json!("b"));
        assert_eq!(info.to_json(), serde_json::to_value(&info).unwrap());
        assert_eq!(info.to_json()["name"], "b");
    }

    #[test]
    fn builders() {
        let call = CallToolParams::new("get-sum").argument("a", 2).argument("b", 3);
        assert_eq!(serde_json::to_value(call).unwrap(), json!({"name": "get-sum", "arguments": {"a": 2, "b": 3}}));
        let answer = serde_json::to_value(CreateMessageResult::text("m", "hello")).unwrap();
        assert_eq!(
            answer,
            json!({"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m", "stopReason": "endTurn"})
        );
    }
}
