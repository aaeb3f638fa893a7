//! Groups items from a channel into batches flushed by size or by linger time.

use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

#[derive(Debug, Clone, Copy)]
pub struct BatchConfig {
    pub max_items: usize,
    pub linger: Duration,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig { max_items: 100, linger: Duration::from_millis(50) }
    }
}

/// Read items from `rx` and send batches to `out` until `rx` closes.
/// A batch is flushed when it holds `max_items` items or when `linger` has
/// passed since its first item.
pub async fn run<T: Send + 'static>(config: BatchConfig, mut rx: mpsc::Receiver<T>, out: mpsc::Sender<Vec<T>>) {
    let mut batch: Vec<T> = Vec::with_capacity(config.max_items);
    let mut deadline: Option<Instant> = None;
    loop {
        let timer = async move {
            match deadline {
                Some(at) => sleep_until(at).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            item = rx.recv() => match item {
                Some(item) => {
                    batch.push(item);
                    deadline = Some(Instant::now() + config.linger);
                    if batch.len() >= config.max_items {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(config.max_items));
                        deadline = None;
                        if out.send(full).await.is_err() {
                            return;
                        }
                    }
                }
                None => break,
            },
            _ = timer => {
                let ready = std::mem::take(&mut batch);
                deadline = None;
                if !ready.is_empty() && out.send(ready).await.is_err() {
                    return;
                }
            }
        }
    }
    if !batch.is_empty() {
        let _ = out.send(batch).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::time::timeout;

    #[tokio::test]
    async fn flushes_a_full_batch() {
        let (tx, rx) = mpsc::channel(16);
        let (out_tx, mut out_rx) = mpsc::channel(4);
        tokio::spawn(run(BatchConfig { max_items: 3, linger: Duration::from_secs(60) }, rx, out_tx));
        for i in 0..3 {
            tx.send(i).await.unwrap();
        }
        assert_eq!(out_rx.recv().await, Some(vec![0, 1, 2]));
    }

    #[tokio::test]
    async fn trickle_flushes_after_linger() {
        let (tx, rx) = mpsc::channel(16);
        let (out_tx, mut out_rx) = mpsc::channel(4);
        tokio::spawn(run(BatchConfig { max_items: 1000, linger: Duration::from_millis(100) }, rx, out_tx));
        tokio::spawn(async move {
            for i in 0..1000u32 {
                if tx.send(i).await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let first = timeout(Duration::from_millis(500), out_rx.recv()).await.expect("no batch within the linger time");
        assert!(!first.unwrap().is_empty());
    }
}
