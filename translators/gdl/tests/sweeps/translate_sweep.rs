//! By-hand sweep of the whole GDL pipeline over the shared corpus, printing
//! the corpus table of docs/gdl.md: reasoner setup, grounding size and
//! time, propnet size, the RG translation's time and size, the perft.tsv
//! rows each model reproduces, and the depth up to which the reasoner, the
//! propnet model and the RG translation agree three ways, with about 20 s
//! per game for each of these checks
//! (`cargo test --release -p gdl --test sweeps translate_sweep -- --ignored --nocapture`;
//! `GAME=name` restricts it, `BUDGET_SECONDS=n` changes the budget).

use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

use super::common;

/// The depths of the expected rows a model reproduces within `deadline`
/// (`MISMATCH …` at the first wrong count).
fn reproduced<M: ForwardModel>(model: &M, expected: &[(u32, u64)], deadline: Instant) -> String {
    let Ok(initial) = model.initial() else {
        return "fails".into();
    };
    let mut rows = Vec::new();
    for &(depth, count) in expected {
        let mut budget = Budget::with_deadline(Some(deadline));
        match perft(model, &initial, depth, &mut budget) {
            Ok(got) if got == count => rows.push(depth.to_string()),
            Ok(got) => {
                rows.push(format!("MISMATCH at {depth}: {got} vs {count}"));
                break;
            }
            Err(_) => break,
        }
    }
    if rows.is_empty() {
        "-".into()
    } else {
        rows.join(",")
    }
}

#[test]
#[ignore]
fn translate_sweep() {
    let Some(corpus) = testkit::shared_corpus("translate_sweep") else {
        return;
    };
    let table = testkit::perft_table(&corpus);
    let filter = std::env::var("GAME").ok();
    let seconds: u64 = std::env::var("BUDGET_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let budget = Duration::from_secs(seconds);
    println!("| game | roles | reasoner setup | grounding | atoms | ground rules | propnet components | lowering + check | RG nodes | RG edges | perft.tsv depths (reasoner / propnet / RG) | reasoner = propnet = RG at depths 0 … |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let (mut translated, mut agreeing) = (0, 0);
    let mut failing = Vec::new();
    for file in testkit::files_with_extension(&corpus.join("kif"), "kif") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".kif").to_string();
        if filter.as_ref().is_some_and(|f| stem != *f) {
            continue;
        }
        let source = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let game = gdl::load(&source).unwrap();
        let roles = game.roles.len() as u32;
        let expected = testkit::expected_perft(&table, &format!("kif/{name}"), f64::INFINITY);
        let start = Instant::now();
        let reasoner = gdl::Prover::new(&game.description);
        let reasoner_time = start.elapsed().as_secs_f64();
        let (reasoner_cell, reasoner_rows) = match &reasoner {
            Ok(r) => (
                format!("{reasoner_time:.2} s"),
                reproduced(r, &expected, Instant::now() + budget),
            ),
            Err(e) => (format!("fails: {e}"), "-".into()),
        };
        let limits = GroundingLimits {
            max_time: Some(budget),
            ..GroundingLimits::default()
        };
        let start = Instant::now();
        let ground = propnet::ground(&gdl::to_datalog(&game), &limits);
        let grounding = start.elapsed().as_secs_f64();
        let ground = match ground {
            Ok(g) => g,
            Err(e) => {
                println!(
                    "| `{stem}` | {roles} | {reasoner_cell} | limit: {e} ({grounding:.1} s) | | | | | | | {reasoner_rows} / - / - | - |"
                );
                failing.push(format!("{stem}: {e}"));
                continue;
            }
        };
        let (atoms, rules) = (ground.atoms.len(), ground.rules.len());
        let t = match gdl::lower(&game, &ground) {
            Ok(t) => t,
            Err(e) => {
                println!(
                    "| `{stem}` | {roles} | {reasoner_cell} | {grounding:.2} s | {atoms} | {rules} | | fails: {} | | | {reasoner_rows} / - / - | - |",
                    e[0].message
                );
                failing.push(format!("{stem}: {}", e[0].message));
                continue;
            }
        };
        translated += 1;
        let propnet = PropnetModel::from_ground(ground);
        let components = propnet.network().len();
        let lowering = (t.stats.lowering_time + t.stats.check_time).as_secs_f64();
        let prefix = format!(
            "| `{stem}` | {roles} | {reasoner_cell} | {grounding:.2} s | {atoms} | {rules} | {components} | {lowering:.2} s | {} | {} |",
            t.stats.nodes, t.stats.edges
        );
        let engine = match Engine::new(&t.game, EngineOptions::default()) {
            Ok(e) => e,
            Err(errors) => {
                println!("{prefix} engine refuses: {} | - |", errors[0].message);
                failing.push(format!("{stem}: engine: {}", errors[0].message));
                continue;
            }
        };
        let propnet_rows = reproduced(&propnet, &expected, Instant::now() + budget);
        let rg_rows = reproduced(&engine, &expected, Instant::now() + budget);
        let rows = if reasoner_rows == propnet_rows && propnet_rows == rg_rows {
            rg_rows
        } else {
            format!("{reasoner_rows} / {propnet_rows} / {rg_rows}")
        };
        let agreement = match &reasoner {
            Ok(r) => {
                let deadline = Instant::now() + budget;
                common::three_way(r, &propnet, &engine, 4 * roles, |_| Some(deadline))
            }
            Err(e) => common::ThreeWay {
                counts: Vec::new(),
                stopped: None,
                mismatch: Some(format!("reasoner: {e}")),
            },
        };
        let agree = match (&agreement.mismatch, agreement.depth()) {
            (Some(m), _) => {
                println!("  {stem}: {m}");
                failing.push(format!("{stem}: {m}"));
                "MISMATCH".to_string()
            }
            (None, Some(depth)) => {
                if depth >= roles {
                    agreeing += 1;
                } else {
                    failing.push(format!(
                        "{stem}: less than one round within the budget ({})",
                        agreement.stopped.clone().unwrap_or_default()
                    ));
                }
                format!("{depth} ({} rounds)", depth / roles)
            }
            (None, None) => "-".to_string(),
        };
        println!("{prefix} {rows} | {agree} |");
    }
    println!("translated: {translated}, agreeing three ways for at least one round: {agreeing}");
    for f in failing {
        println!("  not agreeing: {f}");
    }
}
