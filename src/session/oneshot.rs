//! A one-shot channel for one thread: what `futures::channel::oneshot` does
//! for the client, without its atomics and lock. Everything here runs on one
//! thread (a page, a Worker, a test's local executor), and the channel is in
//! every request's path: futures' version compiled to 0.7 KB per value type.

use std::cell::Cell;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

struct Slot<T> {
    value: Cell<Option<T>>,
    waker: Cell<Option<Waker>>,
    sender_gone: Cell<bool>,
    receiver_gone: Cell<bool>,
}

/// Sends the one value. Dropped unused, its receiver resolves to [`Canceled`].
pub struct Sender<T>(Rc<Slot<T>>);

/// Resolves to the value sent, or [`Canceled`] once the sender is gone without sending.
pub struct Receiver<T>(Rc<Slot<T>>);

/// The sender was dropped without sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canceled;

/// A connected sender and receiver.
pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let slot =
        Rc::new(Slot { value: Cell::new(None), waker: Cell::new(None), sender_gone: Cell::new(false), receiver_gone: Cell::new(false) });
    (Sender(slot.clone()), Receiver(slot))
}

impl<T> Sender<T> {
    /// Sends `value`; gives it back if the receiver is gone.
    ///
    /// # Errors
    /// `value` itself, when no one can receive it.
    pub fn send(self, value: T) -> Result<(), T> {
        if self.0.receiver_gone.get() {
            return Err(value);
        }
        self.0.value.set(Some(value));
        // Dropping `self`, now, wakes the receiver.
        Ok(())
    }

    /// Whether the receiver is gone, so that sending would be for nothing.
    pub fn is_canceled(&self) -> bool {
        self.0.receiver_gone.get()
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.0.sender_gone.set(true);
        if let Some(waker) = self.0.waker.take() {
            waker.wake();
        }
    }
}

impl<T> Future for Receiver<T> {
    type Output = Result<T, Canceled>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Some(value) = self.0.value.take() {
            return Poll::Ready(Ok(value));
        }
        if self.0.sender_gone.get() {
            return Poll::Ready(Err(Canceled));
        }
        self.0.waker.set(Some(cx.waker().clone()));
        Poll::Pending
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        self.0.receiver_gone.set(true);
        // A value sent and never received goes now, as the sender is gone too.
        drop(self.0.value.take());
    }
}

impl<T> fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sender")
    }
}

impl<T> fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Receiver")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use futures::task::noop_waker;

    fn poll<T>(receiver: &mut Receiver<T>) -> Poll<Result<T, Canceled>> {
        let waker = noop_waker();
        Pin::new(receiver).poll(&mut Context::from_waker(&waker))
    }

    #[test]
    fn the_value_sent_is_received_once() {
        let (sender, mut receiver) = channel();
        assert!(poll(&mut receiver).is_pending());
        assert!(!sender.is_canceled());
        assert_eq!(sender.send(7), Ok(()));
        assert_eq!(poll(&mut receiver), Poll::Ready(Ok(7)));
        assert_eq!(poll(&mut receiver), Poll::Ready(Err(Canceled)), "nothing more will come");
    }

    #[test]
    fn a_sender_dropped_unused_cancels() {
        let (sender, receiver) = channel::<String>();
        drop(sender);
        assert_eq!(block_on(receiver), Err(Canceled));
    }

    #[test]
    fn a_receiver_gone_refuses_the_value() {
        let (sender, receiver) = channel();
        drop(receiver);
        assert!(sender.is_canceled());
        assert_eq!(sender.send("kept"), Err("kept"));
    }

    #[test]
    fn a_waiting_receiver_is_woken() {
        let (sender, receiver) = channel();
        let mut pool = futures::executor::LocalPool::new();
        let got = Rc::new(Cell::new(None));
        let into = got.clone();
        futures::task::LocalSpawnExt::spawn_local(&pool.spawner(), async move { into.set(Some(receiver.await)) }).unwrap();
        pool.run_until_stalled();
        assert_eq!(got.get(), None);
        sender.send(3).unwrap();
        pool.run_until_stalled();
        assert_eq!(got.get(), Some(Ok(3)));
    }

    #[test]
    fn a_value_never_received_is_dropped_with_the_receiver() {
        let value = Rc::new(());
        let (sender, receiver) = channel();
        sender.send(value.clone()).unwrap();
        assert_eq!(Rc::strong_count(&value), 2);
        drop(receiver);
        assert_eq!(Rc::strong_count(&value), 1);
    }
}
