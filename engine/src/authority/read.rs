//! Reading a SCIP index (`scip.proto`'s `Index`) as a stream: the metadata, then one `Document`
//! at a time, of which only the definitions of global symbols and the `is_implementation`
//! relationships are kept. The file is untrusted input: a regular file of at most
//! [`MAX_SCIP_BYTES`], each document at most [`MAX_DOCUMENT_BYTES`], a relative path that is
//! not a plain repository path ignored (counted), a symbol that does not parse skipped (counted);
//! anything that is not such an index is [`Reason::ScipIndexInvalid`].

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use protobuf::{CodedInputStream, Message};
use scip::types::{Document, Metadata};

use super::symbols::{DefKind, parts_of};
use crate::error::Error;
use crate::reason::Reason;

/// The largest SCIP index read (4 GiB).
pub const MAX_SCIP_BYTES: u64 = 4 << 30;
/// The largest single document of an index (256 MiB).
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;
/// The most definitions kept of one index.
const MAX_DEFINITIONS: usize = 50_000_000;

/// One definition the index holds.
#[derive(Debug, Clone)]
pub(super) struct Def {
    /// The symbol as the index spells it.
    pub symbol: Box<str>,
    /// Its names from the outermost: the module or file path's parts, the containers, the name.
    pub parts: Vec<Box<str>>,
    /// How many of `parts` are the module's (namespaces).
    pub ns: usize,
    /// What the last descriptor declares.
    pub kind: DefKind,
    /// The document (index into [`ScipIndex::documents`]).
    pub doc: u32,
    /// The start of its range, 0-based line and UTF-8 / UTF-16 column as the index gives it.
    pub at: Option<(u32, u32)>,
    /// Its signature as the indexer documents it (`signature_documentation`, else the first
    /// `documentation` entry: markdown), at most [`MAX_SIGNATURE_BYTES`].
    pub sig: Option<Box<str>>,
    /// How many definitions and symbol informations the index has of the symbol (TypeScript
    /// overloads are several, each documented as the first).
    pub seen: u16,
}

/// The most bytes of a definition's documentation kept as its signature.
pub(super) const MAX_SIGNATURE_BYTES: usize = 4096;

/// What probity keeps of a SCIP index.
#[derive(Debug, Default)]
pub struct ScipIndex {
    /// The file read.
    pub path: PathBuf,
    /// `tool_info` of the metadata: `name version`.
    pub tool: String,
    /// The documents' relative paths, in index order, deduplicated.
    pub documents: Vec<String>,
    pub(super) defs: Vec<Def>,
    /// The definitions by their last name.
    pub(super) by_name: HashMap<Box<str>, Vec<u32>>,
    /// The definitions by symbol.
    pub(super) by_symbol: HashMap<Box<str>, u32>,
    /// `is_implementation` relationships: a symbol to the symbols it implements or extends.
    pub(super) bases: HashMap<Box<str>, Vec<Box<str>>>,
    /// Documents whose relative path is not a plain path inside a repository (absolute, `..`,
    /// empty or NUL components), ignored.
    pub rejected_documents: usize,
    /// Definition symbols that do not parse, skipped.
    pub unreadable_symbols: usize,
}

fn invalid(path: &Path, pos: u64, e: impl std::fmt::Display) -> Error {
    Error::at(
        Reason::ScipIndexInvalid,
        path,
        format!("is not a SCIP index (at byte {pos}: {e})"),
    )
}

/// Whether `p` is a plain relative path: not empty, not absolute, no `.`, `..`, empty or NUL
/// component, no backslash.
fn plain_relative(p: &str) -> bool {
    !p.is_empty()
        && !p.starts_with('/')
        && !p.contains(['\0', '\\'])
        && p.split('/').all(|c| !c.is_empty() && c != "." && c != "..")
}

impl ScipIndex {
    /// Read the index at `path` (a regular file; [`Reason::NotRegularFile`] otherwise,
    /// [`Reason::FileTooLarge`] past [`MAX_SCIP_BYTES`], [`Reason::ScipIndexInvalid`] when its
    /// bytes are not a SCIP index, or when probity wrote it: `index --scip` exports rung 2's
    /// own declarations, which cannot be an authority over rung 2).
    pub fn read(path: &Path) -> crate::error::Result<ScipIndex> {
        let f = File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = f.metadata().map_err(|e| Error::io(path, e))?;
        if !meta.is_file() {
            return Err(Error::at(
                Reason::NotRegularFile,
                path,
                "is not a regular file (a SCIP index is read from one)",
            ));
        }
        if meta.len() > MAX_SCIP_BYTES {
            return Err(Error::at(
                Reason::FileTooLarge,
                path,
                format!(
                    "is {} bytes; SCIP indexes up to {MAX_SCIP_BYTES} bytes are read",
                    meta.len()
                ),
            ));
        }
        let mut r = BufReader::with_capacity(1 << 16, f.take(MAX_SCIP_BYTES));
        let mut is = CodedInputStream::new(&mut r);
        let mut ix = ScipIndex {
            path: path.to_owned(),
            ..ScipIndex::default()
        };
        let mut seen: HashMap<String, u32> = HashMap::new();
        let mut saw_metadata = false;
        loop {
            let pos = is.pos();
            let tag = match is.read_raw_tag_or_eof() {
                Ok(Some(t)) => t,
                Ok(None) => break,
                Err(e) => return Err(invalid(path, pos, e)),
            };
            let (field, wire) = (tag >> 3, tag & 7);
            if wire != 2 {
                return Err(invalid(
                    path,
                    pos,
                    format!("field {field} is not a message"),
                ));
            }
            let len = is.read_raw_varint64().map_err(|e| invalid(path, pos, e))?;
            let limit = if field == 2 {
                MAX_DOCUMENT_BYTES
            } else {
                1 << 20
            };
            if len > limit {
                if field == 1 || field == 2 {
                    return Err(invalid(
                        path,
                        pos,
                        format!("field {field} holds {len} bytes, more than {limit}"),
                    ));
                }
                // External symbols (field 3) and unknown fields are not read.
                skip(&mut is, len).map_err(|e| invalid(path, pos, e))?;
                continue;
            }
            match field {
                1 => {
                    let bytes = is
                        .read_raw_bytes(len as u32)
                        .map_err(|e| invalid(path, pos, e))?;
                    let m =
                        Metadata::parse_from_bytes(&bytes).map_err(|e| invalid(path, pos, e))?;
                    if let Some(t) = m.tool_info.as_ref() {
                        if t.name == crate::index::scip::SCHEME {
                            return Err(Error::at(
                                Reason::ScipIndexInvalid,
                                path,
                                "was written by `probity index --scip`: probity's own \
                                 tree-sitter declarations (rung 2), not an authority above them",
                            ));
                        }
                        ix.tool = format!("{} {}", t.name, t.version).trim().to_owned();
                    }
                    saw_metadata = true;
                }
                2 => {
                    let bytes = is
                        .read_raw_bytes(len as u32)
                        .map_err(|e| invalid(path, pos, e))?;
                    let d =
                        Document::parse_from_bytes(&bytes).map_err(|e| invalid(path, pos, e))?;
                    drop(bytes);
                    ix.add_document(d, &mut seen);
                    if ix.defs.len() > MAX_DEFINITIONS {
                        return Err(invalid(
                            path,
                            pos,
                            format!("more than {MAX_DEFINITIONS} definitions"),
                        ));
                    }
                }
                _ => skip(&mut is, len).map_err(|e| invalid(path, pos, e))?,
            }
        }
        if !saw_metadata && ix.documents.is_empty() {
            return Err(invalid(path, 0, "no metadata and no document"));
        }
        Ok(ix)
    }

    fn add_document(&mut self, d: Document, seen: &mut HashMap<String, u32>) {
        if !plain_relative(&d.relative_path) {
            self.rejected_documents += 1;
            return;
        }
        let doc = match seen.get(&d.relative_path) {
            Some(&i) => i,
            None => {
                let i = self.documents.len() as u32;
                seen.insert(d.relative_path.clone(), i);
                self.documents.push(d.relative_path.clone());
                i
            }
        };
        for o in &d.occurrences {
            // SymbolRole::Definition.
            if o.symbol_roles & 1 == 0 || scip::symbol::is_local_symbol(&o.symbol) {
                continue;
            }
            if let Some(&i) = self.by_symbol.get(o.symbol.as_str()) {
                let d = &mut self.defs[i as usize];
                d.seen = d.seen.saturating_add(1);
                continue;
            }
            let Ok(sym) = scip::symbol::parse_symbol(&o.symbol) else {
                self.unreadable_symbols += 1;
                continue;
            };
            let Some((parts, ns, kind)) = parts_of(&sym.descriptors) else {
                continue;
            };
            let at = match o.range.as_slice() {
                [l, c, ..] if *l >= 0 && *c >= 0 && o.range.len() >= 3 => {
                    Some((*l as u32, *c as u32))
                }
                _ => None,
            };
            let i = self.defs.len() as u32;
            self.by_symbol.insert(o.symbol.as_str().into(), i);
            if let Some(last) = parts.last() {
                self.by_name.entry(last.clone()).or_default().push(i);
            }
            self.defs.push(Def {
                symbol: o.symbol.as_str().into(),
                parts,
                ns,
                kind,
                doc,
                at,
                sig: None,
                seen: 1,
            });
        }
        for s in &d.symbols {
            if let Some(&i) = self.by_symbol.get(s.symbol.as_str()) {
                let def = &mut self.defs[i as usize];
                if def.sig.is_none() {
                    let text = s
                        .signature_documentation
                        .as_ref()
                        .map(|d| d.text.as_str())
                        .filter(|t| !t.is_empty())
                        .or_else(|| s.documentation.first().map(String::as_str));
                    def.sig = text
                        .filter(|t| t.len() <= MAX_SIGNATURE_BYTES)
                        .map(Into::into);
                } else {
                    def.seen = def.seen.saturating_add(1);
                }
            }
            let bases: Vec<Box<str>> = s
                .relationships
                .iter()
                .filter(|r| r.is_implementation && !scip::symbol::is_local_symbol(&r.symbol))
                .map(|r| r.symbol.as_str().into())
                .collect();
            if !bases.is_empty() {
                self.bases
                    .entry(s.symbol.as_str().into())
                    .or_default()
                    .extend(bases);
            }
        }
    }

    /// How many definitions it holds.
    pub fn definitions(&self) -> usize {
        self.defs.len()
    }
}

/// Skip `len` bytes of `is`, in pieces (a length is not trusted to fit in memory).
fn skip(is: &mut CodedInputStream, mut len: u64) -> protobuf::Result<()> {
    while len > 0 {
        let n = len.min(1 << 20) as u32;
        is.skip_raw_bytes(n)?;
        len -= u64::from(n);
    }
    Ok(())
}
