//! By-hand sweep over the shared corpus, printing a two-way table:
//! validation, grounding size and time, and perft agreement of the
//! reasoner, the propnet model and perft.tsv, with about 20 s per game
//! (`translate_sweep` prints the table of docs/gdl.md, which adds the RG
//! translation)
//! (`cargo test --release -p gdl --test sweeps propnet_sweep -- --ignored --nocapture`).

use std::time::{Duration, Instant};

use propnet::{GroundingLimits, PropnetModel};
use rg_core::model::{perft, Budget, ForwardModel};

fn budget() -> Budget {
    Budget::with_time_limit(Duration::from_secs(20))
}

#[test]
#[ignore]
fn propnet_sweep() {
    let Some(corpus) = testkit::shared_corpus("propnet_sweep") else {
        return;
    };
    let table = testkit::perft_table(&corpus);
    let filter = std::env::var("GAME").ok();
    println!("| game | roles | validation | reasoner setup | grounding | atoms | rules | components | perft.tsv depths equal (reasoner / propnet) | reasoner = propnet up to |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for file in testkit::files_with_extension(&corpus.join("kif"), "kif") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let source = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let game = match gdl::load(&source) {
            Ok(g) => g,
            Err(e) => {
                println!("| {name} | | rejected: {} | | | | | | | |", e[0].message);
                continue;
            }
        };
        let roles = game.roles.len();
        let t = Instant::now();
        let reasoner = gdl::Prover::new(&game.description);
        let reasoner_time = t.elapsed();
        let reasoner_cell = match &reasoner {
            Ok(_) => format!("{:.2} s", reasoner_time.as_secs_f64()),
            Err(e) => format!("fails: {e}"),
        };
        let t = Instant::now();
        let limits = GroundingLimits {
            max_time: Some(Duration::from_secs(20)),
            ..GroundingLimits::default()
        };
        let model = PropnetModel::new(&gdl::to_datalog(&game), &limits);
        let ground_time = t.elapsed();
        let (ground_cell, atoms, rules, comps) = match &model {
            Ok(m) => (
                format!("{:.2} s", ground_time.as_secs_f64()),
                m.ground_program().atoms.len().to_string(),
                m.ground_program().rules.len().to_string(),
                m.network().len().to_string(),
            ),
            Err(e) => (
                format!("fails after {:.1} s: {e}", ground_time.as_secs_f64()),
                "".into(),
                "".into(),
                "".into(),
            ),
        };
        let expected = testkit::expected_perft(&table, &format!("kif/{name}"), f64::INFINITY);
        let check = |model: &dyn Fn(u32) -> Option<u64>| -> String {
            let mut ok = Vec::new();
            for &(depth, count) in &expected {
                match model(depth) {
                    Some(got) if got == count => ok.push(depth.to_string()),
                    Some(got) => return format!("MISMATCH at {depth}: {got} vs {count}"),
                    None => break,
                }
            }
            ok.join(",")
        };
        let r_cell = match &reasoner {
            Ok(r) => {
                let s = r.initial().unwrap();
                check(&|d| perft(r, &s, d, &mut budget()).ok())
            }
            Err(_) => "-".into(),
        };
        let p_cell = match &model {
            Ok(m) => {
                let s = m.initial().unwrap();
                check(&|d| perft(m, &s, d, &mut budget()).ok())
            }
            Err(_) => "-".into(),
        };
        let agree = match (&reasoner, &model) {
            (Ok(r), Ok(m)) => {
                let (rs, ms) = (r.initial().unwrap(), m.initial().unwrap());
                let mut reached = None;
                let start = Instant::now();
                for depth in 0..=(4 * roles as u32) {
                    if start.elapsed() > Duration::from_secs(20) {
                        break;
                    }
                    let (a, b) = (
                        perft(r, &rs, depth, &mut budget()),
                        perft(m, &ms, depth, &mut budget()),
                    );
                    match (a, b) {
                        (Ok(a), Ok(b)) if a == b => reached = Some(depth),
                        (Ok(a), Ok(b)) => {
                            reached = None;
                            println!("  {name}: DISAGREE at {depth}: {a} vs {b}");
                            break;
                        }
                        _ => break,
                    }
                }
                reached.map_or("DISAGREE".to_string(), |d| {
                    format!("{d} ({} rounds)", d / roles as u32)
                })
            }
            _ => "-".into(),
        };
        println!("| {name} | {roles} | validates | {reasoner_cell} | {ground_cell} | {atoms} | {rules} | {comps} | {r_cell} / {p_cell} | {agree} |");
    }
}
