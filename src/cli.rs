//! Command-line arguments (clap).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "rgw",
    version,
    about = "Translate RBG, GDL and HRG games to Regular Games (RG) and verify the translations",
    long_about = "rgw reads game descriptions in Regular Games (.rg), Regular Boardgames (.rbg), \
                  GDL/KIF (.kif, .gdl) and High-level Regular Games (.hrg), chosen by file \
                  extension. Exit codes: 0 success, 1 invalid input or failed check, 2 usage error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check a game statically; print its diagnostics, or a one-line summary.
    Check {
        /// The game file.
        file: PathBuf,
    },
    /// Rewrite an RG file in canonical form.
    Fmt {
        /// The RG file.
        file: PathBuf,
        /// Only report whether the file is canonical (exit 1 if it would change).
        #[arg(long)]
        check: bool,
    },
}
