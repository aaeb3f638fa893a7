//! Two agents on loopback: the follower catches up with the leader's log.

use std::time::Duration;

use relay_agent::config::Config;
use relay_agent::replication::{Follower, Leader};

fn config(port: u16) -> Config {
    Config {
        listen: "127.0.0.1".into(),
        port,
        upstreams: vec![],
        labels: Default::default(),
        bundle: None,
    }
}

#[tokio::test]
async fn follower_catches_up() {
    let leader = Leader::start(config(0)).await.unwrap();
    for i in 0..100u32 {
        leader.append(i.to_be_bytes().to_vec()).await.unwrap();
    }
    let follower = Follower::connect(leader.addr()).await.unwrap();
    let caught_up = tokio::time::timeout(Duration::from_secs(2), follower.wait_for(100)).await;
    assert!(caught_up.is_ok(), "follower did not catch up within 2 s");
    assert_eq!(follower.len().await, 100);
}

#[tokio::test]
async fn follower_resumes_after_disconnect() {
    let leader = Leader::start(config(0)).await.unwrap();
    let follower = Follower::connect(leader.addr()).await.unwrap();
    leader.append(b"one".to_vec()).await.unwrap();
    follower.disconnect().await;
    leader.append(b"two".to_vec()).await.unwrap();
    follower.reconnect().await.unwrap();
    tokio::time::timeout(Duration::from_secs(2), follower.wait_for(2)).await.unwrap();
    assert_eq!(follower.entry(1).await.as_deref(), Some(&b"two"[..]));
}
