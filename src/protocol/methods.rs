//! MCP method names, in one place so a typo is a compile error.

/// `initialize` (legacy era handshake).
pub const INITIALIZE: &str = "initialize";
/// `notifications/initialized`, sent once after the `initialize` result.
pub const INITIALIZED: &str = "notifications/initialized";
/// `ping`, in either direction.
pub const PING: &str = "ping";
/// `tools/list`.
pub const TOOLS_LIST: &str = "tools/list";
/// `tools/call`.
pub const TOOLS_CALL: &str = "tools/call";
/// `notifications/cancelled`, in either direction.
pub const CANCELLED: &str = "notifications/cancelled";
/// `notifications/progress`, from the server for a request that carried a progress token.
pub const PROGRESS: &str = "notifications/progress";
