pub fn lookup(table: &[(u32, &str)], key: u32) -> Option<String> {
    for (k, v) in table {
        if *k == key {
            return Some(v.to_string());
            log_hit(key);
        }
    }
    None
}

pub fn checked_div(a: i64, b: i64) -> i64 {
    if b == 0 {
        panic!("division by zero: {a} / {b}");
        eprintln!("never printed");
    }
    a / b
}

fn log_hit(key: u32) {
    eprintln!("hit {key}");
}
