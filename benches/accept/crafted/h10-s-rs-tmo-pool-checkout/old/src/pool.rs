//! A small blocking connection pool with checkout timeouts.

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, PartialEq)]
pub enum PoolError {
    Timeout,
    Closed,
}

struct Inner<C> {
    idle: Vec<C>,
    out: usize,
    closed: bool,
}

pub struct Pool<C> {
    inner: Arc<(Mutex<Inner<C>>, Condvar)>,
    max: usize,
}

impl<C> Clone for Pool<C> {
    fn clone(&self) -> Self {
        Pool { inner: Arc::clone(&self.inner), max: self.max }
    }
}

impl<C> Pool<C> {
    pub fn new(conns: Vec<C>) -> Self {
        let max = conns.len();
        let inner = Inner { idle: conns, out: 0, closed: false };
        Pool { inner: Arc::new((Mutex::new(inner), Condvar::new())), max }
    }

    pub fn checkout(&self, timeout: Duration) -> Result<C, PoolError> {
        let (lock, cv) = &*self.inner;
        let deadline = Instant::now() + timeout;
        let mut g = lock.lock().unwrap();
        loop {
            if g.closed {
                return Err(PoolError::Closed);
            }
            if let Some(c) = g.idle.pop() {
                g.out += 1;
                return Ok(c);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(PoolError::Timeout);
            }
            g = cv.wait_timeout(g, deadline - now).unwrap().0;
        }
    }

    pub fn checkin(&self, c: C) {
        let (lock, cv) = &*self.inner;
        let mut g = lock.lock().unwrap();
        g.out -= 1;
        g.idle.push(c);
        cv.notify_all();
    }

    pub fn close(&self) {
        let (lock, cv) = &*self.inner;
        lock.lock().unwrap().closed = true;
        cv.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    #[test]
    fn waiter_gets_the_returned_connection() {
        let pool = Pool::new(vec![1u32]);
        let c = pool.checkout(Duration::from_millis(10)).unwrap();
        let p2 = pool.clone();
        let t = thread::spawn(move || p2.checkout(Duration::from_millis(500)));
        thread::sleep(Duration::from_millis(50));
        pool.checkin(c);
        assert_eq!(t.join().unwrap(), Ok(1));
    }

    #[test]
    fn empty_pool_times_out() {
        let pool: Pool<u32> = Pool::new(vec![]);
        assert_eq!(pool.checkout(Duration::from_millis(20)), Err(PoolError::Timeout));
    }
}
