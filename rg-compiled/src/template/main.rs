//! Command-line front of a compiled RG reasoner. Output is one JSON object
//! per line; errors are `{"error": "..."}` with exit status 1.
//!
//!   perft DEPTH          perft at depths 0..=DEPTH, one line each
//!   playouts N SEED      N random playouts
//!   moves                the legal moves of the initial state
//! Options: --expose-keeper --first-keeper-walk --lenient --step-limit N

// @extern-crate
use rgc_game::runtime::{Model, Options, Rng, State, R};
use std::time::Instant;

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn fail(message: &str) -> ! {
    println!("{{\"error\":{}}}", json_string(message));
    std::process::exit(1)
}

fn number(arg: Option<&String>, what: &str) -> u64 {
    match arg.and_then(|a| a.parse().ok()) {
        Some(n) => n,
        None => fail(&format!("expected a number for {what}")),
    }
}

fn run(args: &[String]) -> R<()> {
    let mut options = Options::default();
    let mut positional = Vec::new();
    let mut k = 0;
    while k < args.len() {
        match args[k].as_str() {
            "--expose-keeper" => options.expose_keeper = true,
            "--first-keeper-walk" => options.first_keeper_walk = true,
            "--lenient" => options.lenient = true,
            "--step-limit" => {
                k += 1;
                options.step_limit = number(args.get(k), "--step-limit");
            }
            other => positional.push(other.to_string()),
        }
        k += 1;
    }
    let mut model = Model::new(options);
    match positional.first().map(String::as_str) {
        Some("perft") => {
            let depth = number(positional.get(1), "the depth");
            let start = Instant::now();
            let initial: State = model.initial()?;
            println!(
                "{{\"initial_seconds\":{}}}",
                start.elapsed().as_secs_f64()
            );
            for d in 0..=depth {
                let start = Instant::now();
                let nodes = model.perft(&initial, d as u32)?;
                println!(
                    "{{\"depth\":{d},\"nodes\":{nodes},\"seconds\":{}}}",
                    start.elapsed().as_secs_f64()
                );
            }
        }
        Some("moves") => {
            let initial = model.initial()?;
            let moves: Vec<String> = model
                .legal_moves(&initial)?
                .iter()
                .map(|m| json_string(&model.format_move(m)))
                .collect();
            println!("{{\"moves\":[{}]}}", moves.join(","));
        }
        Some("playouts") => {
            let n = number(positional.get(1), "the playout count");
            let seed = number(positional.get(2), "the seed");
            let mut rng = Rng::new(seed);
            let start = Instant::now();
            let mut moves = 0;
            let mut branching = 0;
            let mut sums = vec![0i64; model.player_names().len()];
            for _ in 0..n {
                let (made, met) = model.playout_summed(&mut rng, 10_000_000, &mut sums)?;
                moves += made;
                branching += met;
            }
            let seconds = start.elapsed().as_secs_f64();
            let sums: Vec<String> = sums.iter().map(i64::to_string).collect();
            let players: Vec<String> = model.player_names().iter().map(|p| json_string(p)).collect();
            println!(
                "{{\"playouts\":{n},\"moves\":{moves},\"branching\":{branching},\"seconds\":{seconds},\"goal_sums\":[{}],\"players\":[{}]}}",
                sums.join(","),
                players.join(",")
            );
        }
        _ => fail("usage: perft DEPTH | moves | playouts N SEED [--expose-keeper] [--first-keeper-walk] [--lenient] [--step-limit N]"),
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Move searches recurse along walks (keeper chains can be long).
    let worker = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || run(&args).map_err(|f| f.message()));
    match worker.map(|h| h.join()) {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(message))) => fail(&message),
        _ => fail("the reasoner's worker thread failed"),
    }
}
