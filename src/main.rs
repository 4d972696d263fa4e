//! The `rgw` command line: argument handling and output only; the work is
//! done by the library crates.

mod cli;
mod commands;
mod source;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match commands::run(args) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("{error}");
            error.exit_code()
        }
    }
}
