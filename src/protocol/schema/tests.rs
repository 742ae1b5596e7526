use super::*;
use serde_json::json;

/// Validates `instance` as a `Value` and as text, and expects the same verdict.
fn verdict(schema: &Value, instance: &Value) -> Result<(), SchemaError> {
    let from_value = validate(schema, instance);
    match validate_text_with(schema, &instance.to_string(), &LinearPatterns::default(), &Limits::DEFAULT) {
        Ok(from_text) => assert_eq!(format!("{from_text:?}"), format!("{from_value:?}"), "{instance} against {schema}"),
        Err(e) => panic!("{instance} should read as JSON: {e}"),
    }
    from_value
}

fn ok(schema: Value, instance: Value) {
    if let Err(e) = verdict(&schema, &instance) {
        panic!("{instance} should match {schema}: {e}");
    }
}

fn bad(schema: Value, instance: Value, keyword: &str, path: &str) {
    match verdict(&schema, &instance) {
        Ok(()) => panic!("{instance} should not match {schema}"),
        Err(SchemaError::Mismatch(e)) => {
            assert_eq!(e.keyword, keyword, "{e}");
            assert_eq!(e.instance_path, path, "{e}");
        }
        Err(SchemaError::TooCostly(e)) => panic!("{instance} against {schema} should be a mismatch, not: {e}"),
    }
}

/// Expects the validation to stop, at `keyword`, quickly.
fn stopped(schema: Value, instance: Value, keyword: &str) {
    let started = std::time::Instant::now();
    match verdict(&schema, &instance) {
        Err(SchemaError::TooCostly(e)) => assert_eq!(e.keyword, keyword, "{e}"),
        other => panic!("{instance} against {schema} should stop at {keyword}: {other:?}"),
    }
    // Generous for an unoptimised debug build on a shared machine; release is far faster.
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "took {:?}", started.elapsed());
}

#[test]
fn types_and_values() {
    ok(json!({"type": "integer"}), json!(3.0));
    bad(json!({"type": "integer"}), json!(3.5), "type", "");
    ok(json!({"type": ["string", "null"]}), json!(null));
    bad(json!({"type": ["string", "null"]}), json!(1), "type", "");
    ok(json!({"enum": [1, "a", {"x": [1]}]}), json!({"x": [1.0]}));
    bad(json!({"const": "a"}), json!("b"), "const", "");
    ok(json!(true), json!({"anything": 1}));
    bad(json!(false), json!(1), "false", "");
}

#[test]
fn numbers_and_strings() {
    bad(json!({"minimum": 0}), json!(-1), "minimum", "");
    bad(json!({"exclusiveMaximum": 10}), json!(10), "exclusiveMaximum", "");
    ok(json!({"multipleOf": 0.1}), json!(0.3));
    bad(json!({"multipleOf": 2}), json!(3), "multipleOf", "");
    ok(json!({"maxLength": 2}), json!("é🦀"));
    bad(json!({"minLength": 3}), json!("ab"), "minLength", "");
    ok(json!({"pattern": "^[a-z]+-\\d+$"}), json!("abc-12"));
    bad(json!({"pattern": "^\\d+$"}), json!("12a"), "pattern", "");
    bad(json!({"pattern": "("}), json!("x"), "pattern", "");
    stopped(json!({"pattern": "^(?=a)"}), json!("a"), "pattern");
    // `format` is an annotation in 2020-12.
    ok(json!({"format": "email"}), json!("not an email"));
}

#[test]
fn objects_name_the_failing_path() {
    let schema = json!({
        "type": "object",
        "properties": {
            "weather": {
                "type": "object",
                "properties": {"temperature": {"type": "number"}, "conditions": {"type": "string"}},
                "required": ["temperature", "conditions"],
                "additionalProperties": false
            },
            "tags": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["weather"]
    });
    ok(schema.clone(), json!({"weather": {"temperature": 21.5, "conditions": "sunny"}, "tags": ["a"]}));
    bad(schema.clone(), json!({}), "required", "");
    bad(schema.clone(), json!({"weather": {"temperature": "hot", "conditions": "x"}}), "type", "/weather/temperature");
    bad(schema.clone(), json!({"weather": {"temperature": 1, "conditions": "x", "wind": 3}}), "additionalProperties", "/weather");
    bad(schema, json!({"weather": {"temperature": 1, "conditions": "x"}, "tags": ["a", 2]}), "type", "/tags/1");
    bad(json!({"properties": {"a/b~c": {"type": "string"}}}), json!({"a/b~c": 1}), "type", "/a~1b~0c");
}

#[test]
fn object_keywords() {
    let schema = json!({
        "patternProperties": {"^x-": {"type": "string"}},
        "propertyNames": {"maxLength": 5},
        "dependentRequired": {"card": ["cvv"]},
        "minProperties": 1,
        "maxProperties": 3
    });
    ok(schema.clone(), json!({"x-a": "1"}));
    bad(schema.clone(), json!({"x-a": 1}), "type", "/x-a");
    bad(schema.clone(), json!({"longname": 1}), "propertyNames", "");
    bad(schema.clone(), json!({"card": 1}), "dependentRequired", "");
    bad(schema.clone(), json!({}), "minProperties", "");
    bad(schema, json!({"a": 1, "b": 2, "c": 3, "d": 4}), "maxProperties", "");
}

#[test]
fn arrays_in_both_dialects() {
    let tuple2020 = json!({"prefixItems": [{"type": "string"}, {"type": "number"}], "items": false});
    ok(tuple2020.clone(), json!(["a", 1]));
    bad(tuple2020, json!(["a", 1, true]), "false", "/2");
    let tuple7 =
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}], "additionalItems": {"type": "number"}});
    ok(tuple7.clone(), json!(["a", 1, 2]));
    bad(tuple7, json!(["a", "b"]), "type", "/1");
    bad(json!({"uniqueItems": true}), json!([1, {"a": 1}, 1.0]), "uniqueItems", "");
    ok(json!({"contains": {"const": 2}, "maxContains": 1}), json!([1, 2, 3]));
    bad(json!({"contains": {"const": 2}}), json!([1, 3]), "contains", "");
    bad(json!({"minItems": 1}), json!([]), "minItems", "");
}

#[test]
fn combinators() {
    let s = json!({"anyOf": [{"type": "string"}, {"type": "number"}]});
    ok(s.clone(), json!(1));
    bad(s, json!(true), "anyOf", "");
    bad(json!({"oneOf": [{"type": "number"}, {"type": "integer"}]}), json!(1), "oneOf", "");
    bad(json!({"not": {"type": "null"}}), json!(null), "not", "");
    let conditional = json!({"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}});
    ok(conditional.clone(), json!({"kind": "a", "a": 1}));
    bad(conditional.clone(), json!({"kind": "a"}), "required", "");
    bad(conditional, json!({"kind": "z"}), "required", "");
    bad(json!({"allOf": [{"minimum": 1}, {"maximum": 2}]}), json!(3), "maximum", "");
}

#[test]
fn unevaluated_properties_see_through_combinators() {
    let schema = json!({
        "allOf": [{"properties": {"a": true}}],
        "anyOf": [{"properties": {"b": true}}, {"properties": {"c": true}}],
        "unevaluatedProperties": false
    });
    ok(schema.clone(), json!({"a": 1, "b": 2, "c": 3}));
    bad(schema, json!({"a": 1, "d": 4}), "unevaluatedProperties", "");
    bad(json!({"prefixItems": [true], "unevaluatedItems": false}), json!([1, 2]), "unevaluatedItems", "");
}

#[test]
fn local_references_only() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}}},
        "$ref": "#/$defs/node"
    });
    ok(schema.clone(), json!({"v": 1, "next": {"v": 2, "next": {"v": 3}}}));
    bad(schema, json!({"v": 1, "next": {"v": "two"}}), "type", "/next/v");
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"n": {"type": "number"}}, "properties": {"x": {"$ref": "#/definitions/n"}}});
    bad(draft7, json!({"x": "1"}), "type", "/x");
    bad(json!({"$ref": "https://example.com/schema.json"}), json!(1), "$ref", "");
    bad(json!({"$ref": "other.json#/x"}), json!(1), "$ref", "");
    bad(json!({"$ref": "#/nowhere"}), json!(1), "$ref", "");
    ok(json!({"$defs": {"a": {"$anchor": "thing", "type": "string"}}, "$ref": "#thing"}), json!("s"));
}

#[test]
fn a_self_referencing_schema_stops_instead_of_overflowing() {
    let schema = json!({"$defs": {"loop": {"$ref": "#/$defs/loop"}}, "$ref": "#/$defs/loop"});
    stopped(schema, json!(1), "$ref");
}

/// Each level doubles the work: without the cycle cut and the budget this
/// never ends. The first branch already comes back to `x` for the same value.
#[test]
fn a_branching_self_reference_stops_at_once() {
    let schema = json!({"properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}, {"$ref": "#/properties/x"}]}}});
    stopped(schema, json!({"x": 1}), "$ref");
}

/// Exponential work that does go deeper into the value: the budget stops it.
/// Level `n` tries both of its alternatives on the items of the value, and
/// every path fails only at the bottom, so all 2^40 paths would be tried.
#[test]
fn exponential_work_runs_out_of_budget() {
    let mut defs = serde_json::Map::new();
    defs.insert("l0".into(), json!({"type": "string"}));
    for n in 1..=40 {
        let below = json!({"items": {"$ref": format!("#/$defs/l{}", n - 1)}});
        defs.insert(format!("l{n}"), json!({"anyOf": [below.clone(), below]}));
    }
    let schema = json!({"$defs": defs, "$ref": "#/$defs/l40"});
    let mut instance = json!(1);
    for _ in 0..40 {
        instance = json!([instance]);
    }
    stopped(schema, instance, "budget");
}

#[test]
fn catastrophic_patterns_are_linear() {
    let text = format!("{}!", "a".repeat(40));
    bad(json!({"pattern": "^(a+)+$"}), json!(text), "pattern", "");
    bad(json!({"patternProperties": {"^(a|a)*$": false}}), json!({ "a".repeat(40): 1 }), "false", &format!("/{}", "a".repeat(40)));
}

#[test]
fn long_texts_pay_for_their_patterns() {
    let schema = json!({"type": "array", "items": {"pattern": "^[a-z]*$"}});
    ok(schema.clone(), Value::Array(vec![json!("abc"); 100]));
    let huge = "a".repeat(4 * 1024 * 1024);
    let limits = Limits { steps: 1_000, steps_per_value: 1 };
    let outcome = validate_with(&schema, &json!([huge]), &LinearPatterns::default(), &limits);
    assert!(matches!(outcome, Err(SchemaError::TooCostly(ref e)) if e.keyword == "budget"), "{outcome:?}");
}

#[test]
fn unique_items_and_enum_pay_per_comparison() {
    let items: Vec<Value> = (0..5_000).map(|i| json!(i)).collect();
    let limits = Limits { steps: 10_000, steps_per_value: 1 };
    let unique = validate_with(&json!({"uniqueItems": true}), &Value::Array(items.clone()), &LinearPatterns::default(), &limits);
    assert!(matches!(unique, Err(SchemaError::TooCostly(_))), "{unique:?}");
    ok(json!({"uniqueItems": true}), json!([1, 2, 3]));
    bad(json!({"uniqueItems": true}), json!([1, 2, 1.0]), "uniqueItems", "");
    // Large objects that differ in their first member: each comparison stops at once, but it
    // hashed the other object's names first, and pays for that.
    let item = |i: usize| {
        Value::Object(std::iter::once(("a".to_owned(), json!(i))).chain((0..250).map(|k| (format!("k{k}"), json!(0)))).collect())
    };
    let items = Value::Array((0..400).map(item).collect());
    let started = std::time::Instant::now();
    let verdict = validate_with(&json!({"uniqueItems": true}), &items, &LinearPatterns::default(), &limits);
    assert!(matches!(verdict, Err(SchemaError::TooCostly(_))), "{verdict:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(1), "took {:?}", started.elapsed());
}

#[test]
fn a_large_object_met_by_many_schemas_pays_for_its_names_each_time() {
    // Each level doubles the schemas applied to the same object; each needs its names looked up.
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"required": ["x"]}));
    for k in 1..=24 {
        let below = format!("#/$defs/d{}", k - 1);
        defs.insert(format!("d{k}"), json!({"allOf": [{"$ref": below}, {"$ref": below}]}));
    }
    let schema = json!({"$defs": defs, "$ref": "#/$defs/d24"});
    let object = Value::Object(serde_json::Map::from_iter((0..5_000).map(|k| (format!("k{k}"), json!(k))).chain([("x".into(), json!(1))])));
    stopped(schema.clone(), object.clone(), "budget");
    // The same with a keyword that only walks the members, without looking any up.
    let walking = serde_json::to_string(&schema).unwrap_or_default().replace(r#"{"required":["x"]}"#, r#"{"properties":{"zz":{}}}"#);
    stopped(serde_json::from_str(&walking).unwrap_or_default(), object, "budget");
}

#[test]
fn large_plain_results_fit_the_per_value_allowance() {
    let item = json!({"id": 1, "name": "n", "tags": ["a", "b"], "geo": {"lat": 1.5, "lng": 2.5}});
    let schema = json!({"type": "array", "items": {"type": "object", "required": ["id"], "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
        "geo": {"type": "object", "properties": {"lat": {"type": "number"}, "lng": {"type": "number"}}}}}});
    ok(schema, Value::Array(vec![item; 50_000]));
}

/// The MCP specification's own schema exercises `$ref`, `anyOf`, `const` and
/// `additionalProperties` across 145 definitions.
#[test]
fn validates_mcp_messages_against_the_spec_schema() {
    let spec: Value = serde_json::from_str(include_str!("../../../spec/2025-11-25/schema.json")).unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}});
    validate_at(&spec, "/$defs/CallToolRequest", &call).unwrap();
    validate_at(&spec, "/$defs/JSONRPCRequest", &call).unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}},
        "clientInfo": {"name": "mcp-wasm", "version": "0.1.0"}}});
    validate_at(&spec, "/$defs/InitializeRequest", &init).unwrap();
    let result =
        json!({"content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}], "isError": false});
    validate_at(&spec, "/$defs/CallToolResult", &result).unwrap();
    let broken = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"arguments": {}}});
    let error = validate_at(&spec, "/$defs/CallToolRequest", &broken).unwrap_err();
    assert!(matches!(error, SchemaError::Mismatch(_)), "{error}");
    assert_eq!((error.detail().keyword.as_ref(), error.detail().instance_path.as_str()), ("required", "/params"));
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m", "stopReason": "endTurn"});
    validate_at(&spec, "/$defs/CreateMessageResult", &sampled).unwrap();
    let blocks = crate::protocol::types::CreateMessageResult::new(
        "m",
        vec![crate::protocol::types::Content::text("a"), crate::protocol::types::Content::text("b")],
    );
    validate_at(&spec, "/$defs/CreateMessageResult", &serde_json::to_value(blocks).unwrap()).unwrap();
}

#[test]
fn item_paths_count_in_decimal_and_schemas_met_again_keep_their_keywords() {
    // The same item schema for every item: its keywords are found once, and
    // each item still fails at its own place.
    let items = json!({"type": "array", "items": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}});
    let mut instance: Vec<Value> = (0..1_234).map(|n| json!({"n": n})).collect();
    ok(items.clone(), Value::Array(instance.clone()));
    for (at, path) in [(0, "/0/n"), (9, "/9/n"), (10, "/10/n"), (1_233, "/1233/n")] {
        let mut broken = instance.clone();
        broken[at] = json!({"n": "x"});
        bad(items.clone(), Value::Array(broken), "type", path);
    }
    instance[100] = json!({});
    bad(items, Value::Array(instance), "required", "/100");
}

#[test]
fn an_instance_text_holds_at_most_a_messages_values() {
    use crate::protocol::json::{MAX_VALUES, TOO_MANY_VALUES};
    let zeros = |n: usize| format!("[{}]", vec!["0"; n].join(","));
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let check = |text: &str| validate_text_with(&schema, text, &LinearPatterns::default(), &Limits::DEFAULT);
    assert!(check(&zeros(MAX_VALUES - 1)).is_ok_and(|verdict| verdict.is_ok()), "the array and its zeros: a million values");
    assert_eq!(check(&zeros(MAX_VALUES)).map_err(|e| e.reason), Err(TOO_MANY_VALUES));
}
