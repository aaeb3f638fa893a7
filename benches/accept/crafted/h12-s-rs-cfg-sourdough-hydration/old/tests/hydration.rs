use levain::Formula;

fn country_loaf(levain_hydration: f64) -> Formula {
    Formula {
        name: "country".into(),
        flour_g: 500.0,
        water_g: 350.0,
        salt_g: 10.0,
        levain_g: 100.0,
        levain_hydration,
    }
}

#[test]
fn liquid_levain_hydration() {
    assert_eq!(country_loaf(1.0).hydration_pct(), 72.7);
}

#[test]
fn stiff_levain_hydration() {
    let f = country_loaf(0.5);
    let (flour, water) = f.levain_split();
    assert!((flour - 66.67).abs() < 0.01);
    assert!((water - 33.33).abs() < 0.01);
    assert_eq!(f.hydration_pct(), 67.6);
}

#[test]
fn salt_and_prefermented_flour() {
    let f = country_loaf(0.5);
    assert_eq!(f.salt_pct(), 1.8);
    assert_eq!(f.prefermented_pct(), 11.8);
}
