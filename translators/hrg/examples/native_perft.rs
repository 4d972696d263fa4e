//! Perft of an HRG game with the native interpreter and with the RG engine
//! running its translation, depth by depth (a development aid):
//! `cargo run --release -p hrg --example native_perft -- game.hrg 4 [--lenient]`.

use std::time::Instant;

use hrg::interpreter::InterpreterOptions;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::{perft, Budget, ForwardModel};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(depth)) = (args.get(1), args.get(2).and_then(|d| d.parse::<u32>().ok()))
    else {
        eprintln!("usage: native_perft GAME.hrg DEPTH [--lenient]");
        std::process::exit(2);
    };
    let lenient = args.iter().any(|a| a == "--lenient");
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let native = match hrg::Interpreter::with_options(
        &text,
        InterpreterOptions {
            lenient,
            ..InterpreterOptions::default()
        },
    ) {
        Ok(n) => n,
        Err(d) => {
            eprintln!("{}", rg_core::diag::render_all(&d, path, &text));
            std::process::exit(1);
        }
    };
    let game = match hrg::translate(&text) {
        Ok(t) => t.game,
        Err(d) => {
            eprintln!("{}", rg_core::diag::render_all(&d, path, &text));
            std::process::exit(1);
        }
    };
    let engine = match Engine::new(
        &game,
        EngineOptions {
            lenient,
            ..EngineOptions::default()
        },
    ) {
        Ok(e) => e,
        Err(d) => {
            eprintln!("{d:?}");
            std::process::exit(1);
        }
    };
    let (n0, e0) = match (native.initial(), engine.initial()) {
        (Ok(n), Ok(e)) => (n, e),
        (n, e) => {
            eprintln!("initial: native {:?} engine {:?}", n.err(), e.err());
            std::process::exit(1);
        }
    };
    for d in 0..=depth {
        let t = Instant::now();
        let n = perft(&native, &n0, d, &mut Budget::unlimited());
        let tn = t.elapsed();
        let t = Instant::now();
        let e = perft(&engine, &e0, d, &mut Budget::unlimited());
        let te = t.elapsed();
        println!("depth {d}: native {n:?} ({tn:.2?}) engine {e:?} ({te:.2?})");
    }
}
