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
    // The work runs on a thread with a large stack, like every worker
    // thread: reachability checks and the reasoners recurse (bounded, with
    // a message), and the default 8 MB main or 2 MB thread stack is less
    // than those bounds need.
    let outcome = worker_thread()
        .spawn(move || commands::run(args))
        .map_err(|e| source::CliError::Failed(format!("error: cannot start the work thread: {e}")))
        .and_then(|handle| {
            handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("{error}");
            error.exit_code()
        }
    }
}

/// Stack of every thread that runs models: reserved address space, only
/// touched as deep as a search actually goes.
const WORKER_STACK: usize = 256 << 20;

/// A thread builder with the stack models need (see [`WORKER_STACK`]).
pub fn worker_thread() -> std::thread::Builder {
    std::thread::Builder::new().stack_size(WORKER_STACK)
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
