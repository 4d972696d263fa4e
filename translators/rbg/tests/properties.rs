//! Property tests: the front end never panics on mangled input, and on small
//! generated games the interpreter agrees with a naive reference
//! implementation of rbg.md §3 and satisfies the perft recursion, and the
//! RG translation (rbg.md §5) agrees with the interpreter on perft.

mod reference;

use proptest::prelude::*;
use rg_core::model::{perft, Budget, ForwardModel};

use reference::{Reference, Stop};

const TIC_TAC_TOE: &str = include_str!("../../../corpus/rbg/ticTacToe.rbg");

/// Fragments that make mutations hit interesting syntax.
const FRAGMENTS: &[&str] = &[
    "#",
    "#m = ",
    "#m(a;b) = a~b",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "{?",
    "{!",
    "{$",
    "[$",
    "->",
    "->>",
    "~",
    "^",
    "^0",
    "*",
    "+",
    ";",
    ",",
    ":",
    "=",
    "==",
    "<",
    "x",
    "e",
    "up",
    "0",
    "4294967296",
    "rectangle(",
    "hexagon(",
    "cuboid(",
    "/*",
    "//",
    "\n",
    " ",
    ".",
    "$",
    "!",
    "?",
];

fn mutation() -> impl Strategy<Value = (usize, usize, usize)> {
    (0usize..10_000, 0usize..8, 0usize..FRAGMENTS.len())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random edits of a real game: errors are fine, panics are not.
    #[test]
    fn front_end_never_panics_on_mutated_games(edits in prop::collection::vec(mutation(), 1..6)) {
        let mut text = TIC_TAC_TOE.to_string();
        for (at, delete, fragment) in edits {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + delete).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(at..end, FRAGMENTS[fragment]);
        }
        if let Ok(game) = rbg::parse_and_check(&text) {
            // A valid mutant must also run.
            if let Ok(model) = rbg::Interpreter::new(&game) {
                if let Ok(state) = model.initial() {
                    let _ = perft(&model, &state, 2, &mut Budget::unlimited().max_nodes(10_000));
                }
            }
        }
        let _ = rbg::parse::parse_ll(&text);
        let _ = rbg::preprocess(&text);
    }

    /// Arbitrary byte soup never panics either.
    #[test]
    fn front_end_never_panics_on_arbitrary_text(text in "[#a-z0-9(){}\\[\\];,:=<>+*/^~.!?$ \n-]{0,200}") {
        let _ = rbg::parse_and_check(&text);
        let _ = rbg::parse::parse_ll(&text);
    }
}

/// Leaves safe under a star: no modifier, or an increment (bounded).
fn plain_action() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "[$ t = t + 1]",
        "[$ a = a + 1]",
        "([$ t = t + 1])*",
        "({e, y} [$ a = a + 1])*",
        "left",
        "right",
        "up",
        "down",
        "{e}",
        "{x, y}",
        "{x}",
        "{e, y}",
        "{$ t < 2}",
        "{$ x > 1}",
        "{$ t == (x - 2)}",
        "{$ (t * 2) / 3 != 1}",
        "{$ e >= 3}",
        ".",
        "{! left}",
        "{? up}",
    ])
    .prop_map(str::to_string)
}

fn modifier() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "[x]",
        "[y]",
        "[e]",
        "[$ t = t + 1]",
        "[$ t = t - 1]",
        "[$ t = x]",
        "[$ a = 1]",
        "[$ b = (t / 2)]",
    ])
    .prop_map(str::to_string)
}

/// A switch-free rule; stars only over modifier-free parts (finite straightness).
fn rule() -> impl Strategy<Value = String> {
    let plain = plain_action().prop_recursive(3, 10, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| format!("({})", v.join(" "))),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| format!("({})", v.join(" + "))),
            inner.clone().prop_map(|x| format!("({x})*")),
            inner.clone().prop_map(|x| format!("{{? {x}}}")),
            inner.prop_map(|x| format!("{{! {x}}}")),
        ]
    });
    let leaf = prop_oneof![plain_action(), modifier()];
    let plain_for_star = plain;
    leaf.prop_recursive(3, 14, 3, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| format!("({})", v.join(" "))),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| format!("({})", v.join(" + "))),
            plain_for_star.clone().prop_map(|x| format!("({x})*")),
            inner.clone().prop_map(|x| format!("{{? {x}}}")),
            inner.prop_map(|x| format!("{{! {x}}}")),
        ]
    })
}

/// A two-player game: the player walks anywhere and then plays `a` (or
/// just passes with `.`); the keeper applies a deterministic check, so that
/// most generated games are proper and long enough to be interesting.
fn small_game(a: &str, keeper_a: &str, b: &str, keeper_b: &str) -> String {
    format!(
        "#players = a(2), b(2)\n#pieces = e, x, y\n#variables = t(3)\n\
         #board = rectangle(up, down, left, right, [e, x, e] [y, e, e])\n\
         #anywhere = (up* + down*) (left* + right*)\n\
         #rules = ( ->a anywhere ({a} + .) ->> ({{? {keeper_a}}} [x] + {{! {keeper_a}}}) \
         ->b anywhere ({b} + .) ->> ({{? {keeper_b}}} [y] + {{! {keeper_b}}}) )*\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn interpreter_agrees_with_naive_reference(a in rule(), ka in rule(), b in rule(), kb in rule()) {
        let source = small_game(&a, &ka, &b, &kb);
        let game = match rbg::parse_and_check(&source) {
            Ok(game) => game,
            Err(errors) => panic!("generated game must be valid: {errors:?}\n{source}"),
        };
        let model = rbg::Interpreter::new(&game).expect("interpreter builds");
        let reference = Reference::new(&game);
        let root = match reference.initial() {
            Ok(root) => root,
            Err(Stop::Improper | Stop::TooDeep) => return Ok(()),
        };
        let state = model.initial().expect("initial");
        for depth in 0..=3 {
            let expected = match reference.perft(&root, depth) {
                Ok(n) => n,
                Err(Stop::Improper | Stop::TooDeep) => return Ok(()),
            };
            let got = perft(&model, &state, depth, &mut Budget::unlimited()).expect("perft");
            prop_assert_eq!(got, expected, "perft({}) of\n{}", depth, source);
        }
        // Same moves, in the RG tag form, at the root.
        let mut moves = Vec::new();
        model.legal_moves(&state, &mut moves).expect("moves");
        let mut ours: Vec<String> = moves.iter().map(|m| model.format_move(m)).collect();
        ours.sort();
        if let Ok(theirs) = reference.formatted_moves(&root) {
            prop_assert_eq!(ours, theirs);
        }
    }

    /// perft(d + 1) is the sum over moves of perft(d) of the children; moves
    /// are distinct; counting agrees with listing; listing leaves no trace.
    #[test]
    fn perft_recursion_and_move_invariants(a in rule(), ka in rule(), b in rule(), kb in rule()) {
        let source = small_game(&a, &ka, &b, &kb);
        let game = rbg::parse_and_check(&source).expect("valid");
        let model = rbg::Interpreter::new(&game).expect("builds");
        let state = model.initial().expect("initial");
        let mut moves = Vec::new();
        model.legal_moves(&state, &mut moves).expect("moves");
        let distinct: std::collections::HashSet<_> = moves.iter().collect();
        prop_assert_eq!(distinct.len(), moves.len());
        prop_assert_eq!(model.count_moves(&state).expect("count"), moves.len() as u64);
        let mut again = Vec::new();
        model.legal_moves(&state, &mut again).expect("moves");
        prop_assert_eq!(&again, &moves);
        prop_assert_eq!(model.is_terminal(&state), moves.is_empty());
        for depth in 0..2 {
            let mut sum = 0;
            for m in &moves {
                let mut child = state.clone();
                model.apply(&mut child, m).expect("apply");
                sum += perft(&model, &child, depth, &mut Budget::unlimited()).expect("perft");
            }
            let whole = perft(&model, &state, depth + 1, &mut Budget::unlimited()).expect("perft");
            prop_assert_eq!(whole, sum);
        }
    }

    /// The lowering keeps the game tree: on random rule expressions over a
    /// small board, the RG engine running the translation counts what the
    /// interpreter counts at every depth (improper games, where the
    /// interpreter stops with an error, are skipped).
    #[test]
    fn translation_agrees_with_interpreter(a in rule(), ka in rule(), b in rule(), kb in rule()) {
        let source = small_game(&a, &ka, &b, &kb);
        let game = rbg::parse_and_check(&source).expect("valid");
        let model = rbg::Interpreter::new(&game).expect("builds");
        let translation = match rbg::translate(&source) {
            Ok(t) => t.game,
            Err(errors) => panic!("translation failed: {errors:?}\n{source}"),
        };
        let engine = rg_core::engine::Engine::new(&translation, rg_core::engine::EngineOptions::default())
            .expect("the translation compiles");
        let Ok(state) = model.initial() else { return Ok(()) };
        let rg_state = engine.initial().expect("the translation starts where the interpreter does");
        for depth in 0..=3 {
            let Ok(expected) = perft(&model, &state, depth, &mut Budget::unlimited()) else {
                return Ok(());
            };
            let got = perft(&engine, &rg_state, depth, &mut Budget::unlimited());
            prop_assert_eq!(got.ok(), Some(expected), "perft({}) of\n{}", depth, source);
        }
    }
}
