//! The host layer (many servers behind one registry): its pure parts, tested
//! natively: the names under which servers' tools are offered to an LLM, and
//! the bridges to each LLM API's function-calling format.

#[cfg(feature = "bridges")]
pub mod bridges;
pub mod naming;
