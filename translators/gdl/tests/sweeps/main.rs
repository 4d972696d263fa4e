//! The GDL by-hand sweeps and timings, all `#[ignore]`d, in one test binary
//! (one link instead of six keeps the suite's build short). Run one with
//! `cargo test --release -p gdl --test sweeps NAME -- --ignored --nocapture`
//! (see each module for its options).

#[path = "../common/mod.rs"]
mod common;
mod phase_timing;
mod propnet_sweep;
mod reasoner_sweep;
mod team_corpus_print;
mod translate_speed;
mod translate_sweep;
