//! By-hand sweep: grounding, propnet and reasoner on every corpus game
//! (`cargo test --release -p gdl --test propnet_sweep -- --ignored --nocapture`).

use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::model::{perft, Budget, ForwardModel};

#[test]
#[ignore]
fn propnet_sweep() {
    let Some(corpus) = testkit::shared_corpus("propnet_sweep") else {
        return;
    };
    let table = testkit::perft_table(&corpus);
    let filter = std::env::var("GAME").ok();
    for file in testkit::files_with_extension(&corpus.join("kif"), "kif") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let source = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let game = match gdl::load(&source) {
            Ok(g) => g,
            Err(e) => {
                println!("{name}: invalid {}", e[0].message);
                continue;
            }
        };
        let start = Instant::now();
        let limits = GroundingLimits {
            max_time: Some(Duration::from_secs(20)),
            ..GroundingLimits::default()
        };
        let model = match PropnetModel::new(&gdl::to_datalog(&game), &limits) {
            Ok(m) => m,
            Err(e) => {
                println!(
                    "{name}: grounding failed after {:.1}s: {e}",
                    start.elapsed().as_secs_f64()
                );
                continue;
            }
        };
        let g = model.ground_program();
        let build = start.elapsed();
        let mut line = format!(
            "{name}: ground {:.2}s atoms {} rules {} comps {}",
            build.as_secs_f64(),
            g.atoms.len(),
            g.rules.len(),
            model.network().len()
        );
        let reasoner = gdl::Reasoner::new(&game).unwrap();
        let expected = testkit::expected_perft(&table, &format!("kif/{name}"), f64::INFINITY);
        let mut budget = Budget::with_time_limit(Duration::from_secs(20));
        let initial = model.initial().unwrap();
        let rinitial = reasoner.initial().unwrap();
        for (depth, count) in expected {
            let t = Instant::now();
            match perft(&model, &initial, depth, &mut budget) {
                Ok(got) => {
                    let r = perft(&reasoner, &rinitial, depth, &mut Budget::unlimited()).ok();
                    let mark = if got == count && r == Some(got) {
                        "ok"
                    } else {
                        "MISMATCH"
                    };
                    line += &format!(
                        " | d{depth} {got}/{count}/{r:?} {mark} {:.2}s",
                        t.elapsed().as_secs_f64()
                    );
                }
                Err(e) => {
                    line += &format!(" | d{depth} {e}");
                    break;
                }
            }
        }
        println!("{line}");
    }
}
