//! Barometric altitude for a hiking altimeter.
//!
//! The sensor reports static pressure in hPa.  With the local sea-level
//! pressure (QNH) the standard-atmosphere formula gives the *indicated*
//! altitude.  In cold air the real column of air is denser than the standard
//! atmosphere assumes, so the true altitude above the setting station is lower
//! than indicated; [`true_altitude`] applies the usual ratio correction
//! `h_true = h_ind * T_actual / T_isa(h_ind)`, both temperatures in kelvin,
//! where `T_isa(h)` is the standard-atmosphere temperature at height `h`.

/// Standard sea-level pressure, hPa.
pub const STD_QNH_HPA: f64 = 1013.25;
/// Standard sea-level temperature, kelvin.
pub const ISA_T0_K: f64 = 288.15;
/// Standard lapse rate, kelvin per metre.
pub const LAPSE_K_PER_M: f64 = 0.0065;

const KELVIN: f64 = 273.15;
const INHG_TO_HPA: f64 = 33.863_886;

#[derive(Debug, PartialEq)]
pub enum AltError {
    PressureOutOfRange(f64),
    TemperatureOutOfRange(f64),
}

/// Convert an altimeter setting in inches of mercury to hPa.
pub fn inhg_to_hpa(inhg: f64) -> f64 {
    inhg * INHG_TO_HPA
}

/// Standard-atmosphere temperature (K) at `h` metres.
pub fn isa_temperature_k(h: f64) -> f64 {
    ISA_T0_K - LAPSE_K_PER_M * h
}

/// Indicated altitude in metres for static pressure `p_hpa` with setting `qnh_hpa`.
pub fn indicated_altitude(p_hpa: f64, qnh_hpa: f64) -> Result<f64, AltError> {
    if !(100.0..=1100.0).contains(&p_hpa) {
        return Err(AltError::PressureOutOfRange(p_hpa));
    }
    if !(870.0..=1085.0).contains(&qnh_hpa) {
        return Err(AltError::PressureOutOfRange(qnh_hpa));
    }
    Ok(44_330.77 * (1.0 - (p_hpa / qnh_hpa).powf(0.190_263)))
}

/// Altitude corrected for the measured outside air temperature (degrees C).
pub fn true_altitude(p_hpa: f64, qnh_hpa: f64, oat_c: f64) -> Result<f64, AltError> {
    if !(-60.0..=50.0).contains(&oat_c) {
        return Err(AltError::TemperatureOutOfRange(oat_c));
    }
    let h_ind = indicated_altitude(p_hpa, qnh_hpa)?;
    let t_actual = oat_c + KELVIN;
    // ratio of actual to standard temperature
    Ok(h_ind * t_actual / ISA_T0_K)
}

/// Height gained between two readings taken with the same setting.
pub fn climb(p_start: f64, p_end: f64, qnh_hpa: f64) -> Result<f64, AltError> {
    Ok(indicated_altitude(p_end, qnh_hpa)? - indicated_altitude(p_start, qnh_hpa)?)
}
