//! The `rgw` command line: argument handling and output only; the work is
//! done by the library crates.

mod cli;
mod commands;
mod pipeline;
mod source;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_default_sigpipe();
    let args = cli::Cli::parse();
    match commands::run(args) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("{error}");
            error.exit_code()
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`rgw passes |
/// head`) would panic; like other command-line tools, rgw then simply
/// stops.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread or output
    // exists; SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
