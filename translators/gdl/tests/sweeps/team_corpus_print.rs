//! By hand: joint perft of the team corpus with both models
//! (`cargo test --release -p gdl --test sweeps team_corpus_print -- --ignored --nocapture`).

use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::model::Budget;

#[test]
#[ignore]
fn print_team_corpus_perft() {
    let max_depth: u32 = std::env::var("DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(6);
    for file in testkit::files_with_extension(&testkit::team_corpus().join("kif"), "kif") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&file).unwrap();
        let game = gdl::load(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let reasoner = gdl::Prover::new(&game.description).unwrap();
        let model =
            PropnetModel::new(&gdl::to_datalog(&game), &GroundingLimits::default()).unwrap();
        for depth in 0..=max_depth {
            let t = Instant::now();
            let mut budget = Budget::with_time_limit(Duration::from_secs(120));
            let p = rg_core::joint::joint_perft(&model, depth, &mut budget);
            let tp = t.elapsed();
            let t = Instant::now();
            let r = rg_core::joint::joint_perft(
                &reasoner,
                depth,
                &mut Budget::with_time_limit(Duration::from_secs(120)),
            );
            println!(
                "{name}\t{depth}\t{p:?}\t{r:?}\t{:.2}s\t{:.2}s",
                tp.as_secs_f64(),
                t.elapsed().as_secs_f64()
            );
            if p.is_err() || r.is_err() {
                break;
            }
        }
    }
}
