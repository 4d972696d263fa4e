//! A broken translation is caught: take the translated tic-tac-toe, drop
//! the edge that checks that the chosen cell is empty, and
//! `rg_core::verify::verify` against the native interpreter reports the
//! depth, the first move prefix where the two models differ, and how.

use std::time::Duration;

use hrg::Interpreter;
use rg_core::ast::{Expr, Label};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::Budget;
use rg_core::verify::{verify, Verdict};
use testkit::team_corpus;

#[test]
fn a_dropped_edge_is_reported_with_the_first_differing_prefix() {
    let text = std::fs::read_to_string(team_corpus().join("hrg/ticTacToe.hrg")).unwrap();
    let mut game = hrg::translate(&text).unwrap().game;
    let native = Interpreter::new(&text).unwrap();

    // The intact translation agrees.
    let engine = Engine::new(&game, EngineOptions::default()).unwrap();
    let budget = || Budget::with_time_limit(Duration::from_secs(30));
    assert!(verify(&native, &engine, 3, &mut budget()).agrees());

    // `check(board[cell] == empty)` of the player's turn becomes
    // `turn_2, turn_3: board[cell] == empty;`: replace it by a skip edge,
    // so that a player may mark an occupied cell.
    let checks: Vec<usize> = game
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.from.starts_with("turn_") && is_empty_check(&e.label))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(checks.len(), 1, "expected one emptiness check in turn");
    game.edges[checks[0]].label = Label::Skip;
    let broken = Engine::new(&game, EngineOptions::default()).unwrap();

    match verify(&native, &broken, 3, &mut budget()) {
        Verdict::Differ {
            depth,
            left,
            right,
            agreed,
            prefix,
            detail,
        } => {
            assert_eq!(depth, 2);
            assert_eq!((left, right), (72, 81));
            assert_eq!(agreed, vec![1, 9]);
            // After x's first move (the first cell), the broken game lets o
            // mark it again.
            assert_eq!(prefix.len(), 1, "{prefix:?}");
            assert!(detail.contains(&prefix[0]), "{detail}");
        }
        other => panic!("the broken translation was not caught: {other}"),
    }
}

fn is_empty_check(label: &Label) -> bool {
    match label {
        Label::Compare {
            negated: false,
            rhs: Expr::Ref(name, _),
            ..
        } => name == "empty",
        _ => false,
    }
}
