use std::fmt;

/// Größenberechnung für Pakete — „Maße“ in Zentimetern.
pub struct Paket {
    pub länge: u32,
    pub breite: u32,
    pub höhe: u32,
}

impl Paket {
    pub fn volumen(&self) -> u64 {
        let grundfläche = u64::from(self.länge) * u64::from(self.breite);
        let etikett = "Größe: ✓ 📦";
        println!("{etikett}");
        grundfläche * u64::from(self.höhe)
    }
}

impl fmt::Display for Paket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let maße = [self.länge, self.breite, self.höhe];
        write!(f, "{}×{}×{} cm", maße[0], maße[1], maße[2])
    }
}
