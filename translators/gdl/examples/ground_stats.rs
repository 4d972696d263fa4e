//! Grounding statistics per game, with and without the state-invariant
//! pruning (docs/gdl.md, grounding step 4), as Markdown table rows:
//!
//! ```sh
//! cargo run --release -p gdl --example ground_stats -- ../shared/corpus/kif/*.kif
//! ```

use std::time::Instant;

use propnet::{GroundProgram, GroundingLimits};

fn main() {
    println!("| game | atoms | ground rules | grounding | with invariants: atoms | ground rules | instances removed | grounding | invariants |");
    println!("|---|--:|--:|--:|--:|--:|--:|--:|---|");
    for path in std::env::args().skip(1) {
        match row(&path) {
            Ok(line) => println!("{line}"),
            Err(message) => println!("| `{path}` | {message} |"),
        }
    }
}

fn row(path: &str) -> Result<String, String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let game = gdl::load(&source).map_err(|e| e[0].message.clone())?;
    let program = gdl::to_datalog(&game);
    let limits = GroundingLimits::default();
    let timed = |ground: &dyn Fn() -> Result<GroundProgram, propnet::GroundingError>| {
        let started = Instant::now();
        ground()
            .map(|g| (g, started.elapsed().as_secs_f64()))
            .map_err(|e| e.to_string())
    };
    let (plain, plain_time) = timed(&|| propnet::ground_without_invariants(&program, &limits))?;
    let (pruned, time) = timed(&|| propnet::ground(&program, &limits))?;
    let name = std::path::Path::new(path)
        .file_stem()
        .map_or(path.into(), |s| s.to_string_lossy());
    let invariants = if pruned.stats.invariants_skipped {
        "(not analyzed: too many instances)".to_string()
    } else {
        pruned.stats.invariants.join(", ")
    };
    Ok(format!(
        "| `{name}` | {} | {} | {plain_time:.2} s | {} | {} | {} | {time:.2} s | {invariants} |",
        plain.atoms.len(),
        plain.rules.len(),
        pruned.atoms.len(),
        pruned.rules.len(),
        pruned.stats.pruned_instances,
    ))
}
