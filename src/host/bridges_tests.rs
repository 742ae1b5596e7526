//! Fixtures follow the shapes in each provider's API reference.
use super::*;

fn sum_tool() -> (String, Value) {
    (
        "everything__get-sum".into(),
        json!({
            "name": "get-sum", "description": "Returns the sum of two numbers",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}
        }),
    )
}

#[test]
fn definitions_in_each_providers_shape() {
    let tools = [sum_tool()];
    let schema = tools[0].1["inputSchema"].clone();
    let chat = tool_definitions(Provider::OpenAiChat, &tools);
    assert_eq!(
        chat.value,
        json!([{"type": "function", "function": {"name": "everything__get-sum", "description": "Returns the sum of two numbers", "parameters": schema}}])
    );
    let responses = tool_definitions(Provider::OpenAiResponses, &tools);
    assert_eq!(
        responses.value[0],
        json!({"type": "function", "name": "everything__get-sum", "description": "Returns the sum of two numbers", "parameters": schema, "strict": false})
    );
    let anthropic = tool_definitions(Provider::Anthropic, &tools);
    assert_eq!(
        anthropic.value[0],
        json!({"name": "everything__get-sum", "description": "Returns the sum of two numbers", "input_schema": schema})
    );
    let gemini = tool_definitions(Provider::Gemini, &tools);
    assert_eq!(
        gemini.value,
        json!([{"functionDeclarations": [{"name": "everything__get-sum", "description": "Returns the sum of two numbers", "parametersJsonSchema": schema}]}])
    );
    assert!(chat.notes.is_empty() && gemini.notes.is_empty());
}

#[test]
fn a_schema_without_properties_is_adjusted_and_reported() {
    let tools = [("s__ping".to_owned(), json!({"name": "ping", "inputSchema": {"type": "object"}}))];
    let converted = tool_definitions(Provider::OpenAiChat, &tools);
    assert_eq!(converted.value[0]["function"]["parameters"], json!({"type": "object", "properties": {}}));
    assert_eq!(converted.notes.len(), 1);
}

#[test]
fn openai_chat_tool_calls_parse_their_json_string_arguments() {
    let completion = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null,
        "tool_calls": [{"id": "call_abc123", "type": "function", "function": {"name": "everything__get-sum", "arguments": "{\"a\":2,\"b\":3}"}}]
    }}]});
    let calls = tool_calls(Provider::OpenAiChat, &completion).unwrap();
    assert_eq!(
        calls,
        [ToolCall { id: Some("call_abc123".into()), name: "everything__get-sum".into(), arguments: json!({"a": 2, "b": 3}) }]
    );
    let broken = json!({"tool_calls": [{"id": "c", "type": "function", "function": {"name": "t", "arguments": "{\"a\":"}}]});
    assert!(tool_calls(Provider::OpenAiChat, &broken).unwrap_err().contains("not valid JSON"));
}

#[test]
fn openai_responses_function_calls_among_other_output_items() {
    let response = json!({"id": "resp_1", "object": "response", "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "everything__echo", "arguments": "{\"message\":\"hi\"}", "status": "completed"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "calling"}]}
    ]});
    let calls = tool_calls(Provider::OpenAiResponses, &response).unwrap();
    assert_eq!(calls, [ToolCall { id: Some("call_1".into()), name: "everything__echo".into(), arguments: json!({"message": "hi"}) }]);
}

#[test]
fn anthropic_tool_use_blocks() {
    let message = json!({"id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": "Let me add those."},
        {"type": "tool_use", "id": "toolu_01A", "name": "everything__get-sum", "input": {"a": 2, "b": 3}}
    ]});
    let calls = tool_calls(Provider::Anthropic, &message).unwrap();
    assert_eq!(calls, [ToolCall { id: Some("toolu_01A".into()), name: "everything__get-sum".into(), arguments: json!({"a": 2, "b": 3}) }]);
}

#[test]
fn gemini_function_call_parts() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "everything__get-sum", "args": {"a": 2, "b": 3}}}
    ]}, "finishReason": "STOP"}]});
    let calls = tool_calls(Provider::Gemini, &response).unwrap();
    assert_eq!(calls, [ToolCall { id: None, name: "everything__get-sum".into(), arguments: json!({"a": 2, "b": 3}) }]);
}

fn image_result() -> Value {
    json!({"content": [{"type": "text", "text": "a tiny image"}, {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]})
}

#[test]
fn results_keep_images_where_the_provider_takes_them() {
    let call = ToolCall { id: Some("toolu_01A".into()), name: "everything__get-tiny-image".into(), arguments: json!({}) };
    let anthropic = tool_result(Provider::Anthropic, &call, &image_result());
    assert_eq!(
        anthropic.value,
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": [
            {"type": "text", "text": "a tiny image"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
        ]}]})
    );
    assert!(anthropic.notes.is_empty());
    let responses = tool_result(Provider::OpenAiResponses, &call, &image_result());
    assert_eq!(responses.value["output"][1], json!({"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}));
}

#[test]
fn text_only_results_report_what_they_could_not_carry() {
    let call = ToolCall { id: Some("call_1".into()), name: "everything__get-tiny-image".into(), arguments: json!({}) };
    let chat = tool_result(Provider::OpenAiChat, &call, &image_result());
    assert_eq!(chat.value, json!({"role": "tool", "tool_call_id": "call_1", "content": "a tiny image\n[image image/png]"}));
    assert_eq!(chat.notes.len(), 1);
    let gemini = tool_result(Provider::Gemini, &call, &image_result());
    assert_eq!(gemini.notes.len(), 1);
    assert_eq!(gemini.value["parts"][0]["functionResponse"]["response"]["output"], json!("a tiny image\n[image image/png]"));
}

#[test]
fn structured_content_and_errors_reach_the_model() {
    let call = ToolCall { id: Some("toolu_9".into()), name: "w__weather".into(), arguments: json!({}) };
    let structured = json!({"content": [], "structuredContent": {"temperature": 21}});
    let anthropic = tool_result(Provider::Anthropic, &call, &structured);
    assert_eq!(anthropic.value["content"][0]["content"][0], json!({"type": "text", "text": "{\"temperature\":21}"}));
    let gemini = tool_result(Provider::Gemini, &call, &structured);
    assert_eq!(gemini.value["parts"][0]["functionResponse"]["response"]["structuredContent"], json!({"temperature": 21}));
    let failed = json!({"content": [{"type": "text", "text": "city not found"}], "isError": true});
    assert_eq!(tool_result(Provider::Anthropic, &call, &failed).value["content"][0]["is_error"], json!(true));
    assert_eq!(
        tool_result(Provider::Gemini, &call, &failed).value["parts"][0]["functionResponse"]["response"],
        json!({"error": "city not found"})
    );
}

/// The cases the npm package's ToolBridge and qualifiedNames are held to as well
/// (tests/node/bridges-cases.test.mjs): the two implementations agree.
mod shared_cases {
    use super::*;
    use crate::host::naming::{self, NameRules, Prefix};

    fn cases(kind: &str) -> Vec<Value> {
        let all: Value = serde_json::from_str(include_str!("../../tests/fixtures/bridges.json")).unwrap();
        all[kind].as_array().unwrap().clone()
    }

    fn text(value: &Value) -> &str {
        value.as_str().unwrap()
    }

    fn provider(name: &Value) -> (Provider, NameRules) {
        match text(name) {
            "openai-chat" => (Provider::OpenAiChat, naming::OPENAI),
            "openai-responses" => (Provider::OpenAiResponses, naming::OPENAI),
            "anthropic" => (Provider::Anthropic, naming::ANTHROPIC),
            _ => (Provider::Gemini, naming::GEMINI),
        }
    }

    #[test]
    fn names() {
        for case in cases("names") {
            let pairs: Vec<(&str, &str)> = case["pairs"].as_array().unwrap().iter().map(|p| (text(&p[0]), text(&p[1]))).collect();
            let rules = match text(&case["rules"]) {
                "openai" => naming::OPENAI,
                "anthropic" => naming::ANTHROPIC,
                "gemini" => naming::GEMINI,
                _ => naming::PORTABLE,
            };
            let prefix = if case["prefix"] == "on-collision" { Prefix::OnCollision } else { Prefix::Always };
            let servers: Vec<&str> = case["servers"].as_array().map(|s| s.iter().map(text).collect()).unwrap_or_default();
            let named = naming::assign_among(&pairs, &servers, text(&case["separator"]), &rules, prefix);
            assert_eq!(json!(named), case["names"], "{case}");
        }
    }

    #[test]
    fn definitions() {
        for case in cases("definitions") {
            let (provider, rules) = provider(&case["provider"]);
            let tools = case["tools"].as_array().unwrap();
            let pairs: Vec<(&str, &str)> = tools.iter().map(|t| ("", text(&t["name"]))).collect();
            let offered = naming::assign(&pairs, "", &rules);
            assert_eq!(json!(offered), case["offered"]);
            let converted = tool_definitions(provider, &offered.into_iter().zip(tools.iter().cloned()).collect::<Vec<_>>());
            assert_eq!(converted.value, case["definitions"]);
            assert_eq!(json!(converted.notes), case["notes"]);
        }
    }

    #[test]
    fn calls() {
        for case in cases("calls") {
            match tool_calls(provider(&case["provider"]).0, &case["reply"]) {
                Ok(calls) => {
                    let calls: Vec<Value> =
                        calls.into_iter().map(|c| json!({"id": c.id, "name": c.name, "arguments": c.arguments})).collect();
                    assert_eq!(json!(calls), case["calls"], "{case}");
                }
                Err(why) => assert!(why.contains(text(&case["error"])), "{why} for {case}"),
            }
        }
    }

    #[test]
    fn results() {
        for case in cases("results") {
            let call = ToolCall {
                id: case["call"]["id"].as_str().map(str::to_owned),
                name: text(&case["call"]["name"]).to_owned(),
                arguments: Value::Null,
            };
            let converted = tool_result(provider(&case["provider"]).0, &call, &case["result"]);
            assert_eq!(converted.value, case["message"], "{case}");
            assert_eq!(json!(converted.notes), case["notes"], "{case}");
        }
    }
}
