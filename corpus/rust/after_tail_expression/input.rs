use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub sku: String,
    pub qty: u32,
    pub price_cents: u64,
}

pub struct Cart {
    items: Vec<Item>,
    discounts: HashMap<String, u64>,
}

impl Cart {
    pub fn new() -> Self {
        Cart { items: Vec::new(), discounts: HashMap::new() }
    }

    pub fn add(&mut self, item: Item) {
        if let Some(existing) = self.items.iter_mut().find(|i| i.sku == item.sku) {
            existing.qty += item.qty;
            return;
        }
        self.items.push(item);
    }

    pub fn total(&self) -> u64 {
        let mut sum = 0;
        for item in &self.items {
            let line = item.price_cents * u64::from(item.qty);
            let off = self.discounts.get(&item.sku).copied().unwrap_or(0);
            sum += line.saturating_sub(off);
        }
        sum
    }
}

impl fmt::Display for Cart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} items, {} cents", self.items.len(), self.total())
    }
}
