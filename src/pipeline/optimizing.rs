//! Running the RG optimizer for the commands (`--optimize`, `--passes`,
//! `--trace`).

use std::fmt::Write;
use std::path::Path;

use rg_core::ast::Game;
use std::time::Duration;

use rg_core::opt::{all_passes, default_pipeline, optimize, passes_by_name, Pass, PassRun, Size};

use crate::cli::OptimizeArgs;
use crate::source::CliError;

/// The passes the options ask for, or `None` when no optimization is wanted.
fn chosen(args: &OptimizeArgs, forced: bool) -> Result<Option<Vec<Box<dyn Pass>>>, CliError> {
    match &args.passes {
        Some(list) => {
            let names: Vec<&str> = list
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect();
            passes_by_name(&names).map(Some).map_err(|unknown| {
                let known: Vec<&str> = all_passes().iter().map(|p| p.name()).collect();
                CliError::Usage(format!(
                    "unknown pass \"{unknown}\"; the passes are: {} (see `rgw passes`)",
                    known.join(", ")
                ))
            })
        }
        None if args.optimize || forced => Ok(Some(default_pipeline())),
        None => Ok(None),
    }
}

/// Optimizes `game` when asked to.
pub fn apply(game: Game, args: &OptimizeArgs) -> Result<Game, CliError> {
    Ok(match chosen(args, false)? {
        Some(passes) => optimize(&game, &passes, &mut |_| {}),
        None => game,
    })
}

/// Optimizes `game`, writing every intermediate game and a summary of each
/// pass's effect into `dir`.
pub fn apply_traced(game: &Game, args: &OptimizeArgs, dir: &Path) -> Result<Game, CliError> {
    let passes = chosen(args, true)?.expect("forced");
    let fail = |e: std::io::Error| {
        CliError::Failed(format!("error: cannot write into {}: {e}", dir.display()))
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    remove_old_trace(dir).map_err(fail)?;
    std::fs::write(dir.join("00-input.rg"), rg_core::print::print_game(game)).map_err(fail)?;
    let mut rows = vec![("input".to_string(), Size::of(game))];
    let mut timings = PassTimings::default();
    let mut written: Result<(), std::io::Error> = Ok(());
    let optimized = optimize(game, &passes, &mut |run| {
        timings.record(run);
        if !run.changed {
            return;
        }
        let step = rows.len();
        rows.push((run.pass.to_string(), Size::of(run.game)));
        if written.is_ok() {
            written = std::fs::write(
                dir.join(format!("{step:02}-{}.rg", run.pass)),
                rg_core::print::print_game(run.game),
            );
        }
    });
    written.map_err(fail)?;
    let mut text = summary(&rows);
    text.push_str(&timings.table());
    std::fs::write(dir.join("summary.md"), text).map_err(fail)?;
    Ok(optimized)
}

/// Removes the files an earlier trace wrote into `dir` (`NN-pass.rg` and
/// `summary.md`), so that a shorter trace leaves no stale steps behind;
/// other files are left alone.
fn remove_old_trace(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let numbered = name.len() > 3
            && name.as_bytes()[..2].iter().all(u8::is_ascii_digit)
            && name.as_bytes()[2] == b'-'
            && name.ends_with(".rg");
        if numbered || name == "summary.md" {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Time spent in each pass over all its runs, in pipeline order.
#[derive(Default)]
struct PassTimings {
    /// (pass, runs, runs that changed the game, total time)
    rows: Vec<(&'static str, usize, usize, Duration)>,
}

impl PassTimings {
    fn record(&mut self, run: &PassRun) {
        let row = match self.rows.iter_mut().find(|r| r.0 == run.pass) {
            Some(row) => row,
            None => {
                self.rows.push((run.pass, 0, 0, Duration::ZERO));
                self.rows.last_mut().expect("just pushed")
            }
        };
        row.1 += 1;
        row.2 += usize::from(run.changed);
        row.3 += run.elapsed;
    }

    fn table(&self) -> String {
        let mut out = String::from(
            "\n## Time per pass\n\n| pass | runs | changed | ms |\n|---|---:|---:|---:|\n",
        );
        let mut total = Duration::ZERO;
        for (pass, runs, changed, time) in &self.rows {
            let _ = writeln!(out, "| {pass} | {runs} | {changed} | {:.1} |", ms(*time));
            total += *time;
        }
        let _ = writeln!(out, "| **total** | | | {:.1} |", ms(total));
        out
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(rows: &[(String, Size)]) -> String {
    let mut out = String::from("# Optimization trace\n\nEach row is the game after a pass that changed it (file `NN-pass.rg`).\n\n");
    out.push_str("| step | pass | nodes | edges | variables | constants | state bits |\n|---:|---|---:|---:|---:|---:|---:|\n");
    let mut previous: Option<Size> = None;
    for (step, (name, size)) in rows.iter().enumerate() {
        let delta = |now: u64, before: Option<u64>| match before {
            Some(b) if b != now => format!("{now} ({:+})", now as i64 - b as i64),
            _ => now.to_string(),
        };
        let p = previous;
        let _ = writeln!(
            out,
            "| {step} | {name} | {} | {} | {} | {} | {} |",
            delta(size.nodes as u64, p.map(|p| p.nodes as u64)),
            delta(size.edges as u64, p.map(|p| p.edges as u64)),
            delta(size.variables as u64, p.map(|p| p.variables as u64)),
            delta(size.constants as u64, p.map(|p| p.constants as u64)),
            delta(size.state_bits, p.map(|p| p.state_bits)),
        );
        previous = Some(*size);
    }
    if let (Some((_, first)), Some((_, last))) = (rows.first(), rows.last()) {
        let percent = |a: usize, b: usize| {
            if a == 0 {
                0.0
            } else {
                100.0 * (a as f64 - b as f64) / a as f64
            }
        };
        let _ = writeln!(
            out,
            "\nIn all: {:.1}% fewer nodes, {:.1}% fewer edges, state {} → {} bits.",
            percent(first.nodes, last.nodes),
            percent(first.edges, last.edges),
            first.state_bits,
            last.state_bits
        );
    }
    out
}
