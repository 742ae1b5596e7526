//! The client's behaviour against a scripted server on a manual clock:
//! what goes on the wire, in what order, and what the caller sees.

mod cache;
mod capabilities;
mod connect;
mod eras;
mod events;
mod features;
mod listen;
mod lists;
mod mrtr;
mod renewal;
mod requests;
mod server_requests;
mod snapshots;
mod tasks;
mod validation;
