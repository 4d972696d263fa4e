//! By-hand sweep of the GDL → RG translation over the shared corpus,
//! printing the translation table of docs/gdl.md: translation time and
//! size, perft.tsv rows reproduced by the RG engine, and the depth up to
//! which the reasoner, the propnet model and the engine agree, with about
//! 20 s per game
//! (`cargo test --release -p gdl --test translate_sweep -- --ignored --nocapture`;
//! `GAME=name` restricts it, `BUDGET_SECONDS=n` changes the budget).

use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};
use rg_core::verify::{verify, Verdict};

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
    println!("| game | roles | translation | grounding + lowering + check | atoms | ground rules | RG nodes | RG edges | perft.tsv depths (RG) | reasoner = propnet = RG at depths 0 … |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let (mut translated, mut agreeing) = (0, 0);
    for file in testkit::files_with_extension(&corpus.join("kif"), "kif") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".kif");
        if filter.as_ref().is_some_and(|f| stem != f.as_str()) {
            continue;
        }
        let source = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let game = gdl::load(&source).unwrap();
        let roles = game.roles.len() as u32;
        let limits = GroundingLimits {
            max_time: Some(Duration::from_secs(seconds)),
            ..GroundingLimits::default()
        };
        let start = Instant::now();
        let translation = gdl::translate(&source, &limits);
        let time = start.elapsed();
        let t = match translation {
            Ok(t) => t,
            Err(errors) => {
                println!(
                    "| `{stem}` | {roles} | fails: {} | {:.2} s | | | | | | |",
                    errors[0].message,
                    time.as_secs_f64()
                );
                continue;
            }
        };
        translated += 1;
        let engine = match Engine::new(&t.game, EngineOptions::default()) {
            Ok(e) => e,
            Err(errors) => {
                println!(
                    "| `{stem}` | {roles} | engine refuses: {} | | | | | | | |",
                    errors[0].message
                );
                continue;
            }
        };
        let reasoner = gdl::Reasoner::new(&game).unwrap();
        let deadline = Instant::now() + Duration::from_secs(seconds);
        // perft.tsv rows, each within the remaining budget.
        let expected = testkit::expected_perft(&table, &format!("kif/{name}"), f64::INFINITY);
        let initial = engine.initial().unwrap();
        let mut rows = Vec::new();
        for &(depth, count) in &expected {
            let mut budget = Budget::with_deadline(Some(deadline));
            match perft(&engine, &initial, depth, &mut budget) {
                Ok(got) if got == count => rows.push(depth.to_string()),
                Ok(got) => {
                    rows.push(format!("MISMATCH at {depth}: {got} vs {count}"));
                    break;
                }
                Err(_) => break,
            }
        }
        let rows = if rows.is_empty() {
            "-".to_string()
        } else {
            rows.join(",")
        };
        // Three-way agreement.
        let mut budget = Budget::with_deadline(Some(Instant::now() + Duration::from_secs(seconds)));
        let verdict = verify(&reasoner, &engine, 4 * roles, &mut budget);
        let agree = match &verdict {
            Verdict::Agree { perft: counts, .. } => {
                let propnet = PropnetModel::new(&gdl::to_datalog(&game), &limits).unwrap();
                let ps = propnet.initial().unwrap();
                let mut same = true;
                for (d, &c) in counts.iter().enumerate() {
                    let mut b = Budget::with_time_limit(Duration::from_secs(seconds));
                    match perft(&propnet, &ps, d as u32, &mut b) {
                        Ok(x) if x == c => {}
                        Ok(x) => {
                            println!("  {stem}: propnet {x} vs {c} at {d}");
                            same = false;
                        }
                        Err(_) => break,
                    }
                }
                let depth = counts.len() as u32 - 1;
                if same && depth >= roles {
                    agreeing += 1;
                }
                format!(
                    "{depth} ({} rounds){}",
                    depth / roles,
                    if same { "" } else { " PROPNET DIFFERS" }
                )
            }
            other => format!("{other}"),
        };
        println!(
            "| `{stem}` | {roles} | ok | {:.2} + {:.2} + {:.2} s | {} | {} | {} | {} | {rows} | {agree} |",
            t.stats.grounding_time.as_secs_f64(),
            t.stats.lowering_time.as_secs_f64(),
            t.stats.check_time.as_secs_f64(),
            t.stats.atoms,
            t.stats.ground_rules,
            t.stats.nodes,
            t.stats.edges,
        );
    }
    println!("translated: {translated}, agreeing three ways for at least one round: {agreeing}");
}
