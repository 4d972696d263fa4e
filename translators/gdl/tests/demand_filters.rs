//! Grounding with demand filters (propnet/src/ground/magic.rs): a derived
//! relation is instantiated only for the arguments its users ask for, the
//! filters stay out of the ground program, and the propnet model still
//! agrees with the prover (which evaluates the rules as written).

use propnet::{GroundingLimits, PropnetModel};
use rg_core::model::{perft, Budget, ForwardModel};

const CELLS: &str = "
(role p)
(init (cell a 0)) (init (cell b 0)) (init (cell c 0))
(val 0) (val 1)
(<= (legal p (set ?c ?v)) (true (cell ?c ?w)) (val ?v) (distinct ?v ?w))
(<= (next (cell ?c ?v)) (does p (set ?c ?v)))
(<= (next (cell ?c ?v)) (true (cell ?c ?v)) (not (changed ?c)))
(<= (changed ?c) (does p (set ?c ?v)))
; marked is asked for cells a and b only
(<= (marked ?c ?v) (true (cell ?c ?v)))
(<= (goal p 100) (marked a 1))
(<= (goal p 0) (not (marked a 1)))
(<= terminal (marked b 1) (true (cell c 1)))
";

/// A pair whose two halves are equal, found by a literal that repeats a
/// variable (the join once used the repeat as an index key too early).
const TWINS: &str = "
(role p)
(init (pair c d)) (init (pair a a)) (init (pair b b))
(<= (legal p noop) (true (pair ?x ?y)))
(<= (next (pair ?x ?y)) (true (pair ?x ?y)))
(<= (same ?x ?y) (true (pair ?x ?y)))
(<= (twin ?x) (same ?x ?x))
(<= (goal p 100) (twin ?x) (distinct ?x b))
(<= (goal p 0) (not (twin a)))
(<= terminal (twin ?x) (distinct ?x a))
";

fn ground(source: &str) -> (gdl::Game, propnet::GroundProgram) {
    let game = gdl::load(source).unwrap_or_else(|e| panic!("{}", e[0].message));
    let ground = propnet::ground(&gdl::to_datalog(&game), &GroundingLimits::default()).unwrap();
    (game, ground)
}

fn atoms_of(ground: &propnet::GroundProgram, relation: &str) -> Vec<String> {
    ground
        .atoms
        .iter()
        .filter(|a| ground.symbols.name(a.relation) == relation)
        .map(|a| {
            a.args
                .iter()
                .map(|&t| ground.terms.display(&ground.symbols, t))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn a_relation_is_instantiated_only_for_the_arguments_asked() {
    let (game, ground) = ground(CELLS);
    // The same game with `marked` also asked with an open cell: no filter.
    let (_, open) = self::ground(&CELLS.replace("(marked b 1)", "(marked ?c 1)"));
    assert!(
        ground.stats.possible_atoms < open.stats.possible_atoms,
        "filtered {:?}, open {:?}",
        ground.stats,
        open.stats
    );
    let marked = atoms_of(&ground, "marked");
    assert!(marked.iter().any(|m| m == "a 1"), "{marked:?}");
    assert!(marked.iter().any(|m| m == "b 1"), "{marked:?}");
    assert!(
        marked.iter().all(|m| !m.starts_with('c')),
        "cell c is never asked: {marked:?}"
    );
    assert!(
        ground
            .atoms
            .iter()
            .all(|a| !ground.symbols.name(a.relation).ends_with("_demand")),
        "the filters are not part of the ground program"
    );
    let model = PropnetModel::from_ground(ground);
    let prover = gdl::Prover::new(&game.description).unwrap();
    let (s, r) = (model.initial().unwrap(), prover.initial().unwrap());
    for depth in 0..=4 {
        let a = perft(&model, &s, depth, &mut Budget::unlimited()).unwrap();
        let b = perft(&prover, &r, depth, &mut Budget::unlimited()).unwrap();
        assert_eq!(a, b, "depth {depth}");
    }
}

#[test]
fn a_repeated_variable_in_one_literal_still_matches() {
    let (game, ground) = ground(TWINS);
    let mut twins = atoms_of(&ground, "twin");
    twins.sort();
    assert_eq!(twins, vec!["a".to_string(), "b".to_string()]);
    let model = PropnetModel::from_ground(ground);
    let prover = gdl::Prover::new(&game.description).unwrap();
    let s = model.initial().unwrap();
    assert_eq!(model.try_goals(&s).unwrap(), vec![100]);
    assert_eq!(
        prover.try_goals(&prover.initial().unwrap()).unwrap(),
        vec![100]
    );
    assert!(model.is_terminal(&s));
    assert!(prover.is_terminal(&prover.initial().unwrap()));
}
