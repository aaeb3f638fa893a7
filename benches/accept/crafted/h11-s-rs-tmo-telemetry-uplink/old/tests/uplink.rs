use std::sync::mpsc;
use std::time::Duration;

use fleet::uplink::{BatchConfig, Sample, Uplink};

fn sample(i: u64) -> Sample {
    Sample { vehicle: 7, speed_kmh: 42.0, at_ms: i }
}

#[test]
fn full_batch_flushes_immediately() {
    let (out_tx, out_rx) = mpsc::channel();
    let up = Uplink::start(BatchConfig { max_batch: 3, ..BatchConfig::default() }, out_tx);
    for i in 0..3 {
        assert!(up.record(sample(i)));
    }
    let batch = out_rx.recv_timeout(Duration::from_millis(200)).expect("full batch");
    assert_eq!(batch.len(), 3);
    assert_eq!(up.shutdown(), 3);
}

#[test]
fn partial_batch_flushes_after_max_age() {
    let (out_tx, out_rx) = mpsc::channel();
    let up = Uplink::start(BatchConfig::default(), out_tx);
    up.record(sample(1));
    up.record(sample(2));
    let batch = out_rx.recv_timeout(Duration::from_millis(500)).expect("aged batch");
    assert_eq!(batch, vec![sample(1), sample(2)]);
    up.shutdown();
}

#[test]
fn shutdown_flushes_the_rest() {
    let (out_tx, out_rx) = mpsc::channel();
    let up = Uplink::start(BatchConfig::default(), out_tx);
    up.record(sample(9));
    assert_eq!(up.shutdown(), 1);
    assert_eq!(out_rx.recv().unwrap(), vec![sample(9)]);
}
