//! The JavaScript / TypeScript rules: what the index does not record of a module (`exports`:
//! default exports and local renamings; `members`: objects with assigned members and mixins),
//! specifiers that are not relative (`modules`: `tsconfig.json` / `jsconfig.json` paths, read
//! leniently by `jsonc`, workspace packages, package.json `"imports"`), whether a word is code or
//! string text (`text`), classes built on a Node.js built-in (`nodebase`) and heads that are the
//! stem of one module file (`stemhead`).

pub(super) mod exports;
pub(super) mod jsonc;
pub(super) mod members;
pub(super) mod modules;
pub(super) mod nodebase;
pub(super) mod stemhead;
pub(super) mod text;
