//! Measures native perft: `cargo run --release -p rbg --example perft -- FILE... [--depth N] [--seconds S]`.
//! For each file, runs depths 0, 1, ... until the depth limit or until one
//! depth takes longer than the time limit, and prints one line per depth.

use std::time::{Duration, Instant};

use rg_core::model::{perft, Budget, ForwardModel};

fn main() {
    let mut files = Vec::new();
    let mut max_depth = 3;
    let mut seconds = 10.0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--depth" => max_depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(3),
            "--seconds" => seconds = args.next().and_then(|d| d.parse().ok()).unwrap_or(10.0),
            _ => files.push(arg),
        }
    }
    for file in files {
        let source = match std::fs::read_to_string(&file) {
            Ok(s) => s,
            Err(e) => {
                println!("{file}\tread error: {e}");
                continue;
            }
        };
        let start = Instant::now();
        let game = match rbg::parse_and_check(&source) {
            Ok(game) => game,
            Err(errors) => {
                for e in errors {
                    println!("{}", e.render(&file, &source));
                }
                continue;
            }
        };
        let model = match rbg::Interpreter::new(&game) {
            Ok(m) => m,
            Err(e) => {
                println!("{}", e.render(&file, &source));
                continue;
            }
        };
        let setup = start.elapsed();
        let initial = match model.initial() {
            Ok(s) => s,
            Err(e) => {
                println!("{file}\tinitial: {e}");
                continue;
            }
        };
        for depth in 0..=max_depth {
            let mut budget = Budget::with_time_limit(Duration::from_secs_f64(seconds));
            let start = Instant::now();
            match perft(&model, &initial, depth, &mut budget) {
                Ok(count) => {
                    let t = start.elapsed().as_secs_f64();
                    println!(
                        "{file}\t{depth}\t{count}\t{:.1} ms\t(setup {:.1} ms)",
                        t * 1000.0,
                        setup.as_secs_f64() * 1000.0
                    );
                }
                Err(e) => {
                    println!("{file}\t{depth}\tstopped: {e}");
                    break;
                }
            }
        }
    }
}
