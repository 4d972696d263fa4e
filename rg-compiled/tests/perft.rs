//! Compiled perft equals engine perft on the team's RG games.

mod common;

use rg_core::engine::EngineOptions;

fn team_rg(name: &str) -> String {
    std::fs::read_to_string(testkit::team_corpus().join("rg").join(name)).expect("corpus file")
}

#[test]
fn tic_tac_toe_agrees() {
    let e = common::engine(&team_rg("ticTacToe.rg"), EngineOptions::default());
    common::assert_agrees("ticTacToe", &e, 5, &[]);
}

#[test]
fn breakthrough_agrees() {
    let e = common::engine(&team_rg("breakthrough.rg"), EngineOptions::default());
    common::assert_agrees("breakthrough", &e, 3, &[]);
}
