//! `rgw convert DIR -o OUTDIR`: translate a whole game library to RG,
//! optionally verify every translation by differential perft, and report.
//!
//! One bad file never stops the run: every game is converted in a worker
//! process of its own (`process.rs`, `worker.rs`), with a memory cap and a
//! time limit, and every failure — a diagnostic, a crash, a limit — is
//! recorded as that game's. `--jobs` workers run at once; a progress line
//! names the running games (or, off a terminal, one line per finished
//! game); Ctrl-C writes the report of the games done so far.

mod outcome;
mod process;
mod report;
mod snapshot;
mod worker;

use std::collections::{BTreeMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rg_core::model::Budget;
use rg_core::verify::Verdict;

use crate::cli::ModelArgs;
use crate::pipeline::expected::{compare, ExpectedTable};
use crate::pipeline::interrupt::{self, EXIT_INTERRUPTED};
use crate::pipeline::models;
use crate::pipeline::translation;
use crate::source::{CliError, Language, Source};

pub use outcome::{GameReport, Status};
pub use process::machine_memory_mb;
pub use worker::{run as run_worker, WorkerArgs};

/// What a worker is doing (it tells the parent, which times each phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading, translating (GDL: grounding), optimizing, writing the RG.
    Translating,
    /// Differential perft of the native model and the translation.
    Verifying,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Translating => "translating",
            Phase::Verifying => "verifying",
        }
    }

    fn from_name(name: &str) -> Option<Phase> {
        [Phase::Translating, Phase::Verifying]
            .into_iter()
            .find(|p| p.name() == name)
    }

    /// The phase as a noun (`translation did not finish ...`).
    fn doing(self) -> &'static str {
        match self {
            Phase::Translating => "translation",
            Phase::Verifying => "verification",
        }
    }
}

/// Options of a conversion run.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    pub dir: PathBuf,
    pub out: PathBuf,
    pub verify_depth: Option<u32>,
    pub time_limit: Duration,
    pub jobs: usize,
    pub against: Option<PathBuf>,
    pub bless: bool,
    /// A perft table the verified counts are checked against.
    pub expected: Option<PathBuf>,
    pub model: ModelArgs,
    /// Each worker's address-space cap (`None`: none).
    pub memory_limit_mb: Option<u64>,
}

pub fn run(options: &ConvertOptions) -> Result<ExitCode, CliError> {
    if !options.dir.is_dir() {
        return Err(CliError::Usage(format!(
            "{} is not a directory",
            options.dir.display()
        )));
    }
    if options.bless && options.against.is_none() {
        return Err(CliError::Usage(
            "--bless needs --against PREVIOUS_OUTDIR".into(),
        ));
    }
    if let Some(previous) = &options.against {
        if !previous.join("report.json").is_file() {
            return Err(CliError::Usage(format!(
                "{} is not the output of an earlier rgw convert (no report.json)",
                previous.display()
            )));
        }
        snapshot::refuse_incomplete(previous)?;
    }
    refuse_output_inside_library(options)?;
    // Read the table first: a malformed table is reported before any work.
    let table = options
        .expected
        .as_deref()
        .map(ExpectedTable::read)
        .transpose()?;
    let files = crate::source::game_files(&options.dir, Some(&options.out), false);
    if files.is_empty() {
        return Err(CliError::Failed(format!(
            "error: no games found below {} (rgw convert looks for .rbg, .kif, .gdl and .hrg files)",
            options.dir.display()
        )));
    }
    let colliding = colliding_outputs(&files, options);
    std::fs::create_dir_all(&options.out).map_err(|e| {
        CliError::Failed(format!(
            "error: cannot create {}: {e}",
            options.out.display()
        ))
    })?;
    let started = Instant::now();
    let (mut games, interrupted) = convert_all(&files, options, &colliding);
    games.sort_by(|a, b| a.file.cmp(&b.file));
    if let Some(table) = &table {
        check_expected(&mut games, table, &options.dir);
    }
    if interrupted {
        // The games done so far, marked incomplete; no snapshot verdict
        // on a part of the library.
        let mut summary = report::Summary::of(&games, None, started.elapsed());
        summary.complete = false;
        summary.games_found = files.len();
        report::write(options, &games, &summary, None)?;
        println!(
            "{}",
            report::terminal_table(&options.dir, &games, &summary, None)
        );
        eprintln!(
            "interrupted: {} of {} games converted; the report in {} lists them{}",
            games.len(),
            files.len(),
            options.out.display(),
            if options.against.is_some() {
                " (no comparison with the snapshot, nothing blessed)"
            } else {
                ""
            }
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    let comparison = match &options.against {
        Some(previous) => Some(snapshot::compare(previous, &options.out, &mut games)?),
        None => None,
    };
    let mut summary = report::Summary::of(&games, comparison.as_ref(), started.elapsed());
    summary.games_found = files.len();
    report::write(options, &games, &summary, comparison.as_ref())?;
    println!(
        "{}",
        report::terminal_table(&options.dir, &games, &summary, comparison.as_ref())
    );
    if options.bless {
        if let Some(previous) = &options.against {
            snapshot::bless(&options.out, previous)?;
            println!(
                "blessed: {} now holds this run's output",
                previous.display()
            );
        }
    }
    let broken = summary.failed + summary.mismatch > 0;
    let changed = comparison
        .as_ref()
        .is_some_and(snapshot::Comparison::changed_anything)
        && !options.bless;
    Ok(if broken || changed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Checks each game's computed perft against the table: a difference makes
/// the game a mismatch; agreement, or the lack of a row, is noted.
fn check_expected(games: &mut [GameReport], table: &ExpectedTable, library: &Path) {
    let name = table.path().display();
    for game in games.iter_mut().filter(|g| !g.perft.is_empty()) {
        let expected = table.counts_for(&library.join(&game.file));
        let remark = if expected.is_empty() {
            format!("{name}: no row for this game")
        } else {
            let comparison = compare(&expected, &game.perft);
            if !comparison.mismatches.is_empty() {
                game.status = Status::Mismatch;
                game.error = Some(format!("perft {comparison} ({name})"));
                continue;
            }
            format!("{name}: {comparison}")
        };
        game.note = Some(match game.note.take() {
            Some(note) => format!("{note}; {remark}"),
            None => remark,
        });
    }
}

/// A game being converted, for the progress line.
struct Running {
    file: String,
    phase: Phase,
    since: Instant,
}

/// Converts every file in worker processes, `jobs` at a time, with a
/// progress line on a terminal (one line per finished game otherwise).
/// The reports of the games done, and whether Ctrl-C stopped the run.
fn convert_all(
    files: &[PathBuf],
    options: &ConvertOptions,
    colliding: &HashSet<PathBuf>,
) -> (Vec<GameReport>, bool) {
    interrupt::progress();
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        ProgressBar::new(files.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {pos}/{len} {wide_msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    // The clock ticks even while no game finishes (a long grounding).
    bar.enable_steady_tick(Duration::from_millis(200));
    let queue = Mutex::new(files.iter().rev().collect::<Vec<_>>());
    let running: Mutex<BTreeMap<usize, Running>> = Mutex::new(BTreeMap::new());
    let (sender, receiver) = mpsc::channel();
    let jobs = options.jobs.max(1).min(files.len().max(1));
    let mut results = Vec::with_capacity(files.len());
    let work = |slot: usize, sender: mpsc::Sender<GameReport>| loop {
        if interrupt::interrupted() {
            break;
        }
        let next = queue.lock().expect("queue lock").pop();
        let Some(path) = next else { break };
        let relative = relative_path(path, options);
        let output_name = output_name(&relative, colliding);
        let file = relative.display().to_string();
        let set_phase = |phase: Phase| {
            if let Ok(mut running) = running.lock() {
                running.insert(
                    slot,
                    Running {
                        file: file.clone(),
                        phase,
                        since: Instant::now(),
                    },
                );
            }
        };
        set_phase(Phase::Translating);
        let language = Language::from_path(path).map_or("unknown", Language::name);
        let report = GameReport::new(file.clone(), language);
        let report = process::convert_in_worker(path, options, &output_name, report, &set_phase);
        if let Ok(mut running) = running.lock() {
            running.remove(&slot);
        }
        let Some(report) = report else { break };
        if sender.send(report).is_err() {
            break;
        }
    };
    std::thread::scope(|scope| {
        let mut started = 0;
        for slot in 0..jobs {
            let sender = sender.clone();
            let work = &work;
            if std::thread::Builder::new()
                .spawn_scoped(scope, move || work(slot, sender))
                .is_ok()
            {
                started += 1;
            }
        }
        if started == 0 {
            // No thread could be started: convert on this one.
            work(0, sender.clone());
        }
        drop(sender);
        let (mut ok, mut failed, mut mismatch) = (0, 0, 0);
        loop {
            let report = match receiver.recv_timeout(Duration::from_millis(200)) {
                Ok(report) => report,
                Err(RecvTimeoutError::Timeout) => {
                    bar.set_message(progress_message(ok, failed, mismatch, &running));
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            match report.status {
                Status::Verified | Status::Translated => ok += 1,
                Status::Failed => failed += 1,
                Status::Mismatch => mismatch += 1,
            }
            bar.inc(1);
            bar.set_message(progress_message(ok, failed, mismatch, &running));
            if !terminal {
                eprintln!(
                    "[{}/{}] {}",
                    results.len() + 1,
                    files.len(),
                    report::finished_line(&options.dir, &report)
                );
            }
            results.push(report);
        }
    });
    bar.finish_and_clear();
    (results, interrupt::interrupted())
}

/// `a.kif (translating, 12 s), b.rbg (verifying, 3 s) | ok 3, failed 1,
/// mismatched 0`: the running games first, so that a narrow terminal
/// still shows them.
fn progress_message(
    ok: usize,
    failed: usize,
    mismatch: usize,
    running: &Mutex<BTreeMap<usize, Running>>,
) -> String {
    let counts = format!("ok {ok}, failed {failed}, mismatched {mismatch}");
    let names: Vec<String> = running.lock().map_or_else(
        |_| Vec::new(),
        |running| {
            running
                .values()
                .map(|r| {
                    format!(
                        "{} ({}, {} s)",
                        r.file,
                        r.phase.name(),
                        r.since.elapsed().as_secs()
                    )
                })
                .collect()
        },
    );
    if names.is_empty() {
        counts
    } else {
        format!("{} | {counts}", names.join(", "))
    }
}

fn relative_path(path: &Path, options: &ConvertOptions) -> PathBuf {
    path.strip_prefix(&options.dir)
        .unwrap_or(path)
        .to_path_buf()
}

/// The `.rg` file a game is written to, below the output directory: it
/// keeps its source extension when another game of its folder has the
/// same name in another language (`ticTacToe.kif.rg`, `ticTacToe.hrg.rg`).
fn output_name(relative: &Path, colliding: &HashSet<PathBuf>) -> PathBuf {
    let output = output_path(relative);
    if colliding.contains(&output) {
        PathBuf::from(format!("{}.rg", relative.display()))
    } else {
        output
    }
}

/// Translates, writes and (optionally) verifies one file, writing the RG
/// to `output` below the output directory; `on_phase` hears when each
/// phase starts. Translation (GDL grounding) and verification each have
/// the per-game time limit.
fn convert_one(
    path: &Path,
    options: &ConvertOptions,
    output: &Path,
    on_phase: &dyn Fn(Phase),
) -> GameReport {
    let relative = relative_path(path, options);
    let language = Language::from_path(path).map_or("unknown", Language::name);
    let mut report = GameReport::new(relative.display().to_string(), language);
    on_phase(Phase::Translating);
    let source = match Source::read(path) {
        Ok(source) => source,
        Err(e) => return report.failed(e.to_string()),
    };
    let start = Instant::now();
    let grounding = propnet::GroundingLimits {
        max_time: Some(options.time_limit),
        ..translation::grounding_limits()
    };
    let translated = translation::translate_game_within(&source, &grounding);
    report.translate_ms = start.elapsed().as_secs_f64() * 1000.0;
    let translated = match translated {
        Ok(t) => t,
        Err(diagnostics) => {
            let name = relative.display().to_string();
            // `line:column: error: message` (the file is in its own column).
            let first = diagnostics.iter().find(|d| d.is_error()).map_or_else(
                || "translation failed".to_string(),
                |d| {
                    let line = d.one_line(&name, &source.text);
                    line.strip_prefix(&format!("{name}:"))
                        .map_or(line.clone(), |rest| rest.trim_start().to_string())
                },
            );
            let more = diagnostics
                .iter()
                .filter(|d| d.is_error())
                .count()
                .saturating_sub(1);
            return report.failed(if more > 0 {
                format!("{first} (and {more} more errors)")
            } else {
                first
            });
        }
    };
    report.nodes = count_nodes(&translated.game);
    report.edges = translated.game.edges.len();
    if output != output_path(&relative) {
        // Another game has the same name in another language: both keep
        // their source extension (`ticTacToe.kif.rg`, `ticTacToe.hrg.rg`).
        report.note = Some(format!(
            "written as {} ({} would be shared with another game)",
            output.display(),
            output_path(&relative).display()
        ));
    }
    let text = rg_core::print::print_game(&translated.game);
    let target = options.out.join(output);
    if let Some(parent) = target.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&target, text) {
        return report.failed(format!("cannot write {}: {e}", target.display()));
    }
    report.output = Some(output.display().to_string());
    let Some(depth) = options.verify_depth else {
        report.status = Status::Translated;
        return report;
    };
    let game = match crate::pipeline::optimizing::apply(translated.game, &options.model.optimize) {
        Ok(game) => game,
        Err(e) => return report.failed(e.to_string()),
    };
    // Verification gets the whole time limit: translation has its own (a
    // slow one must not leave the verification no time at all).
    on_phase(Phase::Verifying);
    let mut budget = Budget::with_time_limit(options.time_limit);
    match crate::pipeline::comparisons::against_native(
        &source,
        &game,
        depth,
        &mut budget,
        &options.model,
    ) {
        Ok(Some(verdict)) => record_verdict(report, verdict),
        Ok(None) => {
            match models::translation_perft(&source, &game, depth, &mut budget, &options.model) {
                Ok((perft, stopped)) => {
                    report.verified_depth = perft
                        .len()
                        .checked_sub(1)
                        .and_then(|d| u32::try_from(d).ok());
                    report.perft = perft;
                    report.status = Status::Translated;
                    report.note = Some(match stopped {
                        Some(reason) => {
                            format!("no native model to compare with; stopped early: {reason}")
                        }
                        None => "no native model to compare with".to_string(),
                    });
                    report
                }
                Err(e) => report.failed(format!("the translated game fails: {e}")),
            }
        }
        Err(e) => report.failed(e.to_string().lines().next().unwrap_or("").to_string()),
    }
}

/// A game's status from the verdict of native vs translated perft.
fn record_verdict(mut report: GameReport, verdict: Verdict) -> GameReport {
    report.perft = verdict.agreed().to_vec();
    report.verified_depth = report
        .perft
        .len()
        .checked_sub(1)
        .and_then(|d| u32::try_from(d).ok());
    match verdict {
        Verdict::Agree { stopped, .. } => {
            // Depth 0 alone proves nothing: it is 1 for every game.
            report.status = if report.verified_depth.unwrap_or(0) >= 1 {
                Status::Verified
            } else {
                Status::Translated
            };
            report.note = stopped.map(|reason| format!("stopped early: {reason}"));
        }
        Verdict::Differ { .. } => {
            report.status = Status::Mismatch;
            report.error = Some(verdict.to_string());
        }
        Verdict::Failed { .. } => {
            report.status = Status::Failed;
            report.error = Some(verdict.to_string());
        }
    }
    report
}

/// `rbg/chess.rbg` → `rbg/chess.rg`.
fn output_path(relative: &Path) -> PathBuf {
    relative.with_extension("rg")
}

/// The output paths that more than one game would be written to.
fn colliding_outputs(files: &[PathBuf], options: &ConvertOptions) -> HashSet<PathBuf> {
    let mut seen = HashSet::new();
    let mut colliding = HashSet::new();
    for path in files {
        let relative = path.strip_prefix(&options.dir).unwrap_or(path);
        let output = output_path(relative);
        if !seen.insert(output.clone()) {
            colliding.insert(output);
        }
    }
    colliding
}

/// `-o` inside the library (or the library itself) would mix the reports
/// and `.rg` files with the games, and a later run would find them there.
fn refuse_output_inside_library(options: &ConvertOptions) -> Result<(), CliError> {
    let library = absolute(&options.dir);
    let out = absolute(&options.out);
    if out.starts_with(&library) {
        return Err(CliError::Usage(format!(
            "the output directory {} is inside the library {}; choose one outside it",
            options.out.display(),
            options.dir.display()
        )));
    }
    Ok(())
}

/// The path with symbolic links and `..` resolved as far as it exists
/// (the output directory may not exist yet).
fn absolute(path: &Path) -> PathBuf {
    if let Ok(resolved) = path.canonicalize() {
        return resolved;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => absolute(parent).join(name),
        _ => std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path)),
    }
}

fn count_nodes(game: &rg_core::ast::Game) -> usize {
    let mut nodes = std::collections::HashSet::new();
    for e in &game.edges {
        nodes.insert(e.from.as_str());
        nodes.insert(e.to.as_str());
    }
    nodes.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rg_core::engine::{Engine, EngineOptions};

    const TIC_TAC_TOE: &str = include_str!("../../../corpus/rg/ticTacToe.rg");

    /// Two models that really differ: the second forbids the centre cell
    /// once `a1` is taken.
    fn differing_verdict() -> Verdict {
        let broken = TIC_TAC_TOE.replace(
            "picked, free: board[cell] == empty;",
            "picked, free0: board[cell] == empty;\nfree0, free: board[a1] == empty;\nfree0, free: cell != b2;",
        );
        let a = Engine::from_source(TIC_TAC_TOE, EngineOptions::default()).unwrap();
        let b = Engine::from_source(&broken, EngineOptions::default()).unwrap();
        rg_core::verify::verify(&a, &b, 3, &mut Budget::unlimited())
    }

    #[test]
    fn a_mismatch_is_reported_with_depth_and_move_prefix() {
        let report = record_verdict(GameReport::new("g.rbg".into(), "rbg"), differing_verdict());
        assert_eq!(report.status, Status::Mismatch);
        assert_eq!(report.perft, vec![1, 9]);
        assert_eq!(report.verified_depth, Some(1));
        let error = report.error.unwrap();
        assert!(
            error.starts_with("differ at depth 2: 72 vs 71; after /a1/"),
            "{error}"
        );
        assert!(
            error.contains("moves only in the first model: \"b2\""),
            "{error}"
        );
    }

    #[test]
    fn agreement_at_depth_0_only_is_not_verification() {
        let a = Engine::from_source(TIC_TAC_TOE, EngineOptions::default()).unwrap();
        let verdict = rg_core::verify::verify(&a, &a, 0, &mut Budget::unlimited());
        let report = record_verdict(GameReport::new("g.rbg".into(), "rbg"), verdict);
        assert_eq!(report.status, Status::Translated);
        let verdict = rg_core::verify::verify(&a, &a, 2, &mut Budget::unlimited());
        let report = record_verdict(GameReport::new("g.rbg".into(), "rbg"), verdict);
        assert_eq!(report.status, Status::Verified);
        assert_eq!(report.perft, vec![1, 9, 72]);
    }
}
