//! A tiny shopping cart with a discount bug.
//!
//! Run: rustc --edition 2021 cart.rs && ./cart
//! The sample cart costs 100.00; with 10% off the total should be 90.00.

struct Cart {
    items: Vec<(String, f64, u32)>,
}

impl Cart {
    fn new() -> Self {
        Cart { items: Vec::new() }
    }

    fn add(&mut self, name: &str, price: f64, qty: u32) {
        self.items.push((name.to_string(), price, qty));
    }

    fn subtotal(&self) -> f64 {
        let mut total = 0.0;
        for (_name, price, qty) in &self.items {
            total += price * f64::from(*qty);
        }
        total
    }
}

fn apply_discount(amount: f64, percent: f64) -> f64 {
    let discount = amount * percent / 100.0;
    discount
}

fn main() {
    let mut cart = Cart::new();
    cart.add("book", 40.0, 1);
    cart.add("pen", 5.0, 4);
    cart.add("lamp", 40.0, 1);
    let subtotal = cart.subtotal();
    let total = apply_discount(subtotal, 10.0);
    println!("subtotal {subtotal:.2}, total after 10% off {total:.2} (expected 90.00)");
}
