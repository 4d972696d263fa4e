//! What the subcommands share: translating a file to checked RG, running
//! the optimizer, choosing the model that runs a game (`--via`), the
//! differential comparisons (and terminal goals), perft on several threads, expected-count
//! tables, Ctrl-C, and the live progress line.

pub mod comparisons;
pub mod compiled;
pub mod expected;
pub mod goals;
pub mod interrupt;
pub mod live;
pub mod models;
pub mod optimizing;
pub mod parallel_perft;
pub mod translation;
