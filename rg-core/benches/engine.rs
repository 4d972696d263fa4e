//! Engine throughput: perft and random playouts on the RG games of the
//! shared corpus and the team corpus (figures in docs/benchmarks.md).
//!
//! Run with `cargo bench -p rg-core --bench engine`; the shared corpus is
//! read from `$RGW_CORPUS` (default `../shared/corpus`).

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, run_playouts, Budget, ForwardModel};

fn corpus_file(relative: &str) -> Option<PathBuf> {
    let root = std::env::var_os("RGW_CORPUS").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus")),
        PathBuf::from,
    );
    let path = root.join(relative);
    path.is_file().then_some(path)
}

fn team_file(relative: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus")).join(relative)
}

fn engine(path: &PathBuf) -> Engine {
    let text = std::fs::read_to_string(path).expect("readable game");
    Engine::from_source(&text, EngineOptions::default()).expect("valid game")
}

/// (label, file, perft depth)
fn games() -> Vec<(String, PathBuf, u32)> {
    let mut games = vec![
        (
            "team/ticTacToe".to_string(),
            team_file("rg/ticTacToe.rg"),
            6,
        ),
        (
            "team/breakthrough6x6".to_string(),
            team_file("rg/breakthrough.rg"),
            4,
        ),
    ];
    for (name, depth) in [
        ("ticTacToe", 6),
        ("breakthrough", 5),
        ("breakthrough-simple", 4),
    ] {
        if let Some(path) = corpus_file(&format!("rg/{name}.rg")) {
            games.push((format!("shared/{name}"), path, depth));
        }
    }
    games
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (label, path, depth) in games() {
        let e = engine(&path);
        let initial = e.initial().unwrap();
        group.bench_function(format!("{label}/depth{depth}"), |b| {
            b.iter(|| perft(&e, &initial, depth, &mut Budget::unlimited()).unwrap());
        });
    }
    group.finish();
}

fn bench_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playouts");
    group.sample_size(10);
    for (label, path, _) in games() {
        let e = engine(&path);
        group.bench_function(format!("{label}/100"), |b| {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
            b.iter(|| run_playouts(&e, 100, &mut rng, 1_000_000).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_playouts);
criterion_main!(benches);
