//! What happens on a connection, as events: the server's notifications, the
//! streams dropping and coming back, a renewed session, problems that belong
//! to no call, and the end.
//!
//! Two ways to hear them. A listener is called at once, in order, as each
//! event happens (the JS binding turns them into DOM-style events). A
//! subscription is a bounded queue read as a [`futures::Stream`]: a reader
//! that falls further behind than its capacity is ended with
//! [`Error::Lagged`], so a slow consumer never makes the queue grow without
//! limit.

use crate::error::Error;
use futures::channel::mpsc;
use futures::{Stream, StreamExt};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// A notification from the server: method and params.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// The notification's method, e.g. `notifications/message`.
    pub method: String,
    /// Its params, if any.
    pub params: Option<Value>,
}

/// Something that happened on a connection.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ClientEvent {
    /// The server sent a notification.
    Notification(Notification),
    /// A stream dropped; the client reconnects after `delay_ms`.
    Reconnecting {
        /// Which attempt this is, from 1.
        attempt: u32,
        /// How long it waits first.
        delay_ms: u32,
    },
    /// The server-to-client stream is back.
    Reconnected,
    /// The server ended the session; the client started a new one.
    SessionRenewed {
        /// The session that ended.
        previous: Option<String>,
        /// The new one.
        current: Option<String>,
    },
    /// Something went wrong outside any call: a handler's answer was
    /// refused, a server request or message went past a limit, a session
    /// could not be renewed.
    Problem(Error),
    /// The client closed.
    Closed,
}

impl ClientEvent {
    /// The notification, if this is one.
    pub fn notification(&self) -> Option<&Notification> {
        match self {
            Self::Notification(notification) => Some(notification),
            _ => None,
        }
    }
}

/// Which events a subscription receives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EventFilter {
    /// Every event.
    #[default]
    All,
    /// Notifications only, of one method or of every method.
    Notifications(Option<String>),
}

impl EventFilter {
    fn admits(&self, event: &ClientEvent) -> bool {
        match (self, event) {
            (Self::All, _) => true,
            (Self::Notifications(None), ClientEvent::Notification(_)) => true,
            (Self::Notifications(Some(method)), ClientEvent::Notification(n)) => &n.method == method,
            (Self::Notifications(_), _) => false,
        }
    }
}

/// Identifies a listener, to remove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListenerId(u64);

type Listener = Rc<dyn Fn(&ClientEvent)>;

struct Subscriber {
    filter: EventFilter,
    queue: mpsc::Sender<ClientEvent>,
    lagged: Rc<Cell<bool>>,
}

/// Where a client's events go.
#[derive(Default)]
pub struct EventHub {
    listeners: RefCell<Vec<(ListenerId, Listener)>>,
    subscribers: RefCell<Vec<Subscriber>>,
    next_id: Cell<u64>,
    closed: Cell<bool>,
}

impl std::fmt::Debug for EventHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventHub")
            .field("listeners", &self.listeners.borrow().len())
            .field("subscribers", &self.subscribers.borrow().len())
            .finish()
    }
}

/// A subscription: the events its filter admits, as a stream. Dropping it unsubscribes.
#[derive(Debug)]
pub struct EventStream {
    queue: mpsc::Receiver<ClientEvent>,
    lagged: Rc<Cell<bool>>,
    capacity: usize,
}

impl EventStream {
    /// The next event; `None` once the client closed.
    ///
    /// # Errors
    /// [`Error::Lagged`] if this subscription fell more than its capacity
    /// behind; it has ended then.
    pub async fn next_event(&mut self) -> Option<Result<ClientEvent, Error>> {
        self.next().await
    }
}

impl Stream for EventStream {
    type Item = Result<ClientEvent, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.queue.poll_next_unpin(cx) {
            Poll::Ready(Some(event)) => Poll::Ready(Some(Ok(event))),
            Poll::Ready(None) if self.lagged.replace(false) => Poll::Ready(Some(Err(Error::Lagged { capacity: self.capacity }))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl EventHub {
    /// Calls `listener` with every event from now on, in order.
    pub fn listen(&self, listener: Listener) -> ListenerId {
        let id = ListenerId(self.next_id.get());
        self.next_id.set(id.0 + 1);
        self.listeners.borrow_mut().push((id, listener));
        id
    }

    /// Removes a listener.
    pub fn unlisten(&self, id: ListenerId) {
        self.listeners.borrow_mut().retain(|(listener, _)| *listener != id);
    }

    /// A stream of the events `filter` admits, buffering at most `capacity`.
    /// After the client closed, it ends at once.
    pub fn subscribe(&self, filter: EventFilter, capacity: usize) -> EventStream {
        // mpsc::channel(n) holds n plus one slot per sender; with one sender, n = capacity - 1.
        let (queue, rx) = mpsc::channel(capacity.max(1).saturating_sub(1));
        let lagged = Rc::new(Cell::new(false));
        if !self.closed.get() {
            self.subscribers.borrow_mut().push(Subscriber { filter, queue, lagged: lagged.clone() });
        }
        EventStream { queue: rx, lagged, capacity }
    }

    /// Delivers an event: to listeners, then to subscriptions.
    pub fn emit(&self, event: &ClientEvent) {
        // Listeners may add or remove listeners: call a copy of the list.
        let listeners: Vec<Listener> = self.listeners.borrow().iter().map(|(_, l)| l.clone()).collect();
        for listener in listeners {
            listener(event);
        }
        self.subscribers.borrow_mut().retain_mut(|s| {
            if !s.filter.admits(event) {
                return !s.queue.is_closed();
            }
            match s.queue.try_send(event.clone()) {
                Ok(()) => true,
                Err(e) if e.is_full() => {
                    s.lagged.set(true);
                    false
                }
                Err(_) => false,
            }
        });
    }

    /// Ends every subscription and forgets every listener.
    pub fn close(&self) {
        self.closed.set(true);
        self.subscribers.borrow_mut().clear();
        self.listeners.borrow_mut().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;

    fn note(method: &str) -> ClientEvent {
        ClientEvent::Notification(Notification { method: method.into(), params: None })
    }

    fn method(event: Option<Result<ClientEvent, Error>>) -> String {
        match event {
            Some(Ok(ClientEvent::Notification(n))) => n.method,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn filters_and_delivers_in_order() {
        let hub = EventHub::default();
        let mut all = hub.subscribe(EventFilter::All, 8);
        let mut logs = hub.subscribe(EventFilter::Notifications(Some("notifications/message".into())), 8);
        hub.emit(&note("notifications/message"));
        hub.emit(&ClientEvent::Reconnected);
        hub.emit(&note("notifications/progress"));
        hub.close();
        block_on(async {
            assert_eq!(method(all.next().await), "notifications/message");
            assert!(matches!(all.next().await, Some(Ok(ClientEvent::Reconnected))));
            assert_eq!(method(all.next().await), "notifications/progress");
            assert!(all.next().await.is_none());
            assert_eq!(method(logs.next().await), "notifications/message");
            assert!(logs.next().await.is_none());
        });
    }

    #[test]
    fn a_slow_subscriber_ends_with_lagged_and_others_go_on() {
        let hub = EventHub::default();
        let mut slow = hub.subscribe(EventFilter::All, 2);
        let mut fast = hub.subscribe(EventFilter::All, 100);
        for _ in 0..3 {
            hub.emit(&note("n"));
        }
        block_on(async {
            assert!(slow.next().await.unwrap().is_ok());
            assert!(slow.next().await.unwrap().is_ok());
            assert!(matches!(slow.next().await, Some(Err(Error::Lagged { capacity: 2 }))));
            assert!(slow.next().await.is_none());
            for _ in 0..3 {
                assert!(fast.next().await.unwrap().is_ok());
            }
        });
    }

    #[test]
    fn listeners_hear_events_at_once_and_can_be_removed() {
        let hub = EventHub::default();
        let heard = Rc::new(RefCell::new(Vec::new()));
        let log = heard.clone();
        let id = hub.listen(Rc::new(move |event| log.borrow_mut().push(event.notification().map(|n| n.method.clone()))));
        hub.emit(&note("a"));
        hub.emit(&ClientEvent::Closed);
        hub.unlisten(id);
        hub.emit(&note("b"));
        assert_eq!(*heard.borrow(), [Some("a".to_owned()), None]);
    }

    #[test]
    fn dropped_subscribers_are_forgotten_and_closed_hubs_end_new_ones() {
        let hub = EventHub::default();
        drop(hub.subscribe(EventFilter::All, 2));
        hub.emit(&note("n"));
        assert!(hub.subscribers.borrow().is_empty());
        hub.close();
        let mut late = hub.subscribe(EventFilter::All, 2);
        assert!(block_on(late.next()).is_none());
    }
}
