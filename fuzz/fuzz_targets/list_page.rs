#![no_main]

// Each target uses one of the harness functions.
#[allow(dead_code)]
#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::list_page(data));
