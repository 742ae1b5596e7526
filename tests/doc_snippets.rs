//! The Rust snippets of README.md and docs/rust-api.md, compiled. Each
//! function below holds one snippet as the docs show it (they mark theirs
//! `rust,ignore`: they need a server and the web platform), so that the lint
//! tier's `cargo clippy --all-targets --target wasm32-unknown-unknown` holds
//! them to the API. Natively, `the_docs_show_these_snippets` checks that every
//! `rust,ignore` block of those documents appears here word for word, so a
//! snippet edited in one place and not the other fails the native tier.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

/// The documents whose Rust snippets must appear in this file.
#[cfg(not(target_arch = "wasm32"))]
const DOCUMENTS: [(&str, &str); 2] =
    [("README.md", include_str!("../README.md")), ("docs/rust-api.md", include_str!("../docs/rust-api.md"))];

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_docs_show_these_snippets() {
    // Each line trimmed, so that a snippet indented in a function body still matches.
    let here: Vec<&str> = include_str!("doc_snippets.rs").lines().map(str::trim).collect();
    let mut snippets = 0;
    for (name, text) in DOCUMENTS {
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            if line.trim() != "```rust,ignore" {
                continue;
            }
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").map(str::trim).filter(|l| !l.is_empty()).collect();
            let found = (0..here.len()).any(|start| {
                let mut at = start;
                block.iter().all(|want| {
                    while here.get(at).is_some_and(|l| l.is_empty()) {
                        at += 1;
                    }
                    let same = here.get(at) == Some(want);
                    at += 1;
                    same
                })
            });
            assert!(found, "{name}: this snippet is not in tests/doc_snippets.rs:\n{}", block.join("\n"));
            snippets += 1;
        }
    }
    assert_eq!(snippets, 6, "README.md has one Rust snippet, docs/rust-api.md five");
}

// As the docs break their lines, not as rustfmt would.
#[cfg(target_arch = "wasm32")]
#[allow(dead_code, unused_variables)]
#[rustfmt::skip]
mod snippets {
    use mcp_wasm::client::Client;
    use std::error::Error;

    /// README.md, "In Rust".
    async fn readme() -> Result<(), Box<dyn Error>> {
        use mcp_wasm::client::RequestOptions;
        use mcp_wasm::protocol::types::CallToolParams;
        use mcp_wasm::web::{self, WebOptions};

        let client = web::connect("https://example.com/mcp", WebOptions::default()).await?;
        let tools = client.list_all_tools(&RequestOptions::default()).await?;
        let result = client.call_tool(CallToolParams::new("echo").argument("message", "hi"), &RequestOptions::default()).await?;
        println!("{} tools; echo said {}", tools.len(), result.text());
        client.close().await;
        Ok(())
    }

    /// docs/rust-api.md, "Connecting and calling".
    async fn connecting_and_calling() -> Result<(), Box<dyn Error>> {
        use mcp_wasm::client::RequestOptions;
        use mcp_wasm::protocol::types::CallToolParams;
        use mcp_wasm::web::{self, WebOptions};

        let options = WebOptions::default().header("x-api-key", "secret");
        let client = web::connect("https://example.com/mcp", options).await?;
        println!("{:?} {} {:?}", client.era(), client.protocol_version(), client.session_id());

        for tool in client.list_all_tools(&RequestOptions::default()).await? {
            println!("{}", tool.name);
        }
        let params = CallToolParams::new("echo").argument("message", "hi");
        let result = client.call_tool(params, &RequestOptions::default()).await?;
        println!("{}", result.text());
        client.close().await;
        Ok(())
    }

    /// docs/rust-api.md, "Timeouts, cancellation and progress".
    fn timeouts_cancellation_and_progress() {
        use mcp_wasm::client::{CancelToken, RequestOptions};

        let stop = CancelToken::new();
        let options = RequestOptions::default()
            .timeout(30_000)
            .cancel_with(&stop)
            .on_progress(|p| println!("progress {}", p["progress"]), true); // true: progress resets the timeout
    }

    /// docs/rust-api.md, "What the server asks of the client".
    fn what_the_server_asks() {
        use mcp_wasm::client::{ClientOptions, Handlers};
        use mcp_wasm::protocol::types::{CreateMessageResult, Root};
        use mcp_wasm::web::WebOptions;

        let handlers = Handlers::default()
            .sampling(|params, _ctx| async move {
                Ok(CreateMessageResult::text("my-model", format!("{} messages", params.messages.len())))
            })
            .roots(|_ctx| async { Ok(vec![Root::new("file:///home/ada/project", "project")]) });
        let options = WebOptions::default().client(ClientOptions::default().handlers(handlers));
    }

    /// docs/rust-api.md, "Authorization".
    async fn authorization() -> Result<(), Box<dyn Error>> {
        use mcp_wasm::transport::oauth::{Grant, OAuthConfig};
        use mcp_wasm::web::{self, WebOptions};

        let auth = OAuthConfig {
            client_id: Some("my-service".into()),
            client_secret: Some("its-secret".into()),
            ..OAuthConfig::new(Grant::ClientCredentials)
        };
        let client = web::connect("https://example.com/mcp", WebOptions { auth: Some(auth), ..WebOptions::default() }).await?;
        Ok(())
    }

    /// docs/rust-api.md, "In a Cloudflare Worker": `client` is the connection, `stored` what
    /// the last invocation kept.
    async fn in_a_worker(client: Client, stored: serde_json::Value) -> Result<(), Box<dyn Error>> {
        use mcp_wasm::client::Snapshot;
        use mcp_wasm::web::WebOptions;

        // End of one invocation: keep the session (no DELETE is sent), store the JSON (KV, a Durable Object…).
        let snapshot = client.suspend().await?.to_value();
        // Next invocation: go on with the same Mcp-Session-Id, no `initialize`.
        let snapshot = Snapshot::from_value(&stored).map_err(|why| format!("not a snapshot: {why}"))?;
        let client = mcp_wasm::web::resume(snapshot, WebOptions::default()).await?;
        Ok(())
    }
}
