//! The team's own RBG games (corpus/rbg): valid, matching corpus/rbg/perft.tsv,
//! agreeing with the naive reference interpreter and with the same-named
//! games of the shared corpus.

mod reference;

use rg_core::model::{perft, Budget, ForwardModel};

/// Depths whose recorded native time is at most this many ms run in the suite.
const MAX_MILLIS: f64 = 300.0;

fn load(name: &str) -> rbg::ast::Game {
    let path = testkit::team_corpus().join("rbg").join(name);
    let source = std::fs::read_to_string(&path).expect("team corpus file");
    rbg::parse_and_check(&source)
        .unwrap_or_else(|errors| panic!("{}", rg_core::diag::render_all(&errors, name, &source)))
}

#[test]
fn team_games_match_their_perft_table() {
    let rows = testkit::perft_table(&testkit::team_corpus().join("rbg"));
    for name in ["ticTacToe.rbg", "connect4.rbg", "breakthrough.rbg"] {
        let expected = testkit::expected_perft(&rows, &format!("rbg/{name}"), MAX_MILLIS);
        assert!(expected.len() >= 5, "{name}: too few cheap rows");
        let game = load(name);
        let model = rbg::Interpreter::new(&game).expect("builds");
        let root = model.initial().expect("initial");
        for (depth, count) in expected {
            let got = perft(&model, &root, depth, &mut Budget::unlimited()).expect("perft");
            assert_eq!(got, count, "{name}: perft({depth})");
        }
    }
}

#[test]
fn team_games_agree_with_the_naive_reference() {
    for (name, depth) in [
        ("ticTacToe.rbg", 4),
        ("connect4.rbg", 3),
        ("breakthrough.rbg", 2),
    ] {
        let game = load(name);
        let model = rbg::Interpreter::new(&game).expect("builds");
        let root = model.initial().expect("initial");
        let reference = reference::Reference::new(&game);
        let reference_root = reference.initial().expect("proper game");
        for d in 0..=depth {
            let expected = reference.perft(&reference_root, d).expect("proper game");
            let got = perft(&model, &root, d, &mut Budget::unlimited()).expect("perft");
            assert_eq!(got, expected, "{name}: perft({d})");
        }
        let mut moves = Vec::new();
        model.legal_moves(&root, &mut moves).expect("moves");
        let mut ours: Vec<String> = moves.iter().map(|m| model.format_move(m)).collect();
        ours.sort();
        assert_eq!(
            ours,
            reference.formatted_moves(&reference_root).expect("moves"),
            "{name}"
        );
    }
}

#[test]
fn tic_tac_toe_moves_use_the_rg_tag_form() {
    let game = load("ticTacToe.rbg");
    let model = rbg::Interpreter::new(&game).expect("builds");
    let root = model.initial().expect("initial");
    let moves = rg_core::model::list_moves(&model, &root).expect("moves");
    // [$ xplayer = 50] = 1, [$ oplayer = 50] = 2, ->xplayer = 3, ->> = 4
    assert_eq!(moves.len(), 9);
    assert!(moves.contains(&"rx1y1 index_4".to_string()), "{moves:?}");
    assert!(moves.iter().all(|m| m.ends_with(" index_4")));
}

#[test]
fn team_games_agree_with_the_shared_corpus() {
    let Some(corpus) = testkit::shared_corpus("team_games_agree_with_the_shared_corpus") else {
        return;
    };
    let rows = testkit::perft_table(&corpus);
    for name in ["ticTacToe.rbg", "connect4.rbg", "breakthrough.rbg"] {
        let game = load(name);
        let model = rbg::Interpreter::new(&game).expect("builds");
        let root = model.initial().expect("initial");
        let expected = testkit::expected_perft(&rows, &format!("rbg-ll/{name}"), 400.0);
        assert!(!expected.is_empty());
        for (depth, count) in expected.into_iter().filter(|(d, _)| *d <= 5) {
            let got = perft(&model, &root, depth, &mut Budget::unlimited()).expect("perft");
            assert_eq!(
                got, count,
                "{name}: perft({depth}) against the shared corpus"
            );
        }
    }
}

/// The RG the lowering produces for the team's games, as snapshots: a
/// change of the translation scheme shows up here for review.
#[test]
fn translations_of_the_team_games() {
    for name in [
        "ticTacToe.rbg",
        "connect4.rbg",
        "breakthrough.rbg",
        "breakthrough6x6.rbg",
    ] {
        let path = testkit::team_corpus().join("rbg").join(name);
        let source = std::fs::read_to_string(&path).expect("team corpus file");
        let translation = rbg::translate(&source).unwrap_or_else(|errors| {
            panic!("{}", rg_core::diag::render_all(&errors, name, &source))
        });
        insta::assert_snapshot!(
            format!("rg_{}", name.trim_end_matches(".rbg")),
            rg_core::print::print_game(&translation.game)
        );
    }
}
