//! A Cloudflare Worker written in Rust (workers-rs) that talks to an MCP
//! server through mcp-wasm's Rust API.
//!
//! - `GET /?url=<mcp url>[&message=…]` connects, lists the tools, calls
//!   `echo` and answers `{ era, protocolVersion, sessionId, tools, echo }`.
//! - `GET /suspend?url=<mcp url>[&message=…]` connects, calls `echo`,
//!   suspends the connection (no `DELETE`: the server keeps the session)
//!   and answers the snapshot, plain JSON.
//! - `POST /resume[?message=…]` with that snapshot as the body continues
//!   the connection in this invocation, without a new handshake, calls
//!   `echo` and answers `{ era, protocolVersion, sessionId, echo }`.
//!
//! An error of the MCP client is a 502 with `{ "error": { "kind", "message" } }`
//! (`kind` is [`mcp_wasm::Error::kind`]); a bad request to the Worker itself
//! is a 400 of the same shape.

use mcp_wasm::client::{Client, ClientOptions, RequestOptions, Snapshot};
use mcp_wasm::protocol::types::CallToolParams;
use mcp_wasm::web::{self, WebOptions};
use serde_json::{json, Value};
use worker::{event, Context, Env, Method, Request, Response, Url};

const DEFAULT_MESSAGE: &str = "hello from a Rust Worker";

/// What a route answers: a JSON body, or a failure with its status.
type Answer = Result<Value, Failure>;

#[derive(Debug)]
enum Failure {
    /// The request to the Worker was wrong (400).
    BadRequest(String),
    /// The MCP client failed (502).
    Mcp(mcp_wasm::Error),
}

impl From<mcp_wasm::Error> for Failure {
    fn from(error: mcp_wasm::Error) -> Self {
        Self::Mcp(error)
    }
}

#[event(fetch)]
async fn fetch(mut req: Request, _env: Env, _ctx: Context) -> worker::Result<Response> {
    let url = req.url()?;
    let message = query(&url, "message").unwrap_or_else(|| DEFAULT_MESSAGE.to_owned());
    let answer = match (req.method(), url.path()) {
        (Method::Get, "/") => match target(&url) {
            Ok(target) => connect_list_echo(&target, &message).await,
            Err(failure) => Err(failure),
        },
        (Method::Get, "/suspend") => match target(&url) {
            Ok(target) => echo_and_suspend(&target, &message).await,
            Err(failure) => Err(failure),
        },
        (Method::Post, "/resume") => resume_and_echo(&req.text().await?, &message).await,
        _ => return Response::error("GET /?url=…, GET /suspend?url=… or POST /resume", 404),
    };
    match answer {
        Ok(body) => Response::from_json(&body),
        Err(Failure::BadRequest(message)) => error_response(400, "bad-request", &message),
        Err(Failure::Mcp(error)) => error_response(502, error.kind(), &error.to_string()),
    }
}

fn error_response(status: u16, kind: &str, message: &str) -> worker::Result<Response> {
    Ok(Response::from_json(&json!({ "error": { "kind": kind, "message": message } }))?.with_status(status))
}

fn query(url: &Url, name: &str) -> Option<String> {
    url.query_pairs().find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
}

fn target(url: &Url) -> Result<String, Failure> {
    query(url, "url").ok_or_else(|| Failure::BadRequest("the MCP server's URL is missing: ?url=https://…/mcp".into()))
}

/// The same options for connecting and resuming: they are not in a snapshot.
fn options() -> WebOptions {
    WebOptions::default().client(ClientOptions::default().timeout(20_000).client_info("mcp-wasm-rust-worker", env!("CARGO_PKG_VERSION")))
}

async fn echo(client: &Client, message: &str) -> Result<String, mcp_wasm::Error> {
    let result = client.call_tool(CallToolParams::new("echo").argument("message", message), &RequestOptions::default()).await?;
    Ok(result.text())
}

async fn connect_list_echo(target: &str, message: &str) -> Answer {
    let client = web::connect(target, options()).await?;
    let outcome = async {
        let tools = client.list_all_tools(&RequestOptions::default()).await?;
        let echoed = echo(&client, message).await?;
        Ok::<_, mcp_wasm::Error>(json!({
            "era": client.era().name(),
            "protocolVersion": client.protocol_version(),
            "sessionId": client.session_id(),
            "tools": tools.len(),
            "echo": echoed,
        }))
    }
    .await;
    // Ends the server's session (HTTP DELETE) whether the calls worked or not.
    client.close().await;
    Ok(outcome?)
}

async fn echo_and_suspend(target: &str, message: &str) -> Answer {
    let client = web::connect(target, options()).await?;
    let outcome = echo(&client, message).await;
    if let Err(error) = outcome {
        client.close().await;
        return Err(error.into());
    }
    // The session stays open on the server; the snapshot is all the next
    // invocation needs to go on with it.
    Ok(client.suspend().await?.to_value())
}

async fn resume_and_echo(body: &str, message: &str) -> Answer {
    let value: Value = serde_json::from_str(body).map_err(|e| Failure::BadRequest(format!("the body is not JSON: {e}")))?;
    let snapshot = Snapshot::from_value(&value).map_err(Failure::BadRequest)?;
    let client = web::resume(snapshot, options()).await?;
    let outcome = echo(&client, message).await;
    let answer = match outcome {
        Ok(echoed) => Ok(json!({
            "era": client.era().name(),
            "protocolVersion": client.protocol_version(),
            "sessionId": client.session_id(),
            "echo": echoed,
        })),
        Err(error) => Err(error.into()),
    };
    client.close().await;
    answer
}
