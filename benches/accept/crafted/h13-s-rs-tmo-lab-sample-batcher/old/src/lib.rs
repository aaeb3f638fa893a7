//! Batching of accessioned lab samples before they are sent to the analyser
//! queue.  See [`batcher`].

pub mod batcher;

pub use batcher::{spawn_batcher, BatchPolicy, Sample};
