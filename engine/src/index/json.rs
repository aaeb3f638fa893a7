//! `probity index --json` output: a [`FileIndex`] serialized with every object's keys in sorted
//! order and absent optional fields skipped. Presentation only; it must stay byte-identical to
//! the `serde_json::Value` form the output used to be built as.

use serde::Serialize;

use super::{Decl, FileIndex};

/// A [`FileIndex`] as `probity index --json` writes it: the keys of every object in sorted order
/// (the order of a `serde_json::Value`, which the output used to be built as), absent optional
/// fields skipped.
pub struct SortedJson<'a>(pub &'a FileIndex);

struct SortedDecl<'a>(&'a Decl);

impl Serialize for SortedJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let f = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_key("decls")?;
        m.serialize_value(&Decls(&f.decls))?;
        if f.generated {
            m.serialize_entry("generated", &true)?;
        }
        m.serialize_entry("language", f.language)?;
        m.serialize_entry("path", &f.path)?;
        m.serialize_entry("status", &f.status)?;
        if f.syntax_errors != 0 {
            m.serialize_entry("syntax_errors", &f.syntax_errors)?;
        }
        m.end()
    }
}

struct Decls<'a>(&'a [Decl]);

impl Serialize for Decls<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(SortedDecl))
    }
}

impl Serialize for SortedDecl<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let d = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("column", &d.column)?;
        if let Some(c) = &d.container {
            m.serialize_entry("container", c)?;
        }
        m.serialize_entry("exported", &d.exported)?;
        if let Some(x) = &d.from {
            m.serialize_entry("from", x)?;
        }
        if let Some(x) = &d.imported {
            m.serialize_entry("imported", x)?;
        }
        m.serialize_entry("kind", d.kind.as_str())?;
        m.serialize_entry("line", &d.line)?;
        if d.macro_members {
            m.serialize_entry("macro_members", &true)?;
        }
        m.serialize_entry("name", &d.name)?;
        m.serialize_entry("qualified", &d.qualified)?;
        if let Some(x) = &d.signature {
            m.serialize_entry("signature", x)?;
        }
        if let Some(x) = &d.trait_name {
            m.serialize_entry("trait", x)?;
        }
        m.end()
    }
}
