//! [`Memo`]: the one cache type of the resolver.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

/// Values worked out from the repository (or from `$CARGO_HOME` sources), keyed by what they were
/// worked out from, each computed at most once.
///
/// **Staleness rule**: a memo belongs to one [`super::Workspace`], which lives for one
/// resolution call over one repository root. An entry is computed the first time it is asked
/// for, from the files as they are then, and is never invalidated: within a call the tree is
/// taken as unchanging. It is dropped with the workspace, so nothing outlives the call (a
/// long-lived host such as the Node addon keeps nothing between calls, and a later call sees
/// edits). No memo of the resolver is process-global.
///
/// Threads asking for the same key while it is being computed wait for the first (the value is
/// computed once); other keys are not blocked by it.
pub(in crate::resolve) struct Memo<K, V> {
    map: Mutex<HashMap<K, Arc<OnceLock<V>>>>,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            map: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    /// The value of `key`, computed by `f` the first time it is asked for.
    pub(in crate::resolve) fn get_or(&self, key: K, f: impl FnOnce() -> V) -> V {
        let cell = {
            let mut m = self.map.lock().unwrap_or_else(|e| e.into_inner());
            m.entry(key).or_default().clone()
        };
        cell.get_or_init(f).clone()
    }

    /// How many entries it holds.
    #[cfg(test)]
    pub(in crate::resolve) fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::Memo;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn computes_each_key_once() {
        let m: Memo<&str, usize> = Memo::default();
        let calls = AtomicUsize::new(0);
        let f = |v| {
            calls.fetch_add(1, Ordering::Relaxed);
            v
        };
        assert_eq!(m.get_or("a", || f(1)), 1);
        assert_eq!(m.get_or("a", || f(2)), 1);
        assert_eq!(m.get_or("b", || f(3)), 3);
        assert_eq!(calls.load(Ordering::Relaxed), 2);
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn concurrent_askers_share_one_computation() {
        let m: Memo<u8, usize> = Memo::default();
        let calls = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    m.get_or(7, || {
                        calls.fetch_add(1, Ordering::Relaxed);
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        42
                    })
                });
            }
        });
        assert_eq!(m.get_or(7, || 0), 42);
        assert_eq!(calls.load(Ordering::Relaxed), 1);
    }
}
