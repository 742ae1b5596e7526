use super::*;
use serde_json::json;

#[test]
fn meta_is_added_and_existing_keys_kept() {
    let caps = json!({"sampling": {}});
    let info = json!({"name": "c", "version": "1"});
    let meta = RequestMeta { version: VERSION, capabilities: &caps, client_info: &info, log_level: Some("info") };
    let params = with_meta(Some(json!({"name": "echo", "_meta": {"progressToken": 4}})), &meta);
    assert_eq!(params["_meta"]["progressToken"], json!(4));
    assert_eq!(params["_meta"][keys::PROTOCOL_VERSION], json!(VERSION));
    assert_eq!(params["_meta"][keys::CLIENT_CAPABILITIES], caps);
    assert_eq!(params["_meta"][keys::LOG_LEVEL], json!("info"));
    assert_eq!(with_meta(None, &meta)["_meta"][keys::CLIENT_INFO], info);
}

#[test]
fn result_types() {
    assert_eq!(classify_result(json!({"tools": []})), Ok(Outcome::Complete(json!({"tools": []}))));
    assert_eq!(classify_result(json!({"resultType": "complete", "x": 1})), Ok(Outcome::Complete(json!({"x": 1}))));
    assert!(classify_result(json!({"resultType": "maybe"})).is_err());
    assert!(classify_result(json!({"resultType": 3})).is_err());
    assert!(classify_result(json!({"resultType": "input_required"})).is_err());
    let input = classify_result(json!({
        "resultType": "input_required",
        "inputRequests": {"who": {"method": "elicitation/create", "params": {"message": "?"}}},
        "requestState": "opaque+/=="
    }));
    assert_eq!(
        input,
        Ok(Outcome::InputRequired {
            requests: vec![InputRequest { key: "who".into(), method: "elicitation/create".into(), params: Some(json!({"message": "?"})) }],
            state: Some("opaque+/==".into()),
        })
    );
    assert!(classify_result(json!({"resultType": "input_required", "inputRequests": {"k": {}}})).is_err());
}

#[test]
fn retries_carry_answers_and_the_exact_state() {
    let mut answers = Map::new();
    answers.insert("who".into(), json!({"action": "accept", "content": {"name": "Ada"}}));
    let params = retry_params(Some(json!({"name": "ask", "requestState": "stale"})), answers, Some(" exact ".into()));
    assert_eq!(params["requestState"], json!(" exact "));
    assert_eq!(params["inputResponses"]["who"]["content"]["name"], json!("Ada"));
    assert_eq!(params["name"], json!("ask"));
}

#[test]
fn names_for_the_mcp_name_header() {
    assert_eq!(mcp_name("tools/call", Some(&json!({"name": "echo"}).into())).as_deref(), Some("echo"));
    assert_eq!(mcp_name("resources/read", Some(&json!({"uri": "a://b"}).into())).as_deref(), Some("a://b"));
    assert_eq!(mcp_name("tools/list", Some(&json!({"name": "x"}).into())), None);
}

#[test]
fn header_values() {
    assert_eq!(encode_header_value(&json!("eu-west")).as_deref(), Some("eu-west"));
    assert_eq!(encode_header_value(&json!(true)).as_deref(), Some("true"));
    assert_eq!(encode_header_value(&json!(42)).as_deref(), Some("42"));
    assert_eq!(encode_header_value(&json!(null)), None);
    assert_eq!(encode_header_value(&json!({"a": 1})), None);
    assert_eq!(encode_header_value(&json!("São Paulo")).as_deref(), Some("=?base64?U8OjbyBQYXVsbw==?="));
    assert_eq!(encode_header_value(&json!(" padded")).as_deref(), Some("=?base64?IHBhZGRlZA==?="));
    assert_eq!(encode_header_value(&json!("a\nb")).as_deref(), Some("=?base64?YQpi?="));
    assert_eq!(encode_header_value(&json!("=?base64?x?=")).as_deref(), Some("=?base64?PT9iYXNlNjQ/eD89?="));
}

#[test]
fn param_headers_follow_annotations() {
    let schema = json!({"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "count": {"type": "integer", "x-mcp-header": "Count"},
        "note": {"type": "string"}
    }});
    let headers = param_headers(&schema, Some(&json!({"region": "eu", "count": 3, "note": "n"})));
    // In the schema's order: JSON objects keep their key order (serde_json's preserve_order).
    assert_eq!(headers, vec![("Mcp-Param-Region".into(), "eu".into()), ("Mcp-Param-Count".into(), "3".into())]);
    assert!(param_headers(&schema, Some(&json!({"region": null}))).is_empty());
}

#[test]
fn annotations_at_the_end_of_a_chain_of_properties_are_mirrored_from_the_same_path() {
    let schema = json!({"type": "object", "properties": {
        "target": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
        "region": {"type": "string"}
    }});
    assert!(has_param_headers(&schema));
    assert_eq!(tool_header_problem(&json!({"name": "deploy", "inputSchema": schema})), None);
    let headers = param_headers(&schema, Some(&json!({"region": "us", "target": {"region": "eu"}})));
    assert_eq!(headers, vec![("Mcp-Param-Region".into(), "eu".into())]);
    assert!(param_headers(&schema, Some(&json!({"target": "eu"}))).is_empty(), "no value at the path");
}

#[test]
fn annotations_past_the_depth_bound_make_a_tool_invalid() {
    let mut schema = json!({"type": "string", "x-mcp-header": "Deep"});
    for _ in 0..40 {
        schema = json!({"type": "object", "properties": {"p": schema}});
    }
    assert!(tool_header_problem(&json!({"name": "t", "inputSchema": schema})).is_some());
}

#[test]
fn invalid_annotations_make_a_tool_invalid() {
    let tool = |schema: Value| json!({"name": "t", "inputSchema": schema});
    assert_eq!(tool_header_problem(&tool(json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "A"}}}))), None);
    for allowed in ["integer", "boolean"] {
        assert_eq!(tool_header_problem(&tool(json!({"properties": {"a": {"type": allowed, "x-mcp-header": "A"}}}))), None, "{allowed}");
    }
    for bad in [
        json!({"properties": {"a": {"type": "string", "x-mcp-header": "has space"}}}),
        json!({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
        json!({"properties": {"a": {"type": "object", "x-mcp-header": "A"}}}),
        json!({"properties": {"a": {"type": "number", "x-mcp-header": "Score"}}}),
        json!({"properties": {"a": {"type": "null", "x-mcp-header": "A"}}}),
        json!({"properties": {"a": {"type": "string", "x-mcp-header": "Région"}}}),
        json!({"properties": {"a": {"type": "string", "x-mcp-header": "Region:Primary"}}}),
        json!({"properties": {"a": {"x-mcp-header": "A"}}}),
        json!({"properties": {"a": {"type": "string", "x-mcp-header": "A"}, "b": {"type": "string", "x-mcp-header": "a"}}}),
        json!({"properties": {"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}}}),
        json!({"properties": {"a": {"oneOf": [{"type": "string", "x-mcp-header": "A"}]}}}),
        json!({"$defs": {"x": {"type": "string", "x-mcp-header": "A"}}, "properties": {"a": {"$ref": "#/$defs/x"}}}),
        json!({"type": "string", "x-mcp-header": "Root"}),
        json!({"properties": {"a": {"type": "object", "properties": {"b": {"type": "number", "x-mcp-header": "B"}}}}}),
        json!({"properties": {"a": {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "string", "x-mcp-header": "B"}}}}}}),
        json!({"properties": {"a": {"type": "string", "x-mcp-header": "A"}, "b": {"properties": {"c": {"type": "string", "x-mcp-header": "a"}}}}}),
    ] {
        assert!(tool_header_problem(&tool(bad.clone())).is_some(), "{bad}");
    }
}

#[test]
fn discovery_and_recovery() {
    let discovered = read_discovery(&json!({
        "capabilities": {"tools": {}}, "supportedVersions": ["2026-07-28"], "ttlMs": 0, "cacheScope": "public",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "2"}}
    }))
    .unwrap();
    assert_eq!(discovered.server_info, Some(json!({"name": "s", "version": "2"})));
    assert_eq!(discovered.supported_versions, ["2026-07-28"]);
    assert!(read_discovery(&json!({"capabilities": []})).is_err());
    let unsupported =
        ErrorObject { code: -32022, message: "no".into(), data: Some(json!({"requested": "x", "supported": ["2026-07-28"]})) };
    assert_eq!(recovery(&unsupported), Some(Recovery::OtherVersions(vec!["2026-07-28".into()])));
    assert_eq!(recovery(&ErrorObject::new(-32020, "m")), Some(Recovery::RelistAndRetry));
    assert_eq!(recovery(&ErrorObject::new(-32601, "m")), None);
}

#[test]
fn probe_verdicts_follow_the_recipe() {
    assert_eq!(probe_verdict(200, "{}"), Verdict::Modern);
    assert_eq!(probe_verdict(400, r#"{"jsonrpc":"2.0","error":{"code":-32022,"message":"v"}}"#), Verdict::Modern);
    // Every modern server implements server/discover: not finding it says "older server".
    assert_eq!(probe_verdict(404, r#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"m"}}"#), Verdict::Legacy);
    assert_eq!(
        probe_verdict(400, r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"}}"#),
        Verdict::Legacy
    );
    assert_eq!(probe_verdict(404, ""), Verdict::Legacy);
    assert_eq!(probe_verdict(405, "Method Not Allowed"), Verdict::Legacy);
    assert_eq!(probe_verdict(401, ""), Verdict::Failure);
    assert_eq!(probe_verdict(403, ""), Verdict::Failure);
    assert_eq!(probe_verdict(500, ""), Verdict::Failure);
}

#[test]
fn a_refused_revision_is_retried_only_when_the_server_lists_ours() {
    let refusal = |supported: Value| ErrorObject {
        code: codes::UNSUPPORTED_PROTOCOL_VERSION,
        message: "no".into(),
        data: Some(json!({ "supported": supported })),
    };
    assert_eq!(version_answer(&refusal(json!(["2026-07-28"]))), Some(VersionAnswer::Retry));
    assert_eq!(version_answer(&refusal(json!(["2027-01-01"]))), Some(VersionAnswer::Unsupported(vec!["2027-01-01".into()])));
    assert_eq!(version_answer(&ErrorObject::new(-32601, "nope")), None);
}

#[test]
fn the_versions_a_refusal_names_are_read_from_its_end() {
    let text = "Unsupported protocol version: 2025-11-25 (see the docs) (the server speaks 2026-07-28, 2027-01-01)";
    assert_eq!(named_versions(text), Some("2026-07-28, 2027-01-01"));
    assert_eq!(named_versions("Unsupported (the server speaks"), None);
    assert_eq!(named_versions("Unsupported (see the docs)"), None);
    assert_eq!(named_versions("(the server speaks 2026-07-28)"), None);
    assert_eq!(named_versions("refused"), None);
}
