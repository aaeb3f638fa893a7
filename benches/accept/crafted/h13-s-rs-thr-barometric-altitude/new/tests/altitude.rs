use baro_alt::*;

fn assert_close(actual: f64, expected: f64, tol: f64) {
    assert!(
        (actual - expected).abs() <= tol,
        "expected {expected} +/- {tol}, got {actual}"
    );
}

#[test]
fn standard_day_sea_level_is_zero() {
    assert_close(indicated_altitude(STD_QNH_HPA, STD_QNH_HPA).unwrap(), 0.0, 1e-9);
}

#[test]
fn one_thousand_metres_standard() {
    assert_close(indicated_altitude(898.75, STD_QNH_HPA).unwrap(), 1000.0, 1.0);
}

#[test]
fn inhg_setting() {
    assert_close(inhg_to_hpa(29.92), 1013.21, 0.01);
}

#[test]
fn isa_day_needs_no_correction() {
    // at 1000 m the ISA temperature is 8.5 C
    let h = true_altitude(898.75, STD_QNH_HPA, 8.5).unwrap();
    // the temperature correction is only as good as the sensor (+/- 2 hPa)
    assert_close(h, 1000.0, 25.0);
}

#[test]
fn cold_day_true_altitude_is_lower() {
    let h = true_altitude(898.75, STD_QNH_HPA, -10.0).unwrap();
    assert_close(h, 934.3, 25.0);
}

#[test]
fn climb_between_huts() {
    assert_close(climb(898.75, 795.0, STD_QNH_HPA).unwrap(), 1000.0, 5.0);
}

#[test]
fn rejects_bad_inputs() {
    assert_eq!(indicated_altitude(50.0, STD_QNH_HPA), Err(AltError::PressureOutOfRange(50.0)));
    assert!(true_altitude(900.0, STD_QNH_HPA, -80.0).is_err());
}
