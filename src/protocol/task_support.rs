//! `execution.taskSupport` of a listed tool (2025-11-25): whether a client
//! must call it as a task, may, or must not. A server answers a call that
//! ignores it with an error (`-32601`, or a broken task result), so the
//! client follows what the listing said.

use serde_json::Value;

/// Where a server declares that it runs tool calls as tasks: without it, no
/// tool runs as one, whatever its listing says.
pub const TOOL_CALL_TASKS: [&str; 4] = ["tasks", "requests", "tools", "call"];

/// How a tool may be called, as its listing said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskSupport {
    /// Only plainly: the default, when `execution.taskSupport` is absent.
    Forbidden,
    /// Plainly or as a task.
    Optional,
    /// Only as a task.
    Required,
}

impl TaskSupport {
    /// From the value of `taskSupport`: a value the revision does not define
    /// counts as absent.
    #[must_use]
    pub fn from_name(name: Option<&str>) -> Self {
        match name {
            Some("required") => Self::Required,
            Some("optional") => Self::Optional,
            _ => Self::Forbidden,
        }
    }

    /// What the tool `tool` (an entry of `tools/list`) declares.
    #[must_use]
    pub fn of_tool(tool: &Value) -> Self {
        Self::from_name(tool.get("execution").and_then(|execution| execution.get("taskSupport")).and_then(Value::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::TaskSupport;
    use serde_json::json;

    #[test]
    fn a_tool_declares_its_task_support_under_execution() {
        let cases = [
            (json!({"name": "a", "execution": {"taskSupport": "required"}}), TaskSupport::Required),
            (json!({"name": "a", "execution": {"taskSupport": "optional"}}), TaskSupport::Optional),
            (json!({"name": "a", "execution": {"taskSupport": "forbidden"}}), TaskSupport::Forbidden),
            (json!({"name": "a", "execution": {"taskSupport": "always"}}), TaskSupport::Forbidden),
            (json!({"name": "a", "execution": {"taskSupport": true}}), TaskSupport::Forbidden),
            (json!({"name": "a", "execution": {}}), TaskSupport::Forbidden),
            (json!({"name": "a"}), TaskSupport::Forbidden),
        ];
        for (tool, expected) in cases {
            assert_eq!(TaskSupport::of_tool(&tool), expected, "{tool}");
        }
    }
}
