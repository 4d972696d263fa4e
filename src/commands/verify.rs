//! `rgw verify FILE --depth D`: differential perft of a file's models, or
//! of two files (`--against OTHER`), optionally checked against a perft
//! table (`--expected TABLE`).
//!
//! RBG and HRG: the native interpreter against the RG translation. GDL:
//! the native reasoner against the propnet model and against the RG
//! translation. RG (no native semantics): the RG game against its
//! optimized form, which checks that the optimizer preserved the game tree.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use rg_core::model::Budget;

use crate::cli::ModelArgs;
use crate::pipeline::comparisons::{against_file, comparisons};
use crate::pipeline::expected::{compare, ExpectedTable};
use crate::pipeline::interrupt::{self, EXIT_INTERRUPTED};
use crate::pipeline::live::Live;
use crate::source::{CliError, Language, Source};

/// What to compare FILE's models with, besides each other.
pub struct Checks<'a> {
    pub against: Option<&'a Path>,
    pub expected: Option<&'a Path>,
}

pub fn run(
    path: &Path,
    depth: u32,
    time_limit: Option<Duration>,
    checks: &Checks<'_>,
    args: &ModelArgs,
) -> Result<ExitCode, CliError> {
    if let Some(via) = &args.via {
        return Err(CliError::Usage(format!(
            "--via {via} does not apply to verify, which runs every model of the file side by side"
        )));
    }
    let source = Source::read(path)?;
    // Read the table first: a malformed table is reported before any work.
    let table = checks.expected.map(ExpectedTable::read).transpose()?;
    let progress = interrupt::progress();
    let budget = || {
        time_limit
            .map_or_else(Budget::unlimited, Budget::with_time_limit)
            .with_progress(Arc::clone(&progress))
    };
    let live = Live::start(&progress);
    live.stage(format!("verifying up to depth {depth}"));
    let verdicts = match checks.against {
        Some(other) => Source::read(other).and_then(|other| {
            let verdict = against_file(&source, &other, depth, args, budget())?;
            let one_is_gdl =
                (source.language == Language::Gdl) != (other.language == Language::Gdl);
            if one_is_gdl && !verdict.1.agrees() {
                eprintln!(
                    "note: a GDL game counts every role's move (noop included) as a ply, so its \
                     perft matches another language's only at full rounds; compare it with \
                     its own RG translation here, or use `rgw perft --joint` across languages"
                );
            }
            Ok(vec![verdict])
        }),
        None => comparisons(&source, depth, args, &budget),
    };
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
    if let Some(table) = &table {
        all_agree &= expected_counts_agree(&source, table, &verdicts);
    }
    // replay: once perft reached the end of the game, its plays' goals.
    let game_ended = verdicts
        .iter()
        .all(|(_, v)| v.agrees() && v.agreed().last() == Some(&0));
    if source.language == Language::Replay && checks.against.is_none() && game_ended {
        all_agree &= replay_goals_agree(&source, args)?;
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

/// Plays whose goals `verify` compares at most (a census walks them all).
const MAX_CENSUS_PLAYS: u64 = 1_000_000;

/// Compares the terminal goals of a replay file's native model and RG
/// translation play by play, and prints the result.
fn replay_goals_agree(source: &Source, args: &ModelArgs) -> Result<bool, CliError> {
    use crate::pipeline::goals::{census, difference};
    use crate::pipeline::models::{engine_for, replay_native, runtime_error};
    let native = replay_native(source)?;
    let game = crate::pipeline::translation::to_rg(source)?.game;
    let game = crate::pipeline::optimizing::apply(game, &args.optimize)?;
    let engine = engine_for(source, &game, args)?;
    let left = census(&native, MAX_CENSUS_PLAYS).map_err(|e| runtime_error(source, e))?;
    let right = census(&engine, MAX_CENSUS_PLAYS).map_err(|e| runtime_error(source, e))?;
    let (Some(left), Some(right)) = (left, right) else {
        println!(
            "{}: terminal goals: not compared (more than {MAX_CENSUS_PLAYS} plays)",
            source.name()
        );
        return Ok(true);
    };
    match difference(&left, &right) {
        None => {
            let plays: u64 = left.values().sum();
            println!(
                "{}: terminal goals: native model vs RG translation: agree over {plays} plays ({} goal vectors)",
                source.name(),
                left.len()
            );
            Ok(true)
        }
        Some(what) => {
            println!(
                "{}: terminal goals: native model vs RG translation: differ: {what}",
                source.name()
            );
            Ok(false)
        }
    }
}

/// Checks the counts every comparison agreed on against the table, and
/// prints the result; a file the table does not list fails.
fn expected_counts_agree(
    source: &Source,
    table: &ExpectedTable,
    verdicts: &[(String, rg_core::verify::Verdict)],
) -> bool {
    let expected = table.counts_for(&source.path);
    let name = table.path().display();
    if expected.is_empty() {
        println!("{}: {name}: no row for this game", source.name());
        return false;
    }
    let mut agrees = true;
    for (what, verdict) in verdicts {
        let comparison = compare(&expected, verdict.agreed());
        println!("{}: {what}: {name}: {comparison}", source.name());
        agrees &= comparison.agrees();
    }
    agrees
}
