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

/// Generated games (testkit::rg_games) exercising every kind of step the
/// optimizer tests use: map and nested-map reads and writes, constant maps,
/// reachability checks with loops and leaking writes, any-assignments,
/// self-loops, forks, random turns; unoptimized, so the compiler sees the
/// raw constructs.
#[test]
fn generated_games_agree() {
    use testkit::rg_games::{render, Spec, Step};
    let specs = [
        Spec {
            players: 2,
            turns: 3,
            variables: 3,
            branches: vec![
                vec![Step::Test(0, 1), Step::Set(1, 2), Step::Rotate(2, 1)],
                vec![Step::Choose(0), Step::SetMap(0, 2), Step::TestMap(1, 0)],
                vec![
                    Step::SetGrid(0, 1, 2),
                    Step::TestTable(1, 2, 0),
                    Step::Bump(2),
                ],
                vec![Step::Check(true, 1, 2), Step::PureCheck(false, 0, 1, 2, 0)],
                vec![Step::LoopCheck(true, 2, 1, true), Step::Peek(false, 0, 2)],
                vec![Step::SelfLoop(1, 0), Step::Fork(0, 1, 2, 2), Step::Tag(3)],
                vec![Step::Either(2, 1), Step::OneOf(0, 1, 2), Step::Twice(1, 0)],
                vec![
                    Step::SetMapAt(1, 2),
                    Step::TestMapAt(1, 2),
                    Step::Copy(0, 2),
                ],
                vec![Step::Same(0, 1), Step::TestNot(2, 2)],
            ],
            random_turns: true,
            go_tag: true,
        },
        Spec {
            players: 3,
            turns: 4,
            variables: 2,
            branches: vec![
                vec![Step::Choose(1), Step::Check(false, 0, 1)],
                vec![Step::LoopCheck(false, 1, 2, false), Step::SetMap(1, 1)],
                vec![Step::Peek(true, 1, 0), Step::Bump(0), Step::TestMap(0, 2)],
            ],
            random_turns: false,
            go_tag: false,
        },
    ];
    for (k, spec) in specs.iter().enumerate() {
        let source = render(spec);
        let e = common::engine(&source, EngineOptions::default());
        common::assert_agrees(&format!("generated game {k}"), &e, 4, &[]);
    }
}

/// Keeper options reach the reasoner: exposed keeper states (rg.md §6
/// literally) and the first keeper walk.
#[test]
fn keeper_options_agree() {
    let source = team_rg("ticTacToe.rg");
    let exposed = EngineOptions {
        expose_keeper: true,
        ..EngineOptions::default()
    };
    let e = common::engine(&source, exposed);
    common::assert_agrees("ticTacToe exposed", &e, 4, &["--expose-keeper"]);
    let first = EngineOptions {
        first_keeper_walk: true,
        ..EngineOptions::default()
    };
    let e = common::engine(&source, first);
    common::assert_agrees("ticTacToe first walk", &e, 4, &["--first-keeper-walk"]);
}

/// Runtime faults are reported, not panics: a step limit too small for one
/// move generation.
#[test]
fn step_limit_is_enforced() {
    let e = common::engine(&team_rg("breakthrough.rg"), EngineOptions::default());
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 2, &["--step-limit", "10"]).unwrap_err();
    assert!(error.contains("step limit"), "{error}");
}

/// Ray loops whose visited checks have visit guards (rg-core's ray test
/// games: in a move search and in a reachability check, with the `null`
/// square blocked and open): the counts agree, and the reasoner never
/// counts more steps than the engine — it counts only where a search can
/// come back (visited checks it does not skip, other cycles, any-assignment
/// symbols), so its smallest passing step limit is at most the engine's.
#[test]
fn ray_loops_agree_in_counts_and_steps() {
    let ray = include_str!("../../rg-core/src/engine/testdata/ray.rg");
    let check = include_str!("../../rg-core/src/engine/testdata/ray_check.rg");
    let games = [
        ray.to_string(),
        ray.replace("{ :e, null: null }", "{ :e }"),
        check.to_string(),
        check.replace("{ :e, c3: x, null: null }", "{ :e }"),
    ];
    for (k, source) in games.iter().enumerate() {
        let name = format!("ray game {k}");
        let e = common::engine(source, EngineOptions::default());
        assert!(!e.program().visit_guards.is_empty(), "{name} has a guard");
        common::assert_agrees(&name, &e, 3, &[]);
        let engine_limit = smallest_limit(|limit| engine_passes(source, 3, limit));
        let bin = common::binary(&e);
        let compiled_limit = smallest_limit(|limit| {
            match common::compiled_perft(&bin, 3, &["--step-limit", &limit.to_string()]) {
                Ok(_) => true,
                Err(error) => {
                    assert!(error.contains("step limit"), "{name}: {error}");
                    false
                }
            }
        });
        assert!(
            compiled_limit <= engine_limit,
            "{name}: reasoner limit {compiled_limit}, engine limit {engine_limit}"
        );
    }
}

/// A move search around a cycle that emits a tag never ends (the game has
/// infinitely many moves): the reasoner stops with an error, as the engine
/// does, instead of running forever.
#[test]
fn endless_tag_cycle_is_stopped() {
    let source = "
        type Player = { one };
        type Score = { 0 };
        begin, a: player = one;
        a, b: $ t;
        b, a: ;
        b, end: player = keeper;
    ";
    let e = common::engine(source, EngineOptions::default());
    let bin = common::binary(&e);
    let error = common::compiled_perft(&bin, 1, &[]).unwrap_err();
    assert!(
        error.contains("does not terminate"),
        "the reasoner reports the endless search: {error}"
    );
}

/// Whether the engine's perft to `depth` succeeds under `step_limit`.
fn engine_passes(source: &str, depth: u32, step_limit: u64) -> bool {
    use rg_core::model::{perft, Budget, ForwardModel};
    let options = EngineOptions {
        step_limit,
        ..EngineOptions::default()
    };
    let e = common::engine(source, options);
    e.initial().is_ok_and(|initial| {
        (0..=depth).all(|d| perft(&e, &initial, d, &mut Budget::unlimited()).is_ok())
    })
}

/// The smallest step limit that `passes` (which must be monotone).
fn smallest_limit(passes: impl Fn(u64) -> bool) -> u64 {
    let (mut low, mut high) = (1, 10_000);
    assert!(passes(high));
    while low < high {
        let mid = (low + high) / 2;
        if passes(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    low
}
