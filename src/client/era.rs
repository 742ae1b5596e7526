//! The two protocol eras a connection can speak.

/// The era a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2024-11-05 to 2025-11-25: `initialize`, sessions.
    Legacy,
    /// 2026-07-28: `server/discover`, `_meta` on every request.
    Modern,
}

impl Era {
    /// `"legacy"` or `"modern"`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Legacy => "legacy",
            Self::Modern => "modern",
        }
    }
}
