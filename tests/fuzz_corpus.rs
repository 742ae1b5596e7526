//! Replays the committed fuzz inputs (fuzz/seeds, fuzz/corpus and
//! fuzz/regressions) through the fuzz harnesses, natively, with plain
//! `cargo test`: no nightly, no libFuzzer. See fuzz/README.md.
// The harness drives the validator and the OAuth rules: the replay needs both features.
#![cfg(all(feature = "validator", feature = "oauth"))]
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
// It reads files: a native test (the wasm tiers run in a browser).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/harness.rs"]
mod harness;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// Runs every file of the target's seeds and corpus, and reports all that fail.
fn replay(target: &str, harness: fn(&[u8])) {
    let mut inputs = 0;
    let mut failures = Vec::new();
    for kind in ["seeds", "corpus"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir().join(kind).join(target)) else { continue };
        let mut paths: Vec<PathBuf> = entries.map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            inputs += 1;
            if catch_unwind(AssertUnwindSafe(|| harness(&data))).is_err() {
                failures.push(path.display().to_string());
            }
        }
    }
    assert!(inputs > 0, "no committed inputs for {target}");
    assert!(failures.is_empty(), "{} of {inputs} inputs fail: {failures:#?}", failures.len());
}

/// A minimised input that once failed, kept under fuzz/regressions/TARGET/NAME.
fn regression(target: &str, name: &str) -> Vec<u8> {
    std::fs::read(fuzz_dir().join("regressions").join(target).join(name)).unwrap()
}

/// One test per target, replaying its inputs.
macro_rules! corpus_tests {
    ($($test:ident: $target:ident),* $(,)?) => {$(
        #[test]
        fn $test() {
            replay(stringify!($target), harness::$target);
        }
    )*};
}

corpus_tests!(
    sse_corpus: sse,
    jsonrpc_corpus: jsonrpc,
    schema_corpus: schema,
    uri_template_corpus: uri_template,
    oauth_corpus: oauth,
    modern_headers_corpus: modern_headers,
    list_page_corpus: list_page,
    skill_file_corpus: skill_file,
);

#[test]
fn every_regression_input_has_a_test() {
    let source = include_str!("fuzz_corpus.rs");
    let Ok(targets) = std::fs::read_dir(fuzz_dir().join("regressions")) else { return };
    for target in targets {
        let target = target.unwrap().path();
        for input in std::fs::read_dir(&target).unwrap() {
            let name = input.unwrap().file_name().into_string().unwrap();
            assert!(source.contains(&format!("\"{name}\"")), "fuzz/regressions/…/{name} is replayed by no test");
        }
    }
}

// --- Regressions: minimised inputs that failed, each named after its bug. ---

#[test]
fn jsonrpc_raw_result_without_jsonrpc() {
    // `{"id":3,"result":…}`: decode refuses it (no "jsonrpc"), raw_result gave
    // request 3 a raw result all the same. Fixed in raw_result.
    harness::jsonrpc(&regression("jsonrpc", "raw-result-without-jsonrpc"));
}

#[test]
fn jsonrpc_raw_result_number_out_of_range() {
    // `5e700` in a result: RawValue skips over numbers
    // without checking their range, decode refuses them. raw_result reads the
    // text as decode does first, so no raw text stands for a message the
    // decoder refused, and the transports (decode_or_raw) refuse it too.
    use mcp_wasm::protocol::jsonrpc::{decode, decode_or_raw, raw_result};
    let text = String::from_utf8(regression("jsonrpc", "raw-result-number-out-of-range")).unwrap();
    let padded = format!("{text}{:1$}", "", 16 * 1024);
    assert!(decode(&padded, true).is_err(), "decode refuses 5e700");
    assert_eq!(raw_result(&padded), None, "no raw result for a text decode refuses");
    assert!(decode_or_raw(padded, true).is_err(), "the transports refuse it");
}

#[test]
fn oauth_canonical_resource_query_before_scheme() {
    // `?://`: the `?` before `://` was taken for a query, and the canonical
    // form grew each time it was canonicalised. Fixed in canonical_resource.
    harness::oauth(&regression("oauth", "canonical-resource-query-before-scheme"));
}

#[test]
fn oauth_redirect_uri_userinfo_host() {
    // `http://[::1]@`: the loopback name was userinfo, the host (empty here,
    // `example.com` in `http://localhost:1@example.com`) was not checked, so
    // plain http to any host passed as loopback. Fixed in redirect_uri_allowed.
    harness::oauth(&regression("oauth", "redirect-uri-userinfo-host"));
}
