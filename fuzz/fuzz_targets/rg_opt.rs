//! Structured target: small valid RG games (testkit's generator of the
//! optimizer's property tests, driven by the fuzzer's bytes) print and
//! re-parse to themselves, and the optimizer keeps their perft to depth 3
//! (the default pipeline, or any subset of the safe passes in any order),
//! with the checker run after every pass.
#![no_main]

use arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::engine::Engine;
use rg_core::model::{perft, Budget, ForwardModel};
use rg_core::opt::{all_passes, default_pipeline, optimize_checked, Pass};
use rg_core::parse::parse_game;
use rg_core::print::print_game;
use rgw_fuzz::{round_trips, small_engine_options};
use testkit::rg_games::{render, Spec, Step};

/// The pass that may change the game (rg.md §9).
const UNSAFE: &str = "reorder-conditions";

fn step(u: &mut Unstructured<'_>, variables: usize) -> Result<Step> {
    let v = |u: &mut Unstructured<'_>| u.choose_index(variables);
    let c = |u: &mut Unstructured<'_>| u.int_in_range(0u8..=2);
    Ok(match u.int_in_range(0u8..=23)? {
        0 => Step::Test(v(u)?, c(u)?),
        1 => Step::TestNot(v(u)?, c(u)?),
        2 => Step::Set(v(u)?, c(u)?),
        3 => Step::Rotate(v(u)?, v(u)?),
        4 => Step::Copy(v(u)?, v(u)?),
        5 => Step::Same(v(u)?, v(u)?),
        6 => Step::Either(v(u)?, c(u)?),
        7 => Step::OneOf(v(u)?, c(u)?, c(u)?),
        8 => Step::Twice(v(u)?, c(u)?),
        9 => Step::SelfLoop(v(u)?, c(u)?),
        10 => Step::PureCheck(bool::arbitrary(u)?, v(u)?, c(u)?, v(u)?, c(u)?),
        11 => Step::Choose(v(u)?),
        12 => Step::Check(bool::arbitrary(u)?, v(u)?, c(u)?),
        13 => Step::SetMap(v(u)?, c(u)?),
        14 => Step::TestMap(v(u)?, c(u)?),
        15 => Step::SetGrid(v(u)?, v(u)?, c(u)?),
        16 => Step::TestTable(v(u)?, v(u)?, c(u)?),
        17 => Step::Tag(c(u)?),
        18 => Step::Fork(v(u)?, c(u)?, v(u)?, c(u)?),
        19 => Step::Bump(v(u)?),
        20 => Step::SetMapAt(c(u)?, c(u)?),
        21 => Step::TestMapAt(c(u)?, c(u)?),
        22 => Step::LoopCheck(bool::arbitrary(u)?, v(u)?, c(u)?, bool::arbitrary(u)?),
        _ => Step::Peek(bool::arbitrary(u)?, v(u)?, c(u)?),
    })
}

fn spec(u: &mut Unstructured<'_>) -> Result<Spec> {
    let players = u.int_in_range(1usize..=3)?;
    let turns = u.int_in_range(1u8..=3)?;
    let variables = u.int_in_range(1usize..=3)?;
    let random_turns = bool::arbitrary(u)?;
    let go_tag = bool::arbitrary(u)?;
    let mut branches = Vec::new();
    for _ in 0..u.int_in_range(1usize..=3)? {
        let mut steps = Vec::new();
        for _ in 0..u.int_in_range(0usize..=4)? {
            steps.push(step(u, variables)?);
        }
        branches.push(steps);
    }
    Ok(Spec {
        players,
        turns,
        variables,
        branches,
        random_turns,
        go_tag,
    })
}

/// The passes to run: the default pipeline, or a subset of the safe
/// passes in an order chosen by the input.
fn passes(u: &mut Unstructured<'_>) -> Result<Vec<Box<dyn Pass>>> {
    if bool::arbitrary(u)? {
        return Ok(default_pipeline());
    }
    let mut safe: Vec<Box<dyn Pass>> = all_passes()
        .into_iter()
        .filter(|p| p.name() != UNSAFE)
        .collect();
    let mut chosen = Vec::new();
    while !safe.is_empty() && chosen.len() < 8 && bool::arbitrary(u)? {
        let k = u.choose_index(safe.len())?;
        chosen.push(safe.swap_remove(k));
    }
    Ok(chosen)
}

fn perfts(game: &Game, depth: u32) -> Option<Vec<u64>> {
    let engine = Engine::new(game, small_engine_options())
        .unwrap_or_else(|d| panic!("a checked game is refused: {d:?}\n{}", print_game(game)));
    let initial = engine.initial().ok()?;
    (0..=depth)
        .map(|d| {
            perft(
                &engine,
                &initial,
                d,
                &mut Budget::unlimited().max_nodes(100_000),
            )
            .ok()
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let (Ok(spec), Ok(passes)) = (spec(&mut u), passes(&mut u)) else {
        return;
    };
    let source = render(&spec);
    let game = parse_game(&source).unwrap_or_else(|d| panic!("{d:?}\n{source}"));
    let diagnostics = check_game(&game);
    assert!(
        !diagnostics.iter().any(|d| d.is_error()),
        "{diagnostics:?}\n{source}"
    );
    round_trips(&game);
    let Some(expected) = perfts(&game, 3) else {
        return;
    };
    let names: Vec<&str> = passes.iter().map(|p| p.name()).collect();
    let optimized = optimize_checked(&game, &passes, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}: {:?}\n--- input\n{source}", e.diagnostics));
    round_trips(&optimized);
    let got = perfts(&optimized, 3);
    assert_eq!(
        got.as_ref(),
        Some(&expected),
        "{names:?} changed perft\n--- before\n{source}--- after\n{}",
        print_game(&optimized)
    );
});
