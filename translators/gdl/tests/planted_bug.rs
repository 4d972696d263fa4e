//! A deliberate grounder bug (planted on this test's thread through
//! propnet's test-only `planted-bugs` feature) is caught by differential
//! verification: the prover disagrees with the propnet model and with the
//! RG translation, and the verdict names the first differing moves.

use propnet::planted::{plant, PlantedBug};
use propnet::{GroundingLimits, PropnetModel};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::Budget;
use rg_core::verify::{verify, Verdict};

/// `blocked` can never hold (no `wall` is ever true), so the legal rule's
/// `(not (blocked ?x))` always holds.
const GAME: &str = "
(role p)
(init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (blocked ?x) (true (wall ?x)))
(<= (legal p (go ?x)) (true (count ?x)) (not (blocked ?x)))
(<= (legal p stay) (true (count ?x)))
(<= (next (count ?y)) (does p (go ?x)) (succ ?x ?y))
(<= (next (count ?x)) (does p stay) (true (count ?x)))
(<= terminal (true (count 3)))
(goal p 100)
";

struct Models {
    prover: gdl::Prover,
    propnet: PropnetModel,
    engine: Engine,
}

fn models() -> Models {
    let game = gdl::load(GAME).unwrap();
    let limits = GroundingLimits::default();
    Models {
        prover: gdl::Prover::new(&game.description).unwrap(),
        propnet: PropnetModel::new(&gdl::to_datalog(&game), &limits).unwrap(),
        engine: Engine::new(
            &gdl::translate(GAME, &limits).unwrap().game,
            EngineOptions::default(),
        )
        .unwrap(),
    }
}

#[test]
fn verification_catches_a_planted_grounder_bug() {
    let honest = models();
    let correct = verify(&honest.prover, &honest.propnet, 3, &mut Budget::unlimited());
    assert_eq!(correct.agreed(), [1, 2, 4, 8], "{correct}");
    assert!(verify(&honest.prover, &honest.engine, 3, &mut Budget::unlimited()).agrees());

    plant(Some(PlantedBug::DropRulesWithImpossibleNegation));
    let buggy = models();
    plant(None);
    for verdict in [
        verify(&buggy.prover, &buggy.propnet, 3, &mut Budget::unlimited()),
        verify(&buggy.prover, &buggy.engine, 3, &mut Budget::unlimited()),
    ] {
        let Verdict::Differ {
            depth,
            left,
            right,
            prefix,
            detail,
            ..
        } = &verdict
        else {
            panic!("the planted bug went unnoticed: {verdict}");
        };
        assert_eq!((*depth, *left, *right), (1, 2, 1), "{verdict}");
        assert!(prefix.is_empty(), "{verdict}");
        assert!(
            detail.contains("moves only in the first model: \"go_0\""),
            "{verdict}"
        );
    }
}
