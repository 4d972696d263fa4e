//! The prover asks only what a query needs: a static relation too large to
//! list is never listed when every use of it has bound arguments. Where a
//! query does need too much, or recursion runs too deep, a limit stops it
//! with a message that names the limit.

use gdl::{Prover, ProverLimits};
use rg_core::model::{perft, Budget, ForwardModel};

const GAME: &str = "
(role p)
(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
; 10^4 tuples: too many for a limit of 2000 facts.
(<= (distinct4 ?a ?b ?c ?e) (d ?a) (d ?b) (d ?c) (d ?e)
    (distinct ?a ?b) (distinct ?a ?c) (distinct ?a ?e) (distinct ?b ?c) (distinct ?b ?e) (distinct ?c ?e))
(<= (allDifferent ?a ?b ?c ?e) (distinct4 ?a ?b ?c ?e))
(init (cell 1 0)) (init (cell 2 1)) (init (cell 3 2)) (init (cell 4 3))
(<= (legal p (set ?i ?v)) (true (cell ?i ?w)) (d ?v))
(<= (next (cell ?i ?v)) (does p (set ?i ?v)))
(<= (next (cell ?i ?w)) (true (cell ?i ?w)) (not (changed ?i)))
(<= (changed ?i) (does p (set ?i ?v)))
(<= ok (true (cell 1 ?a)) (true (cell 2 ?b)) (true (cell 3 ?c)) (true (cell 4 ?e)) (allDifferent ?a ?b ?c ?e))
(<= terminal (not ok))
(<= (goal p 100) ok)
(<= (goal p 0) (not ok))
";

fn small() -> ProverLimits {
    ProverLimits {
        answers_per_query: 2000,
        ..ProverLimits::default()
    }
}

#[test]
fn a_large_static_relation_asked_with_bound_arguments_stays_small() {
    let game = gdl::load(GAME).unwrap();
    let prover = Prover::with_limits(&game.description, small()).unwrap();
    let initial = prover.initial().unwrap();
    let counts: Vec<u64> = (0..4)
        .map(|d| perft(&prover, &initial, d, &mut Budget::unlimited()).unwrap())
        .collect();
    // Every cell may be set to any of the 10 values; a move that repeats a
    // value ends the game.
    assert_eq!(counts[..2], [1, 40]);
    let full = Prover::new(&game.description).unwrap();
    let initial = full.initial().unwrap();
    for (depth, &count) in (0..4).zip(&counts) {
        assert_eq!(
            perft(&full, &initial, depth, &mut Budget::unlimited()).unwrap(),
            count
        );
    }
}

#[test]
fn a_query_that_needs_too_many_answers_names_the_limit() {
    let game = gdl::load(&GAME.replace(
        "(<= (legal p (set ?i ?v)) (true (cell ?i ?w)) (d ?v))",
        "(<= (legal p (set ?i ?v)) (true (cell ?i ?w)) (d ?v)) (<= (legal p (pick ?a)) (distinct4 ?a ?b ?c ?e))",
    ))
    .unwrap();
    let prover = Prover::with_limits(&game.description, small()).unwrap();
    let initial = prover.initial().unwrap();
    let mut moves = Vec::new();
    let error = prover.legal_moves(&initial, &mut moves).unwrap_err();
    assert!(
        error.message.contains("limit of 2000 answers per query")
            && error.message.contains("ProverLimits::answers_per_query")
            && error.message.contains("(distinct4 ? ? ? ?)"),
        "{error}"
    );
}

#[test]
fn deep_recursion_names_the_call_depth_limit() {
    // Counting down from 300 asks (below 300), (below 299), … one inside
    // the other.
    let mut text = String::from(
        "(role p) (init (at 300)) (<= (legal p go) (true (at ?n)) (below ?n))\n(below 0)\n",
    );
    for n in 1..=300 {
        text.push_str(&format!("(succ {} {n})\n", n - 1));
    }
    text.push_str("(<= (below ?n) (succ ?m ?n) (below ?m))\n(<= (next (at ?n)) (true (at ?n)))\n");
    let game = gdl::load(&text).unwrap();
    let deep = ProverLimits {
        call_depth: 100,
        ..ProverLimits::default()
    };
    let prover = Prover::with_limits(&game.description, deep).unwrap();
    let initial = prover.initial().unwrap();
    let mut moves = Vec::new();
    let error = prover.legal_moves(&initial, &mut moves).unwrap_err();
    assert!(
        error.message.contains("call depth limit of 100")
            && error.message.contains("ProverLimits::call_depth"),
        "{error}"
    );
    // With the default limit, the same game answers.
    let prover = Prover::new(&game.description).unwrap();
    let initial = prover.initial().unwrap();
    prover.legal_moves(&initial, &mut moves).unwrap();
    assert_eq!(moves.len(), 1);
}

#[test]
fn the_grounder_asks_oversized_static_relations_on_demand() {
    use propnet::{GroundingLimits, PropnetModel};
    let game = gdl::load(GAME).unwrap();
    let reasoner = Prover::new(&game.description).unwrap();
    let limits = GroundingLimits {
        max_atoms: 2000,
        ..GroundingLimits::default()
    };
    let model = PropnetModel::new(&gdl::to_datalog(&game), &limits).unwrap();
    let (a, b) = (reasoner.initial().unwrap(), model.initial().unwrap());
    for depth in 0..4 {
        let x = perft(&reasoner, &a, depth, &mut Budget::unlimited()).unwrap();
        let y = perft(&model, &b, depth, &mut Budget::unlimited()).unwrap();
        assert_eq!(x, y, "depth {depth}");
    }
}
