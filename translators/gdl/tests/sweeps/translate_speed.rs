//! By-hand timing of the translated game against the native models:
//! perft time per depth for the RG engine, the reasoner and the propnet
//! (`GAME=name DEPTH=d cargo test --release -p gdl --test sweeps translate_speed -- --ignored --nocapture`).

use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

fn timed<M: ForwardModel>(model: &M, depth: u32) -> String {
    let s = match model.initial() {
        Ok(s) => s,
        Err(e) => return format!("fails: {e}"),
    };
    let start = Instant::now();
    match perft(
        model,
        &s,
        depth,
        &mut Budget::with_time_limit(Duration::from_secs(60)),
    ) {
        Ok(n) => format!("{n} in {:.2} s", start.elapsed().as_secs_f64()),
        Err(e) => format!("{e}"),
    }
}

#[test]
#[ignore]
fn translate_speed() {
    let Some(corpus) = testkit::shared_corpus("translate_speed") else {
        return;
    };
    let Ok(name) = std::env::var("GAME") else {
        return;
    };
    let depth: u32 = std::env::var("DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(2);
    let path = corpus.join("kif").join(format!("{name}.kif"));
    let source = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let t = gdl::translate(&source, &GroundingLimits::default()).unwrap();
    println!("{:?}", t.stats);
    let engine = Engine::new(&t.game, EngineOptions::default()).unwrap();
    let game = gdl::load(&source).unwrap();
    let reasoner = gdl::Prover::new(&game.description).unwrap();
    let propnet = PropnetModel::new(&gdl::to_datalog(&game), &GroundingLimits::default()).unwrap();
    if std::env::var("ONLY_RG").is_ok() {
        for d in 0..=depth {
            println!("depth {d}: RG {}", timed(&engine, d));
        }
        return;
    }
    for d in 0..=depth {
        println!(
            "depth {d}: RG {} | reasoner {} | propnet {}",
            timed(&engine, d),
            timed(&reasoner, d),
            timed(&propnet, d)
        );
    }
}
