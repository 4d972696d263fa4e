//! Semantics of the native interpreter on small hand-made games (rbg.md §2.8,
//! §3): the worked example, arithmetic, patterns, guards.

use rg_core::model::{perft, Budget, ForwardModel, Player};

fn model(source: &str) -> rbg::Interpreter {
    let game = rbg::parse_and_check(source).unwrap_or_else(|e| panic!("{e:?}"));
    rbg::Interpreter::new(&game).expect("builds")
}

fn perfts(model: &rbg::Interpreter, max: u32) -> Vec<u64> {
    let root = model.initial().expect("initial");
    (0..=max)
        .map(|d| perft(model, &root, d, &mut Budget::unlimited()).expect("perft"))
        .collect()
}

fn root_moves(model: &rbg::Interpreter) -> Vec<String> {
    let root = model.initial().expect("initial");
    rg_core::model::list_moves(model, &root).expect("moves")
}

/// A two-vertex game with one player and the given rules.
fn tiny(rules: &str) -> String {
    format!(
        "#board = a[e]{{r:b}} b[e]{{l:a}}\n#players = x(5), y(5)\n#pieces = e, p\n\
         #variables = t(2)\n#rules = {rules}\n"
    )
}

#[test]
fn worked_example_of_the_reference() {
    // rbg.md §3.10
    let m = model(&tiny(
        "->x r* {e} [p] [$ t = t + 1] ->> {? l} ->y l {e} [p] ->> ->> {}",
    ));
    assert_eq!(perfts(&m, 3), [1, 2, 1, 0]);
    assert_eq!(
        root_moves(&m),
        [
            "a index_2 a index_3 a index_4",
            "b index_2 b index_3 b index_4"
        ]
    );
    let root = m.initial().unwrap();
    assert_eq!(m.current_player(&root), Player::Real(0));
    // After placing at a, the keeper's `{? l}` fails: the game ends there.
    let mut moves = Vec::new();
    m.legal_moves(&root, &mut moves).unwrap();
    let at_a = moves
        .iter()
        .find(|mv| m.format_move(mv).starts_with("a "))
        .unwrap();
    let mut state = root.clone();
    m.apply(&mut state, at_a).unwrap();
    assert!(m.is_terminal(&state));
    assert_eq!(m.current_player(&state), Player::Keeper);
    assert_eq!(m.variable_value(&state, 2), Some(1));
}

#[test]
fn shift_cycles_terminate_and_moves_are_distinct() {
    // `(r l)*` revisits positions; each (modifier, vertex) list once.
    let m = model(&tiny("->x (r l)* (r + l)* [p] ->y"));
    assert_eq!(
        root_moves(&m),
        ["a index_2 a index_3", "b index_2 b index_3"]
    );
}

#[test]
fn the_same_modifier_can_repeat_at_the_same_vertex() {
    // t(2): 0, 1 or 2 increments, each a different move.
    let m = model(&tiny("->x ([$ t = t + 1])* ->y"));
    assert_eq!(
        root_moves(&m),
        [
            "a index_2 a index_2 a index_3",
            "a index_2 a index_3",
            "a index_3"
        ]
    );
}

#[test]
fn assignments_check_bounds_and_division_truncates() {
    // t(2): t = 3 is invalid; (0 - 5) / 2 = -2 (toward zero), + 3 = 1.
    let m = model(&tiny("->x ([$ t = 3] + [$ t = ((0 - 5) / 2) + 3]) ->y"));
    assert_eq!(root_moves(&m), ["a index_3 a index_4"]);
    // Division by zero makes the assignment invalid; negative values too.
    let m = model(&tiny(
        "->x ([$ t = 1 / 0] + [$ t = 0 - 1] + [$ t = 2 * 1]) ->y",
    ));
    assert_eq!(root_moves(&m), ["a index_4 a index_5"]);
}

#[test]
fn piece_names_count_pieces_in_expressions() {
    let m = model(&tiny(
        "->x [p] {$ p == 1} {$ e == 1} [$ t = e + p] r [p] {$ p > e} ->y",
    ));
    assert_eq!(root_moves(&m), ["a index_2 a index_3 b index_4 b index_5"]);
}

#[test]
fn patterns_see_their_own_modifiers_but_leave_no_trace() {
    let m = model(&tiny(
        "->x {? [p] {p} [$ t = 2] {$ t == 2}} {e} {$ t == 0} [p] ->y",
    ));
    assert_eq!(root_moves(&m), ["a index_2 a index_3"]);
    let m = model(&tiny("->x {! r {e}} [p] ->y + ->y"));
    assert_eq!(root_moves(&m).len(), 0);
}

#[test]
fn empty_on_is_never_valid_and_ends_the_game() {
    let m = model(&tiny("->x [p] ->> {} ->y"));
    assert_eq!(perfts(&m, 2), [1, 1, 0]);
}

#[test]
fn noop_changes_nothing() {
    let m = model(&tiny("->x . r . [p] . ->y"));
    assert_eq!(root_moves(&m), ["b index_2 b index_3"]);
}

#[test]
fn goals_are_the_player_variables() {
    let m = model(&tiny("[$ x = 5] [$ y = 1] ->x [p] ->> {}"));
    let root = m.initial().unwrap();
    let mut moves = Vec::new();
    m.legal_moves(&root, &mut moves).unwrap();
    let mut end = root.clone();
    m.apply(&mut end, &moves[0]).unwrap();
    assert_eq!(m.goals(&end), [5, 1]);
    assert_eq!(m.player_names(), ["x", "y"]);
}

#[test]
fn unbounded_modifier_loops_are_reported() {
    let m = model(&tiny("->x ([p] [e])* ->y"));
    let root = m.initial().unwrap();
    let mut moves = Vec::new();
    let err = m.legal_moves(&root, &mut moves).unwrap_err();
    assert!(err.message.contains("finitely straight"), "{err}");
}

#[test]
fn endless_keeper_is_reported() {
    let m = model(&tiny("(->>)*"));
    let err = m.initial().unwrap_err();
    assert!(err.message.contains("keeper"), "{err}");
}

#[test]
fn apply_rejects_foreign_moves() {
    let m = model(&tiny("->x [p] ->y"));
    let mut state = m.initial().unwrap();
    let bogus = rbg::Move {
        pairs: vec![(9, 0)],
    };
    assert!(m.apply(&mut state, &bogus).is_err());
    let not_ending_in_switch = rbg::Move {
        pairs: vec![(2, 0)],
    };
    assert!(m.apply(&mut state, &not_ending_in_switch).is_err());
}

#[test]
fn interpreter_can_be_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<rbg::Interpreter>();
    assert_send_sync::<rbg::State>();
}
