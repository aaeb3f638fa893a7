use std::collections::HashMap;

pub enum Command {
    Add(String, u32),
    Remove(String),
    Clear,
}

pub struct Store {
    items: HashMap<String, u32>,
}

impl Store {
    pub fn apply(&mut self, cmd: Command) -> Result<(), StoreError> {
        match cmd {
            Command::Add(k, n) => {
                let slot = self.items.entry(k).or_insert(0);
                *slot = slot.checked_add(n).ok_or(StoreError::Overflow)?;
            }
            Command::Remove(k) => {
                self.items.remove(&k).ok_or(StoreError::Missing)?;
            }
            Command::Clear => self.items.clear(),
        }
        self.persist()?;
        Ok(())
    }

    pub fn total(&self) -> u32 {
        let mut sum: u32 = 0;
        for n in self.items.values() {
            sum = sum.saturating_add(*n);
        }
        sum
    }

    pub fn snapshot(&self) -> Vec<(String, u32)> {
        let mut v: Vec<_> = self.items.iter().map(|(k, n)| (k.clone(), *n)).collect();
        v.sort();
        v
    }
}
