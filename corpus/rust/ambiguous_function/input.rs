pub struct Meter(f64);
pub struct Foot(f64);

impl Meter {
    pub fn new(v: f64) -> Self {
        let clamped = v.max(0.0);
        Meter(clamped)
    }
}

impl Foot {
    pub fn new(v: f64) -> Self {
        let clamped = v.max(0.0);
        Foot(clamped)
    }

    pub fn to_meter(&self) -> Meter {
        Meter::new(self.0 * 0.3048)
    }
}
