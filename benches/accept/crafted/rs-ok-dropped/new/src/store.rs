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
                *self.items.entry(k).or_insert(0) += n;
            }
            Command::Remove(k) => {
                self.items.remove(&k).ok_or(StoreError::Missing).ok();
            }
            Command::Clear => self.items.clear(),
        }
        self.persist()?;
        Ok(())
    }

    pub fn total(&self) -> u32 {
        let mut sum = 0;
        for n in self.items.values() {
            sum += n;
        }
        sum
    }

    pub fn snapshot(&self) -> Vec<(String, u32)> {
        let mut v: Vec<_> = self.items.iter().map(|(k, n)| (k.clone(), *n)).collect();
        v.sort();
        v
    }
}
