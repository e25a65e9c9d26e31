//! Queues bounded in bytes as well as in items. A server can write messages of up to the
//! size limit (32 MiB by default); a queue of 256 such messages would be 8 GiB. Here each
//! item holds a share of a byte budget from the moment it is queued until its receiver has
//! finished with it (written it to the page's socket, or to the server's stdin), so a
//! producer faster than its consumer waits (or is refused), and the relay's memory does not
//! grow with it.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

/// How many bytes an item stands for in the budget.
pub trait Weight {
    fn weight(&self) -> usize;
}

/// Makes a queue of at most `items` items holding at most `bytes` bytes between them. One
/// item heavier than the whole budget still passes, alone: its weight counts as `bytes`.
pub fn bounded<T: Weight>(items: usize, bytes: usize) -> (Sender<T>, Receiver<T>) {
    let bytes = bytes.clamp(1, u32::MAX as usize);
    let (tx, rx) = mpsc::channel(items.max(1));
    let budget = Arc::new(Semaphore::new(bytes));
    (Sender { tx, budget: budget.clone(), bytes }, Receiver { rx, budget })
}

/// The producing side; cloned freely.
#[derive(Debug)]
pub struct Sender<T> {
    tx: mpsc::Sender<(T, Share)>,
    budget: Arc<Semaphore>,
    bytes: usize,
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        Self { tx: self.tx.clone(), budget: self.budget.clone(), bytes: self.bytes }
    }
}

/// The receiver is gone.
#[derive(Debug, PartialEq, Eq)]
pub struct Closed;

/// Why [`Sender::try_send`] did not queue an item.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Over the item count or the byte budget: the consumer is behind.
    Full,
    Closed,
}

impl<T: Weight> Sender<T> {
    fn cost(&self, item: &T) -> u32 {
        // `bounded` keeps the budget within u32.
        item.weight().clamp(1, self.bytes) as u32
    }

    /// Queues `item`, waiting while the queue is full in items or in bytes.
    pub async fn send(&self, item: T) -> Result<(), Closed> {
        let cost = self.cost(&item);
        let permit = self.budget.clone().acquire_many_owned(cost).await.map_err(|_| Closed)?;
        self.tx.send((item, Share(permit))).await.map_err(|_| Closed)
    }

    /// Queues `item` now, or says why not.
    pub fn try_send(&self, item: T) -> Result<(), Refused> {
        let cost = self.cost(&item);
        if self.tx.is_closed() {
            return Err(Refused::Closed);
        }
        let permit = self.budget.clone().try_acquire_many_owned(cost).map_err(|_| Refused::Full)?;
        self.tx.try_send((item, Share(permit))).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => Refused::Full,
            mpsc::error::TrySendError::Closed(_) => Refused::Closed,
        })
    }
}

/// An item's share of the byte budget: given back when dropped, so keep it until the item
/// has really left the relay.
#[derive(Debug)]
pub struct Share(#[allow(dead_code, reason = "held for its Drop")] OwnedSemaphorePermit);

/// The consuming side.
#[derive(Debug)]
pub struct Receiver<T> {
    rx: mpsc::Receiver<(T, Share)>,
    budget: Arc<Semaphore>,
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        // A producer waiting for room learns at once that no one will read.
        self.budget.close();
    }
}

impl<T> Receiver<T> {
    pub async fn recv(&mut self) -> Option<(T, Share)> {
        self.rx.recv().await
    }

    /// The next item, its share given back at once: for a consumer that is done with an
    /// item as soon as it has it.
    pub async fn recv_item(&mut self) -> Option<T> {
        self.rx.recv().await.map(|(item, _)| item)
    }

    /// The next item if one is queued.
    pub fn try_recv(&mut self) -> Option<(T, Share)> {
        self.rx.try_recv().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    struct Bytes(usize);
    impl Weight for Bytes {
        fn weight(&self) -> usize {
            self.0
        }
    }

    #[tokio::test]
    async fn a_producer_waits_once_the_bytes_are_spent_not_the_count() {
        let (tx, mut rx) = bounded::<Bytes>(256, 4 << 20);
        for _ in 0..4 {
            tx.send(Bytes(1 << 20)).now_or_never().expect("fits").unwrap();
        }
        // 4 MiB are queued: a fifth MiB waits although 252 places are free.
        let mut fifth = Box::pin(tx.send(Bytes(1 << 20)));
        assert!((&mut fifth).now_or_never().is_none());
        assert_eq!(tx.try_send(Bytes(1)), Err(Refused::Full));
        // Received but not yet written: still counted.
        let (_item, share) = rx.recv().await.unwrap();
        assert!((&mut fifth).now_or_never().is_none());
        drop(share);
        fifth.now_or_never().expect("room again").unwrap();
    }

    #[tokio::test]
    async fn an_item_over_the_budget_passes_alone() {
        let (tx, mut rx) = bounded::<Bytes>(8, 1000);
        tx.send(Bytes(5000)).now_or_never().expect("alone, it passes").unwrap();
        assert!(tx.send(Bytes(1)).now_or_never().is_none(), "it holds the whole budget");
        drop(rx.recv().await);
        tx.send(Bytes(1)).now_or_never().expect("free again").unwrap();
    }

    #[tokio::test]
    async fn the_count_still_bounds_small_items_and_a_gone_receiver_is_said() {
        let (tx, rx) = bounded::<Bytes>(2, 1 << 20);
        tx.try_send(Bytes(1)).unwrap();
        tx.try_send(Bytes(1)).unwrap();
        assert_eq!(tx.try_send(Bytes(1)), Err(Refused::Full));
        let (big_tx, big_rx) = bounded::<Bytes>(8, 10);
        big_tx.send(Bytes(10)).await.unwrap();
        let waiting = tokio::spawn(async move { big_tx.send(Bytes(10)).await });
        tokio::task::yield_now().await;
        drop(big_rx);
        assert_eq!(waiting.await.unwrap(), Err(Closed), "a waiting producer is released");
        drop(rx);
        assert_eq!(tx.try_send(Bytes(1)), Err(Refused::Closed));
        assert_eq!(tx.send(Bytes(1)).await, Err(Closed));
    }
}
