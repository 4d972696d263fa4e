//! By hand: time of each phase (grounding, network build, first states) on
//! one corpus game (`GAME=skirmish cargo test --release -p gdl --test sweeps
//! phase_timing -- --ignored --nocapture`).

use std::time::Instant;

use propnet::{ground, GroundingLimits, PropnetModel};
use rg_core::model::{perft, Budget, ForwardModel};

#[test]
#[ignore]
fn phase_timing() {
    let Some(corpus) = testkit::shared_corpus("phase_timing") else {
        return;
    };
    let name = std::env::var("GAME").unwrap_or_else(|_| "ticTacToe".into());
    let path = corpus.join("kif").join(format!("{name}.kif"));
    let source = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let t = Instant::now();
    let game = gdl::load(&source).unwrap();
    let program = gdl::to_datalog(&game);
    println!("load {:.2}s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let ground_program = ground(&program, &GroundingLimits::default()).unwrap();
    println!(
        "ground {:.2}s {:?}",
        t.elapsed().as_secs_f64(),
        ground_program.stats
    );
    let t = Instant::now();
    let model = PropnetModel::from_ground(ground_program);
    println!(
        "build {:.2}s components {}",
        t.elapsed().as_secs_f64(),
        model.network().len()
    );
    let t = Instant::now();
    let initial = model.initial().unwrap();
    let n = perft(&model, &initial, 2, &mut Budget::unlimited()).unwrap();
    println!("perft(2) = {n} in {:.2}s", t.elapsed().as_secs_f64());
}
