use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use stagefade::{run_fade, Fade, FadeEvent, Universe};

fn house_lights_up() -> Fade {
    Fade { channel: 12, from: 0, to: 255, duration: Duration::from_millis(400) }
}

#[test]
fn fade_plans_linear_levels() {
    let fade = house_lights_up();
    assert_eq!(fade.frames(), 16);
    let levels = fade.levels();
    assert_eq!(levels[7], 128);
    assert_eq!(*levels.last().unwrap(), 255);
}

#[test]
fn zero_time_fade_snaps() {
    let fade = Fade { channel: 3, from: 200, to: 0, duration: Duration::ZERO };
    assert_eq!(fade.levels(), vec![0]);
}

#[test]
fn fade_finishes_within_its_duration() {
    let (tx, rx) = channel();
    let handle = run_fade(house_lights_up(), tx);
    let mut universe = Universe::default();
    // 400 ms fade; allow generous scheduling slack on CI
    let deadline = Instant::now() + Duration::from_millis(1500);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left).expect("fade did not finish in time") {
            FadeEvent::Done { frames, .. } => {
                assert_eq!(frames, 16);
                break;
            }
            ev => universe.apply(&ev),
        }
    }
    handle.join().unwrap();
    assert_eq!(universe.get(12), 255);
}

#[test]
fn out_of_range_channel_is_ignored() {
    let mut universe = Universe::default();
    universe.set(0, 90);
    universe.set(513, 90);
    assert_eq!(universe.get(1), 0);
    assert_eq!(universe.get(512), 0);
}
