//! The client's behaviour against a scripted server on a manual clock:
//! what goes on the wire, in what order, and what the caller sees.
//! Files and tests about an optional part carry its feature's gate.
// With the optional parts left out, the helpers and imports only their tests use go unused.
#![cfg_attr(not(all(feature = "modern", feature = "validator", feature = "tasks")), allow(unused_imports, dead_code))]

#[cfg(feature = "modern")]
mod cache;
mod capabilities;
mod connect;
mod eras;
mod events;
mod features;
#[cfg(feature = "modern")]
mod listen;
mod lists;
#[cfg(feature = "modern")]
mod modern_text;
#[cfg(feature = "modern")]
mod mrtr;
mod renewal;
mod requests;
mod server_requests;
mod skills;
mod snapshots;
#[cfg(feature = "tasks")]
mod tasks;
#[cfg(feature = "validator")]
mod validation;
