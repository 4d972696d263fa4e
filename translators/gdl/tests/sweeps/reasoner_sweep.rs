//! By-hand sweep: the reasoner's perft on every corpus game against
//! perft.tsv (`cargo test --release -p gdl --test sweeps reasoner_sweep -- --ignored --nocapture`).

use std::time::{Duration, Instant};

use rg_core::model::{perft, Budget, ForwardModel};

#[test]
#[ignore]
fn reasoner_sweep() {
    let Some(corpus) = testkit::shared_corpus("reasoner_sweep") else {
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
        let start = Instant::now();
        let game = match gdl::load(&source) {
            Ok(g) => g,
            Err(e) => {
                println!("{name}: invalid {}", e[0].message);
                continue;
            }
        };
        let reasoner = match gdl::Prover::new(&game.description) {
            Ok(r) => r,
            Err(e) => {
                println!("{name}: reasoner error {e}");
                continue;
            }
        };
        let build = start.elapsed();
        let expected = testkit::expected_perft(&table, &format!("kif/{name}"), f64::INFINITY);
        let mut budget = Budget::with_time_limit(Duration::from_secs(20));
        let initial = match reasoner.initial() {
            Ok(s) => s,
            Err(e) => {
                println!("{name}: initial error {e}");
                continue;
            }
        };
        let mut line = format!("{name}: build {:.2}s", build.as_secs_f64());
        for (depth, count) in expected {
            let t = Instant::now();
            match perft(&reasoner, &initial, depth, &mut budget) {
                Ok(got) => {
                    let mark = if got == count { "ok" } else { "MISMATCH" };
                    line += &format!(
                        " | d{depth} {got}/{count} {mark} {:.2}s",
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
