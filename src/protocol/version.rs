//! The protocol revisions the client speaks, and every rule that differs
//! between them. Other layers ask questions here ("may the server batch?")
//! instead of comparing version strings themselves.

/// The revision offered in `initialize` unless the user pins another.
pub const LATEST_LEGACY: &str = "2025-11-25";

/// Legacy-era revisions the client accepts, newest first.
pub const SUPPORTED: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Returns the supported revision equal to `version`, if any.
pub fn supported(version: &str) -> Option<&'static str> {
    SUPPORTED.iter().copied().find(|v| *v == version)
}

/// Whether the client speaks `version` in either era: a legacy revision of
/// [`SUPPORTED`], or 2026-07-28.
pub fn speaks(version: &str) -> bool {
    version == crate::protocol::modern::VERSION || supported(version).is_some()
}

/// Whether the peer may send JSON-RPC batches (arrays): only 2025-03-26 allows
/// them. Before negotiation (`None`) a batch is accepted, since a 2025-03-26
/// server may already answer `initialize` in one.
pub fn allows_batches(negotiated: Option<&str>) -> bool {
    negotiated.is_none_or(|v| v == "2025-03-26")
}
