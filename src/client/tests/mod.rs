//! The client's behaviour against a scripted server on a manual clock:
//! what goes on the wire, in what order, and what the caller sees.

mod connect;
mod events;
mod features;
mod requests;
mod server_requests;
