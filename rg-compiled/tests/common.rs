//! Shared helpers of the compiled-reasoner tests: build crates into one
//! cache and run their perft.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

/// One cache for every crate the tests build (shared across test runs, so
/// unchanged games are not rebuilt).
pub fn cache_root() -> PathBuf {
    testkit::workspace_root()
        .join("target")
        .join("rgw-compiled-tests")
}

/// Builds (or reuses) the reasoner of `engine`'s program.
pub fn binary(engine: &Engine) -> PathBuf {
    match rg_compiled::cached_binary(engine.program(), &cache_root()) {
        Ok(outcome) => outcome.binary,
        Err(e) => panic!("build failed: {e}"),
    }
}

/// Runs `perft DEPTH` on a built reasoner; counts per depth.
pub fn compiled_perft(binary: &PathBuf, depth: u32, extra: &[&str]) -> Result<Vec<u64>, String> {
    let output = Command::new(binary)
        .arg("perft")
        .arg(depth.to_string())
        .args(extra)
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut counts = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.split("\"nodes\":").nth(1) {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            counts.push(n.parse().map_err(|_| line.to_string())?);
        } else if line.contains("\"error\"") {
            return Err(line.to_string());
        }
    }
    if !output.status.success() {
        return Err(text);
    }
    Ok(counts)
}

/// Runs `playouts N SEED EXTRA...` on a built reasoner: its output.
pub fn playouts_output(binary: &PathBuf, n: u64, seed: u64, extra: &[&str]) -> String {
    let output = Command::new(binary)
        .arg("playouts")
        .arg(n.to_string())
        .arg(seed.to_string())
        .args(extra)
        .output()
        .expect("runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs `playouts N SEED EXTRA...` on a built reasoner: its output line,
/// and the goal sums it reports (one per player).
pub fn playouts(binary: &PathBuf, n: u64, seed: u64, extra: &[&str]) -> (String, Vec<f64>) {
    let text = playouts_output(binary, n, seed, extra);
    let sums = text
        .split("\"goal_sums\":[")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap_or_else(|| panic!("no goal sums: {text}"))
        .split(',')
        .map(|x| x.parse().unwrap_or_else(|_| panic!("goal sum {x}: {text}")))
        .collect();
    (text, sums)
}

/// In both build trade-offs: the generated code contains `marker` (`what`
/// the test is about), and compiled perft to `depth` is `expected`.
pub fn assert_both_builds(engine: &Engine, depth: u32, expected: &[u64], marker: &str, what: &str) {
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let krate = rg_compiled::generate_with(engine.program(), build);
        assert!(game_source(&krate).contains(marker), "{build:?}: {what}");
    }
    assert_builds_count(engine, depth, expected, &[]);
}

/// In both build trade-offs, compiled perft to `depth` with the reasoner's
/// options `extra` is `expected`.
pub fn assert_builds_count(engine: &Engine, depth: u32, expected: &[u64], extra: &[&str]) {
    for build in [rg_compiled::Build::Speed, rg_compiled::Build::Quick] {
        let bin = binary_with(engine, build);
        let compiled = compiled_perft(&bin, depth, extra);
        assert_eq!(compiled.as_deref(), Ok(expected), "{build:?}");
    }
}

/// The generated `src/game.rs` of a crate.
pub fn game_source(krate: &rg_compiled::GeneratedCrate) -> &str {
    krate
        .files
        .iter()
        .find(|(path, _)| path == "src/game.rs")
        .map(|(_, text)| text.as_str())
        .expect("game.rs")
}

/// The engine's playout that takes the first legal move of every ply: the
/// plies made and the final goals.
pub fn engine_first_moves(engine: &Engine) -> (u32, Vec<i64>) {
    use rg_core::model::ForwardModel;
    let mut state = engine.initial().expect("initial state");
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        engine.legal_moves(&state, &mut moves).expect("moves");
        let Some(mv) = moves.first().cloned() else {
            return (plies, engine.goals(&state));
        };
        engine.apply(&mut state, &mv).expect("apply");
        plies += 1;
    }
}

/// Engine perft at depths `0..=depth`.
pub fn engine_perft(engine: &Engine, depth: u32) -> Vec<u64> {
    let initial = engine.initial().expect("initial state");
    (0..=depth)
        .map(|d| perft(engine, &initial, d, &mut Budget::unlimited()).expect("engine perft"))
        .collect()
}

pub fn engine(source: &str, options: EngineOptions) -> Engine {
    match Engine::from_source(source, options) {
        Ok(e) => e,
        Err(d) => panic!("{d:?}"),
    }
}

pub fn assert_agrees(name: &str, engine: &Engine, depth: u32, extra: &[&str]) {
    let bin = binary(engine);
    let compiled = compiled_perft(&bin, depth, extra).unwrap_or_else(|e| panic!("{name}: {e}"));
    let expected = engine_perft(engine, depth);
    assert_eq!(compiled, expected, "{name}: compiled vs engine perft");
    let _ = engine.player_names();
}

/// Builds (or reuses) the reasoner of `engine`'s program with the given
/// build trade-off.
pub fn binary_with(engine: &Engine, build: rg_compiled::Build) -> PathBuf {
    match rg_compiled::cached_binary_with(engine.program(), &cache_root(), build) {
        Ok(outcome) => outcome.binary,
        Err(e) => panic!("build failed: {e}"),
    }
}
