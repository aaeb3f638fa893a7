//! probity's declarations as a SCIP index (`probity index --scip OUT`; docs/drift.md, "SCIP
//! export"), so that a code-intelligence platform that ingests SCIP (Sourcegraph) serves
//! probity's view of a repository.
//!
//! One `Document` per indexed file (`relative_path`, `language`, UTF-8 byte offsets), one
//! definition `Occurrence` per declaration (its name's range) and one `SymbolInformation` per
//! symbol: `kind`, `display_name`, the enclosing container's symbol, the signature as written
//! (`signature_documentation`), and probity's exported flag, which SCIP has no field for, as the
//! last `documentation` entry: exactly [`EXPORTED`] or [`NOT_EXPORTED`]. Symbols use the scheme
//! `probity` with no package (`probity . . . `), then the file's path as namespaces, the
//! containers as types and the name with the suffix of its kind (`src/`\``lib.rs`\``/S#m().`).
//! Imports, flags and `impl` facts declare nothing and are left out; a file that could not be
//! parsed is a document without occurrences. An occurrence's range is its name in the file's
//! bytes (after the quote of a name declared in a string, `defineProperty(exports, "x")`); a
//! declaration whose name is not written at its place (a method a `#[derive]` gives, an item a
//! macro call expands to) is a definition with the `Generated` role and an empty range there.
//!
//! The index is written as a stream (`Metadata`, then each `Document` as its own field of the
//! `Index` message, which protobuf concatenates), and each document is encoded part by part
//! (its occurrences and symbols as its own repeated fields), so that no more than one file's
//! document is held at a time, and that only as bytes.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use protobuf::{EnumOrUnknown, Message, MessageField};
use scip::types::{
    Descriptor, Document, Metadata, Occurrence, PositionEncoding, ProtocolVersion, Signature,
    SymbolInformation, SymbolRole, TextEncoding, ToolInfo, descriptor::Suffix,
    symbol_information::Kind as ScipKind,
};

use super::{Decl, FileIndex, Kind};

/// The `documentation` entry of a symbol probity counts as exported (Rust `pub`, JS/TS
/// `export`, Python `__all__` or no leading underscore; members follow their container).
pub const EXPORTED: &str = "probity:exported=true";
/// The `documentation` entry of a symbol probity does not count as exported.
pub const NOT_EXPORTED: &str = "probity:exported=false";
/// The symbol scheme of probity's symbols.
pub const SCHEME: &str = "probity";

/// Writes a SCIP index to `out`, one document at a time.
pub struct ScipWriter<W: Write> {
    out: W,
    documents: usize,
    symbols: usize,
}

impl<W: Write> ScipWriter<W> {
    /// Start an index of the repository at `project_root` (an absolute `file://` URI is
    /// made of it), written by probity `version`.
    pub fn new(mut out: W, project_root: &std::path::Path, version: &str) -> io::Result<Self> {
        let meta = Metadata {
            version: EnumOrUnknown::new(ProtocolVersion::UnspecifiedProtocolVersion),
            tool_info: MessageField::some(ToolInfo {
                name: "probity".to_owned(),
                version: version.to_owned(),
                ..Default::default()
            }),
            project_root: file_uri(project_root),
            text_document_encoding: EnumOrUnknown::new(TextEncoding::UTF8),
            ..Default::default()
        };
        field(&mut out, 1, &meta)?;
        Ok(ScipWriter {
            out,
            documents: 0,
            symbols: 0,
        })
    }

    /// Append the document of the file `f` indexed under `root`, read again (bounded as the
    /// index reads it: a file that is no longer a regular file, or grew past the limit, is not
    /// read) to find where each name is written; a name not found where the index put it (the
    /// file changed in between) is written as generated, never with a range that holds other
    /// bytes.
    pub fn file_in(&mut self, root: &std::path::Path, f: &FileIndex) -> io::Result<()> {
        let text = if f.decls.is_empty() {
            None
        } else {
            Some(crate::fsio::read_repo_file(root.join(&f.path)).unwrap_or_default())
        };
        self.file(f, text.as_deref())
    }

    /// Append the document of one indexed file, whose bytes are `text` (`None`: not at hand,
    /// every name taken to be written at its place).
    pub fn file(&mut self, f: &FileIndex, text: Option<&[u8]>) -> io::Result<()> {
        // The document's bytes, built part by part: its fields are the header's, then one
        // field per occurrence and symbol (protobuf concatenates repeated fields), so that a
        // file of many declarations is held once, encoded, not also as messages.
        let mut body = header(f).write_to_bytes().map_err(io::Error::other)?;
        let mut err = None;
        let mut symbols = 0;
        parts(f, text, &mut |p| {
            let r = match p {
                Part::Occurrence(o) => field(&mut body, 2, &o),
                Part::Symbol(s) => {
                    symbols += 1;
                    field(&mut body, 3, &s)
                }
            };
            if let Err(e) = r {
                err.get_or_insert(e);
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
        self.symbols += symbols;
        self.documents += 1;
        varint(&mut self.out, 2 << 3 | 2)?;
        varint(&mut self.out, body.len() as u64)?;
        self.out.write_all(&body)
    }

    /// Flush the output; the documents and symbols written.
    pub fn finish(mut self) -> io::Result<(usize, usize)> {
        self.out.flush()?;
        Ok((self.documents, self.symbols))
    }
}

/// Field `no` of the `Index` message holding `msg` (wire type 2: tag, length, bytes).
fn field(out: &mut impl Write, no: u32, msg: &impl Message) -> io::Result<()> {
    let bytes = msg.write_to_bytes().map_err(io::Error::other)?;
    varint(out, u64::from(no << 3 | 2))?;
    varint(out, bytes.len() as u64)?;
    out.write_all(&bytes)
}

fn varint(out: &mut impl Write, mut v: u64) -> io::Result<()> {
    let mut buf = [0u8; 10];
    let mut n = 0;
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        buf[n] = if v == 0 { b } else { b | 0x80 };
        n += 1;
        if v == 0 {
            break;
        }
    }
    out.write_all(&buf[..n])
}

/// `file://` and the absolute path, percent-encoding what a URI path cannot hold.
pub(crate) fn file_uri(p: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut s = String::from("file://");
    for &b in p.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// The SCIP kind and symbol suffix of a declaration kind; `None`: it declares no symbol.
fn kind_of(k: Kind) -> Option<(ScipKind, Suffix)> {
    Some(match k {
        Kind::Function => (ScipKind::Function, Suffix::Method),
        Kind::Method => (ScipKind::Method, Suffix::Method),
        Kind::Class => (ScipKind::Class, Suffix::Type),
        Kind::Struct => (ScipKind::Struct, Suffix::Type),
        Kind::Enum => (ScipKind::Enum, Suffix::Type),
        Kind::Variant => (ScipKind::EnumMember, Suffix::Term),
        Kind::Trait => (ScipKind::Trait, Suffix::Type),
        Kind::Interface => (ScipKind::Interface, Suffix::Type),
        Kind::TypeAlias => (ScipKind::TypeAlias, Suffix::Type),
        Kind::Constant => (ScipKind::Constant, Suffix::Term),
        Kind::Variable => (ScipKind::Variable, Suffix::Term),
        Kind::Field => (ScipKind::Field, Suffix::Term),
        Kind::Module => (ScipKind::Module, Suffix::Namespace),
        Kind::Macro => (ScipKind::Macro, Suffix::Macro),
        Kind::Import | Kind::CliFlag | Kind::Impl => return None,
    })
}

/// One descriptor of a symbol.
fn descriptor(name: &str, suffix: Suffix, disambiguator: String) -> Descriptor {
    Descriptor {
        name: name.to_owned(),
        disambiguator,
        suffix: EnumOrUnknown::new(suffix),
        ..Default::default()
    }
}

/// The symbol `descriptors` name, as the `scip` crate writes it: scheme [`SCHEME`], no
/// package (`probity . . . `), names escaped where the grammar needs it.
fn symbol_of(descriptors: &[Descriptor]) -> String {
    scip::symbol::format_symbol(scip::types::Symbol {
        scheme: SCHEME.to_owned(),
        descriptors: descriptors.to_vec(),
        ..Default::default()
    })
}

/// The containers of `d` (modules and types before its name), each with whether it is a type.
fn containers(d: &Decl) -> Vec<(&str, bool)> {
    let sep = if d.qualified.contains("::") {
        "::"
    } else {
        "."
    };
    let mut segs: Vec<&str> = d.qualified.split(sep).collect();
    if segs.last() == Some(&d.name.as_str()) {
        segs.pop();
    } else {
        // A name that is no last segment (`a.b` as a name): only the container, if any.
        segs = d.container.as_deref().map(|c| vec![c]).unwrap_or_default();
    }
    let n = segs.len();
    segs.into_iter()
        .enumerate()
        .map(|(i, s)| (s, d.container.is_some() && i + 1 == n))
        .collect()
}

/// Where the name of `d` is written in `lines` (0-based line, start and end byte columns), and
/// whether it is: `false` for a name not written at its place (then the range is empty).
fn name_range(d: &Decl, lines: Option<&[&[u8]]>) -> ([i32; 3], bool) {
    let line = d.line.saturating_sub(1);
    let col = d.column.saturating_sub(1);
    let n = d.name.len();
    let Some(lines) = lines else {
        return ([line as i32, col as i32, (col + n) as i32], true);
    };
    let text = lines.get(line).copied().unwrap_or_default();
    let name = d.name.as_bytes();
    for start in [col, col + 1] {
        if text.get(start..start + n) == Some(name)
            && (start == col || matches!(text.get(col), Some(b'"' | b'\'' | b'`')))
        {
            return ([line as i32, start as i32, (start + n) as i32], true);
        }
    }
    ([line as i32, col as i32, col as i32], false)
}

/// One part of a document.
enum Part {
    Occurrence(Occurrence),
    Symbol(SymbolInformation),
}

/// A document's own fields, without its occurrences and symbols.
fn header(f: &FileIndex) -> Document {
    Document {
        language: f.language.to_owned(),
        relative_path: f.path.clone(),
        position_encoding: EnumOrUnknown::new(PositionEncoding::UTF8CodeUnitOffsetFromLineStart),
        ..Default::default()
    }
}

/// The occurrences and symbols of one file whose bytes are `text`, in declaration order (a
/// symbol right after its first occurrence).
fn parts(f: &FileIndex, text: Option<&[u8]>, out: &mut dyn FnMut(Part)) {
    let lines: Option<Vec<&[u8]>> = text.map(|t| t.split(|&b| b == b'\n').collect());
    // The file's path as namespaces, then each declaration's containers and name.
    let path: Vec<Descriptor> = f
        .path
        .split('/')
        .map(|seg| descriptor(seg, Suffix::Namespace, String::new()))
        .collect();
    // How many times each method symbol was given (overloads, a method of two trait impls):
    // the second is `name(+1).`.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut given: HashSet<String> = HashSet::new();
    for d in &f.decls {
        let Some((kind, suffix)) = kind_of(d.kind) else {
            continue;
        };
        let mut descs = path.clone();
        let mut in_type = false;
        for (c, is_type) in containers(d) {
            let suffix = if is_type {
                Suffix::Type
            } else {
                Suffix::Namespace
            };
            descs.push(descriptor(c, suffix, String::new()));
            in_type = is_type;
        }
        let enclosing = if in_type {
            symbol_of(&descs)
        } else {
            String::new()
        };
        descs.push(descriptor(&d.name, suffix, String::new()));
        let mut symbol = symbol_of(&descs);
        if suffix == Suffix::Method {
            let n = seen.entry(symbol.clone()).or_default();
            if *n > 0 {
                descs.last_mut().expect("the name").disambiguator = format!("+{n}");
                symbol = symbol_of(&descs);
            }
            *n += 1;
        }
        let (range, written) = name_range(d, lines.as_deref());
        let generated = if written {
            0
        } else {
            SymbolRole::Generated as i32
        };
        out(Part::Occurrence(Occurrence {
            range: range.to_vec(),
            symbol: symbol.clone(),
            symbol_roles: SymbolRole::Definition as i32 | generated,
            ..Default::default()
        }));
        if !given.insert(symbol.clone()) {
            continue;
        }
        let mut documentation = Vec::new();
        if let Some(sig) = d.signature.as_deref().filter(|s| !s.is_empty()) {
            documentation.push(format!("```{}\n{sig}\n```", f.language));
        }
        documentation.push(if d.exported { EXPORTED } else { NOT_EXPORTED }.to_owned());
        out(Part::Symbol(SymbolInformation {
            symbol,
            documentation,
            kind: EnumOrUnknown::new(kind),
            display_name: d.name.clone(),
            signature_documentation: match &d.signature {
                Some(s) if !s.is_empty() => MessageField::some(Signature {
                    language: f.language.to_owned(),
                    text: s.clone(),
                    ..Default::default()
                }),
                _ => MessageField::none(),
            },
            enclosing_symbol: enclosing,
            ..Default::default()
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust_file(text: &str) -> FileIndex {
        let (lang, grammar) = crate::lang::for_path(std::path::Path::new("a.rs")).unwrap();
        let (decls, _) = super::super::extract(lang, grammar, text);
        let mut f = FileIndex::bare("a.rs", lang, crate::index::FileStatus::Ok);
        f.decls = decls;
        f
    }

    fn occurrences(f: &FileIndex, text: Option<&[u8]>) -> Vec<Occurrence> {
        let mut out = Vec::new();
        parts(f, text, &mut |p| {
            if let Part::Occurrence(o) = p {
                out.push(o);
            }
        });
        out
    }

    #[test]
    fn a_file_changed_after_indexing_gets_no_range_over_other_bytes() {
        let f = rust_file("pub fn alpha() {}\n");
        let at = |t: &str| occurrences(&f, Some(t.as_bytes()));
        let o = &at("pub fn alpha() {}\n")[0];
        assert_eq!((o.range.clone(), o.symbol_roles), (vec![0, 7, 12], 1));
        // Edited in between (or unreadable: no bytes): generated, an empty range.
        for t in ["pub fn omega() {}\n", ""] {
            let o = &at(t)[0];
            assert_eq!(o.symbol_roles, 1 | SymbolRole::Generated as i32, "{t:?}");
            assert_eq!(o.range, vec![0, 7, 7], "{t:?}");
        }
    }
}
