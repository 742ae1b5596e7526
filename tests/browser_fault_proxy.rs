//! Headless Chromium through the fault-injecting proxy in front of a real
//! server-everything: the shared fault scenarios (tests/faults/scenarios.js),
//! and the CORS diagnostics, which only a browser can show.
// A test may unwrap and index: a failure here is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(target_arch = "wasm32")]

use mcp_wasm::McpClient;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PROXY: &str = match option_env!("MCP_FAULT_PROXY") {
    Some(url) => url,
    None => "http://127.0.0.1:38050",
};

#[wasm_bindgen(module = "/tests/faults/scenarios.js")]
extern "C" {
    #[wasm_bindgen(js_name = runFaultSuite)]
    fn run_fault_suite(connect: &JsValue, base: &str) -> js_sys::Promise;
}

fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

#[wasm_bindgen_test]
async fn every_fault_is_survived() {
    let connect = Closure::<dyn FnMut(JsValue, JsValue) -> js_sys::Promise>::new(|url: JsValue, options: JsValue| {
        future_to_promise(async move { McpClient::connect(url, options).await.map(JsValue::from) })
    });
    let report = JsFuture::from(run_fault_suite(connect.as_ref(), PROXY)).await.expect("the suite ran");
    let results = js_sys::Array::from(&field(&report, "results"));
    for result in results.iter() {
        assert!(
            field(&result, "survived").is_truthy(),
            "{}: {}",
            field(&result, "fault").as_string().unwrap_or_default(),
            field(&result, "detail").as_string().unwrap_or_default()
        );
    }
    assert_eq!(field(&report, "survived").as_f64(), field(&report, "total").as_f64());
    assert!(results.length() >= 8);
}

async fn connect_error(fault: &str) -> JsValue {
    let url = format!("{PROXY}/{fault}/mcp");
    let options = js_sys::JSON::parse(r#"{"timeout":5000}"#).unwrap();
    McpClient::connect(JsValue::from_str(&url), options).await.map(JsValue::from).expect_err("the browser cannot get through")
}

#[wasm_bindgen_test]
async fn a_blocked_request_names_the_cors_settings() {
    let error = connect_error("no-cors").await;
    let message = field(&error, "message").as_string().unwrap_or_default();
    assert_eq!(field(&error, "kind").as_string().as_deref(), Some("network"));
    assert!(message.contains("Access-Control-Allow-Origin") && message.contains("mcp-protocol-version"), "{message}");
}

#[wasm_bindgen_test]
async fn an_unexposed_session_id_is_named() {
    let error = connect_error("no-expose").await;
    let message = field(&error, "message").as_string().unwrap_or_default();
    assert_eq!(field(&error, "status").as_f64(), Some(400.0), "{message}");
    assert!(message.contains("Access-Control-Expose-Headers") && message.contains("mcp-session-id"), "{message}");
}

#[wasm_bindgen_test]
async fn an_unreadable_challenge_is_named() {
    let error = connect_error("auth-hidden").await;
    let message = field(&error, "message").as_string().unwrap_or_default();
    assert_eq!(field(&error, "status").as_f64(), Some(401.0));
    assert!(message.contains("WWW-Authenticate") && message.contains("Access-Control-Expose-Headers"), "{message}");
}
