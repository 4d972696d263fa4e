//! Running the RG optimizer for the commands (`--optimize`, `--passes`,
//! `--trace`), and `rgw passes`.

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use rg_core::ast::Game;
use rg_core::opt::{all_passes, default_pipeline, optimize, passes_by_name, Pass, Size};

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
        Some(passes) => optimize(&game, &passes, &mut |_, _| {}),
        None => game,
    })
}

/// Optimizes `game`, writing every intermediate game and a summary of each
/// pass's effect into `dir`.
pub fn apply_traced(game: Game, args: &OptimizeArgs, dir: &Path) -> Result<Game, CliError> {
    let passes = chosen(args, true)?.expect("forced");
    let fail = |e: std::io::Error| {
        CliError::Failed(format!("error: cannot write into {}: {e}", dir.display()))
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    std::fs::write(dir.join("00-input.rg"), rg_core::print::print_game(&game)).map_err(fail)?;
    let mut rows = vec![("input".to_string(), Size::of(&game))];
    let mut written: Result<(), std::io::Error> = Ok(());
    let optimized = optimize(&game, &passes, &mut |name, g| {
        let step = rows.len();
        rows.push((name.to_string(), Size::of(g)));
        if written.is_ok() {
            written = std::fs::write(
                dir.join(format!("{step:02}-{name}.rg")),
                rg_core::print::print_game(g),
            );
        }
    });
    written.map_err(fail)?;
    std::fs::write(dir.join("summary.md"), summary(&rows)).map_err(fail)?;
    Ok(optimized)
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

/// `rgw passes`: every pass with its description.
pub fn list() -> Result<ExitCode, CliError> {
    let default: Vec<&str> = default_pipeline().iter().map(|p| p.name()).collect();
    for pass in all_passes() {
        let marker = if default.contains(&pass.name()) {
            "*"
        } else {
            " "
        };
        println!("{marker} {:<24} {}", pass.name(), pass.description());
    }
    println!("\n* = in the default pipeline (--optimize), in this order.");
    Ok(ExitCode::SUCCESS)
}
