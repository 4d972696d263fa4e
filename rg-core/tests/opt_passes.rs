//! Every optimization pass (rg.md §9) keeps perft: on generated games
//! (any-assignments, `$$` tags, constant and variable maps, nested maps,
//! reachability checks with unconditional ends, artificial and redundant
//! tags, forks of shared conditions, random turns), on the team's RG
//! corpus and on the shared corpus. Exact (E) and relabeling (L) passes
//! both keep the tree shape, hence perft. The unsafe `reorder-conditions`
//! is only required to produce a game that checks. Every run checks the
//! game after each change (`optimize_checked`), so a pass that breaks it
//! fails naming itself.

use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::diag::has_errors;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};
use rg_core::opt::{all_passes, default_pipeline, optimize_checked, Pass};
use rg_core::parse::parse_game;
use rg_core::print::print_game;
use testkit::rg_games::{render, Spec, Step};
use testkit::{files_with_extension, shared_corpus, team_corpus};

/// The pass that may change the game.
const UNSAFE: &str = "reorder-conditions";

fn step(variables: usize) -> impl Strategy<Value = Step> {
    let v = 0..variables;
    let c = 0u8..3;
    prop_oneof![
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Test(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::TestNot(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Set(k, c)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Rotate(k, j)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Copy(k, j)),
        (v.clone(), v.clone()).prop_map(|(k, j)| Step::Same(k, j)),
        v.clone().prop_map(Step::Choose),
        (any::<bool>(), v.clone(), c.clone()).prop_map(|(n, k, c)| Step::Check(n, k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::SetMap(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::TestMap(k, c)),
        (v.clone(), v.clone(), c.clone()).prop_map(|(j, k, c)| Step::SetGrid(j, k, c)),
        (v.clone(), v.clone(), c.clone()).prop_map(|(j, k, c)| Step::TestTable(j, k, c)),
        c.clone().prop_map(Step::Tag),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Either(k, c)),
        (v.clone(), c.clone(), c.clone()).prop_map(|(k, c, d)| Step::OneOf(k, c, d)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::Twice(k, c)),
        (v.clone(), c.clone()).prop_map(|(k, c)| Step::SelfLoop(k, c)),
        (any::<bool>(), v.clone(), c.clone(), v.clone(), c.clone())
            .prop_map(|(n, k, c, j, d)| Step::PureCheck(n, k, c, j, d)),
        (v.clone(), c.clone(), v.clone(), c.clone())
            .prop_map(|(k, c, j, d)| Step::Fork(k, c, j, d)),
        v.clone().prop_map(Step::Bump),
        (c.clone(), c.clone()).prop_map(|(k, d)| Step::SetMapAt(k, d)),
        (c.clone(), c.clone()).prop_map(|(k, d)| Step::TestMapAt(k, d)),
        (any::<bool>(), v.clone(), c.clone(), any::<bool>())
            .prop_map(|(n, k, c, same)| Step::LoopCheck(n, k, c, same)),
        (any::<bool>(), v, c).prop_map(|(n, k, c)| Step::Peek(n, k, c)),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        1usize..=3,
        1u8..=3,
        1usize..=3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_flat_map(|(players, turns, variables, random_turns, go_tag)| {
            prop::collection::vec(prop::collection::vec(step(variables), 0..4), 1..4).prop_map(
                move |branches| Spec {
                    players,
                    turns,
                    variables,
                    branches,
                    random_turns,
                    go_tag,
                },
            )
        })
}

fn engine(game: &Game) -> Result<Engine, String> {
    Engine::new(game, EngineOptions::default()).map_err(|d| format!("{d:?}"))
}

/// perft at depths `0..=depth` (`Err` with the message on a runtime error).
fn perfts(game: &Game, depth: u32) -> Result<Vec<u64>, String> {
    let e = engine(game)?;
    let initial = e.initial().map_err(|err| err.to_string())?;
    (0..=depth)
        .map(|d| perft(&e, &initial, d, &mut Budget::unlimited()).map_err(|err| err.to_string()))
        .collect()
}

/// Runs `passes` (to their fixpoint, as `--passes` does) with the checker
/// after every change, so that a pass breaking the game fails naming
/// itself; returns the result with the time the passes took.
fn optimized(game: &Game, passes: &[Box<dyn Pass>], what: &str) -> (Game, Duration) {
    let mut took = Duration::ZERO;
    let out = optimize_checked(game, passes, &mut |run| took += run.elapsed).unwrap_or_else(|e| {
        panic!(
            "{what}: {e}\n{:?}\n--- input\n{}",
            e.diagnostics,
            print_game(game)
        )
    });
    (out, took)
}

fn assert_same_perft(original: &Game, expected: &[u64], passes: &[Box<dyn Pass>], what: &str) {
    let (out, _) = optimized(original, passes, what);
    let got = perfts(&out, expected.len() as u32 - 1)
        .unwrap_or_else(|e| panic!("{what}: {e}\n{}", print_game(&out)));
    assert_eq!(
        got,
        expected,
        "{what} changed perft\n--- before\n{}--- after\n{}",
        print_game(original),
        print_game(&out)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_pass_preserves_perft(spec in spec()) {
        let source = render(&spec);
        let game = parse_game(&source).unwrap();
        let diagnostics = check_game(&game);
        prop_assert!(!has_errors(&diagnostics), "{:?}\n{}", diagnostics, source);
        let expected = perfts(&game, 3).unwrap_or_else(|e| panic!("{e}\n{source}"));
        for pass in all_passes() {
            let name = pass.name();
            let single = std::slice::from_ref(&pass);
            if name == UNSAFE {
                optimized(&game, single, name);
            } else {
                assert_same_perft(&game, &expected, single, name);
            }
        }
    }

    #[test]
    fn default_pipeline_preserves_perft(spec in spec()) {
        let game = parse_game(&render(&spec)).unwrap();
        let expected = perfts(&game, 3).unwrap();
        assert_same_perft(&game, &expected, &default_pipeline(), "default pipeline");
    }

    #[test]
    fn all_safe_passes_together_preserve_perft(spec in spec()) {
        let game = parse_game(&render(&spec)).unwrap();
        let expected = perfts(&game, 3).unwrap();
        let safe: Vec<Box<dyn Pass>> =
            all_passes().into_iter().filter(|p| p.name() != UNSAFE).collect();
        assert_same_perft(&game, &expected, &safe, "every safe pass");
    }
}

/// The generator exercises every pass: each one changes some of a fixed
/// sample of generated games.
#[test]
fn every_pass_fires_on_some_generated_game() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let strategy = spec();
    let games: Vec<Game> = (0..200)
        .map(|_| {
            let spec = strategy.new_tree(&mut runner).unwrap().current();
            parse_game(&render(&spec)).unwrap()
        })
        .collect();
    let idle: Vec<&str> = all_passes()
        .iter()
        .filter(|pass| {
            !games.iter().any(|g| {
                let mut changed = false;
                optimize_checked(g, std::slice::from_ref(*pass), &mut |run| {
                    changed |= run.changed;
                })
                .unwrap_or_else(|e| panic!("{e}\n--- input\n{}", print_game(g)));
                changed
            })
        })
        .map(|pass| pass.name())
        .collect();
    assert!(idle.is_empty(), "never change a generated game: {idle:?}");
}

/// Each pass alone on each file: perft up to `depth` unchanged, and quick.
fn check_files(files: &[std::path::PathBuf], depth: u32) {
    for path in files {
        let text = std::fs::read_to_string(path).unwrap();
        let game = parse_game(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let expected = perfts(&game, depth).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for pass in all_passes() {
            let what = format!("{} on {}", pass.name(), short(path));
            let single = std::slice::from_ref(&pass);
            let (out, took) = optimized(&game, single, &what);
            assert!(
                took < Duration::from_secs(5),
                "{what} took {took:?} (limit 5 s)"
            );
            if pass.name() == UNSAFE {
                continue;
            }
            let got = perfts(&out, depth).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(got, expected, "{what} changed perft");
        }
    }
}

fn short(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().to_string()
}

#[test]
fn every_pass_preserves_perft_on_the_team_corpus() {
    let files = files_with_extension(&team_corpus().join("rg"), "rg");
    assert!(files.len() >= 2);
    check_files(&files, 3);
}

#[test]
fn every_pass_preserves_perft_on_the_shared_corpus() {
    let Some(corpus) = shared_corpus("every_pass_preserves_perft_on_the_shared_corpus") else {
        return;
    };
    let files = files_with_extension(&corpus.join("rg"), "rg");
    assert!(files.len() >= 17, "found {} games", files.len());
    check_files(&files, 2);
}

#[test]
fn reorder_conditions_is_by_name_only_and_says_unsafe() {
    let default: Vec<&str> = default_pipeline().iter().map(|p| p.name()).collect();
    assert!(!default.contains(&UNSAFE));
    let all = all_passes();
    let reorder = all.iter().find(|p| p.name() == UNSAFE).unwrap();
    assert!(reorder.description().contains("UNSAFE"));
    // Names are unique, and every default pass is listed.
    let mut names: Vec<&str> = all.iter().map(|p| p.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len());
    assert!(default.iter().all(|d| names.contains(d)));
}
