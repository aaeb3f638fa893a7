//! Which botanical family a crop belongs to.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    Brassica,
    Legume,
    Allium,
    Solanum,
    Umbellifer,
    Cucurbit,
}

impl Family {
    /// The garden's usual sequence: legumes fix nitrogen for the hungry brassicas.
    pub const ROTATION_ORDER: [Family; 6] = [
        Family::Legume,
        Family::Brassica,
        Family::Solanum,
        Family::Allium,
        Family::Umbellifer,
        Family::Cucurbit,
    ];
}

/// Look up a crop's family by its common name (case-insensitive).
pub fn family_of(crop: &str) -> Option<Family> {
    let crop = crop.trim().to_ascii_lowercase();
    let family = match crop.as_str() {
        "cabbage" | "kale" | "broccoli" | "sprouts" | "swede" | "turnip" | "radish" => Family::Brassica,
        "peas" | "broad beans" | "runner beans" | "french beans" => Family::Legume,
        "onions" | "garlic" | "leeks" | "shallots" => Family::Allium,
        "potatoes" | "tomatoes" | "peppers" | "aubergines" => Family::Solanum,
        "carrots" | "parsnips" | "celery" | "fennel" => Family::Umbellifer,
        "courgettes" | "squash" | "pumpkins" | "cucumbers" => Family::Cucurbit,
        _ => return None,
    };
    Some(family)
}

impl Family {
    /// Families that may share a bed in the same season as companions.
    pub fn good_companion(self, other: Family) -> bool {
        use Family::*;
        matches!(
            (self, other),
            (Allium, Umbellifer) | (Umbellifer, Allium) | (Legume, Cucurbit) | (Cucurbit, Legume)
        )
    }

    /// Whether the family is a heavy feeder that wants manure dug in before planting.
    pub fn hungry(self) -> bool {
        matches!(self, Family::Brassica | Family::Solanum | Family::Cucurbit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_ignores_case_and_spaces() {
        assert_eq!(family_of("  Broad Beans "), Some(Family::Legume));
        assert!(Family::Allium.good_companion(Family::Umbellifer));
        assert!(!Family::Legume.hungry());
    }
}
