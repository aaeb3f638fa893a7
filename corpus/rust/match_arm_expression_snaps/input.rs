pub fn grade(score: u32) -> char {
    let letter = match score {
        90..=100 => 'A',
        80..=89 => 'B',
        70..=79 => 'C',
        _ => {
            let failing = true;
            if failing { 'F' } else { 'D' }
        }
    };
    letter
}

pub fn summary(scores: &[u32]) -> String {
    let passed = scores.iter().filter(|s| **s >= 70).count();
    let doubled: Vec<u32> = scores
        .iter()
        .map(|s| s * 2)
        .collect();
    format!("{passed} passed, {} doubled", doubled.len())
}
