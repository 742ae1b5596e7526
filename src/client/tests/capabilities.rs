//! Strict capability checks: a method the server did not declare fails
//! before anything is sent; `strict: false` sends it anyway.

use crate::client::testing::{connected, Answer, Seen, World};
use crate::client::{Client, ClientOptions, EraChoice, RequestOptions};
use crate::error::Error;
use futures::future::LocalBoxFuture;
use serde_json::{json, Map, Value};

/// Answers every feature request with a plausible result.
fn answers(s: &Seen) -> Option<Answer> {
    Some(Answer::Result(match s.method() {
        "resources/list" => json!({"resources": []}),
        "resources/templates/list" => json!({"resourceTemplates": []}),
        "resources/read" => json!({"contents": []}),
        "prompts/list" => json!({"prompts": []}),
        "prompts/get" => json!({"messages": []}),
        "completion/complete" => json!({"completion": {"values": []}}),
        "skills/list" => json!({"skills": []}),
        "resources/subscribe" | "logging/setLevel" => json!({}),
        _ => return None,
    }))
}

type Call = fn(Client) -> LocalBoxFuture<'static, Result<(), Error>>;

/// Each feature call, with the method it sends.
fn calls() -> Vec<(&'static str, Call)> {
    vec![
        ("resources/list", |c| Box::pin(async move { c.list_resources(None, &RequestOptions::default()).await.map(drop) })),
        ("resources/templates/list", |c| {
            Box::pin(async move { c.list_resource_templates(None, &RequestOptions::default()).await.map(drop) })
        }),
        ("resources/read", |c| Box::pin(async move { c.read_resource("file:///a", &RequestOptions::default()).await.map(drop) })),
        ("resources/subscribe", |c| Box::pin(async move { c.subscribe_resource("file:///a", &RequestOptions::default()).await })),
        ("prompts/list", |c| Box::pin(async move { c.list_prompts(None, &RequestOptions::default()).await.map(drop) })),
        ("prompts/get", |c| Box::pin(async move { c.get_prompt("p", Map::new(), &RequestOptions::default()).await.map(drop) })),
        ("completion/complete", |c| {
            let params = json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}});
            Box::pin(async move { c.complete(params, &RequestOptions::default()).await.map(drop) })
        }),
        ("skills/list", |c| Box::pin(async move { c.list_skills(None, &RequestOptions::default()).await.map(drop) })),
        ("logging/setLevel", |c| Box::pin(async move { c.set_logging_level("info", &RequestOptions::default()).await })),
    ]
}

fn legacy(capabilities: Value, strict: bool) -> (World, Client) {
    connected(answers, capabilities, ClientOptions { strict, ..ClientOptions::default() }.era(EraChoice::Legacy))
}

#[test]
fn strict_refuses_each_undeclared_feature_before_sending_naming_the_capability() {
    // `resources` without `subscribe`: reads are declared, subscriptions are not.
    let (mut w, client) = legacy(json!({"resources": {"subscribe": false}}), true);
    for (method, call) in calls() {
        let outcome = w.run(call(client.clone()));
        if method.starts_with("resources/") && method != "resources/subscribe" {
            assert!(outcome.is_ok(), "{method}: {outcome:?}");
            continue;
        }
        let error = outcome.unwrap_err();
        assert_eq!(error.kind(), "unsupported", "{method}");
        assert!(error.to_string().contains(method), "{method}: {error}");
        assert_eq!(w.server.count(method), 0, "{method} was sent");
    }
}

#[test]
fn not_strict_sends_every_feature_request_to_a_server_that_declared_nothing() {
    let (mut w, client) = legacy(json!({}), false);
    for (method, call) in calls() {
        assert!(w.run(call(client.clone())).is_ok(), "{method}");
        assert_eq!(w.server.count(method), 1, "{method}");
    }
}

#[test]
fn a_declared_capability_lets_the_request_through() {
    let everything = json!({
        "resources": {"subscribe": true}, "prompts": {}, "completions": {}, "logging": {},
        "extensions": {"io.modelcontextprotocol/skills": {}},
    });
    let (mut w, client) = legacy(everything, true);
    for (method, call) in calls() {
        assert!(w.run(call(client.clone())).is_ok(), "{method}");
    }
    assert_eq!(w.server.methods().len(), 2 + calls().len());
}

#[cfg(feature = "modern")]
#[test]
fn modern_subscriptions_and_logging_are_checked_even_without_a_request() {
    let (mut w, client) = connected(|_| None, json!({"resources": {}}), ClientOptions::default().era(EraChoice::Modern));
    let c = client.clone();
    let subscribe = w.run(async move { c.subscribe_resource("file:///a", &RequestOptions::default()).await });
    assert_eq!(subscribe.unwrap_err().kind(), "unsupported");
    let c = client.clone();
    let logging = w.run(async move { c.set_logging_level("info", &RequestOptions::default()).await });
    assert_eq!(logging.unwrap_err().kind(), "unsupported");
    assert_eq!(w.server.count("subscriptions/listen"), 0, "nothing declared to listen for, nothing subscribed");
}

#[cfg(feature = "modern")]
#[test]
fn modern_not_strict_puts_the_logging_level_in_meta_for_a_server_that_did_not_declare_logging() {
    let (mut w, client) = connected(
        |s| (s.method() == "tools/list").then(|| Answer::Result(json!({"tools": []}))),
        json!({}),
        ClientOptions { strict: false, ..ClientOptions::default() }.era(EraChoice::Modern),
    );
    let c = client.clone();
    w.run(async move { c.set_logging_level("error", &RequestOptions::default()).await }).unwrap();
    w.run(async move { client.list_tools(None, &RequestOptions::default()).await }).unwrap();
    assert_eq!(w.server.last("tools/list").unwrap().params()["_meta"]["io.modelcontextprotocol/logLevel"], "error");
}

#[test]
fn roots_changes_are_sent_only_by_a_client_that_declared_them() {
    let (mut w, client) = crate::client::testing::connected(|_| None, json!({}), ClientOptions::default().era(EraChoice::Legacy));
    let c = client.clone();
    let refused = w.run(async move { c.send_roots_list_changed().await });
    assert_eq!(refused.unwrap_err().kind(), "invalid-argument");
    assert_eq!(w.server.count("notifications/roots/list_changed"), 0);
    let roots = crate::client::Handlers::default().roots(|_| async { Ok(vec![]) });
    let (mut w, client) =
        crate::client::testing::connected(|_| None, json!({}), ClientOptions::default().era(EraChoice::Legacy).handlers(roots));
    w.run(async move { client.send_roots_list_changed().await }).unwrap();
    assert_eq!(w.server.count("notifications/roots/list_changed"), 1);
}

/// 2024-11-05 had no `completions` capability: a server of that revision
/// completed the arguments of the prompts and templates it declared, and a
/// strict client does not refuse to ask it.
#[test]
fn a_2024_11_05_server_with_prompts_or_resources_is_asked_to_complete() {
    let complete = |c: Client| async move {
        let params = json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}});
        c.complete(params, &RequestOptions::default()).await.map(drop)
    };
    for (capabilities, offered) in [(json!({"prompts": {}}), true), (json!({"resources": {}}), true), (json!({"tools": {}}), false)] {
        let declared = capabilities.clone();
        let mut w = World::new(move |s| match s.method() {
            "initialize" => Answer::Result(json!({
                "protocolVersion": "2024-11-05", "capabilities": declared, "serverInfo": {"name": "old", "version": "1"},
            })),
            _ => answers(s).unwrap_or(Answer::Result(json!({}))),
        });
        let client = w.connect(ClientOptions::default().era(EraChoice::Legacy)).unwrap();
        assert_eq!(client.protocol_version(), "2024-11-05");
        let outcome = w.run(complete(client));
        assert_eq!(outcome.is_ok(), offered, "{capabilities}: {outcome:?}");
        assert_eq!(w.server.count("completion/complete"), usize::from(offered), "{capabilities}");
    }
}
