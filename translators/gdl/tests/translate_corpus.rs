//! The RG translation of every shared corpus game that grounds agrees with
//! the native reasoner and the propnet model on perft at every depth of one
//! full round of all roles (up to two rounds where that is done within
//! half a second), and with the cheap perft.tsv rows; sudoku grounds only
//! with relations evaluated at run time (docs/gdl.md §5.8), no other game
//! has any; alexChess (2.9 million RG edges, about 25 s and 2.6 GB to
//! translate) is grounded with the default limits, every other game with
//! this test's smaller ones. All 56 games must agree three ways. (The
//! by-hand `translate_sweep` goes deeper, with about 20 s per game.)
//!
//! Games are checked by two worker threads, the costly ones first;
//! `--nocapture` prints one line per game with its time.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

mod common;

/// Games that do not ground within this test's limits (nor within the
/// default ones; see docs/gdl.md for why): none since run-time relations.
const GROUNDING_LIMITED: &[&str] = &[];
/// Games with relations evaluated at run time (too large to ground).
const RUNTIME_RELATIONS: &[&str] = &["sudoku.kif"];
/// Games grounded with the default limits (the others, with this test's
/// smaller ones, so that a grounding regression shows up as a failure).
const DEFAULT_LIMITS: &[&str] = &["alexChess.kif", "sudoku.kif"];
/// The games that take longest here (alexChess about 40 s, merrills 15 s,
/// the others a few seconds, mostly the RG checker), started first.
const COSTLY: &[&str] = &[
    "alexChess.kif",
    "merrills.kif",
    "skirmish.kif",
    "quartoSuicide.kif",
    "cylinder-checkers.kif",
    "amazonsSuicide_10x10.kif",
];
/// At least this many games must agree three ways.
const MIN_AGREEING: usize = 56;
/// perft.tsv rows whose reference time is at most this are checked.
const MAX_REFERENCE_MILLIS: f64 = 300.0;
/// Time for the three-way comparison of one game up to one round (it
/// normally needs well under a second; the limit only catches a runaway).
const GAME_SECONDS: u64 = 30;
/// Time for the comparison of one game beyond one round, up to two.
const EXTRA_MILLIS: u64 = 500;

fn limits() -> GroundingLimits {
    GroundingLimits {
        max_atoms: 1_000_000,
        max_rules: 1_000_000,
        max_time: Some(Duration::from_secs(10)),
    }
}

enum Outcome {
    /// Agreement at every depth up to this one, and where the time went.
    Agrees(u32, String),
    /// A grounding limit, with a clear message.
    Limited(String),
}

fn check_game(file: &std::path::Path, table: &[testkit::PerftRow]) -> Result<Outcome, String> {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let source = String::from_utf8_lossy(&std::fs::read(file).expect("readable")).into_owned();
    if GROUNDING_LIMITED.contains(&name.as_str()) {
        let small = GroundingLimits {
            max_atoms: 200_000,
            max_rules: 200_000,
            max_time: Some(Duration::from_secs(2)),
        };
        return match gdl::translate(&source, &small) {
            Ok(_) => Err("expected grounding to exceed the limits".into()),
            Err(e)
                if e[0].message.contains("exceeded")
                    && (e[0].message.contains("relation")
                        || e[0].message.contains("rules for")) =>
            {
                Ok(Outcome::Limited(e[0].message.clone()))
            }
            Err(e) => Err(format!("unclear grounding failure: {}", e[0].message)),
        };
    }
    let mut clock = Instant::now();
    let mut lap = || {
        let t = clock.elapsed().as_secs_f64();
        clock = Instant::now();
        t
    };
    let game = gdl::load(&source).map_err(|e| e[0].message.clone())?;
    // Ground once for both the translation and the propnet.
    let limits = if DEFAULT_LIMITS.contains(&name.as_str()) {
        GroundingLimits::default()
    } else {
        limits()
    };
    let ground = propnet::ground(&gdl::to_datalog(&game), &limits).map_err(|e| e.to_string())?;
    let grounding = lap();
    let runtime = !ground.runtime.relations.is_empty();
    if runtime != RUNTIME_RELATIONS.contains(&name.as_str()) {
        return Err(format!(
            "run-time relations: expected {}, got {:?}",
            !runtime, ground.stats.runtime_relations
        ));
    }
    let t = gdl::lower(&game, &ground).map_err(|e| e[0].message.clone())?;
    let lowering = lap();
    let engine = Engine::new(&t.game, EngineOptions::default())
        .map_err(|e| format!("engine: {}", e[0].message))?;
    let engine_time = lap();
    let propnet = PropnetModel::from_ground(ground);
    let reasoner = gdl::Prover::new(&game.description).map_err(|e| e.to_string())?;
    let models = lap();
    if engine.player_names() != reasoner.player_names() {
        return Err(format!(
            "players {:?} vs {:?}",
            engine.player_names(),
            reasoner.player_names()
        ));
    }
    let round = reasoner.player_names().len() as u32;
    let deadline = Instant::now() + Duration::from_secs(GAME_SECONDS);
    let cheap = Instant::now() + Duration::from_millis(EXTRA_MILLIS);
    let agreement = common::three_way(&reasoner, &propnet, &engine, 2 * round, |d| {
        Some(if d <= round { deadline } else { cheap })
    });
    if let Some(m) = agreement.mismatch {
        return Err(m);
    }
    let depth = agreement.depth().unwrap_or(0);
    if depth < round {
        return Err(format!(
            "stopped before one round ({round} plies): {}; agreed {:?}",
            agreement.stopped.unwrap_or_default(),
            agreement.counts
        ));
    }
    let initial = engine.initial().map_err(|e| e.to_string())?;
    for (depth, count) in
        testkit::expected_perft(table, &format!("kif/{name}"), MAX_REFERENCE_MILLIS)
    {
        let got = perft(
            &engine,
            &initial,
            depth,
            &mut Budget::with_deadline(Some(deadline)),
        )
        .map_err(|e| e.to_string())?;
        if got != count {
            return Err(format!("RG perft({depth}) = {got}, perft.tsv says {count}"));
        }
    }
    let perft_time = lap();
    Ok(Outcome::Agrees(
        depth,
        format!(
            "load + ground {grounding:.2}, lower + check {lowering:.2}, engine {engine_time:.2}, \
             propnet + reasoner {models:.2}, perft {perft_time:.2}"
        ),
    ))
}

#[test]
fn corpus_agrees_three_ways() {
    let Some(corpus) = testkit::shared_corpus("translate_corpus") else {
        return;
    };
    let table = testkit::perft_table(&corpus);
    let mut files = testkit::files_with_extension(&corpus.join("kif"), "kif");
    assert!(files.len() >= 56, "corpus has {} kif files", files.len());
    // The costly games first, so that the two workers finish together.
    files.sort_by_key(|f| {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        COSTLY
            .iter()
            .position(|c| *c == name)
            .unwrap_or(COSTLY.len())
    });
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(k) else { break };
                let start = Instant::now();
                let outcome = check_game(file, &table);
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                println!(
                    "{name}: {:.2} s: {}",
                    start.elapsed().as_secs_f64(),
                    match &outcome {
                        Ok(Outcome::Agrees(d, times)) => {
                            format!("agree up to depth {d} ({times})")
                        }
                        Ok(Outcome::Limited(m)) => format!("limit: {m}"),
                        Err(e) => format!("FAILS: {e}"),
                    }
                );
                results.lock().unwrap().push((name, outcome));
            });
        }
    });
    let results = results.into_inner().unwrap();
    let agreeing = results
        .iter()
        .filter(|(_, o)| matches!(o, Ok(Outcome::Agrees(..))))
        .count();
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(name, o)| o.as_ref().err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        agreeing >= MIN_AGREEING,
        "only {agreeing} games agree three ways"
    );
}
