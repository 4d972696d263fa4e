//! Every RG game of the shared corpus and of the team corpus parses, checks
//! clean, round-trips through the canonical printer, and has the expected
//! perft at every cheap depth.

use std::path::Path;

use rg_core::check::check_game;
use rg_core::diag::has_errors;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};
use rg_core::parse::parse_game;
use rg_core::print::print_game;
use testkit::{
    expected_perft, files_with_extension, parse_perft_table, perft_table, shared_corpus,
    team_corpus,
};

/// Depths whose reference time is at most this many ms are tested (the
/// reference is a slow interpreter; ours is far faster).
const CHEAP_MS: f64 = 1_000.0;

fn assert_round_trip(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let game = parse_game(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let diagnostics = check_game(&game);
    assert!(
        !has_errors(&diagnostics),
        "{}: {}",
        path.display(),
        rg_core::diag::render_all(&diagnostics, &path.display().to_string(), &text)
    );
    let printed = print_game(&game);
    let reparsed = parse_game(&printed).unwrap();
    assert_eq!(reparsed, game, "{}: parse(print(g)) != g", path.display());
    assert_eq!(
        print_game(&reparsed),
        printed,
        "{}: printing is not idempotent",
        path.display()
    );
}

fn assert_perft(path: &Path, expected: &[(u32, u64)], expose_keeper: bool) {
    let text = std::fs::read_to_string(path).unwrap();
    let options = EngineOptions {
        expose_keeper,
        ..EngineOptions::default()
    };
    let engine =
        Engine::from_source(&text, options).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    let initial = engine.initial().unwrap();
    for &(depth, count) in expected {
        let got = perft(&engine, &initial, depth, &mut Budget::unlimited())
            .unwrap_or_else(|e| panic!("{}: depth {depth}: {e}", path.display()));
        assert_eq!(
            got,
            count,
            "{} perft({depth}) with expose_keeper={expose_keeper}",
            path.display()
        );
    }
}

#[test]
fn shared_corpus_parses_checks_and_round_trips() {
    let Some(corpus) = shared_corpus("shared_corpus_parses_checks_and_round_trips") else {
        return;
    };
    let files = files_with_extension(&corpus.join("rg"), "rg");
    assert!(
        files.len() >= 17,
        "expected the 17 corpus games, found {}",
        files.len()
    );
    for path in &files {
        assert_round_trip(path);
    }
}

#[test]
fn shared_corpus_perft_matches_the_table() {
    let Some(corpus) = shared_corpus("shared_corpus_perft_matches_the_table") else {
        return;
    };
    let table = perft_table(&corpus);
    for path in files_with_extension(&corpus.join("rg"), "rg") {
        let name = format!("rg/{}", path.file_name().unwrap().to_string_lossy());
        let expected = expected_perft(&table, &name, CHEAP_MS);
        assert!(!expected.is_empty(), "{name} has no perft.tsv row");
        assert_perft(&path, &expected, false);
        assert_perft(&path, &expected, true);
    }
}

#[test]
fn team_corpus_parses_checks_round_trips_and_has_expected_perft() {
    let dir = team_corpus().join("rg");
    let table = parse_perft_table(&std::fs::read_to_string(dir.join("perft.tsv")).unwrap());
    let files = files_with_extension(&dir, "rg");
    assert!(files.len() >= 2);
    for path in &files {
        assert_round_trip(path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let expected = expected_perft(&table, &name, f64::INFINITY);
        assert!(
            !expected.is_empty(),
            "{name} has no row in corpus/rg/perft.tsv"
        );
        assert_perft(path, &expected, false);
    }
}
