//! Test doubles for the session layer: a manual clock and a scripted
//! in-memory transport.

use super::{CallOptions, Inbound, InboundSink, Runtime, Session, Transport};
use crate::error::Error;
use crate::protocol::jsonrpc::Message;
use crate::session::oneshot;
use futures::executor::LocalPool;
use futures::future::{self, LocalBoxFuture};
use futures::task::LocalSpawnExt;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// A clock that moves only when told, and runs spawned work on a local pool.
pub(crate) struct ManualRuntime {
    now: Cell<u64>,
    timers: RefCell<Vec<(u64, oneshot::Sender<()>)>>,
    spawner: futures::executor::LocalSpawner,
}

impl Runtime for ManualRuntime {
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let (tx, rx) = oneshot::channel();
        self.timers.borrow_mut().push((self.now.get() + u64::from(ms), tx));
        Box::pin(async move {
            // A dropped sender means the runtime went away: never fire.
            if rx.await.is_err() {
                future::pending::<()>().await;
            }
        })
    }
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.spawner.spawn_local(task).expect("pool alive");
    }
    fn now_ms(&self) -> f64 {
        self.now.get() as f64
    }
    fn random(&self) -> f64 {
        0.5
    }
}

impl ManualRuntime {
    /// A clock at 0 that runs spawned work on `spawner`'s pool.
    pub(crate) fn new(spawner: futures::executor::LocalSpawner) -> Self {
        Self { now: Cell::new(0), timers: RefCell::default(), spawner }
    }

    /// How many timers are still awaited.
    // Only the tests of the listen backoff (the modern era) ask.
    #[cfg_attr(not(feature = "modern"), allow(dead_code))]
    pub(crate) fn pending_timers(&self) -> usize {
        self.timers.borrow().iter().filter(|(_, tx)| !tx.is_canceled()).count()
    }

    pub(crate) fn advance(&self, ms: u64) {
        self.now.set(self.now.get() + ms);
        let now = self.now.get();
        let due: Vec<_> = {
            let mut timers = self.timers.borrow_mut();
            let (due, later) = timers.drain(..).partition(|(at, _)| *at <= now);
            *timers = later;
            due
        };
        for (_, tx) in due {
            let _ = tx.send(());
        }
    }
}

/// Records what the session sends; the test plays the server through `sink`.
#[derive(Default)]
pub(crate) struct MemoryTransport {
    pub(crate) sent: RefCell<Vec<Message>>,
    pub(crate) closed: Cell<u32>,
    pub(crate) fail_sends: Cell<bool>,
    /// Sends go out but do not finish until the test lets them (see `let_sends_finish`).
    pub(crate) hold_sends: Cell<bool>,
    held: RefCell<Vec<crate::session::oneshot::Sender<()>>>,
    pub(crate) version: Cell<Option<&'static str>>,
    /// What `user_wait_ms` answers: the test moves it on with the clock while
    /// a person is "signing in".
    pub(crate) user_wait_ms: Cell<u64>,
}

impl MemoryTransport {
    /// How many held sends the session dropped, giving up on them, before they finished.
    pub(crate) fn sends_given_up(&self) -> usize {
        self.held.borrow().iter().filter(|held| held.is_canceled()).count()
    }

    /// Lets every held send finish, and the sends after it finish at once.
    pub(crate) fn let_sends_finish(&self) {
        self.hold_sends.set(false);
        for held in self.held.borrow_mut().drain(..) {
            let _ = held.send(());
        }
    }
}

impl Transport for MemoryTransport {
    fn send(&self, message: Message) -> LocalBoxFuture<'static, Result<(), Error>> {
        let result = if self.fail_sends.get() {
            Err(Error::Network { message: "connection refused".into() })
        } else {
            self.sent.borrow_mut().push(message);
            Ok(())
        };
        if self.hold_sends.get() {
            let (finish, finished) = crate::session::oneshot::channel();
            self.held.borrow_mut().push(finish);
            return Box::pin(async move {
                let _ = finished.await;
                result
            });
        }
        Box::pin(future::ready(result))
    }
    fn set_protocol_version(&self, version: &'static str) {
        self.version.set(Some(version));
    }
    fn user_wait_ms(&self) -> u64 {
        self.user_wait_ms.get()
    }
    fn close(&self) -> LocalBoxFuture<'static, ()> {
        self.closed.set(self.closed.get() + 1);
        Box::pin(future::ready(()))
    }
}

pub(crate) struct Harness {
    pub(crate) pool: LocalPool,
    pub(crate) runtime: Rc<ManualRuntime>,
    pub(crate) transport: Rc<MemoryTransport>,
    pub(crate) sink: InboundSink,
    pub(crate) session: Session,
}

pub(crate) fn harness() -> Harness {
    let pool = LocalPool::new();
    let runtime = Rc::new(ManualRuntime::new(pool.spawner()));
    let transport = Rc::new(MemoryTransport::default());
    let sink_slot: Rc<RefCell<Option<InboundSink>>> = Rc::default();
    let (session, _) = {
        let (transport, sink_slot) = (transport.clone(), sink_slot.clone());
        Session::new(runtime.clone(), 1_000, move |sink| {
            *sink_slot.borrow_mut() = Some(sink);
            transport
        })
    };
    let sink = sink_slot.borrow_mut().take().expect("sink handed over");
    Harness { pool, runtime, transport, sink, session }
}

impl Harness {
    /// Starts a request in the background; its outcome lands in the returned cell.
    pub(crate) fn start(&mut self, method: &str, options: CallOptions) -> Rc<RefCell<Option<Result<Value, Error>>>> {
        let (session, method) = (self.session.clone(), method.to_owned());
        self.run(async move { session.request(&method, Some(json!({})), options).await })
    }

    /// Runs `work` in the background until the pool stalls; its outcome lands in the returned cell.
    pub(crate) fn run<T: 'static>(&mut self, work: impl std::future::Future<Output = T> + 'static) -> Rc<RefCell<Option<T>>> {
        let slot: Rc<RefCell<Option<T>>> = Rc::default();
        let out = slot.clone();
        self.pool
            .spawner()
            .spawn_local(async move {
                *out.borrow_mut() = Some(work.await);
            })
            .unwrap();
        self.pool.run_until_stalled();
        slot
    }

    pub(crate) fn reply(&mut self, text: &str) {
        for message in crate::protocol::jsonrpc::decode(text, false).unwrap() {
            (self.sink)(Inbound::Message(message));
        }
        self.pool.run_until_stalled();
    }

    pub(crate) fn sent_methods(&self) -> Vec<String> {
        self.transport.sent.borrow().iter().map(|m| m.method().unwrap_or("<response>").to_owned()).collect()
    }
}
