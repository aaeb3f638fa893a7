use allotment_rotation::*;

fn history(rows: &[(&str, u32, &str)]) -> Vec<Planting> {
    rows.iter().map(|(b, y, c)| Planting::new(b, *y, c).expect("known crop")).collect()
}

#[test]
fn unknown_crop_has_no_family() {
    assert_eq!(family_of("Kale"), Some(Family::Brassica));
    assert_eq!(family_of("okra"), None);
}

#[test]
fn same_family_next_year_is_blocked() {
    let h = history(&[("B1", 2024, "potatoes")]);
    assert!(!can_plant(&h, "B1", Family::Solanum, 2025, DEFAULT_GAP));
    assert!(can_plant(&h, "B1", Family::Solanum, 2028, DEFAULT_GAP));
}

#[test]
fn intervening_legume_does_not_reset_rotation() {
    let h = history(&[("B2", 2023, "cabbage"), ("B2", 2024, "peas")]);
    assert!(!can_plant(&h, "B2", Family::Brassica, 2025, DEFAULT_GAP));
}

#[test]
fn candidates_skip_recent_families() {
    let h = history(&[("B3", 2023, "kale"), ("B3", 2024, "broad beans")]);
    assert_eq!(
        candidates(&h, "B3", 2025, DEFAULT_GAP),
        vec![Family::Solanum, Family::Allium, Family::Umbellifer, Family::Cucurbit]
    );
}

#[test]
fn other_beds_are_independent() {
    let h = history(&[("B1", 2024, "leeks"), ("B2", 2020, "garlic")]);
    assert_eq!(blocked_beds(&h, &["B1", "B2", "B3"], Family::Allium, 2025), vec!["B1"]);
}
