//! `rgw bench PATH...`: measures every game (files, or every game file
//! below a directory): translation and optimization time, the RG size
//! before and after the default optimization pipeline, and perft and
//! playout throughput of the native model, the RG translation and the
//! optimized RG (and, with `--via compiled`, of the compiled reasoner,
//! whose generation and build time is reported apart). The output is the Markdown of `docs/benchmarks.md` (or
//! JSON), so the recorded figures can be reproduced with one command.
//!
//! Games run one after another (never in parallel), so timings do not
//! compete for cores.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_core::ast::Game;
use rg_core::engine::Engine;
use rg_core::model::{perft, Budget, ForwardModel, Player};
use rg_core::opt::{default_pipeline, optimize, Size};
use serde::Serialize;

use crate::cli::{BenchArgs, ModelArgs};
use crate::pipeline::models::{
    engine_options, gdl_reasoner, hrg_interpreter, rbg_draft_interpreter, rbg_interpreter,
    replay_native,
};
use crate::pipeline::{compiled, translation};
use crate::source::{game_files, CliError, Language, Source};

/// Moves allowed in one playout before it counts as endless.
const MAX_PLAYOUT_MOVES: u64 = 100_000;

/// Perft at one depth: leaves and the time it took.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Throughput {
    pub depth: u32,
    pub leaves: u64,
    pub seconds: f64,
}

impl Throughput {
    fn per_second(&self) -> f64 {
        self.leaves as f64 / self.seconds.max(1e-9)
    }
}

/// The size of an RG game (`rgw stats` fields).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GameSize {
    pub nodes: usize,
    pub edges: usize,
    pub variables: usize,
    pub state_bits: u64,
}

impl From<Size> for GameSize {
    fn from(s: Size) -> Self {
        GameSize {
            nodes: s.nodes,
            edges: s.edges,
            variables: s.variables,
            state_bits: s.state_bits,
        }
    }
}

/// Everything measured for one game; a failed step leaves the later
/// fields empty and says why in `error`.
#[derive(Clone, Debug, Serialize)]
pub struct GameBench {
    pub file: String,
    pub language: &'static str,
    pub translate_ms: Option<f64>,
    pub optimize_ms: Option<f64>,
    pub before: Option<GameSize>,
    pub after: Option<GameSize>,
    /// Perft of the native model at the RG measurement's depth.
    pub native: Option<Throughput>,
    pub rg: Option<Throughput>,
    pub optimized: Option<Throughput>,
    pub rg_playouts_per_second: Option<f64>,
    pub optimized_playouts_per_second: Option<f64>,
    /// `--via compiled`: generation plus build time of the reasoner (the
    /// build part is zero when it came from the cache), not included in
    /// its perft and playout figures.
    pub compile_seconds: Option<f64>,
    pub compile_cached: Option<bool>,
    /// `--via compiled`: perft of the compiled reasoner at the RG depth.
    pub compiled: Option<Throughput>,
    pub compiled_playouts_per_second: Option<f64>,
    pub error: Option<String>,
}

pub fn run(options: &BenchArgs) -> Result<ExitCode, CliError> {
    if !(options.seconds.is_finite() && options.seconds > 0.0) {
        return Err(CliError::Usage(format!(
            "--seconds must be a positive number, not {}",
            options.seconds
        )));
    }
    match options.via.as_deref() {
        None | Some("compiled") => {}
        Some(other) => {
            return Err(CliError::Usage(format!(
                "bench measures the native model and the RG engine always; \
                 --via adds only `compiled`, not `{other}`"
            )))
        }
    }
    let files = expand(&options.paths)?;
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    let mut results = Vec::with_capacity(files.len());
    for (k, file) in files.iter().enumerate() {
        bar.set_message(file.display().to_string());
        let started = Instant::now();
        let result = bench_file(file, options);
        // One line per game: the bar alone says nothing in a log file.
        let seconds = started.elapsed().as_secs_f64();
        let line = match &result.error {
            Some(error) => format!(
                "[{}/{}] {} ({seconds:.1} s)",
                k + 1,
                files.len(),
                failure_text(&result.file, error)
            ),
            None => format!(
                "[{}/{}] {} ({seconds:.1} s)",
                k + 1,
                files.len(),
                result.file
            ),
        };
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
        results.push(result);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let text = if options.json {
        serde_json::to_string_pretty(&serde_json::json!({ "games": results }))
            .expect("serializable")
            + "\n"
    } else {
        markdown(&results, options)
    };
    match &options.output {
        Some(out) => std::fs::write(out, text)
            .map_err(|e| CliError::Failed(format!("error: cannot write {}: {e}", out.display())))?,
        None => print!("{text}"),
    }
    Ok(if results.iter().any(|r| r.error.is_some()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Files as given, directories expanded to every game file below them.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(game_files(path, None, true));
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            return Err(CliError::Usage(format!(
                "{} is neither a game file nor a directory",
                path.display()
            )));
        }
    }
    if files.is_empty() {
        return Err(CliError::Usage("no game files to measure".into()));
    }
    Ok(files)
}

fn bench_file(path: &Path, options: &BenchArgs) -> GameBench {
    let language = Language::from_path(path).map_or("?", Language::name);
    let mut bench = GameBench {
        file: path.display().to_string(),
        language,
        translate_ms: None,
        optimize_ms: None,
        before: None,
        after: None,
        native: None,
        rg: None,
        optimized: None,
        rg_playouts_per_second: None,
        optimized_playouts_per_second: None,
        compile_seconds: None,
        compile_cached: None,
        compiled: None,
        compiled_playouts_per_second: None,
        error: None,
    };
    if let Err(error) = measure(path, options, &mut bench) {
        bench.error = Some(error);
    }
    bench
}

fn measure(path: &Path, options: &BenchArgs, bench: &mut GameBench) -> Result<(), String> {
    let source = Source::read(path).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let game = translation::translate_game(&source)
        .map_err(|d| first_error(&d, &source))?
        .game;
    bench.translate_ms = Some(millis(started.elapsed()));
    let started = Instant::now();
    let optimized = optimize(&game, &default_pipeline(), &mut |_| {});
    bench.optimize_ms = Some(millis(started.elapsed()));
    bench.before = Some(Size::of(&game).into());
    bench.after = Some(Size::of(&optimized).into());

    let limit = Duration::from_secs_f64(options.seconds);
    let plain = engine(&source, &game, options)?;
    let fast = engine(&source, &optimized, options)?;
    let rg = deepest_perft(&plain, options.max_depth, limit)?;
    let (depth, leaves) = (rg.depth, rg.leaves);
    bench.rg = Some(rg);
    // The other models at the same depth, with room for being slower.
    let slower = limit * 5;
    bench.optimized = perft_at(&fast, depth, slower)?;
    if !options.no_native {
        bench.native = match source.language {
            Language::Rbg => perft_at(
                &rbg_interpreter(&source).map_err(|e| e.to_string())?,
                depth,
                slower,
            )?,
            Language::Gdl => perft_at(
                &gdl_reasoner(&source).map_err(|e| e.to_string())?,
                depth,
                slower,
            )?,
            Language::Hrg => perft_at(
                &hrg_interpreter(&source, &model_args(options)).map_err(|e| e.to_string())?,
                depth,
                slower,
            )?,
            Language::RbgDraft => perft_at(
                &rbg_draft_interpreter(&source).map_err(|e| e.to_string())?,
                depth,
                slower,
            )?,
            Language::Replay => perft_at(
                &replay_native(&source).map_err(|e| e.to_string())?,
                depth,
                slower,
            )?,
            Language::Rg => None,
        };
    }
    let reasoner = if options.via.is_some() {
        let reasoner = compiled::reasoner(&source, &model_args(options)).map_err(|e| {
            format!(
                "compiled reasoner: {}",
                e.to_string().trim_start_matches("error: ")
            )
        })?;
        bench.compile_seconds = Some(reasoner.compile_time.as_secs_f64());
        bench.compile_cached = Some(reasoner.cached);
        bench.compiled = compiled_perft(&reasoner, depth, slower)?;
        Some(reasoner)
    } else {
        None
    };
    for (name, other) in [
        ("optimized RG", bench.optimized),
        ("native model", bench.native),
        ("compiled reasoner", bench.compiled),
    ] {
        if let Some(other) = other.filter(|o| o.leaves != leaves) {
            return Err(format!(
                "{name} counts {} leaves at depth {depth}, the RG translation {leaves}",
                other.leaves
            ));
        }
    }
    bench.rg_playouts_per_second = playouts_per_second(&plain, limit)?;
    bench.optimized_playouts_per_second = playouts_per_second(&fast, limit)?;
    if let Some(reasoner) = &reasoner {
        bench.compiled_playouts_per_second = compiled_playouts_per_second(reasoner, limit)?;
    }
    Ok(())
}

/// Perft of the compiled reasoner at `depth` (its own timing of that
/// depth, excluding process start and the shallower depths it counts
/// first); `None` when it does not finish within `limit`.
fn compiled_perft(
    reasoner: &compiled::Reasoner,
    depth: u32,
    limit: Duration,
) -> Result<Option<Throughput>, String> {
    let mut found = None;
    let args = ["perft".to_string(), depth.to_string()];
    let ended = compiled::run(reasoner, &args, Some(Instant::now() + limit), &mut |line| {
        let at = line.get("depth").and_then(serde_json::Value::as_u64);
        let leaves = line.get("nodes").and_then(serde_json::Value::as_u64);
        let seconds = line.get("seconds").and_then(serde_json::Value::as_f64);
        if let (Some(at), Some(leaves), Some(seconds)) = (at, leaves, seconds) {
            if at == u64::from(depth) {
                found = Some(Throughput {
                    depth,
                    leaves,
                    seconds,
                });
            }
        }
    })
    .map_err(|e| {
        format!(
            "compiled reasoner: {}",
            e.to_string().trim_start_matches("error: ")
        )
    })?;
    match ended {
        compiled::Ended::Finished => found
            .map(Some)
            .ok_or_else(|| format!("compiled reasoner: no perft count at depth {depth}")),
        compiled::Ended::TimedOut => Ok(None),
    }
}

/// Playouts of the compiled reasoner for about `limit` (its own timing,
/// excluding process starts): batches of doubling size until the
/// reasoner's playout time reaches the limit. `None` when one batch does
/// not end within four times the limit, as for the other models.
fn compiled_playouts_per_second(
    reasoner: &compiled::Reasoner,
    limit: Duration,
) -> Result<Option<f64>, String> {
    let (mut playouts, mut seconds) = (0u64, 0.0f64);
    let mut batch = 1u64;
    while playouts == 0 || seconds < limit.as_secs_f64() {
        let mut report = None;
        let args = [
            "playouts".to_string(),
            batch.to_string(),
            playouts.to_string(),
        ];
        let ended = compiled::run(
            reasoner,
            &args,
            Some(Instant::now() + limit * 4),
            &mut |line| {
                let n = line.get("playouts").and_then(serde_json::Value::as_u64);
                let s = line.get("seconds").and_then(serde_json::Value::as_f64);
                if let (Some(n), Some(s)) = (n, s) {
                    report = Some((n, s));
                }
            },
        )
        .map_err(|e| {
            format!(
                "compiled reasoner: {}",
                e.to_string().trim_start_matches("error: ")
            )
        })?;
        if let compiled::Ended::TimedOut = ended {
            return Ok(None);
        }
        let (n, s) = report.ok_or("compiled reasoner: no playout report")?;
        playouts += n;
        seconds += s;
        batch = batch.saturating_mul(2);
    }
    Ok(Some(playouts as f64 / seconds.max(1e-9)))
}

/// The model options `bench` runs with: strict, or lenient with `--lenient`.
fn model_args(options: &BenchArgs) -> ModelArgs {
    ModelArgs {
        lenient: options.lenient,
        ..ModelArgs::default()
    }
}

fn engine(source: &Source, game: &Game, options: &BenchArgs) -> Result<Engine, String> {
    Engine::new(game, engine_options(source.language, &model_args(options))).map_err(|d| {
        if source.language == Language::Rg {
            // The game is the file itself: its spans are the file's.
            first_error(&d, source)
        } else {
            format!("RG engine: {}", first_message(&d))
        }
    })
}

/// Perft at the deepest depth that completes within `limit` (all depths
/// together) and still has leaves: past the end of every play the count is
/// 0, which measures nothing.
fn deepest_perft<M: ForwardModel>(
    model: &M,
    max_depth: u32,
    limit: Duration,
) -> Result<Throughput, String> {
    let initial = model
        .initial()
        .map_err(|e| format!("RG engine: {}", e.message))?;
    let mut budget = Budget::with_time_limit(limit);
    let mut deepest = None;
    for depth in 0..=max_depth {
        let started = Instant::now();
        match perft(model, &initial, depth, &mut budget) {
            Ok(0) => break,
            Ok(leaves) => {
                deepest = Some(Throughput {
                    depth,
                    leaves,
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            Err(rg_core::model::LimitError::Model(e)) => {
                return Err(format!("RG engine: {}", e.message))
            }
            Err(_) => break,
        }
    }
    deepest.ok_or_else(|| "RG engine: no perft depth completed".into())
}

/// Perft at `depth`; `None` when it does not finish within `limit`.
fn perft_at<M: ForwardModel>(
    model: &M,
    depth: u32,
    limit: Duration,
) -> Result<Option<Throughput>, String> {
    let initial = model.initial().map_err(|e| e.message)?;
    let started = Instant::now();
    match perft(model, &initial, depth, &mut Budget::with_time_limit(limit)) {
        Ok(leaves) => Ok(Some(Throughput {
            depth,
            leaves,
            seconds: started.elapsed().as_secs_f64(),
        })),
        Err(rg_core::model::LimitError::Model(e)) => Err(e.message),
        Err(_) => Ok(None),
    }
}

/// Random playouts for about `limit` (rg.md §7; keeper moves applied,
/// uniform choices otherwise). `None` when a single playout does not end
/// within four times the limit: such games are not measured by playouts.
fn playouts_per_second<M: ForwardModel>(model: &M, limit: Duration) -> Result<Option<f64>, String> {
    let mut rng = SmallRng::seed_from_u64(1);
    let initial = model.initial().map_err(|e| e.message)?;
    let started = Instant::now();
    let give_up = started + limit * 4;
    let mut moves = Vec::new();
    let mut count = 0u64;
    while count == 0 || started.elapsed() < limit {
        let mut state = initial.clone();
        for _ in 0..MAX_PLAYOUT_MOVES {
            if Instant::now() > give_up {
                return Ok(None);
            }
            moves.clear();
            model
                .legal_moves(&state, &mut moves)
                .map_err(|e| e.message)?;
            if moves.is_empty() {
                break;
            }
            let chosen = match model.current_player(&state) {
                Player::Keeper => 0,
                _ => rng.gen_range(0..moves.len()),
            };
            let chosen = moves[chosen].clone();
            model.apply(&mut state, &chosen).map_err(|e| e.message)?;
        }
        count += 1;
    }
    Ok(Some(
        count as f64 / started.elapsed().as_secs_f64().max(1e-9),
    ))
}

/// The first error as `path:line:col: error: message`, which terminals
/// and editors open at that place.
fn first_error(diagnostics: &[rg_core::diag::Diagnostic], source: &Source) -> String {
    diagnostics
        .iter()
        .find(|d| d.is_error())
        .or(diagnostics.first())
        .map_or_else(
            || format!("{}: unknown error", source.name()),
            |d| d.one_line(&source.name(), &source.text),
        )
}

/// A game's failure as printed: the error itself when it starts with the
/// game's path (`path:line:col: ...`), `path: error` otherwise.
fn failure_text(file: &str, error: &str) -> String {
    if error.starts_with(&format!("{file}:")) {
        error.to_string()
    } else {
        format!("{file}: {error}")
    }
}

fn first_message(diagnostics: &[rg_core::diag::Diagnostic]) -> String {
    diagnostics
        .iter()
        .find(|d| d.is_error())
        .or(diagnostics.first())
        .map_or_else(|| "unknown error".into(), |d| d.message.clone())
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Two Markdown tables (sizes, speed) and the size totals.
fn markdown(results: &[GameBench], options: &BenchArgs) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured with `rgw bench --seconds {}{}` ({} games).\n",
        options.seconds,
        if options.via.is_some() {
            " --via compiled"
        } else {
            ""
        },
        results.len()
    );
    out.push_str("| game | translate ms | optimize ms | nodes | edges | state bits | optimized nodes | optimized edges | optimized state bits |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    let (mut n0, mut n1, mut e0, mut e1) = (0, 0, 0, 0);
    for r in results {
        let (Some(b), Some(a)) = (r.before, r.after) else {
            continue;
        };
        n0 += b.nodes;
        n1 += a.nodes;
        e0 += b.edges;
        e1 += a.edges;
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.file,
            fixed(r.translate_ms, 1),
            fixed(r.optimize_ms, 1),
            b.nodes,
            b.edges,
            b.state_bits,
            a.nodes,
            a.edges,
            a.state_bits
        );
    }
    let _ = writeln!(
        out,
        "| **total** | | | {n0} | {e0} | | {n1} ({}) | {e1} ({}) | |\n",
        reduction(n0, n1),
        reduction(e0, e1)
    );
    let with_compiled = options.via.is_some();
    out.push_str("| game | depth | perft | native leaves/s | RG leaves/s | optimized RG leaves/s | RG playouts/s | optimized RG playouts/s |");
    if with_compiled {
        out.push_str(" compiled leaves/s | compiled playouts/s | compiled build s |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    } else {
        out.push_str("\n|---|--:|--:|--:|--:|--:|--:|--:|\n");
    }
    for r in results {
        let Some(rg) = r.rg else {
            continue;
        };
        let rate = |t: Option<Throughput>| t.map_or("–".into(), |t| si(t.per_second()));
        let _ = write!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} |",
            r.file,
            rg.depth,
            rg.leaves,
            rate(r.native),
            rate(Some(rg)),
            rate(r.optimized),
            r.rg_playouts_per_second.map_or("–".into(), si),
            r.optimized_playouts_per_second.map_or("–".into(), si),
        );
        if with_compiled {
            let build = match (r.compile_seconds, r.compile_cached) {
                (Some(s), Some(true)) => format!("{s:.1} (cached)"),
                (s, _) => fixed(s, 1),
            };
            let _ = write!(
                out,
                " {} | {} | {} |",
                rate(r.compiled),
                r.compiled_playouts_per_second.map_or("–".into(), si),
                build
            );
        }
        out.push('\n');
    }
    let failures: Vec<&GameBench> = results.iter().filter(|r| r.error.is_some()).collect();
    if !failures.is_empty() {
        out.push_str("\nNot measured (or measured only in part):\n\n");
        for r in failures {
            let error = r.error.as_deref().unwrap_or_default();
            let _ = writeln!(out, "* {}", failure_text(&r.file, error));
        }
    }
    out
}

fn fixed(value: Option<f64>, digits: usize) -> String {
    value.map_or("–".into(), |v| format!("{v:.digits$}"))
}

fn reduction(before: usize, after: usize) -> String {
    if before == 0 {
        return "–".into();
    }
    format!(
        "−{:.1}%",
        100.0 * (before as f64 - after as f64) / before as f64
    )
}

/// A rate with a k/M suffix.
fn si(value: f64) -> String {
    if value >= 1e6 {
        format!("{:.2}M", value / 1e6)
    } else if value >= 1e3 {
        format!("{:.1}k", value / 1e3)
    } else {
        format!("{value:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_reductions_read_well() {
        assert_eq!(si(4_250_000.0), "4.25M");
        assert_eq!(si(12_345.0), "12.3k");
        assert_eq!(si(7.0), "7.0");
        assert_eq!(reduction(200, 50), "−75.0%");
        assert_eq!(reduction(0, 0), "–");
    }
}
