//! The native interpreter agrees with the RG engine running the
//! translation, and both with perft.tsv, on every HRG game of the team's
//! corpus and of the shared corpus, at every depth up to a small one.

use std::path::Path;
use std::time::Duration;

use hrg::interpreter::InterpreterOptions;
use hrg::Interpreter;
use rg_core::engine::{Engine, EngineOptions};
use rg_core::model::Budget;
use rg_core::verify::verify;
use testkit::{
    expected_perft, files_with_extension, parse_perft_table, perft_table, shared_corpus,
    team_corpus,
};

/// Depths whose reference time in perft.tsv is at most this are checked
/// (the interpreter is roughly as fast as the reference implementations).
const CHEAP_MS: f64 = 600.0;
/// Depth limit for the team's games (their table lists no times).
const TEAM_DEPTH: u32 = 4;

/// Games that read map keys outside the key type (improper by hrg.md
/// §3.5): both models run them with lenient reads.
const LENIENT: [&str; 1] = ["dotsAndBoxes.hrg"];

/// The game's two models: the native interpreter and the RG engine on its
/// translation (both lenient for the games in [`LENIENT`]).
fn models(path: &Path) -> (Interpreter, Engine) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let lenient = LENIENT.contains(&name.as_str());
    let text = std::fs::read_to_string(path).unwrap();
    let native = Interpreter::with_options(
        &text,
        InterpreterOptions {
            lenient,
            ..InterpreterOptions::default()
        },
    )
    .unwrap_or_else(|d| panic!("{}", rg_core::diag::render_all(&d, &name, &text)));
    let game = hrg::translate(&text)
        .unwrap_or_else(|d| panic!("{}", rg_core::diag::render_all(&d, &name, &text)))
        .game;
    let engine = Engine::new(
        &game,
        EngineOptions {
            lenient,
            ..EngineOptions::default()
        },
    )
    .unwrap();
    (native, engine)
}

/// Compares native, engine and expected perft at depths `0..=max`.
fn check(path: &Path, expected: &[(u32, u64)]) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let (native, engine) = models(path);
    let max = expected.iter().map(|&(d, _)| d).max().unwrap_or(0);
    let verdict = verify(
        &native,
        &engine,
        max,
        &mut Budget::with_time_limit(Duration::from_secs(60)),
    );
    assert!(verdict.agrees(), "{name}: {verdict}");
    let perft = verdict.agreed();
    assert_eq!(perft.len() as u32, max + 1, "{name}: {verdict}");
    for &(depth, count) in expected {
        assert_eq!(perft[depth as usize], count, "{name} perft({depth})");
    }
}

#[test]
fn team_games_agree_with_the_engine_and_the_table() {
    let dir = team_corpus().join("hrg");
    let table = parse_perft_table(&std::fs::read_to_string(dir.join("perft.tsv")).unwrap());
    let files = files_with_extension(&dir, "hrg");
    assert!(files.len() >= 3);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let expected: Vec<(u32, u64)> = expected_perft(&table, &name, f64::INFINITY)
            .into_iter()
            .filter(|&(d, _)| d <= TEAM_DEPTH)
            .collect();
        assert!(!expected.is_empty(), "{name}: no perft.tsv rows");
        check(&path, &expected);
    }
}

#[test]
fn shared_games_agree_with_the_engine_and_the_table() {
    let Some(corpus) = shared_corpus("shared_games_agree_with_the_engine_and_the_table") else {
        return;
    };
    let table = perft_table(&corpus);
    let files = files_with_extension(&corpus.join("hrg"), "hrg");
    assert!(
        files.len() >= 32,
        "expected the corpus games, found {}",
        files.len()
    );
    for path in files {
        let name = format!("hrg/{}", path.file_name().unwrap().to_string_lossy());
        let expected = expected_perft(&table, &name, CHEAP_MS);
        assert!(!expected.is_empty(), "{name}: no cheap perft.tsv rows");
        check(&path, &expected);
    }
}

/// The deep verification of docs/hrg.md: every HRG game of both corpora,
/// native = RG = perft.tsv at every depth up to the deepest that each model
/// finishes within `HRG_SWEEP_SECONDS` (default 10) per depth. Prints one
/// Markdown row per game. Run by hand:
/// `HRG_SWEEP_SECONDS=10 cargo test --release -p hrg --test native -- --ignored --nocapture`
#[test]
#[ignore = "a by-hand sweep of several minutes"]
fn deep_verification_sweep() {
    let seconds: f64 = std::env::var("HRG_SWEEP_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let limit = Duration::from_secs_f64(seconds);
    let mut games: Vec<(String, std::path::PathBuf, Vec<testkit::PerftRow>)> = Vec::new();
    let team = team_corpus().join("hrg");
    let team_table = parse_perft_table(&std::fs::read_to_string(team.join("perft.tsv")).unwrap());
    for path in files_with_extension(&team, "hrg") {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        games.push((format!("team {name}"), path, team_table.clone()));
    }
    if let Some(corpus) = shared_corpus("deep_verification_sweep") {
        let table = perft_table(&corpus);
        for path in files_with_extension(&corpus.join("hrg"), "hrg") {
            let name = format!("hrg/{}", path.file_name().unwrap().to_string_lossy());
            games.push((name, path, table.clone()));
        }
    }
    println!("| game | depth | perft | native s | RG s | perft.tsv |");
    println!("|---|--:|--:|--:|--:|---|");
    let mut failures = Vec::new();
    for (name, path, table) in games {
        let (native, engine) = models(&path);
        let key = name.strip_prefix("team ").unwrap_or(&name);
        let expected = expected_perft(&table, key, f64::INFINITY);
        let native_series = timed_perft(&native, 64, limit);
        let depth = native_series.len().saturating_sub(1);
        let rg_series = timed_perft(&engine, u32::try_from(depth).unwrap(), limit);
        let depth = depth.min(rg_series.len().saturating_sub(1));
        let agree = (0..=depth).all(|d| native_series[d].0 == rg_series[d].0);
        let table_note = match expected
            .iter()
            .filter(|&&(d, _)| d as usize <= depth)
            .count()
        {
            0 => "no rows".to_string(),
            n if expected
                .iter()
                .filter(|&&(d, _)| d as usize <= depth)
                .all(|&(d, c)| native_series[d as usize].0 == c) =>
            {
                format!("agrees ({n} depths)")
            }
            _ => "DIFFERS".to_string(),
        };
        if !agree || table_note == "DIFFERS" {
            failures.push(name.clone());
        }
        println!(
            "| {name} | {depth} | {} | {:.2} | {:.2} | {table_note}{} |",
            native_series[depth].0,
            native_series[depth].1.as_secs_f64(),
            rg_series[depth].1.as_secs_f64(),
            if agree { "" } else { "; native != RG" }
        );
    }
    assert!(failures.is_empty(), "disagreements: {failures:?}");
}

/// Perft at depths 0, 1, … up to `max`, each within `limit`; stops at the
/// first depth that does not finish in time or has no leaves left.
fn timed_perft<M: rg_core::model::ForwardModel>(
    model: &M,
    max: u32,
    limit: Duration,
) -> Vec<(u64, Duration)> {
    let initial = model.initial().unwrap();
    let mut series = Vec::new();
    for depth in 0..=max {
        let started = std::time::Instant::now();
        match rg_core::model::perft(model, &initial, depth, &mut Budget::with_time_limit(limit)) {
            Ok(count) => series.push((count, started.elapsed())),
            Err(_) => break,
        }
        if series.last().is_some_and(|&(count, _)| count == 0) {
            break;
        }
    }
    series
}
