//! The draft corpus (`corpus/rbg-draft/`): every game parses, translates to
//! RG that passes the RG checker, and gives the perft of `perft.tsv` both
//! natively (`rbg_draft::Interpreter`) and through the translation
//! (`rg_core::engine::Engine`).
//!
//! The suite runs the depths whose listed native time is small; `deep`
//! (ignored) runs every listed depth:
//! `cargo test --release -p rbg-draft --test corpus -- --ignored --nocapture`.

use std::path::PathBuf;
use std::time::Instant;

use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

/// The team corpus, found from this crate (not through testkit, whose
/// compiled-in path may belong to another checkout sharing the target dir).
fn corpus() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// perft.tsv rows of one game: (depth, count, native ms).
type Rows = Vec<(u32, u64, f64)>;

fn games() -> Vec<(String, Rows)> {
    let rows = testkit::perft_table(&corpus().join("rbg-draft"));
    let mut games: Vec<(String, Rows)> = Vec::new();
    for row in rows {
        match games.iter_mut().find(|(g, _)| *g == row.game) {
            Some((_, expected)) => expected.push((row.depth, row.count, row.millis)),
            None => games.push((row.game.clone(), vec![(row.depth, row.count, row.millis)])),
        }
    }
    games
}

/// Perft at each depth, printing each depth's time (for perft.tsv's cost
/// column).
fn counts<M: ForwardModel>(model: &M, depths: &[u32]) -> Vec<u64> {
    let state = model.initial().expect("initial state");
    depths
        .iter()
        .map(|&d| {
            let started = Instant::now();
            let count = perft(model, &state, d, &mut Budget::unlimited()).expect("perft");
            eprintln!(
                "  depth {d}: {count} in {:.1} ms",
                started.elapsed().as_secs_f64() * 1e3
            );
            count
        })
        .collect()
}

/// Checks every game at the depths whose listed time is at most
/// `max_millis` (and at most `max_depth`).
fn check(max_millis: f64, max_depth: u32, rg_too: bool) {
    let mut failures = Vec::new();
    for (game, expected) in games() {
        let source = std::fs::read_to_string(corpus().join(&game)).expect("readable");
        let checked = match rbg_draft::parse_and_check(&source) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!(
                    "{game}: {}",
                    rg_core::diag::render_all(&e, &game, &source)
                ));
                continue;
            }
        };
        let rows: Vec<(u32, u64)> = expected
            .iter()
            .filter(|(d, _, ms)| *ms <= max_millis && *d <= max_depth)
            .map(|(d, c, _)| (*d, *c))
            .collect();
        let depths: Vec<u32> = rows.iter().map(|r| r.0).collect();
        let wanted: Vec<u64> = rows.iter().map(|r| r.1).collect();
        let started = Instant::now();
        let native = counts(&rbg_draft::Interpreter::new(&checked.game), &depths);
        eprintln!("{game}: native {native:?} in {:?}", started.elapsed());
        if native != wanted {
            failures.push(format!(
                "{game}: native {native:?}, expected {wanted:?} at {depths:?}"
            ));
        }
        if !rg_too {
            continue;
        }
        let translation = match rbg_draft::translate(&source) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!(
                    "{game}: {}",
                    rg_core::diag::render_all(&e, &game, &source)
                ));
                continue;
            }
        };
        let engine = Engine::new(&translation.game, EngineOptions::default()).expect("engine");
        let started = Instant::now();
        let rg = counts(&engine, &depths);
        eprintln!("{game}: rg {rg:?} in {:?}", started.elapsed());
        if rg != wanted {
            failures.push(format!(
                "{game}: rg {rg:?}, expected {wanted:?} at {depths:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_verifies_at_cheap_depths() {
    check(200.0, 3, true);
}

#[test]
#[ignore = "deep: run in release"]
fn deep() {
    check(f64::INFINITY, u32::MAX, true);
}
