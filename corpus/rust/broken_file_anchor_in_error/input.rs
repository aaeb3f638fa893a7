pub fn healthy(values: &[i32]) -> i32 {
    let mut best = i32::MIN;
    for v in values {
        best = best.max(*v);
    }
    best
}

pub fn broken(values: &[i32]) -> i32 {
    let total: i32 = values.iter().sum();
    let avg = total / values.len() as i32 +;
    avg
}
