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
use std::time::{Duration, Instant};

use rg_core::model::{perft, Budget, ForwardModel, LimitError};
use rg_core::verify::{Side, Verdict};

use crate::cli::ModelArgs;
use crate::pipeline::comparisons::{against_file, comparisons};
use crate::pipeline::compiled;
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
    // `--via compiled` adds the compiled reasoner to the comparisons.
    let with_compiled = args.via.as_deref() == Some("compiled");
    if let Some(via) = args.via.as_deref().filter(|_| !with_compiled) {
        return Err(CliError::Usage(format!(
            "--via {via} does not apply to verify, which runs every model of the file side by \
             side (--via compiled adds the compiled reasoner to them)"
        )));
    }
    let args = &ModelArgs {
        via: None,
        ..args.clone()
    };
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
    let verdicts = verdicts.and_then(|mut verdicts| {
        if with_compiled {
            live.stage("compiled reasoner".into());
            verdicts.push(compiled_verdict(&source, depth, time_limit, args)?);
        }
        Ok(verdicts)
    });
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

/// Perft of the RG engine against the compiled reasoner, both on the
/// optimized RG the reasoner is built from. Counts only: a difference is
/// not localized to a move prefix (the reasoner runs in another process).
fn compiled_verdict(
    source: &Source,
    depth: u32,
    time_limit: Option<Duration>,
    args: &ModelArgs,
) -> Result<(String, Verdict), CliError> {
    let what = "RG engine vs compiled reasoner".to_string();
    let engine = compiled::engine(source, args)?;
    let reasoner = compiled::reasoner(source, args)?;
    let mut budget = time_limit.map_or_else(Budget::unlimited, Budget::with_time_limit);
    let mut left = Vec::new();
    let mut left_stop: Option<LimitError> = None;
    match engine.initial() {
        Err(e) => left_stop = Some(e.into()),
        Ok(initial) => {
            for d in 0..=depth {
                match perft(&engine, &initial, d, &mut budget) {
                    Ok(count) => left.push(count),
                    Err(e) => {
                        left_stop = Some(e);
                        break;
                    }
                }
            }
        }
    }
    let mut right = Vec::new();
    let deadline = time_limit.map(|limit| Instant::now() + limit);
    let command = ["perft".to_string(), depth.to_string()];
    let ended = compiled::run(&reasoner, &command, deadline, &mut |line| {
        if let Some(count) = line.get("nodes").and_then(serde_json::Value::as_u64) {
            right.push(count);
        }
    });
    let right_error = match ended {
        Ok(compiled::Ended::Finished) => None,
        Ok(compiled::Ended::TimedOut) => Some(None),
        Err(e) => Some(Some(
            e.to_string().trim_start_matches("error: ").to_string(),
        )),
    };
    let common = left.len().min(right.len());
    for d in 0..common {
        if left[d] != right[d] {
            return Ok((
                what,
                Verdict::Differ {
                    depth: d as u32,
                    left: left[d],
                    right: right[d],
                    agreed: left[..d].to_vec(),
                    prefix: Vec::new(),
                    detail: "the perft counts differ (the compiled reasoner's differences \
                             are not localized to a move)"
                        .into(),
                },
            ));
        }
    }
    let agreed = left[..common].to_vec();
    let failed = |side, error: String| Verdict::Failed {
        side,
        depth: common as u32,
        agreed: agreed.clone(),
        error,
    };
    let verdict = match (left_stop, right_error) {
        (Some(LimitError::Model(e)), _) if left.len() == common => {
            failed(Side::Left, e.to_string())
        }
        (_, Some(Some(e))) if right.len() == common => failed(Side::Right, e),
        (left_stop, right_error) => Verdict::Agree {
            perft: agreed.clone(),
            stopped: (left_stop.is_some() || right_error.is_some())
                .then(|| "a limit was reached".to_string()),
        },
    };
    Ok((what, verdict))
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
