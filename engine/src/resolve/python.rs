//! The Python rules of their own: classes built on a standard-library class (`bases`).

pub(super) mod bases;
