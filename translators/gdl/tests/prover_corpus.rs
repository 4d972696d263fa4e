//! The top-down prover (`gdl::Prover`) against the shared corpus: its
//! perft equals perft.tsv (an independent implementation) on every KIF
//! game, and equals the RG order vectors of gdl.md §4.3.

use std::time::{Duration, Instant};

use gdl::Prover;
use rg_core::model::{perft, Budget, ForwardModel};

/// Every perft.tsv row is checked (the whole table takes the prover
/// under a second).
const MAX_REFERENCE_MILLIS: f64 = f64::INFINITY;

fn budget() -> Budget {
    Budget::with_time_limit(Duration::from_secs(60))
}

fn load(path: &std::path::Path) -> gdl::Game {
    let source = String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned();
    gdl::load(&source).unwrap_or_else(|e| panic!("{}: {}", path.display(), e[0].message))
}

fn check_game(file: &std::path::Path, table: &[testkit::PerftRow]) -> Result<(), String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let start = Instant::now();
    let game = load(file);
    let expected = testkit::expected_perft(table, &format!("kif/{name}"), MAX_REFERENCE_MILLIS);
    let prover = Prover::new(&game.description).map_err(|e| format!("{name}: {e}"))?;
    let initial = prover.initial().map_err(|e| format!("{name}: {e}"))?;
    for &(depth, count) in &expected {
        let got =
            perft(&prover, &initial, depth, &mut budget()).map_err(|e| format!("{name}: {e}"))?;
        if got != count {
            return Err(format!(
                "{name}: prover perft({depth}) = {got}, perft.tsv says {count}"
            ));
        }
    }
    eprintln!("{name}: {} rows in {:.2?}", expected.len(), start.elapsed());
    if !expected.is_empty() {
        return Ok(());
    }
    // Games without rows must at least set up and list moves.
    let mut moves = Vec::new();
    prover
        .legal_moves(&initial, &mut moves)
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(())
}

fn check_part(part: usize, parts: usize) {
    testkit::check_corpus_part("prover_corpus", "kif", "kif", (part, parts), check_game);
}

#[test]
fn prover_corpus_part_0() {
    check_part(0, 2);
}

#[test]
fn prover_corpus_part_1() {
    check_part(1, 2);
}
