//! Every HRG game of the shared corpus translates, passes the RG checker and
//! has the perft of perft.tsv; games with a random player play out; the
//! team's games match their expected perft.

use std::path::Path;
use std::time::Duration;

use rand::SeedableRng;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, run_playouts, Budget, ForwardModel};
use testkit::{
    expected_perft, files_with_extension, parse_perft_table, perft_table, shared_corpus,
    team_corpus,
};

/// Depths whose reference time is at most this are tested in the suite.
const CHEAP_MS: f64 = 2_000.0;

/// Games that read map keys outside the key type (improper by hrg.md §3.5)
/// and need the engine's lenient reads.
const IMPROPER: [&str; 1] = ["hrg/dotsAndBoxes.hrg"];

fn translate(path: &Path) -> rg_core::ast::Game {
    let text = std::fs::read_to_string(path).unwrap();
    match hrg::translate(&text) {
        Ok(t) => t.game,
        Err(d) => panic!(
            "{}",
            rg_core::diag::render_all(&d, &path.display().to_string(), &text)
        ),
    }
}

fn engine(game: &rg_core::ast::Game, lenient: bool) -> Engine {
    Engine::new(
        game,
        EngineOptions {
            lenient,
            ..EngineOptions::default()
        },
    )
    .unwrap()
}

fn check_perft(name: &str, game: &rg_core::ast::Game, expected: &[(u32, u64)]) {
    let lenient = IMPROPER.contains(&name);
    let e = engine(game, lenient);
    let initial = e.initial().unwrap();
    for &(depth, count) in expected {
        let got = perft(
            &e,
            &initial,
            depth,
            &mut Budget::with_time_limit(Duration::from_secs(60)),
        )
        .unwrap_or_else(|err| panic!("{name} perft({depth}): {err}"));
        assert_eq!(got, count, "{name} perft({depth})");
    }
}

#[test]
fn shared_corpus_translates_and_matches_perft() {
    let Some(corpus) = shared_corpus("shared_corpus_translates_and_matches_perft") else {
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
        let game = translate(&path);
        let expected = expected_perft(&table, &name, CHEAP_MS);
        assert!(!expected.is_empty(), "{name}: no perft.tsv rows");
        check_perft(&name, &game, &expected);
    }
}

#[test]
fn improper_games_fail_strictly_with_a_clear_message() {
    let Some(corpus) = shared_corpus("improper_games_fail_strictly_with_a_clear_message") else {
        return;
    };
    for name in IMPROPER {
        let game = translate(&corpus.join(name));
        let e = engine(&game, false);
        let initial = e.initial().unwrap();
        let err = perft(&e, &initial, 2, &mut Budget::unlimited()).unwrap_err();
        assert!(err.to_string().contains("invalid access"), "{name}: {err}");
        assert!(err.to_string().contains("--lenient"), "{name}: {err}");
    }
}

#[test]
fn chess_gives_the_classic_counts() {
    let Some(corpus) = shared_corpus("chess_gives_the_classic_counts") else {
        return;
    };
    let game = translate(&corpus.join("hrg/chess.hrg"));
    check_perft("hrg/chess.hrg", &game, &[(1, 20), (2, 400), (3, 8902)]);
}

#[test]
fn random_games_play_out() {
    let Some(corpus) = shared_corpus("random_games_play_out") else {
        return;
    };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    for name in ["diceThrowCompare", "diceThrowGuess", "ticTacDie"] {
        let game = translate(&corpus.join(format!("hrg/{name}.hrg")));
        let e = engine(&game, false);
        let stats =
            run_playouts(&e, 600, &mut rng, 100_000).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(stats.playouts, 600);
        if name == "diceThrowGuess" {
            // The guess matches the random throw one time in six: 100/6.
            let mean = stats.average_goals()[0];
            assert!((8.0..=26.0).contains(&mean), "{name}: average goal {mean}");
        }
    }
}

#[test]
fn team_corpus_matches_expected_perft() {
    let dir = team_corpus().join("hrg");
    let table = parse_perft_table(&std::fs::read_to_string(dir.join("perft.tsv")).unwrap());
    let files = files_with_extension(&dir, "hrg");
    assert!(files.len() >= 3);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let expected = expected_perft(&table, &name, f64::INFINITY);
        assert!(
            !expected.is_empty(),
            "{name} has no row in corpus/hrg/perft.tsv"
        );
        check_perft(&name, &translate(&path), &expected);
    }
}
