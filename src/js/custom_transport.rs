//! A transport written in JS: any object with `send(message)` (and optionally
//! `start()`, `close()`), to which the client assigns `onmessage`, `onclose`
//! and `onerror`, the shape of the TypeScript SDK's `Transport`. It carries
//! MCP over whatever the page has: a Web Worker, an iframe's `postMessage`, a
//! `MessageChannel`, a WebSocket.

use crate::error::Error;
use crate::protocol::jsonrpc::Message;
use crate::session::{deliver_text, Channel, Connector, Inbound, InboundSink, OpenContext, Runtime, Session, Transport};
use crate::transport::fetch::js_message;
use crate::transport::js_text::text_within;
use crate::transport::web_runtime::WebRuntime;
use crate::transport::GOODBYE_TIMEOUT_MS;
use futures::future::LocalBoxFuture;
use js_sys::{Function, Promise, Reflect};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Whether `value` looks like a transport object.
pub fn is_transport(value: &JsValue) -> bool {
    value.is_object() && Reflect::get(value, &"send".into()).is_ok_and(|s| s.is_function())
}

/// The user's transport object, adapted.
pub struct JsTransport {
    target: JsValue,
    closed: Rc<Cell<bool>>,
    callbacks: [Closure<dyn FnMut(JsValue)>; 3],
}

impl std::fmt::Debug for JsTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsTransport").field("closed", &self.closed.get()).finish()
    }
}

/// Calls `target[name](...args)` if it is a function and awaits what it returns.
async fn call_optional(target: &JsValue, name: &str, args: &[JsValue]) -> Result<(), Error> {
    let Ok(method) = Reflect::get(target, &name.into()) else { return Ok(()) };
    let Some(method) = method.dyn_ref::<Function>() else { return Ok(()) };
    let failed = |e: JsValue| Error::Network { message: format!("the transport's {name}() failed: {}", js_message(&e)) };
    let returned = match args {
        [] => method.call0(target),
        [one] => method.call1(target, one),
        _ => method.apply(target, &args.iter().collect()),
    }
    .map_err(failed)?;
    JsFuture::from(Promise::resolve(&returned)).await.map(|_| ()).map_err(failed)
}

impl JsTransport {
    /// Wires the object's callbacks to `sink`; a message longer than
    /// `max_message_bytes` as JSON is left unread, as the HTTP transports leave one.
    pub fn new(target: JsValue, sink: InboundSink, max_message_bytes: usize) -> Self {
        let closed = Rc::new(Cell::new(false));
        let on_message = {
            let sink = sink.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
                // Delivered as the HTTP transports deliver. A message that is not JSON-RPC cannot
                // be tied to a request, and is dropped; so is a value with no JSON form (a
                // function, `undefined`), which stringifies to `undefined`.
                let Some(json) = js_sys::JSON::stringify(&message).ok().filter(|json| json.is_string()) else { return };
                match text_within(&json, max_message_bytes) {
                    Ok(text) => {
                        let _ = deliver_text(&sink, text, false, None);
                    }
                    Err((envelope, bytes)) => sink(Inbound::Oversized { envelope, bytes, limit: max_message_bytes }),
                }
            })
        };
        let on_close = {
            let (sink, closed) = (sink.clone(), closed.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |_| {
                if !closed.replace(true) {
                    sink(Inbound::ConnectionLost(Error::Network { message: "the transport closed".into() }));
                }
            })
        };
        let on_error = Closure::<dyn FnMut(JsValue)>::new(|_| {});
        for (name, callback) in [("onmessage", &on_message), ("onclose", &on_close), ("onerror", &on_error)] {
            let _ = Reflect::set(&target, &name.into(), callback.as_ref().unchecked_ref());
        }
        Self { target, closed, callbacks: [on_message, on_close, on_error] }
    }

    /// Calls the object's `start()`, if it has one.
    ///
    /// # Errors
    /// [`Error::Network`] if `start()` throws or rejects.
    pub async fn start(&self) -> Result<(), Error> {
        call_optional(&self.target, "start", &[]).await
    }
}

impl Drop for JsTransport {
    /// Takes the callbacks back from the object and closes it, if it is still this transport's:
    /// a client let go of without `close()`, or whose `start()` failed, must leave the object
    /// neither calling closures that are gone nor open. An object another client has taken
    /// since keeps that client's callbacks.
    fn drop(&mut self) {
        let [on_message, ..] = &self.callbacks;
        let ours = Reflect::get(&self.target, &"onmessage".into()).is_ok_and(|set| set == *on_message.as_ref());
        if !ours {
            return;
        }
        for name in ["onmessage", "onclose", "onerror"] {
            let _ = Reflect::set(&self.target, &name.into(), &JsValue::UNDEFINED);
        }
        if !self.closed.replace(true) {
            let target = self.target.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let _ = call_optional(&target, "close", &[]).await;
            });
        }
    }
}

impl Transport for JsTransport {
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>> {
        let (target, closed) = (self.target.clone(), self.closed.clone());
        Box::pin(async move {
            if closed.get() {
                return Err(Error::Closed);
            }
            let message = js_sys::JSON::parse(&message.to_json()).map_err(|_| Error::protocol("cannot convert a message to JS".into()))?;
            call_optional(&target, "send", &[message]).await
        })
    }

    fn set_protocol_version(&self, _: &'static str) {}

    fn close(&self) -> LocalBoxFuture<'static, ()> {
        let (target, closed) = (self.target.clone(), self.closed.clone());
        Box::pin(async move {
            if !closed.replace(true) {
                // A `close()` that waits for the other side (a WebSocket's close frame, a worker's
                // answer) may never settle: `client.close()` must still resolve.
                let goodbye = Box::pin(call_optional(&target, "close", &[]));
                let _ = crate::session::within(goodbye, WebRuntime.sleep(GOODBYE_TIMEOUT_MS)).await;
            }
        })
    }
}

/// The user's transport object as a [`Connector`]: one channel, the legacy lifecycle.
#[derive(Debug, Clone)]
pub struct JsConnector {
    /// The transport object.
    pub target: JsValue,
    /// The largest message read (`maxMessageBytes`).
    pub max_message_bytes: usize,
}

impl Connector for JsConnector {
    fn url(&self) -> Option<String> {
        None
    }

    fn is_custom(&self) -> bool {
        true
    }

    fn open(&self, kind: Channel, context: &OpenContext) -> LocalBoxFuture<'static, Result<Session, Error>> {
        let (target, context, max) = (self.target.clone(), context.clone(), self.max_message_bytes);
        Box::pin(async move {
            if kind != Channel::Custom {
                return Err(Error::invalid_argument("a custom transport carries one channel of its own".into()));
            }
            let (session, transport) =
                Session::new(context.runtime.clone(), context.default_timeout_ms, |sink| Rc::new(JsTransport::new(target, sink, max)));
            // `start()` may wait for the peer (a socket opening, a Worker saying it is ready),
            // which may never come; dropping the session lets the object go (`Drop`).
            let ms = context.default_timeout_ms;
            let starting = crate::session::within(Box::pin(transport.start()), context.runtime.sleep(ms));
            starting.await.unwrap_or(Err(Error::Timeout { ms }))?;
            Ok(session)
        })
    }
}
