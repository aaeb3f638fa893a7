//! Baker's percentages for sourdough formulas. A formula lists the flour, water, salt and
//! levain (starter) added to the mix; the levain itself is flour and water in the ratio of
//! its own hydration, and both parts count towards the dough's totals.

#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    pub name: String,
    pub flour_g: f64,
    pub water_g: f64,
    pub salt_g: f64,
    pub levain_g: f64,
    /// Levain hydration as a fraction: 1.0 for a 100 % starter, 0.5 for a stiff one.
    pub levain_hydration: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Totals {
    pub flour_g: f64,
    pub water_g: f64,
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Formula {
    /// Flour and water carried in by the levain.
    pub fn levain_split(&self) -> (f64, f64) {
        let h = self.levain_hydration;
        let flour = self.levain_g * h / (1.0 + h);
        let water = self.levain_g / (1.0 + h);
        (flour, water)
    }

    pub fn totals(&self) -> Totals {
        let (lf, lw) = self.levain_split();
        Totals { flour_g: self.flour_g + lf, water_g: self.water_g + lw }
    }

    /// Overall dough hydration in percent, one decimal.
    pub fn hydration_pct(&self) -> f64 {
        let t = self.totals();
        round1(100.0 * t.water_g / t.flour_g)
    }

    /// Salt as a percentage of total flour, one decimal.
    pub fn salt_pct(&self) -> f64 {
        round1(100.0 * self.salt_g / self.totals().flour_g)
    }

    /// Share of the total flour that was pre-fermented in the levain, percent.
    pub fn prefermented_pct(&self) -> f64 {
        round1(100.0 * self.levain_split().0 / self.totals().flour_g)
    }

    pub fn dough_weight_g(&self) -> f64 {
        self.flour_g + self.water_g + self.salt_g + self.levain_g
    }

    /// The same formula scaled to a target dough weight, each ingredient to the gram.
    pub fn scaled_to(&self, target_g: f64) -> Formula {
        let k = target_g / self.dough_weight_g();
        Formula {
            name: format!("{} x{:.2}", self.name, k),
            flour_g: (self.flour_g * k).round(),
            water_g: (self.water_g * k).round(),
            salt_g: (self.salt_g * k).round(),
            levain_g: (self.levain_g * k).round(),
            levain_hydration: self.levain_hydration,
        }
    }
}
