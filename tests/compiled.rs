//! `--via compiled` and `rgw compile` (issue #19): compiled perft equals the
//! RG engine's on the team corpus in every language (and, when present, on
//! the shared corpus's RBG games), the build cache is reused, the written
//! crate is self-contained, playouts run, verify adds the reasoner, and
//! commands that do not run compiled reasoners refuse it.

mod common;

use common::{rgw_with_env, team, TempDir};

/// One cache for every test that builds reasoners (shared with the
/// rg-compiled tests, so a game is built once per checkout).
fn cache() -> String {
    format!("{}/target/rgw-compiled-tests", env!("CARGO_MANIFEST_DIR"))
}

/// Runs rgw with the shared reasoner cache; it must exit 0.
fn rgw_cached(args: &[&str]) -> common::Output {
    let cache = cache();
    let out = rgw_with_env(args, &[("RGW_COMPILED_CACHE", &cache)]);
    assert_eq!(out.code, 0, "{args:?}: {}{}", out.stdout, out.stderr);
    out
}

/// Runs rgw; it must refuse the command line (exit 2).
fn usage_error(args: &[&str]) -> common::Output {
    let out = rgw_with_env(args, &[]);
    assert_eq!(out.code, 2, "{args:?}: {}{}", out.stdout, out.stderr);
    out
}

fn perft_json(file: &str, depth: u32, via: &str) -> serde_json::Value {
    let depth = depth.to_string();
    let out = rgw_cached(&[
        "perft",
        file,
        &depth,
        "--via",
        via,
        "--threads",
        "1",
        "--json",
    ]);
    serde_json::from_str(out.stdout.trim()).expect("one JSON object")
}

fn assert_agrees(file: &str, depth: u32) {
    let compiled = perft_json(file, depth, "compiled");
    let engine = perft_json(file, depth, "rg");
    assert_eq!(compiled["complete"], true, "{file}");
    assert_eq!(
        compiled["perft"], engine["perft"],
        "{file}: compiled vs engine"
    );
    assert!(compiled["compile_seconds"].as_f64().is_some(), "{file}");
}

#[test]
fn team_corpus_agrees() {
    let games = [
        ("rg/ticTacToe.rg", 5),
        ("rg/breakthrough.rg", 3),
        ("rbg/ticTacToe.rbg", 4),
        ("rbg/breakthrough6x6.rbg", 3),
        ("rbg/connect4.rbg", 4),
        ("hrg/connect4.hrg", 4),
        ("hrg/breakthrough.hrg", 3),
        ("kif/ticTacToe.kif", 5),
        ("kif/connect4.kif", 4),
        ("replay/tftVsGrim.replay", 4),
    ];
    for (file, depth) in games {
        assert_agrees(&team(file), depth);
    }
}

#[test]
fn shared_corpus_agrees() {
    let Some(corpus) = testkit::shared_corpus("shared_corpus_agrees") else {
        return;
    };
    let games = [
        ("rbg-ll/breakthrough.rbg", 3),
        ("rbg-ll/chess.rbg", 3),
        ("rbg-ll/connect4.rbg", 4),
        ("rbg-ll/englishDraughts.rbg", 4),
        ("rbg-ll/reversi.rbg", 3),
        ("rbg-ll/amazons.rbg", 1),
        // Keeper checks the reasoner fuses with the walk after them.
        ("rbg-ll/hex_9x9.rbg", 3),
        // Random moves (dice).
        ("hrg/diceThrowCompare.hrg", 4),
    ];
    for (file, depth) in games {
        assert_agrees(&corpus.join(file).display().to_string(), depth);
    }
}

#[test]
fn second_run_reuses_the_cache() {
    let file = team("rg/ticTacToe.rg");
    perft_json(&file, 1, "compiled");
    let again = perft_json(&file, 1, "compiled");
    assert_eq!(again["compile_cached"], true);
}

#[test]
fn compile_writes_a_self_contained_crate() {
    let dir = TempDir::new("compile");
    let out_dir = dir.path.join("crate");
    let out_dir = out_dir.display().to_string();
    let out = rgw_with_env(
        &["compile", &team("rbg/ticTacToe.rbg"), "-o", &out_dir],
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let manifest = std::fs::read_to_string(format!("{out_dir}/Cargo.toml")).expect("manifest");
    // No dependencies, no build script: building never runs a game's code.
    assert!(!manifest.contains("[dependencies]"), "{manifest}");
    assert!(!manifest.contains("build"), "{manifest}");
    assert!(!std::path::Path::new(&format!("{out_dir}/build.rs")).exists());
    let game = std::fs::read_to_string(format!("{out_dir}/src/game.rs")).expect("game.rs");
    assert!(game.contains("fn moves_from"));
}

#[test]
fn play_runs_compiled_playouts() {
    let out = rgw_cached(&[
        "play",
        &team("rg/ticTacToe.rg"),
        "--via",
        "compiled",
        "--playouts",
        "50",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("JSON");
    assert_eq!(report["playouts"], 50);
    // Tic-tac-toe lasts 5 to 9 turns, and every game scores 100 in total.
    let length = report["average_length"].as_f64().expect("length");
    assert!((5.0..=9.0).contains(&length), "{report}");
    let goals = &report["average_goals"];
    let total = goals["x"].as_f64().expect("x") + goals["o"].as_f64().expect("o");
    assert!((total - 100.0).abs() < 1e-9, "{report}");
}

#[test]
fn verify_adds_the_compiled_reasoner() {
    let out = rgw_cached(&[
        "verify",
        &team("rbg/ticTacToe.rbg"),
        "--depth",
        "3",
        "--via",
        "compiled",
    ]);
    assert!(
        out.stdout
            .contains("RG engine vs compiled reasoner: agree up to depth 3: perft [1, 9, 72, 504]"),
        "{}",
        out.stdout
    );
}

#[test]
fn other_commands_refuse_compiled() {
    let out = usage_error(&["moves", &team("rg/ticTacToe.rg"), "--via", "compiled"]);
    assert!(out.stderr.contains("--via compiled"), "{}", out.stderr);
}

#[test]
fn bench_measures_the_compiled_reasoner() {
    let out = rgw_cached(&[
        "bench",
        &team("rbg/ticTacToe.rbg"),
        "--via",
        "compiled",
        "--seconds",
        "0.1",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let game = &report["games"][0];
    // The reasoner counted at the engine's depth, and agreed.
    assert!(
        game["rg"]["leaves"].as_u64().is_some_and(|n| n > 0),
        "{game}"
    );
    assert_eq!(game["compiled"]["depth"], game["rg"]["depth"], "{game}");
    assert_eq!(game["compiled"]["leaves"], game["rg"]["leaves"], "{game}");
    assert!(
        game["compiled"]["seconds"]
            .as_f64()
            .is_some_and(|s| s > 0.0),
        "{game}"
    );
    assert!(
        game["compiled_playouts_per_second"]
            .as_f64()
            .is_some_and(|r| r > 0.0),
        "{game}"
    );
    assert!(game["compile_seconds"].as_f64().is_some(), "{game}");
    assert!(game["compile_cached"].is_boolean(), "{game}");

    // The Markdown report has the compiled columns.
    let markdown = rgw_cached(&[
        "bench",
        &team("rbg/ticTacToe.rbg"),
        "--via",
        "compiled",
        "--seconds",
        "0.1",
    ]);
    assert!(
        markdown.stdout.contains("compiled leaves/s"),
        "{}",
        markdown.stdout
    );

    // Other models are not added by --via.
    let out = usage_error(&["bench", &team("rbg/ticTacToe.rbg"), "--via", "propnet"]);
    assert!(out.stderr.contains("--via"), "{}", out.stderr);
}

#[test]
fn a_game_past_the_size_limit_is_refused_before_generating() {
    let dir = TempDir::new("too-large");
    let out_dir = dir.path.join("crate").display().to_string();
    let limit = [("RGW_COMPILED_MAX_EDGES", "5")];
    for args in [
        vec!["perft", "RG", "2", "--via", "compiled"],
        vec!["compile", "RG", "-o", &out_dir],
    ] {
        let file = team("rg/ticTacToe.rg");
        let args: Vec<&str> = args
            .iter()
            .map(|&a| if a == "RG" { file.as_str() } else { a })
            .collect();
        let out = rgw_with_env(&args, &limit);
        assert_eq!(out.code, 1, "{args:?}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("too large to compile")
                && out.stderr.contains("more than the limit of 5")
                && out.stderr.contains("RGW_COMPILED_MAX_EDGES"),
            "{}",
            out.stderr
        );
    }
    assert!(!dir.path.join("crate").exists(), "nothing was written");
}
