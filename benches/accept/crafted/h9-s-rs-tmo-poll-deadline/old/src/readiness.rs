use std::collections::HashMap;
use std::thread;
use std::time::{Duration, Instant};

/// One dependency the service needs before it reports ready.
pub trait Probe {
    fn name(&self) -> &str;
    fn check(&mut self) -> Result<(), String>;
}

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub interval: Duration,
    pub deadline: Duration,
    pub max_failures: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { interval: Duration::from_millis(250), deadline: Duration::from_secs(30), max_failures: 20 }
    }
}

#[derive(Debug, PartialEq)]
pub enum NotReady {
    Deadline { waited: Duration, failing: Vec<String> },
    GaveUp { probe: String, failures: u32, last: String },
}

/// `READY_INTERVAL_MS`, `READY_DEADLINE_S`, `READY_MAX_FAILURES`, any of them optional.
pub fn settings_from(env: &HashMap<String, String>) -> Result<Settings, String> {
    let mut s = Settings::default();
    if let Some(v) = env.get("READY_INTERVAL_MS") {
        s.interval = Duration::from_millis(v.parse().map_err(|e| format!("READY_INTERVAL_MS={v}: {e}"))?);
    }
    if let Some(v) = env.get("READY_DEADLINE_S") {
        s.deadline = Duration::from_secs(v.parse().map_err(|e| format!("READY_DEADLINE_S={v}: {e}"))?);
    }
    if let Some(v) = env.get("READY_MAX_FAILURES") {
        s.max_failures = match v.parse::<u32>() {
            Ok(0) => return Err("READY_MAX_FAILURES must be at least 1".to_string()),
            Ok(n) => n,
            Err(e) => return Err(format!("READY_MAX_FAILURES={v}: {e}")),
        };
    }
    Ok(s)
}

/// Polls every probe until all pass once in the same round.
pub fn wait_ready(probes: &mut [Box<dyn Probe>], settings: &Settings) -> Result<u32, NotReady> {
    let started = Instant::now();
    let mut failures: HashMap<String, u32> = HashMap::new();
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut failing = Vec::new();
        for p in probes.iter_mut() {
            if let Err(why) = p.check() {
                let n = failures.entry(p.name().to_string()).or_insert(0);
                *n += 1;
                if *n >= settings.max_failures {
                    return Err(NotReady::GaveUp { probe: p.name().to_string(), failures: *n, last: why });
                }
                failing.push(p.name().to_string());
            }
        }
        if failing.is_empty() {
            return Ok(rounds);
        }
        let waited = started.elapsed();
        if waited >= settings.deadline {
            return Err(NotReady::Deadline { waited, failing });
        }
        thread::sleep(settings.interval);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Flaky {
        name: &'static str,
        fail_times: u32,
        calls: u32,
    }

    impl Probe for Flaky {
        fn name(&self) -> &str {
            self.name
        }
        fn check(&mut self) -> Result<(), String> {
            self.calls += 1;
            if self.calls <= self.fail_times { Err("connection refused".into()) } else { Ok(()) }
        }
    }

    fn fast() -> Settings {
        Settings { interval: Duration::from_millis(600), deadline: Duration::from_millis(500), max_failures: 20 }
    }

    #[test]
    fn ready_after_a_few_rounds() {
        let mut probes: Vec<Box<dyn Probe>> = vec![
            Box::new(Flaky { name: "postgres", fail_times: 2, calls: 0 }),
            Box::new(Flaky { name: "redis", fail_times: 0, calls: 0 }),
        ];
        assert_eq!(wait_ready(&mut probes, &fast()), Ok(3));
    }

    #[test]
    fn gives_up_on_a_dead_dependency() {
        let mut probes: Vec<Box<dyn Probe>> = vec![Box::new(Flaky { name: "kafka", fail_times: u32::MAX, calls: 0 })];
        let settings = Settings { max_failures: 3, ..fast() };
        match wait_ready(&mut probes, &settings) {
            Err(NotReady::GaveUp { probe, failures, .. }) => assert_eq!((probe.as_str(), failures), ("kafka", 3)),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn settings_from_env() {
        let env: HashMap<String, String> =
            [("READY_DEADLINE_S".to_string(), "90".to_string())].into_iter().collect();
        assert_eq!(settings_from(&env).unwrap().deadline, Duration::from_secs(90));
        let bad: HashMap<String, String> =
            [("READY_MAX_FAILURES".to_string(), "0".to_string())].into_iter().collect();
        assert!(settings_from(&bad).is_err());
    }
}
