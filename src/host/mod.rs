//! The host layer (many servers behind one registry): its pure parts, tested
//! natively. So far: the names under which servers' tools are offered to an LLM.

pub mod naming;
