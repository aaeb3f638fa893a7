//! probity's integration tests: one test binary, one module per concern.

mod cli;
mod golden;
mod properties;
mod registry;
mod rules;
mod toolchains;
mod util;
