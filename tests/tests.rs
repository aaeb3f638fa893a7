//! probity's integration tests: one test binary, one module per concern.

mod accept_diff;
mod cli;
mod drift;
mod drift_accuracy;
mod drift_chains;
mod drift_deptraits;
mod drift_extract;
mod drift_heads;
mod drift_js;
mod drift_node;
mod drift_plans;
mod drift_pybases;
mod drift_real;
mod e2e;
mod golden;
mod layers;
mod properties;
mod registry;
mod regressions;
mod rules;
mod session;
mod toolchains;
mod trace;
mod util;
mod verify;
