//! Notification fan-out to pull subscribers with bounded queues. A subscriber
//! that falls behind is ended with [`Error::Lagged`] instead of letting its
//! queue grow without limit.

use crate::error::Error;
use futures::channel::mpsc;
use futures::StreamExt;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// One notification: method and params.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// The notification's method.
    pub method: String,
    /// Its params, if any.
    pub params: Option<Value>,
}

struct Subscriber {
    method: Option<String>,
    queue: mpsc::Sender<Notification>,
    lagged: Rc<Cell<bool>>,
}

/// Where notifications are published; subscribers pull from their own queue.
#[derive(Default)]
pub struct NotificationHub {
    subscribers: RefCell<Vec<Subscriber>>,
}

impl std::fmt::Debug for NotificationHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NotificationHub").field("subscribers", &self.subscribers.borrow().len()).finish()
    }
}

/// A pull subscription. Dropping it unsubscribes.
#[derive(Debug)]
pub struct Subscription {
    queue: mpsc::Receiver<Notification>,
    lagged: Rc<Cell<bool>>,
    capacity: usize,
}

impl Subscription {
    /// The next notification; `None` once the hub closed.
    ///
    /// # Errors
    /// [`Error::Lagged`] if this subscriber fell more than its capacity behind;
    /// the subscription has ended then.
    pub async fn next(&mut self) -> Option<Result<Notification, Error>> {
        match self.queue.next().await {
            Some(notification) => Some(Ok(notification)),
            None if self.lagged.replace(false) => Some(Err(Error::Lagged { capacity: self.capacity })),
            None => None,
        }
    }
}

impl NotificationHub {
    /// Subscribes to every notification, or only to `method`, buffering at most `capacity`.
    pub fn subscribe(&self, method: Option<String>, capacity: usize) -> Subscription {
        // mpsc::channel(n) holds n plus one slot per sender; with one sender, n = capacity - 1.
        let (queue, rx) = mpsc::channel(capacity.saturating_sub(1));
        let lagged = Rc::new(Cell::new(false));
        self.subscribers.borrow_mut().push(Subscriber { method, queue, lagged: lagged.clone() });
        Subscription { queue: rx, lagged, capacity }
    }

    /// Delivers a notification to every matching subscriber.
    pub fn publish(&self, notification: &Notification) {
        self.subscribers.borrow_mut().retain_mut(|s| {
            if s.method.as_deref().is_some_and(|m| m != notification.method) {
                return !s.queue.is_closed();
            }
            match s.queue.try_send(notification.clone()) {
                Ok(()) => true,
                Err(e) if e.is_full() => {
                    s.lagged.set(true);
                    false
                }
                Err(_) => false,
            }
        });
    }

    /// Ends every subscription.
    pub fn close(&self) {
        self.subscribers.borrow_mut().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;

    fn note(method: &str) -> Notification {
        Notification { method: method.into(), params: None }
    }

    #[test]
    fn filters_and_delivers_in_order() {
        let hub = NotificationHub::default();
        let mut all = hub.subscribe(None, 8);
        let mut logs = hub.subscribe(Some("notifications/message".into()), 8);
        hub.publish(&note("notifications/message"));
        hub.publish(&note("notifications/progress"));
        hub.close();
        block_on(async {
            assert_eq!(all.next().await.unwrap().unwrap().method, "notifications/message");
            assert_eq!(all.next().await.unwrap().unwrap().method, "notifications/progress");
            assert!(all.next().await.is_none());
            assert_eq!(logs.next().await.unwrap().unwrap().method, "notifications/message");
            assert!(logs.next().await.is_none());
        });
    }

    #[test]
    fn a_slow_subscriber_ends_with_lagged_and_others_go_on() {
        let hub = NotificationHub::default();
        let mut slow = hub.subscribe(None, 2);
        let mut fast = hub.subscribe(None, 100);
        for _ in 0..3 {
            hub.publish(&note("n"));
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
    fn dropped_subscribers_are_forgotten() {
        let hub = NotificationHub::default();
        drop(hub.subscribe(None, 2));
        hub.publish(&note("n"));
        assert!(hub.subscribers.borrow().is_empty());
    }
}
