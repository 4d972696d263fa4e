//! The same game written in several languages gives the same perft: the
//! team's tic-tac-toe, connect four (7x6) and breakthrough (6x6) in RG,
//! RBG (native interpreter and RG translation), GDL (joint-move perft, and
//! its RG translation at k·n plies), HRG (native interpreter and RG
//! translation) and the early RBG draft (native interpreter and RG
//! translation; also breakthrough 8x8 and king-capture chess); and the
//! two-round Prisoner's Dilemma in replay (native model and RG translation)
//! and GDL (sequential reasoner and RG translation), whose perft and
//! terminal goals agree play by play.

use std::collections::{BTreeMap, HashSet};

use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

fn corpus(path: &str) -> String {
    std::fs::read_to_string(format!("{}/corpus/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("corpus/{path}: {e}"))
}

fn series<M: ForwardModel>(model: &M, depths: std::ops::RangeInclusive<u32>) -> Vec<u64> {
    let initial = model.initial().unwrap();
    depths
        .map(|d| perft(model, &initial, d, &mut Budget::unlimited()).unwrap())
        .collect()
}

fn rg(path: &str, depth: u32) -> Vec<u64> {
    series(
        &Engine::from_source(&corpus(path), EngineOptions::default()).unwrap(),
        0..=depth,
    )
}

/// RBG perft natively, and through the RG translation.
fn rbg(path: &str, depth: u32) -> (Vec<u64>, Vec<u64>) {
    let text = corpus(path);
    let game = rbg::parse_and_check(&text).unwrap();
    let native = series(&rbg::Interpreter::new(&game).unwrap(), 0..=depth);
    let translated = rbg::translate(&text).unwrap().game;
    let translated = series(
        &Engine::new(&translated, EngineOptions::default()).unwrap(),
        0..=depth,
    );
    (native, translated)
}

/// HRG perft natively, and through the RG translation.
fn hrg(path: &str, depth: u32) -> (Vec<u64>, Vec<u64>) {
    let text = corpus(path);
    let native = series(&hrg::Interpreter::new(&text).unwrap(), 0..=depth);
    let game = hrg::translate(&text).unwrap().game;
    let translated = series(
        &Engine::new(&game, EngineOptions::default()).unwrap(),
        0..=depth,
    );
    (native, translated)
}

/// Draft RBG perft natively, and through the RG translation.
fn rbg_draft(path: &str, depth: u32) -> (Vec<u64>, Vec<u64>) {
    let text = corpus(path);
    let game = rbg_draft::parse_and_check(&text).unwrap().game;
    let native = series(&rbg_draft::Interpreter::new(&game), 0..=depth);
    let translated = rbg_draft::translate(&text).unwrap().game;
    let translated = series(
        &Engine::new(&translated, EngineOptions::default()).unwrap(),
        0..=depth,
    );
    (native, translated)
}

/// GDL joint perft, and the RG translation's perft at every `roles`-th ply.
fn gdl(path: &str, depth: u32) -> (Vec<u64>, Vec<u64>) {
    let text = corpus(path);
    let game = gdl::load(&text).unwrap();
    let reasoner = gdl::Prover::new(&game.description).unwrap();
    let joint = (0..=depth)
        .map(|d| rg_core::joint::joint_perft(&reasoner, d, &mut Budget::unlimited()).unwrap())
        .collect();
    let roles = game.roles.len() as u32;
    let translated = gdl::translate(&text, &propnet::GroundingLimits::default())
        .unwrap()
        .game;
    let engine = Engine::new(&translated, EngineOptions::default()).unwrap();
    let initial = engine.initial().unwrap();
    let by_rounds = (0..=depth)
        .map(|d| perft(&engine, &initial, d * roles, &mut Budget::unlimited()).unwrap())
        .collect();
    (joint, by_rounds)
}

#[test]
fn tic_tac_toe_in_every_language() {
    let expected = vec![1, 9, 72, 504, 3024, 15120];
    assert_eq!(rg("rg/ticTacToe.rg", 5), expected);
    assert_eq!(
        rbg("rbg/ticTacToe.rbg", 5),
        (expected.clone(), expected.clone())
    );
    assert_eq!(
        hrg("hrg/ticTacToe.hrg", 5),
        (expected.clone(), expected.clone())
    );
    assert_eq!(
        rbg_draft("rbg-draft/ticTacToe.rbgd", 5),
        (expected.clone(), expected.clone())
    );
    let (joint, translated) = gdl("kif/ticTacToe.kif", 5);
    assert_eq!(joint, expected);
    assert_eq!(translated, expected);
}

#[test]
fn connect_four_in_every_language() {
    let expected = vec![1, 7, 49, 343, 2401];
    assert_eq!(
        rbg("rbg/connect4.rbg", 4),
        (expected.clone(), expected.clone())
    );
    assert_eq!(
        hrg("hrg/connect4.hrg", 4),
        (expected.clone(), expected.clone())
    );
    assert_eq!(
        rbg_draft("rbg-draft/connect4.rbgd", 4),
        (expected.clone(), expected.clone())
    );
    let (joint, translated) = gdl("kif/connect4.kif", 4);
    assert_eq!(joint, expected);
    assert_eq!(translated, expected);
}

#[test]
fn breakthrough_6x6_in_every_language() {
    let expected = vec![1, 16, 256, 4308];
    assert_eq!(rg("rg/breakthrough.rg", 3), expected);
    assert_eq!(
        rbg("rbg/breakthrough6x6.rbg", 3),
        (expected.clone(), expected.clone())
    );
    assert_eq!(
        hrg("hrg/breakthrough.hrg", 3),
        (expected.clone(), expected.clone())
    );
    let (joint, translated) = gdl("kif/breakthrough.kif", 3);
    assert_eq!(joint, expected);
    assert_eq!(translated, expected);
}

#[test]
fn breakthrough_8x8_in_rbg_and_draft_rbg() {
    let expected = vec![1, 22, 484, 11132];
    assert_eq!(
        rbg("rbg/breakthrough.rbg", 3),
        (expected.clone(), expected.clone())
    );
    assert_eq!(
        rbg_draft("rbg-draft/breakthrough.rbgd", 3),
        (expected.clone(), expected)
    );
}

/// The draft's king-capture chess agrees with standard chess (GDL) where
/// the missing rules cannot matter yet, and with the shared corpus's RBG
/// king-capture chess when that corpus is present.
#[test]
fn chess_in_draft_rbg_gdl_and_rbg() {
    let expected = vec![1, 20, 400, 8902];
    assert_eq!(
        rbg_draft("rbg-draft/chess.rbgd", 3),
        (expected.clone(), expected.clone())
    );
    let (joint, _) = gdl("kif/chess.kif", 2);
    assert_eq!(joint, expected[..3]);
    if let Some(shared) = testkit::shared_corpus("chess_in_draft_rbg_gdl_and_rbg") {
        let text = std::fs::read_to_string(shared.join("rbg-ll/chess_kingCapture.rbg")).unwrap();
        let game = rbg::parse_and_check(&text).unwrap();
        let native = series(&rbg::Interpreter::new(&game).unwrap(), 0..=3);
        assert_eq!(native, expected);
    }
}

/// The multiset of terminal goal vectors over the plays perft counts.
fn census<M: ForwardModel>(model: &M) -> BTreeMap<Vec<i64>, u64> {
    fn walk<M: ForwardModel>(model: &M, s: &M::State, out: &mut BTreeMap<Vec<i64>, u64>) {
        if model.is_terminal(s) {
            *out.entry(model.goals(s)).or_insert(0) += 1;
            return;
        }
        let mut moves = Vec::new();
        model.legal_moves(s, &mut moves).unwrap();
        let random = model.current_player(s) == rg_core::model::Player::Random;
        let mut seen = HashSet::new();
        for mv in &moves {
            let mut child = s.clone();
            model.apply(&mut child, mv).unwrap();
            if !random || seen.insert(child.clone()) {
                walk(model, &child, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(model, &model.initial().unwrap(), &mut out);
    out
}

/// replay sequentializes a round as one ply per free seat in seat order
/// (replay.md §6.1), as the GDL translation orders roles; so perft agrees
/// at every depth, and the GDL file's goals (sum of payoffs + 10) are
/// replay's shifted goals.
#[test]
fn prisoners_dilemma_in_replay_and_gdl() {
    let expected = vec![1, 2, 4, 8, 16, 0];
    let text = corpus("replay/prisonersDilemma.replay");
    let options = replay::Options::default();
    let loaded = replay::load(&text, &options).unwrap();
    let native = replay::Native::new(&loaded.instance).unwrap();
    let (_, t) = replay::translate(&text, &options).unwrap();
    let replay_rg = Engine::new(&t.game, EngineOptions::default()).unwrap();
    assert_eq!(series(&native, 0..=5), expected);
    assert_eq!(series(&replay_rg, 0..=5), expected);

    let kif = corpus("kif/prisonersDilemma.kif");
    let game = gdl::load(&kif).unwrap();
    let reasoner = gdl::Prover::new(&game.description).unwrap();
    let gdl_rg = gdl::translate(&kif, &propnet::GroundingLimits::default())
        .unwrap()
        .game;
    let gdl_rg = Engine::new(&gdl_rg, EngineOptions::default()).unwrap();
    assert_eq!(series(&reasoner, 0..=5), expected);
    assert_eq!(series(&gdl_rg, 0..=5), expected);

    let reference = census(&native);
    assert_eq!(reference.values().sum::<u64>(), 16);
    assert_eq!(census(&replay_rg), reference);
    assert_eq!(census(&reasoner), reference);
    assert_eq!(census(&gdl_rg), reference);
}
