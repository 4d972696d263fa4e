//! The native interpreter agrees with the RG engine running the
//! translation, and both with perft.tsv, on every HRG game of the team's
//! corpus and of the shared corpus, at every depth up to a small one.

use std::path::Path;
use std::time::Duration;

use hrg::interpreter::InterpreterOptions;
use hrg::Interpreter;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::Budget;
use rg_core::verify::verify;
use testkit::{
    expected_perft, files_with_extension, parse_perft_table, perft_table, shared_corpus,
    team_corpus,
};

/// Depths whose reference time in perft.tsv is at most this are checked
/// (the interpreter is roughly as fast as the reference implementations).
const CHEAP_MS: f64 = 600.0;
/// Depth limit for the team's games (their table lists no times).
const TEAM_DEPTH: u32 = 4;

/// Games that read map keys outside the key type (improper by hrg.md
/// §3.5): both models run them with lenient reads.
const LENIENT: [&str; 1] = ["dotsAndBoxes.hrg"];

/// Compares native, engine and expected perft at depths `0..=max`.
fn check(path: &Path, expected: &[(u32, u64)]) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let lenient = LENIENT.contains(&name.as_str());
    let text = std::fs::read_to_string(path).unwrap();
    let native = Interpreter::with_options(
        &text,
        InterpreterOptions {
            lenient,
            ..InterpreterOptions::default()
        },
    )
    .unwrap_or_else(|d| panic!("{}", rg_core::diag::render_all(&d, &name, &text)));
    let game = hrg::translate(&text)
        .unwrap_or_else(|d| panic!("{}", rg_core::diag::render_all(&d, &name, &text)))
        .game;
    let engine = Engine::new(
        &game,
        EngineOptions {
            lenient,
            ..EngineOptions::default()
        },
    )
    .unwrap();
    let max = expected.iter().map(|&(d, _)| d).max().unwrap_or(0);
    let verdict = verify(
        &native,
        &engine,
        max,
        &mut Budget::with_time_limit(Duration::from_secs(60)),
    );
    assert!(verdict.agrees(), "{name}: {verdict}");
    let perft = verdict.agreed();
    assert_eq!(perft.len() as u32, max + 1, "{name}: {verdict}");
    for &(depth, count) in expected {
        assert_eq!(perft[depth as usize], count, "{name} perft({depth})");
    }
}

#[test]
fn team_games_agree_with_the_engine_and_the_table() {
    let dir = team_corpus().join("hrg");
    let table = parse_perft_table(&std::fs::read_to_string(dir.join("perft.tsv")).unwrap());
    let files = files_with_extension(&dir, "hrg");
    assert!(files.len() >= 3);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let expected: Vec<(u32, u64)> = expected_perft(&table, &name, f64::INFINITY)
            .into_iter()
            .filter(|&(d, _)| d <= TEAM_DEPTH)
            .collect();
        assert!(!expected.is_empty(), "{name}: no perft.tsv rows");
        check(&path, &expected);
    }
}

#[test]
fn shared_games_agree_with_the_engine_and_the_table() {
    let Some(corpus) = shared_corpus("shared_games_agree_with_the_engine_and_the_table") else {
        return;
    };
    let table = perft_table(&corpus);
    let files = files_with_extension(&corpus.join("hrg"), "hrg");
    assert!(
        files.len() >= 32,
        "expected the corpus games, found {}",
        files.len()
    );
    for path in files {
        let name = format!("hrg/{}", path.file_name().unwrap().to_string_lossy());
        let expected = expected_perft(&table, &name, CHEAP_MS);
        assert!(!expected.is_empty(), "{name}: no cheap perft.tsv rows");
        check(&path, &expected);
    }
}
