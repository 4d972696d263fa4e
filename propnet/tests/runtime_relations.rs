//! Run-time relations without the GDL front end: the evaluator on
//! hand-picked states, and the propnet model of a game whose terminal and
//! goals read a run-time relation.

use propnet::datalog::{Literal, Program, Term};
use propnet::ground::TermId;
use propnet::runtime::{RuntimeEvaluator, StateFacts};
use propnet::{ground, ground_with_runtime, GroundingLimits, PropnetModel};
use rg_core::fx_hash::FxSet;
use rg_core::model::{perft, Budget, ForwardModel};

mod common;
use common::Builder;

/// (role p) (init (cell a)) (init (cell b))
/// (<= (legal p (drop ?x)) (true (cell ?x)))
/// (<= (next (cell ?x)) (true (cell ?x)) (not (does p (drop ?x))))
/// (<= two (true (cell ?x)) (true (cell ?y)) (distinct ?x ?y))
/// (<= terminal (not two)) (<= (goal p 100) two) (<= (goal p 0) (not two))
fn drop_game() -> Program {
    let mut b = Builder::new();
    let (x, y) = (Term::Variable(0), Term::Variable(1));
    let p = b.c("p");
    let head = b.atom("role", vec![p.clone()]);
    b.rule(head, vec![], &[]);
    for name in ["a", "b"] {
        let k = b.c(name);
        let cell = b.f("cell", vec![k]);
        let head = b.atom("init", vec![cell]);
        b.rule(head, vec![], &[]);
    }
    let cell_x = b.f("cell", vec![x.clone()]);
    let cell_y = b.f("cell", vec![y.clone()]);
    let drop_x = b.f("drop", vec![x.clone()]);
    let true_x = b.atom("true", vec![cell_x.clone()]);
    let true_y = b.atom("true", vec![cell_y]);
    let head = b.atom("legal", vec![p.clone(), drop_x.clone()]);
    b.rule(head, vec![Literal::Positive(true_x.clone())], &["?x"]);
    let head = b.atom("next", vec![cell_x]);
    let does = b.atom("does", vec![p.clone(), drop_x]);
    b.rule(
        head,
        vec![Literal::Positive(true_x.clone()), Literal::Negative(does)],
        &["?x"],
    );
    let two = b.atom("two", vec![]);
    b.rule(
        two.clone(),
        vec![
            Literal::Positive(true_x),
            Literal::Positive(true_y),
            Literal::Distinct(x, y),
        ],
        &["?x", "?y"],
    );
    let terminal = b.atom("terminal", vec![]);
    b.rule(terminal, vec![Literal::Negative(two.clone())], &[]);
    for (value, literal) in [
        ("100", Literal::Positive(two.clone())),
        ("0", Literal::Negative(two)),
    ] {
        let v = b.c(value);
        let head = b.atom("goal", vec![p.clone(), v]);
        b.rule(head, vec![literal], &[]);
    }
    b.program
}

#[test]
fn the_evaluator_solves_the_rules_against_the_state() {
    let program = drop_game();
    let ground = ground_with_runtime(&program, &GroundingLimits::default(), &["two"]).unwrap();
    assert_eq!(ground.runtime.atoms.len(), 1);
    assert_eq!(
        ground.stats.runtime_relations,
        [("two".to_string(), "requested".to_string())]
    );
    let evaluator = RuntimeEvaluator::new(&ground);
    assert_eq!(evaluator.len(), 1);
    let cell = |name: &str| -> TermId {
        let symbols = &ground.symbols;
        let k = ground
            .terms
            .find(symbols.lookup(name).unwrap(), &[])
            .unwrap();
        ground
            .terms
            .find(symbols.lookup("cell").unwrap(), &[k])
            .unwrap()
    };
    let holds = |facts: &[TermId]| {
        let set: FxSet<TermId> = facts.iter().copied().collect();
        evaluator.holds(&ground.terms, 0, &StateFacts { facts, holds: &set })
    };
    assert!(holds(&[cell("a"), cell("b")]));
    assert!(!holds(&[cell("a")]), "distinct fails on one cell");
    assert!(!holds(&[cell("b")]));
    assert!(!holds(&[]));
    // An index past the run-time atoms is false, not a panic.
    let none = FxSet::default();
    let empty = StateFacts {
        facts: &[],
        holds: &none,
    };
    assert!(!evaluator.holds(&ground.terms, 1, &empty));
}

#[test]
fn the_propnet_reads_runtime_atoms_for_terminal_and_goals() {
    let program = drop_game();
    let plain = PropnetModel::new(&program, &GroundingLimits::default()).unwrap();
    assert!(plain.ground_program().runtime.relations.is_empty());
    let forced = PropnetModel::from_ground(
        ground_with_runtime(&program, &GroundingLimits::default(), &["two"]).unwrap(),
    );
    for model in [&plain, &forced] {
        let s0 = model.initial().unwrap();
        assert!(!model.is_terminal(&s0));
        assert_eq!(model.goals(&s0), [100]);
        let mut moves = Vec::new();
        model.legal_moves(&s0, &mut moves).unwrap();
        assert_eq!(moves.len(), 2);
        let mut s1 = s0.clone();
        model.apply(&mut s1, &moves[0]).unwrap();
        assert!(model.is_terminal(&s1), "one cell left: not two");
        assert_eq!(model.goals(&s1), [0]);
        let counts: Vec<u64> = (0..3)
            .map(|d| perft(model, &s0, d, &mut Budget::unlimited()).unwrap())
            .collect();
        assert_eq!(counts, [1, 2, 0]);
    }
}

#[test]
fn forcing_a_relation_without_rules_is_an_error() {
    let program = drop_game();
    let error = ground_with_runtime(&program, &GroundingLimits::default(), &["three"])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(error.contains("it has no rules"), "{error}");
    // The plain grounder is unaffected.
    assert!(ground(&program, &GroundingLimits::default()).is_ok());
}
