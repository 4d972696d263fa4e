//! The worker side of `rgw convert`: the hidden subcommand `rgw
//! __convert-one` converts one game in a process of its own and tells the
//! parent what it is doing and how it ended, as JSON lines on stdout:
//!
//! ```text
//! {"phase":"translating"}
//! {"phase":"verifying"}
//! {"report":{...the game's GameReport...}}
//! ```
//!
//! A crash, a stack overflow or an out-of-memory abort then ends only this
//! process; the parent (`process.rs`) reports it as the game's failure.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::{convert_one, ConvertOptions, Phase};
use crate::cli::ModelArgs;
use crate::source::CliError;

/// What the parent passes to a worker.
#[derive(Clone, Debug)]
pub struct WorkerArgs {
    pub file: PathBuf,
    pub library: PathBuf,
    pub out: PathBuf,
    /// The `.rg` file to write, relative to `out` (the parent resolves
    /// name collisions).
    pub output_name: PathBuf,
    pub verify_depth: Option<u32>,
    pub time_limit: Duration,
    pub model: ModelArgs,
}

/// Test-only: `RGW_TEST_CRASH=KIND:NAME[,KIND:NAME...]` makes the worker
/// converting the file named `NAME` crash in the way `KIND` says (`abort`,
/// `panic`, `stack-overflow`, `memory`: allocate until the memory limit,
/// `hang`: sleep forever), so that the tests can check that `rgw convert`
/// contains each kind of failure to its game. Not for users.
pub const TEST_CRASH_VARIABLE: &str = "RGW_TEST_CRASH";

pub fn run(args: WorkerArgs) -> Result<ExitCode, CliError> {
    let options = ConvertOptions {
        dir: args.library,
        out: args.out,
        verify_depth: args.verify_depth,
        time_limit: args.time_limit,
        jobs: 1,
        against: None,
        bless: false,
        expected: None,
        model: args.model,
        memory_limit_mb: None,
    };
    let announce = |phase: Phase| {
        let line = serde_json::json!({ "phase": phase.name() });
        emit(&line.to_string());
        if phase == Phase::Translating {
            crash_if_asked(&args.file);
        }
    };
    let report = convert_one(&args.file, &options, &args.output_name, &announce);
    let line = serde_json::json!({ "report": report });
    emit(&line.to_string());
    Ok(ExitCode::SUCCESS)
}

/// One line to the parent, at once (the parent times the phases).
fn emit(line: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}");
    let _ = stdout.flush();
}

/// See [`TEST_CRASH_VARIABLE`].
fn crash_if_asked(file: &std::path::Path) {
    let Ok(requests) = std::env::var(TEST_CRASH_VARIABLE) else {
        return;
    };
    let name = file.file_name().and_then(|n| n.to_str());
    let kind = requests
        .split(',')
        .filter_map(|request| request.split_once(':'))
        .find(|(_, file)| Some(*file) == name)
        .map(|(kind, _)| kind);
    match kind.unwrap_or("") {
        "abort" => std::process::abort(),
        "panic" => panic!("test crash requested by {TEST_CRASH_VARIABLE}"),
        "stack-overflow" => {
            let _ = recurse(u64::MAX);
        }
        "memory" => {
            let mut blocks: Vec<Vec<u8>> = Vec::new();
            loop {
                blocks.push(Vec::with_capacity(64 << 20));
                std::hint::black_box(&blocks);
            }
        }
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
        _ => {}
    }
}

/// Recursion without end (for the stack-overflow test).
fn recurse(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth; 64]);
    if depth == 0 {
        return frame[0];
    }
    recurse(depth - 1).wrapping_add(std::hint::black_box(frame)[1])
}
