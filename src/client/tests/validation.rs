//! Output validation: `structuredContent` checked against the `outputSchema`
//! of the tool as last listed, within the validation budget.

use crate::client::testing::{connected, Answer, Seen, World};
use crate::client::{Client, ClientOptions, EraChoice, RequestOptions};
use crate::error::Error;
use crate::protocol::types::CallToolParams;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

fn schema() -> Value {
    json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
}

fn tool(name: &str, output_schema: Option<Value>) -> Value {
    let mut tool = json!({"name": name, "inputSchema": {"type": "object"}});
    if let Some(schema) = output_schema {
        tool["outputSchema"] = schema;
    }
    tool
}

/// A server listing `listing` (replaceable while it runs) and answering every call with `result`.
struct Typed {
    listing: Rc<RefCell<Value>>,
    w: World,
    client: Client,
}

fn typed(listing: Value, result: Value, options: ClientOptions) -> Typed {
    let listing = Rc::new(RefCell::new(listing));
    let tools = listing.clone();
    let (w, client) = connected(
        move |s: &Seen| match s.method() {
            "tools/list" => Some(Answer::Result(tools.borrow().clone())),
            "tools/call" => Some(Answer::Result(result.clone())),
            _ => None,
        },
        json!({"tools": {}}),
        options,
    );
    Typed { listing, w, client }
}

impl Typed {
    fn list(&mut self) {
        let c = self.client.clone();
        self.w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    }

    fn call(&mut self, name: &str) -> Result<Value, Error> {
        let (c, params) = (self.client.clone(), json!({ "name": name }));
        self.w.run(async move { c.call_tool_reply(params, &RequestOptions::default()).await.map(|r| r.into_value()) })
    }
}

fn counting(structured: Option<Value>) -> Value {
    let mut result = json!({"content": []});
    if let Some(value) = structured {
        result["structuredContent"] = value;
    }
    result
}

fn legacy() -> ClientOptions {
    ClientOptions::default().era(EraChoice::Legacy)
}

fn listed_count(result: Value) -> Typed {
    let mut t = typed(json!({ "tools": [tool("count", Some(schema()))] }), result, legacy());
    t.list();
    t
}

#[test]
fn a_mismatch_is_invalid_result_naming_the_tool() {
    let error = listed_count(counting(Some(json!({"n": 1.5})))).call("count").unwrap_err();
    assert_eq!(error.kind(), "invalid-result");
    assert!(error.to_string().contains("\"count\""), "{error}");
}

#[test]
fn a_declared_schema_without_structured_content_is_invalid() {
    let error = listed_count(counting(None)).call("count").unwrap_err();
    assert_eq!(error.kind(), "invalid-result");
    assert!(error.to_string().contains("no structuredContent"), "{error}");
}

#[test]
fn a_failed_call_is_not_validated() {
    let failed = json!({"content": [{"type": "text", "text": "boom"}], "isError": true});
    let result = listed_count(failed).call("count").unwrap();
    assert_eq!(result["isError"], true);
}

#[test]
fn a_tool_without_an_output_schema_or_not_yet_listed_is_not_validated() {
    let mut t = typed(json!({ "tools": [tool("free", None)] }), counting(Some(json!({"n": "x"}))), legacy());
    assert!(t.call("count").is_ok(), "not listed yet");
    t.list();
    assert!(t.call("free").is_ok());
}

#[test]
fn a_relisting_without_the_schema_stops_the_check_and_one_with_it_starts_it() {
    let mut t = listed_count(counting(Some(json!({"n": "x"}))));
    assert!(t.call("count").is_err());
    *t.listing.borrow_mut() = json!({ "tools": [tool("count", None)] });
    t.list();
    assert!(t.call("count").is_ok());
    *t.listing.borrow_mut() = json!({ "tools": [tool("count", Some(schema()))] });
    t.list();
    assert!(t.call("count").is_err());
}

#[test]
fn a_tool_learnt_from_the_second_page_of_a_walk_is_validated() {
    let (mut w, client) = connected(
        |s| match (s.method(), s.params()["cursor"].as_str()) {
            ("tools/list", None) => Some(Answer::Result(json!({"tools": [tool("a", None)], "nextCursor": "2"}))),
            ("tools/list", Some(_)) => Some(Answer::Result(json!({"tools": [tool("count", Some(schema()))]}))),
            ("tools/call", _) => Some(Answer::Result(counting(Some(json!({}))))),
            _ => None,
        },
        json!({"tools": {}}),
        legacy(),
    );
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let c = client.clone();
    let outcome = w.run(async move { c.call_tool(CallToolParams::new("count"), &RequestOptions::default()).await });
    assert_eq!(outcome.unwrap_err().kind(), "invalid-result");
}

#[cfg(feature = "modern")]
#[test]
fn the_modern_era_validates_too() {
    let mut t = typed(json!({ "tools": [tool("count", Some(schema()))] }), counting(Some(json!({"n": "x"}))), ClientOptions::default());
    assert_eq!(t.client.era(), crate::client::Era::Modern);
    t.list();
    assert_eq!(t.call("count").unwrap_err().kind(), "invalid-result");
}

#[test]
fn the_budget_stops_one_costly_check_and_leaves_the_next_its_own() {
    let rows_schema = json!({"type": "object", "properties": {"rows": {"type": "array", "items": {"anyOf": [
        {"type": "string"}, {"type": "number"}, {"type": "object", "properties": {"v": {"type": "integer"}}},
    ]}}}});
    let big = Rc::new(RefCell::new(true));
    let flag = big.clone();
    let options = ClientOptions {
        limits: crate::session::limits::Limits {
            schema: crate::protocol::schema::Limits { steps: 2_000, steps_per_value: 0 },
            ..crate::session::limits::Limits::DEFAULT
        },
        ..legacy()
    };
    let (mut w, client) = connected(
        move |s| match s.method() {
            "tools/list" => Some(Answer::Result(json!({ "tools": [tool("rows", Some(rows_schema.clone()))] }))),
            "tools/call" => {
                let rows = vec![json!({"v": 1}); if *flag.borrow() { 10_000 } else { 3 }];
                Some(Answer::Result(counting(Some(json!({ "rows": rows })))))
            }
            _ => None,
        },
        json!({"tools": {}}),
        options,
    );
    let c = client.clone();
    w.run(async move { c.list_all_tools(&RequestOptions::default()).await }).unwrap();
    let call = |w: &mut World| {
        let c = client.clone();
        w.run(async move { c.call_tool(CallToolParams::new("rows"), &RequestOptions::default()).await })
    };
    let error = call(&mut w).unwrap_err();
    assert!(matches!(&error, Error::LimitExceeded { limit: "validationSteps", message } if message.contains("\"rows\"")), "{error:?}");
    *big.borrow_mut() = false;
    assert!(call(&mut w).is_ok(), "each call has the whole budget");
}

impl Typed {
    /// The call with its `structuredContent` check left to the caller, then made.
    fn call_deferring(&mut self, name: &str) -> (Result<bool, Error>, Option<Value>) {
        let (c, params) = (self.client.clone(), json!({ "name": name }));
        self.w.run(async move {
            let (reply, check) = match c.call_tool_reply_deferring_output(params, &RequestOptions::default()).await {
                Ok(deferred) => deferred,
                Err(e) => return (Err(e), None),
            };
            let schema = check.as_ref().map(|check| check.schema().clone());
            let checked = match &check {
                Some(check) => c.check_tool_output(&reply, check).await.map(|()| true),
                None => Ok(false),
            };
            (checked, schema)
        })
    }
}

#[test]
fn a_deferred_check_is_handed_back_with_the_schema_and_made_on_request() {
    let (checked, handed) = listed_count(counting(Some(json!({"n": 2})))).call_deferring("count");
    assert!(checked.unwrap(), "a check was left, and it passed");
    assert_eq!(handed, Some(schema()));

    let (checked, _) = listed_count(counting(Some(json!({"n": 1.5})))).call_deferring("count");
    assert_eq!(checked.unwrap_err().kind(), "invalid-result");

    // Nothing is left to check without a listed schema, or for a failed tool.
    let mut unlisted = typed(json!({ "tools": [tool("count", None)] }), counting(Some(json!({"n": 1.5}))), legacy());
    unlisted.list();
    assert!(!unlisted.call_deferring("count").0.unwrap());
    let failed = json!({"content": [], "isError": true, "structuredContent": {"n": "no"}});
    assert!(!listed_count(failed).call_deferring("count").0.unwrap());

    // A missing structuredContent is the call's error, before any check.
    let (checked, handed) = listed_count(counting(None)).call_deferring("count");
    assert_eq!(checked.unwrap_err().kind(), "invalid-result");
    assert_eq!(handed, None);
}

#[test]
fn a_whole_listing_forgets_the_schemas_of_tools_it_no_longer_lists() {
    let mut t = listed_count(counting(Some(json!({"n": "x"}))));
    assert!(t.call("count").is_err());
    *t.listing.borrow_mut() = json!({ "tools": [tool("other", Some(schema()))] });
    t.list();
    assert!(t.call("count").is_ok(), "count is no longer listed: its old schema is not kept");
    assert_eq!(t.client.state.output_schemas.borrow().len(), 1);
}

#[test]
fn one_page_forgets_only_when_it_is_the_whole_list() {
    let pages = Rc::new(RefCell::new(json!({ "tools": [tool("count", Some(schema()))] })));
    let listing = pages.clone();
    let (mut w, client) = connected(
        move |s: &Seen| match s.method() {
            "tools/list" => Some(Answer::Result(listing.borrow().clone())),
            "tools/call" => Some(Answer::Result(counting(Some(json!({"n": "x"}))))),
            _ => None,
        },
        json!({"tools": {}}),
        legacy(),
    );
    let page = |w: &mut World, cursor: Option<&'static str>| {
        let c = client.clone();
        w.run(async move { c.list_tools(cursor, &RequestOptions::default()).await }).unwrap();
    };
    page(&mut w, None);
    // A page that says more follow, and a page asked for by cursor, are not the whole list.
    *pages.borrow_mut() = json!({ "tools": [tool("a", None)], "nextCursor": "2" });
    page(&mut w, None);
    *pages.borrow_mut() = json!({ "tools": [tool("b", None)] });
    page(&mut w, Some("2"));
    assert!(client.state.output_schemas.borrow().contains_key("count"));
    *pages.borrow_mut() = json!({ "tools": [tool("b", None)] });
    page(&mut w, None);
    assert!(client.state.output_schemas.borrow().is_empty());
}

#[test]
fn a_listing_that_ends_after_a_newer_one_began_neither_learns_nor_forgets() {
    let (mut w, client) = connected(|s: &Seen| (s.method() == "tools/list").then_some(Answer::Hold), json!({"tools": {}}), legacy());
    let listing = |w: &mut World| {
        let c = client.clone();
        w.start(async move { c.list_all_tools(&RequestOptions::default()).await.map(drop) })
    };
    let older = listing(&mut w);
    let older_id = w.server.last("tools/list").unwrap().id().unwrap();
    let newer = listing(&mut w);
    let newer_id = w.server.last("tools/list").unwrap().id().unwrap();
    w.server.respond(&newer_id, json!({ "tools": [tool("count", Some(schema()))] }));
    w.settle();
    w.server.respond(&older_id, json!({ "tools": [tool("other", Some(schema()))] }));
    w.settle();
    assert!(matches!((older.borrow().as_ref(), newer.borrow().as_ref()), (Some(Ok(())), Some(Ok(())))));
    assert!(client.state.output_schemas.borrow().contains_key("count"), "the newer listing's tools are kept");
    assert!(!client.state.output_schemas.borrow().contains_key("other"), "the older one's are not learned");
}

#[test]
fn asking_page_by_page_of_tools_renamed_at_every_page_stays_within_twice_a_walk() {
    // Each page names four new tools, each with an output schema and an idempotent hint,
    // and says that more follow: no whole listing ever ends to forget the old ones.
    let limits = crate::session::limits::Limits { max_message_bytes: 4_096, ..crate::session::limits::Limits::DEFAULT };
    let served = Rc::new(std::cell::Cell::new(0));
    let count = served.clone();
    let (mut w, client) = connected(
        move |s: &Seen| {
            (s.method() == "tools/list").then(|| {
                count.set(count.get() + 1);
                let tools: Vec<Value> = (0..4)
                    .map(|i| {
                        let mut tool = tool(&format!("t{}-{i}", count.get()), Some(schema()));
                        tool["annotations"] = json!({"idempotentHint": true});
                        tool
                    })
                    .collect();
                Answer::Result(json!({ "tools": tools, "nextCursor": "more" }))
            })
        },
        json!({"tools": {}}),
        ClientOptions { limits, ..legacy() },
    );
    let mut most = 0;
    for _ in 0..400 {
        let c = client.clone();
        w.run(async move { c.list_tools(Some("more"), &RequestOptions::default()).await }).unwrap();
        most = most.max(client.state.output_schemas.borrow().len()).max(client.state.idempotent_tools.borrow().len());
    }
    assert_eq!(served.get(), 400);
    // A page of four tools is some 600 bytes, so twice a walk's 16 KiB holds about 55 pages' tools.
    assert!((100..=256).contains(&most), "at most {most} tools learned at once");
    let newest = format!("t{}-3", served.get());
    assert!(client.state.output_schemas.borrow().contains_key(&newest), "the page just read is kept");
    assert!(!client.state.output_schemas.borrow().contains_key("t1-0"), "the first page's tools are forgotten");
}
