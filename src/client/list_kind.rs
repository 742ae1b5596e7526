//! The paginated lists a client reads: which method, which array, which key.

/// One kind of paginated list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListKind {
    /// The method, e.g. `tools/list`.
    pub method: &'static str,
    /// The array in each page, e.g. `tools`.
    pub items: &'static str,
    /// The string field every item must have, e.g. `name`.
    pub key: &'static str,
}

/// Tools.
pub const TOOLS: ListKind = ListKind { method: "tools/list", items: "tools", key: "name" };
/// Resources.
pub const RESOURCES: ListKind = ListKind { method: "resources/list", items: "resources", key: "uri" };
/// Resource templates.
pub const TEMPLATES: ListKind = ListKind { method: "resources/templates/list", items: "resourceTemplates", key: "uriTemplate" };
/// Prompts.
pub const PROMPTS: ListKind = ListKind { method: "prompts/list", items: "prompts", key: "name" };
/// Skills (SEP-2640).
pub const SKILLS: ListKind = ListKind { method: "skills/list", items: "skills", key: "uri" };
