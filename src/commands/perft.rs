//! `rgw perft FILE DEPTH`: perft at every depth, with times, each depth
//! printed as it finishes; `--divide`: the count below each first move.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rg_core::model::{perft, Budget, ForwardModel, LimitError, ModelError, Player};

use crate::cli::ModelArgs;
use crate::pipeline::compiled;
use crate::pipeline::expected::{compare, ExpectedTable};
use crate::pipeline::interrupt::{self, EXIT_INTERRUPTED};
use crate::pipeline::live::Live;
use crate::pipeline::models::{
    check_model_options, runtime_error, via, with_model, ModelTask, Via,
};
use crate::pipeline::parallel_perft::perft_series_parallel;
use crate::source::{CliError, Source};

/// What `rgw perft` was asked for (besides the model).
#[derive(Clone, Debug)]
pub struct PerftOptions {
    pub depth: u32,
    pub json: bool,
    pub time_limit: Option<Duration>,
    pub joint: bool,
    pub threads: Option<usize>,
    pub divide: bool,
    /// A perft table to check the counts against.
    pub expected: Option<PathBuf>,
}

pub fn run(path: &Path, args: &ModelArgs, options: &PerftOptions) -> Result<ExitCode, CliError> {
    let source = Source::read(path)?;
    if options.divide && options.joint {
        return Err(CliError::Usage(
            "--divide does not apply to --joint (it divides the sequential moves)".into(),
        ));
    }
    if options.threads.is_some() && (options.divide || options.joint) {
        let mode = if options.divide {
            "--divide"
        } else {
            "--joint"
        };
        return Err(CliError::Usage(format!(
            "--threads does not apply to {mode}, which counts on one thread"
        )));
    }
    // Read the table first: a malformed table is reported before any work.
    let table = options
        .expected
        .as_deref()
        .map(ExpectedTable::read)
        .transpose()?;
    let progress = interrupt::progress();
    let budget = options
        .time_limit
        .map_or_else(Budget::unlimited, Budget::with_time_limit)
        .with_progress(Arc::clone(&progress));
    let live = Live::start(&progress);
    if options.divide {
        return divide(&source, args, options, budget, &live);
    }
    let json = options.json;
    let mut depth = 0;
    let mut on_depth = |count: u64, time: Duration| {
        if !json {
            live.println(&format!(
                "depth {depth}: {count} ({:.3} s)",
                time.as_secs_f64()
            ));
        }
        depth += 1;
        live.stage(format!("depth {depth}"));
    };
    live.stage("depth 0".into());
    let mut compiled = None;
    let (results, stopped) = if options.joint {
        joint_series(&source, args, options.depth, budget, &mut on_depth)?
    } else if via(&source, args)? == Via::Compiled {
        if options.threads.is_some_and(|n| n > 1) {
            return Err(CliError::Usage(
                "--via compiled counts on one thread (--threads 1)".into(),
            ));
        }
        check_model_options(&source, args)?;
        live.stage("compiling".into());
        let reasoner = compiled::reasoner(&source, args)?;
        if !json {
            live.println(&format!(
                "compiled reasoner: {} in {:.3} s ({})",
                if reasoner.cached { "reused" } else { "built" },
                reasoner.compile_time.as_secs_f64(),
                reasoner.binary.display()
            ));
        }
        live.stage("depth 0".into());
        let series = compiled_series(&reasoner, options, &mut on_depth)?;
        compiled = Some(reasoner);
        series
    } else {
        let threads = match options.threads {
            Some(0) => return Err(CliError::Usage("--threads must be at least 1".into())),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        };
        let task = Series {
            depth: options.depth,
            budget,
            threads,
            source: &source,
            args,
            on_depth: &mut on_depth,
        };
        with_model(&source, args, task)?
    };
    live.finish();
    let counts: Vec<u64> = results.iter().map(|(c, _)| *c).collect();
    let checked = table.as_ref().map(|table| {
        let expected = table.counts_for(&source.path);
        (
            table.path(),
            expected.is_empty(),
            compare(&expected, &counts),
        )
    });
    if json {
        let mut object = serde_json::json!({
            "file": source.name(),
            "perft": counts,
            "seconds": results.iter().map(|(_, t)| t.as_secs_f64()).collect::<Vec<_>>(),
        });
        complete_json(&mut object, stopped.as_ref(), options.time_limit);
        if let Some(reasoner) = &compiled {
            object["compile_seconds"] = serde_json::json!(reasoner.compile_time.as_secs_f64());
            object["compile_cached"] = serde_json::json!(reasoner.cached);
        }
        if let Some((path, _, comparison)) = &checked {
            object["expected"] = comparison.to_json(path);
        }
        println!("{object}");
    } else if let Some((path, no_row, comparison)) = &checked {
        if *no_row {
            println!(
                "{}: {}: no row for this game",
                source.name(),
                path.display()
            );
        } else {
            println!("{}: {}: {comparison}", source.name(), path.display());
        }
    }
    let during = format!("during depth {}", results.len());
    let code = finish(&source, stopped, &during)?;
    let refuted = checked.is_some_and(|(_, _, comparison)| !comparison.agrees());
    Ok(if refuted && code == ExitCode::SUCCESS {
        ExitCode::from(1)
    } else {
        code
    })
}

/// Perft of the compiled reasoner at every depth, read from its output
/// (its own timing of each depth, excluding process start).
fn compiled_series(
    reasoner: &compiled::Reasoner,
    options: &PerftOptions,
    on_depth: &mut dyn FnMut(u64, Duration),
) -> Result<PerftSeries, CliError> {
    let deadline = options.time_limit.map(|limit| Instant::now() + limit);
    let mut results = Vec::new();
    let args = ["perft".to_string(), options.depth.to_string()];
    let ended = compiled::run(reasoner, &args, deadline, &mut |line| {
        let count = line.get("nodes").and_then(serde_json::Value::as_u64);
        let seconds = line.get("seconds").and_then(serde_json::Value::as_f64);
        if let (Some(count), Some(seconds)) = (count, seconds) {
            let time = Duration::from_secs_f64(seconds.max(0.0));
            on_depth(count, time);
            results.push((count, time));
        }
    });
    match ended {
        Ok(compiled::Ended::Finished) => Ok((results, None)),
        Ok(compiled::Ended::TimedOut) => Ok((
            results,
            Some(LimitError::Time(options.time_limit.unwrap_or_default())),
        )),
        Err(CliError::Failed(message)) => Ok((
            results,
            Some(LimitError::Model(ModelError::new(
                message.trim_start_matches("error: ").to_string(),
            ))),
        )),
        Err(other) => Err(other),
    }
}

/// Marks a JSON result `"complete"`, and says why not (`"stopped"`).
fn complete_json(
    object: &mut serde_json::Value,
    stopped: Option<&LimitError>,
    time_limit: Option<Duration>,
) {
    // A run cut short says so: the counts cover less than asked.
    object["complete"] = serde_json::json!(stopped.is_none());
    if let Some(reason) = stopped {
        object["stopped"] = serde_json::json!(reason_text(reason, time_limit));
    }
}

/// Why a count stopped, naming the time limit as the user set it (worker
/// threads' budgets only know the deadline, and measure what was left).
fn reason_text(reason: &LimitError, time_limit: Option<Duration>) -> String {
    match (reason, time_limit) {
        (LimitError::Time(_), Some(limit)) => LimitError::Time(limit).to_string(),
        _ => reason.to_string(),
    }
}

/// The exit code of a count that stopped (or not) for `stopped`; `during`
/// says where (`during depth 7`).
fn finish(
    source: &Source,
    stopped: Option<LimitError>,
    during: &str,
) -> Result<ExitCode, CliError> {
    match stopped {
        None => Ok(ExitCode::SUCCESS),
        Some(LimitError::Time(_)) => {
            eprintln!("{}: stopped by the time limit {during}", source.name());
            Ok(ExitCode::from(1))
        }
        Some(limit @ LimitError::Nodes(_)) => {
            eprintln!("{}: stopped {during}: {limit}", source.name());
            Ok(ExitCode::from(1))
        }
        Some(LimitError::Interrupted) => {
            eprintln!("{}: interrupted {during}", source.name());
            Ok(ExitCode::from(EXIT_INTERRUPTED))
        }
        Some(LimitError::Model(error)) => Err(CliError::Failed(format!(
            "error: {}: perft failed {during}: {error}",
            source.name()
        ))),
    }
}

/// Counts and times of the completed depths, and why it stopped early.
type PerftSeries = (Vec<(u64, Duration)>, Option<LimitError>);

struct Series<'a> {
    depth: u32,
    budget: Budget,
    threads: usize,
    /// What helper threads build their own models from.
    source: &'a Source,
    args: &'a ModelArgs,
    on_depth: &'a mut dyn FnMut(u64, Duration),
}

impl ModelTask for Series<'_> {
    type Output = PerftSeries;

    fn run<M: ForwardModel>(mut self, model: &M, _: &str) -> Result<Self::Output, CliError> {
        if self.threads > 1 {
            return Ok(perft_series_parallel(
                model,
                self.source,
                self.args,
                self.depth,
                self.threads,
                &mut self.budget,
                self.on_depth,
            ));
        }
        let initial = match model.initial() {
            Ok(state) => state,
            Err(error) => return Ok((Vec::new(), Some(error.into()))),
        };
        let mut results = Vec::new();
        for depth in 0..=self.depth {
            let start = Instant::now();
            match perft(model, &initial, depth, &mut self.budget) {
                Ok(count) => {
                    let time = start.elapsed();
                    (self.on_depth)(count, time);
                    results.push((count, time));
                }
                Err(error) => return Ok((results, Some(error))),
            }
        }
        Ok((results, None))
    }
}

/// GDL joint-move perft at every depth (`--joint`).
fn joint_series(
    source: &Source,
    args: &ModelArgs,
    depth: u32,
    mut budget: Budget,
    on_depth: &mut dyn FnMut(u64, Duration),
) -> Result<PerftSeries, CliError> {
    use crate::pipeline::models::{gdl_reasoner, propnet_model};
    use crate::source::Language;
    check_model_options(source, args)?;
    if source.language != Language::Gdl {
        return Err(CliError::Usage(
            "--joint applies to GDL (.kif, .gdl) files only".into(),
        ));
    }
    let mut results = Vec::new();
    let which = via(source, args)?;
    if matches!(which, Via::Rg | Via::Compiled) {
        return Err(CliError::Usage(
            "--joint counts GDL joint moves: use the native or propnet model".into(),
        ));
    }
    let reasoner = if which == Via::Native {
        Some(gdl_reasoner(source)?)
    } else {
        None
    };
    let propnet = if which == Via::Propnet {
        Some(propnet_model(source)?)
    } else {
        None
    };
    for d in 0..=depth {
        let start = Instant::now();
        let count = match (&reasoner, &propnet) {
            (Some(r), _) => rg_core::joint::joint_perft(r, d, &mut budget),
            (_, Some(p)) => rg_core::joint::joint_perft(p, d, &mut budget),
            _ => unreachable!("one model is built"),
        };
        match count {
            Ok(c) => {
                let time = start.elapsed();
                on_depth(c, time);
                results.push((c, time));
            }
            Err(e) => return Ok((results, Some(e))),
        }
    }
    Ok((results, None))
}

/// One first move's line of `--divide`.
struct Branch {
    /// The move as the model formats it.
    name: String,
    count: u64,
    /// Random moves: an earlier move reached the same state, whose subtree
    /// counts once (perft counts distinct random outcomes).
    same_state_as: Option<String>,
}

/// `perft --divide`: perft at the depth below each legal move of the
/// initial state, in the order the model generates them, and the total.
fn divide(
    source: &Source,
    args: &ModelArgs,
    options: &PerftOptions,
    budget: Budget,
    live: &Live,
) -> Result<ExitCode, CliError> {
    let json = options.json;
    let on_branch = |branch: &Branch| {
        if !json {
            live.println(&branch_line(branch));
        }
    };
    let task = Divide {
        depth: options.depth,
        budget,
        source,
        on_branch: &on_branch,
        live,
    };
    let (branches, stopped) = with_model(source, args, task)?;
    let total: u64 = if options.depth == 0 {
        1
    } else {
        branches.iter().map(|b| b.count).sum()
    };
    if json {
        let moves: Vec<_> = branches
            .iter()
            .map(|b| {
                let mut entry = serde_json::json!({ "move": b.name, "count": b.count });
                if let Some(other) = &b.same_state_as {
                    entry["same_state_as"] = serde_json::json!(other);
                }
                entry
            })
            .collect();
        let mut object = serde_json::json!({
            "file": source.name(),
            "depth": options.depth,
            "divide": moves,
        });
        if stopped.is_none() {
            object["total"] = serde_json::json!(total);
        }
        complete_json(&mut object, stopped.as_ref(), options.time_limit);
        println!("{object}");
    } else if stopped.is_none() {
        live.println(&format!("total: {total}"));
    }
    let during = format!("after {} first moves", branches.len());
    finish(source, stopped, &during)
}

/// `move: count` (the empty move shown as `(empty move)`).
fn branch_line(branch: &Branch) -> String {
    let name = shown(&branch.name);
    match &branch.same_state_as {
        Some(other) => format!("{name}: 0 (same state as {})", shown(other)),
        None => format!("{name}: {}", branch.count),
    }
}

fn shown(name: &str) -> &str {
    if name.is_empty() {
        "(empty move)"
    } else {
        name
    }
}

struct Divide<'a> {
    depth: u32,
    budget: Budget,
    source: &'a Source,
    on_branch: &'a dyn Fn(&Branch),
    live: &'a Live,
}

impl ModelTask for Divide<'_> {
    type Output = (Vec<Branch>, Option<LimitError>);

    fn run<M: ForwardModel>(mut self, model: &M, _: &str) -> Result<Self::Output, CliError> {
        let failed = |e| runtime_error(self.source, e);
        let root = model.initial().map_err(failed)?;
        let mut branches = Vec::new();
        if self.depth == 0 {
            return Ok((branches, None));
        }
        let mut moves = Vec::new();
        model.legal_moves(&root, &mut moves).map_err(failed)?;
        let player = model.current_player(&root);
        // Keeper moves do not take a depth (rg.md §6).
        let below = match player {
            Player::Keeper => self.depth,
            Player::Real(_) | Player::Random => self.depth - 1,
        };
        let mut reached: Vec<(M::State, String)> = Vec::new();
        let mut seen = HashSet::new();
        for (index, mv) in moves.iter().enumerate() {
            let name = model.format_move(mv);
            self.live.stage(format!(
                "move {} of {}: {}",
                index + 1,
                moves.len(),
                shown(&name)
            ));
            let mut child = root.clone();
            model.apply(&mut child, mv).map_err(failed)?;
            if player == Player::Random && !seen.insert(child.clone()) {
                let first = reached
                    .iter()
                    .find(|(state, _)| *state == child)
                    .map(|(_, n)| n.clone());
                let branch = Branch {
                    name,
                    count: 0,
                    same_state_as: first,
                };
                (self.on_branch)(&branch);
                branches.push(branch);
                continue;
            }
            if player == Player::Random {
                reached.push((child.clone(), name.clone()));
            }
            match perft(model, &child, below, &mut self.budget) {
                Ok(count) => {
                    let branch = Branch {
                        name,
                        count,
                        same_state_as: None,
                    };
                    (self.on_branch)(&branch);
                    branches.push(branch);
                }
                Err(error) => return Ok((branches, Some(error))),
            }
        }
        Ok((branches, None))
    }
}
