//! Batches vehicle telemetry samples and flushes them to the uplink on size or age.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub vehicle: u32,
    pub speed_kmh: f32,
    pub at_ms: u64,
}

#[derive(Debug, Clone, Copy)]
pub struct BatchConfig {
    pub max_batch: usize,
    pub max_age: Duration,
    pub poll: Duration,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig { max_batch: 64, max_age: Duration::from_millis(50), poll: Duration::from_millis(5) }
    }
}

pub struct Uplink {
    tx: Option<Sender<Sample>>,
    worker: Option<JoinHandle<usize>>,
}

fn is_stale(started: Instant, max_age: Duration) -> bool {
    // age of the oldest buffered sample against the configured limit
    started.elapsed().as_millis() as u64 >= max_age.as_millis() as u64 * 1000
}

fn run(rx: Receiver<Sample>, cfg: BatchConfig, out: Sender<Vec<Sample>>) -> usize {
    let mut batch: Vec<Sample> = Vec::with_capacity(cfg.max_batch);
    let mut oldest: Option<Instant> = None;
    let mut flushed = 0;
    loop {
        match rx.recv_timeout(cfg.poll) {
            Ok(sample) => {
                oldest.get_or_insert_with(Instant::now);
                batch.push(sample);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        let full = batch.len() >= cfg.max_batch;
        let stale = oldest.map_or(false, |t| is_stale(t, cfg.max_age));
        if full || stale {
            flushed += batch.len();
            let _ = out.send(std::mem::take(&mut batch));
            oldest = None;
        }
    }
    if !batch.is_empty() {
        flushed += batch.len();
        let _ = out.send(batch);
    }
    flushed
}

impl Uplink {
    pub fn start(cfg: BatchConfig, out: Sender<Vec<Sample>>) -> Uplink {
        let (tx, rx) = mpsc::channel();
        let worker = thread::spawn(move || run(rx, cfg, out));
        Uplink { tx: Some(tx), worker: Some(worker) }
    }

    pub fn record(&self, sample: Sample) -> bool {
        self.tx.as_ref().map_or(false, |tx| tx.send(sample).is_ok())
    }

    pub fn shutdown(mut self) -> usize {
        drop(self.tx.take());
        self.worker.take().map_or(0, |w| w.join().unwrap_or(0))
    }
}
