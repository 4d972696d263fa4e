//! `rgw verify FILE --depth D`: differential perft of a file's models.
//!
//! RBG: the native interpreter against the RG translation. GDL: the native
//! reasoner against the propnet model and against the RG translation. RG
//! and HRG (no native semantics): the RG game against its optimized form,
//! which checks that the optimizer preserved the game tree.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use rg_core::model::Budget;

use crate::cli::ModelArgs;
use crate::pipeline::comparisons::comparisons;
use crate::pipeline::interrupt::{self, EXIT_INTERRUPTED};
use crate::pipeline::live::Live;
use crate::source::{CliError, Source};

pub fn run(
    path: &Path,
    depth: u32,
    time_limit: Option<Duration>,
    args: &ModelArgs,
) -> Result<ExitCode, CliError> {
    if let Some(via) = &args.via {
        return Err(CliError::Usage(format!(
            "--via {via} does not apply to verify, which runs every model of the file side by side"
        )));
    }
    let source = Source::read(path)?;
    let progress = interrupt::progress();
    let budget = || {
        time_limit
            .map_or_else(Budget::unlimited, Budget::with_time_limit)
            .with_progress(Arc::clone(&progress))
    };
    let live = Live::start(&progress);
    live.stage(format!("verifying up to depth {depth}"));
    let verdicts = comparisons(&source, depth, args, &budget);
    live.finish();
    let verdicts = verdicts?;
    let mut all_agree = true;
    let mut complete = true;
    for (what, verdict) in &verdicts {
        println!("{}: {what}: {verdict}", source.name());
        all_agree &= verdict.agrees();
        complete &= verdict.agreed().len() > depth as usize;
    }
    if interrupt::interrupted() {
        eprintln!(
            "{}: interrupted: not verified to depth {depth}",
            source.name()
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    if all_agree && !complete {
        // As perft does: a run cut short by a limit did not verify what
        // was asked.
        eprintln!(
            "{}: not verified to depth {depth}: stopped early (see above)",
            source.name()
        );
    }
    Ok(if all_agree && complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
