use levain::Formula;

fn baguette() -> Formula {
    Formula {
        name: "baguette".into(),
        flour_g: 1000.0,
        water_g: 680.0,
        salt_g: 20.0,
        levain_g: 200.0,
        levain_hydration: 1.0,
    }
}

#[test]
fn dough_weight_sums_ingredients() {
    assert_eq!(baguette().dough_weight_g(), 1900.0);
}

#[test]
fn scaled_to_three_baguettes() {
    let f = baguette().scaled_to(3.0 * 350.0);
    assert_eq!((f.flour_g, f.water_g, f.salt_g, f.levain_g), (553.0, 376.0, 11.0, 111.0));
    assert_eq!(f.levain_hydration, 1.0);
}
