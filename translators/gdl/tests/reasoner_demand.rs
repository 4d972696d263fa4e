//! A static relation too large to materialize is evaluated on demand when
//! every use of it has bound arguments; results do not change.

use gdl::{Reasoner, ReasonerLimits};
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

#[test]
fn demand_driven_static_relation_gives_the_same_perft() {
    let game = gdl::load(GAME).unwrap();
    let full = Reasoner::new(&game).unwrap();
    let small = ReasonerLimits {
        max_facts: 2000,
        ..ReasonerLimits::default()
    };
    let on_demand = Reasoner::with_limits(&game, small).unwrap();
    let (a, b) = (full.initial().unwrap(), on_demand.initial().unwrap());
    for depth in 0..4 {
        let x = perft(&full, &a, depth, &mut Budget::unlimited()).unwrap();
        let y = perft(&on_demand, &b, depth, &mut Budget::unlimited()).unwrap();
        assert_eq!(x, y, "depth {depth}");
    }
    // Every cell may be set to any of the 10 values.
    assert_eq!(
        perft(&on_demand, &b, 1, &mut Budget::unlimited()).unwrap(),
        40
    );
}

#[test]
fn a_relation_used_without_bound_arguments_still_reports_the_limit() {
    let game = gdl::load(&GAME.replace(
        "(<= (legal p (set ?i ?v)) (true (cell ?i ?w)) (d ?v))",
        "(<= (legal p (set ?i ?v)) (true (cell ?i ?w)) (d ?v)) (<= (legal p (pick ?a)) (distinct4 ?a ?b ?c ?e))",
    ))
    .unwrap();
    let small = ReasonerLimits {
        max_facts: 2000,
        ..ReasonerLimits::default()
    };
    let error = Reasoner::with_limits(&game, small).err().expect("limit");
    assert!(error.message.contains("fact limit of 2000"), "{error}");
}

#[test]
fn the_grounder_also_asks_oversized_static_relations_on_demand() {
    use propnet::{GroundingLimits, PropnetModel};
    let game = gdl::load(GAME).unwrap();
    let reasoner = Reasoner::new(&game).unwrap();
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
