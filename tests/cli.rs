//! The `rgw` command line: exit codes, output formats and error reporting.

mod common;

use common::{rgw, team, TempDir};

#[test]
fn check_prints_a_summary_for_a_valid_game() {
    let out = rgw(&["check", &team("rg/ticTacToe.rg")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("ticTacToe.rg: ok: 2 players"),
        "{}",
        out.stdout
    );
}

#[test]
fn check_reports_diagnostics_with_location_and_exit_1() {
    let dir = TempDir::new("check");
    let file = dir.write("bad.rg", "type Player = { x };\ntype Score = { 0 };\nbegin, end: player = keeper;\nbegin, a: v = x;\n");
    let out = rgw(&["check", &file]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("bad.rg:4:11"), "{}", out.stderr);
    assert!(
        out.stderr.contains("v is constant in v = x"),
        "{}",
        out.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(rgw(&["check"]).code, 2);
    assert_eq!(rgw(&["frobnicate"]).code, 2);
    let dir = TempDir::new("usage");
    let file = dir.write("game.txt", "x");
    let out = rgw(&["check", &file]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("cannot tell the language"),
        "{}",
        out.stderr
    );
    let out = rgw(&["perft", &team("rg/ticTacToe.rg"), "2", "--via", "propnet"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn missing_file_is_reported() {
    let out = rgw(&["check", "does/not/exist.rg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("cannot read does/not/exist.rg"),
        "{}",
        out.stderr
    );
}

#[test]
fn moves_lists_the_first_players_moves() {
    let out = rgw(&["moves", &team("rg/ticTacToe.rg")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines,
        ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    );
    assert!(
        out.stderr.contains("player x to move, 9 moves"),
        "{}",
        out.stderr
    );
    // The keeper's empty move is not a blank line: stderr explains the
    // keeper's turn and who moves after it.
    let keeper = rgw(&["moves", &team("rg/ticTacToe.rg"), "--expose-keeper"]);
    assert_eq!(keeper.code, 0, "{}", keeper.stderr);
    assert_eq!(keeper.stdout, "");
    for expected in [
        "the keeper to move (its states are shown because of --expose-keeper), 1 keeper move",
        "one has no tags and is not printed",
        "perft never counts them as a depth",
        "After the keeper, player x moves, with 9 moves",
    ] {
        assert!(keeper.stderr.contains(expected), "{}", keeper.stderr);
    }
}

#[test]
fn moves_joint_lists_gdl_joint_moves_of_the_first_step() {
    for via in ["native", "propnet"] {
        let out = rgw(&["moves", &team("kif/ticTacToe.kif"), "--joint", "--via", via]);
        assert_eq!(out.code, 0, "{via}: {}", out.stderr);
        let lines: Vec<&str> = out.stdout.lines().collect();
        assert_eq!(lines.len(), 9, "{}", out.stdout);
        assert_eq!(lines[0], "noop mark_1_1", "{}", out.stdout);
        assert!(
            out.stderr.contains(
                "joint moves of oplayer, xplayer (one action each, in this order), 9 joint moves"
            ),
            "{}",
            out.stderr
        );
    }
    // Joint moves are GDL's, on the GDL models.
    assert_eq!(rgw(&["moves", &team("rg/ticTacToe.rg"), "--joint"]).code, 2);
    assert_eq!(
        rgw(&[
            "moves",
            &team("kif/ticTacToe.kif"),
            "--joint",
            "--via",
            "rg"
        ])
        .code,
        2
    );
}

#[test]
fn bench_prints_failures_as_path_line_column() {
    let dir = TempDir::new("bench-fail");
    let file = dir.write(
        "bad.hrg",
        "domain Player = x\ndomain Score = 0\ngraph rules() {\n  check(a < b)\n  end()\n}\n",
    );
    let out = rgw(&["bench", &file, "--seconds", "0.1"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let clickable = format!("{file}:4:9: error: Expression \"a < b\" is not a valid condition.");
    assert!(
        out.stderr.contains(&format!("[1/1] {clickable}")),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout.contains(&format!("* {clickable}")),
        "{}",
        out.stdout
    );
}

#[test]
fn perft_prints_every_depth() {
    let out = rgw(&["perft", &team("rg/ticTacToe.rg"), "3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let counts: Vec<&str> = out
        .stdout
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(counts, ["1", "9", "72", "504"]);
}

#[test]
fn perft_json_has_exactly_the_documented_fields() {
    let file = team("rg/breakthrough.rg");
    let out = rgw(&["perft", &file, "3", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.lines().count(), 1);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let object = value.as_object().unwrap();
    let mut keys: Vec<&String> = object.keys().collect();
    keys.sort();
    assert_eq!(keys, ["complete", "file", "perft", "seconds"]);
    assert_eq!(object["complete"], true);
    assert_eq!(object["file"], file.as_str());
    assert_eq!(object["perft"], serde_json::json!([1, 16, 256, 4308]));
    assert_eq!(object["seconds"].as_array().unwrap().len(), 4);
}

#[test]
fn perft_on_several_threads_counts_what_one_thread_counts() {
    // Every kind of model: RG, the RBG interpreter, the GDL reasoner and
    // propnet, the HRG interpreter and HRG through RG, and the RG engine
    // with keeper states shown.
    let cases: [(&str, &[&str]); 7] = [
        ("rg/breakthrough.rg", &[]),
        ("rbg/breakthrough.rbg", &[]),
        ("kif/connect4.kif", &[]),
        ("kif/ticTacToe.kif", &["--via", "propnet"]),
        ("hrg/ticTacToe.hrg", &[]),
        ("hrg/ticTacToe.hrg", &["--via", "rg"]),
        ("rg/ticTacToe.rg", &["--expose-keeper"]),
    ];
    for (file, extra) in cases {
        let file = team(file);
        let counts = |threads: &str| {
            let mut args = vec!["perft", file.as_str(), "4", "--json", "--threads", threads];
            args.extend_from_slice(extra);
            let out = rgw(&args);
            assert_eq!(out.code, 0, "{file}: {}", out.stderr);
            let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
            value["perft"].clone()
        };
        let one = counts("1");
        assert_eq!(counts("2"), one, "{file}");
        assert_eq!(counts("3"), one, "{file}");
    }
    let out = rgw(&["perft", &team("rg/ticTacToe.rg"), "2", "--threads", "0"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--threads must be at least 1"),
        "{}",
        out.stderr
    );
}

#[test]
fn perft_time_limit_stops_and_says_so() {
    let out = rgw(&[
        "perft",
        &team("rg/breakthrough.rg"),
        "12",
        "--time-limit",
        "0.2",
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("stopped by the time limit during depth"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.starts_with("depth 0: 1"), "{}", out.stdout);
    // The JSON says the run is incomplete, and why.
    let out = rgw(&[
        "perft",
        &team("rg/breakthrough.rg"),
        "12",
        "--time-limit",
        "0.2",
        "--json",
    ]);
    assert_eq!(out.code, 1);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(value["complete"], false, "{value}");
    assert!(
        value["stopped"]
            .as_str()
            .unwrap()
            .contains("time limit of 200.0ms"),
        "{value}"
    );
    let done = rgw(&["perft", &team("rg/ticTacToe.rg"), "2", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&done.stdout).unwrap();
    assert_eq!(value["complete"], true, "{value}");
    assert!(value.get("stopped").is_none(), "{value}");
    let out = rgw(&[
        "perft",
        &team("rg/breakthrough.rg"),
        "2",
        "--time-limit",
        "-1",
    ]);
    assert_eq!(out.code, 2);
}

/// verify cut short by --time-limit says how deep it got and with which
/// limit, and exits 1 like perft: it did not verify what was asked.
#[test]
fn verify_time_limit_stops_names_the_limit_and_exits_1() {
    let out = rgw(&[
        "verify",
        &team("rbg/breakthrough.rbg"),
        "--depth",
        "12",
        "--time-limit",
        "0.3",
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("stopped early: time limit of 300.0ms reached"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("not verified to depth 12"),
        "{}",
        out.stderr
    );
    let full = rgw(&["verify", &team("rbg/ticTacToe.rbg"), "--depth", "3"]);
    assert_eq!(full.code, 0, "{}", full.stderr);
}

#[test]
fn play_reports_speed_length_and_goals() {
    let out = rgw(&[
        "play",
        &team("rg/ticTacToe.rg"),
        "--playouts",
        "300",
        "--seed",
        "7",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(value["playouts"], 300);
    let length = value["average_length"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&length), "{length}");
    // Tic-tac-toe: the first player wins about 58.5% of random games.
    let x = value["average_goals"]["x"].as_f64().unwrap();
    assert!((55.0..=90.0).contains(&x), "x scores {x} on average");
    // Same seed, same result.
    let again = rgw(&[
        "play",
        &team("rg/ticTacToe.rg"),
        "--playouts",
        "300",
        "--seed",
        "7",
        "--json",
    ]);
    let again: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["average_goals"], value["average_goals"]);
}

#[test]
fn play_log_shows_one_game() {
    let out = rgw(&["play", &team("rg/ticTacToe.rg"), "--log", "--seed", "3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("1. x: "), "{}", out.stdout);
    assert!(
        out.stdout
            .trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("game over: x "),
        "{}",
        out.stdout
    );
}

/// A check whose sub-automaton checks itself recurses without end: the
/// engine stops at its nesting bound with a message, on the main thread and
/// on perft's worker threads alike, instead of overflowing a stack.
#[test]
fn self_recursive_checks_stop_with_a_message_not_a_stack_overflow() {
    let dir = TempDir::new("recursive-check");
    let file = dir.write(
        "selfcheck.rg",
        "type Player = { a };\ntype Score = { 0, 100 };\nbegin, s: player = a;\ns, t: ? x -> y;\n\
         t, u: $ m;\nu, end: player = keeper;\nx, y: ? x -> y;\n",
    );
    for threads in ["1", "2"] {
        let out = rgw(&["perft", &file, "1", "--threads", threads]);
        assert_eq!(out.code, 1, "{threads} threads: {}", out.stderr);
        assert!(
            out.stderr
                .contains("reachability checks nested more than 1000 deep"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn runtime_errors_exit_1_with_a_message() {
    let dir = TempDir::new("runtime");
    let file = dir.write(
        "keeper.rg",
        "type Player = { x };\ntype Score = { 0 };\nbegin, a: $ t;\nbegin, a: $ u;\na, end: player = keeper;\n",
    );
    let out = rgw(&["perft", &file, "1"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("keeper had 2 moves in node begin"),
        "{}",
        out.stderr
    );
}

#[test]
fn optimize_keeps_perft_and_shrinks_the_game() {
    let plain = rgw(&[
        "perft",
        &team("hrg/connect4.hrg"),
        "4",
        "--json",
        "--via",
        "rg",
    ]);
    let optimized = rgw(&[
        "perft",
        &team("hrg/connect4.hrg"),
        "4",
        "--json",
        "--via",
        "rg",
        "--optimize",
    ]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let count = |o: &common::Output| {
        serde_json::from_str::<serde_json::Value>(&o.stdout).unwrap()["perft"].clone()
    };
    assert_eq!(count(&plain), count(&optimized));
    let stats = rgw(&["stats", &team("hrg/connect4.hrg"), "--optimize", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stats.stdout).unwrap();
    for field in ["nodes", "edges", "variables", "constants", "state_bits"] {
        assert!(v[field].is_u64(), "{field} missing in {v}");
    }
    assert!(v["nodes"].as_u64() < v["before"]["nodes"].as_u64());
}

/// docs/cli.md: an option that does not apply to the chosen model or
/// command is a usage error (exit 2) naming the combination, never
/// silently ignored.
#[test]
fn options_that_do_not_apply_are_usage_errors() {
    let rbg = team("rbg/ticTacToe.rbg");
    let kif = team("kif/ticTacToe.kif");
    let hrg = team("hrg/ticTacToe.hrg");
    let rg = team("rg/ticTacToe.rg");
    // (arguments, exit code, what stderr must say)
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["perft", &rbg, "1", "--optimize"],
            2,
            "--optimize does not apply to the RBG interpreter",
        ),
        (
            &["perft", &rbg, "1", "--passes", "bogus"],
            2,
            "--passes does not apply to the RBG interpreter",
        ),
        (
            &["perft", &rbg, "1", "--lenient"],
            2,
            "--lenient does not apply to the RBG interpreter",
        ),
        (
            &["perft", &kif, "1", "--expose-keeper"],
            2,
            "--expose-keeper does not apply to the GDL reasoner",
        ),
        (
            &["moves", &kif, "--via", "propnet", "--first-keeper-walk"],
            2,
            "does not apply to the GDL propnet",
        ),
        (
            &["play", &hrg, "--optimize"],
            2,
            "--optimize does not apply to the HRG interpreter",
        ),
        (
            &["verify", &rbg, "--depth", "1", "--via", "rg"],
            2,
            "does not apply to verify",
        ),
        (
            &[
                "convert",
                "corpus",
                "-o",
                "/nonexistent/out",
                "--via",
                "propnet",
            ],
            2,
            "does not apply to convert",
        ),
        (
            &["perft", &rg, "1", "--via", "propnet"],
            2,
            "not available for .rg files",
        ),
        // Combinations that apply.
        (
            &[
                "perft",
                &rbg,
                "1",
                "--via",
                "rg",
                "--optimize",
                "--first-keeper-walk",
            ],
            0,
            "",
        ),
        (&["perft", &hrg, "1", "--lenient"], 0, ""),
        (
            &[
                "perft",
                &kif,
                "1",
                "--via",
                "rg",
                "--lenient",
                "--expose-keeper",
            ],
            0,
            "",
        ),
        (&["perft", &rg, "1", "--passes", "prune-unreachable"], 0, ""),
        (&["perft", &rg, "1", "--passes", "help"], 0, ""),
    ];
    for (args, code, message) in cases {
        let out = rgw(args);
        assert_eq!(out.code, *code, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }
    let list = rgw(&["translate", &rg, "--passes", "help"]);
    assert_eq!(list.code, 0);
    assert!(
        list.stdout.contains("compact-skip-edges"),
        "{}",
        list.stdout
    );
}

#[test]
fn passes_can_be_chosen_and_unknown_ones_are_usage_errors() {
    let out = rgw(&[
        "translate",
        &team("rg/ticTacToe.rg"),
        "--passes",
        "prune-unreachable,compact-skip-edges",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("type Player"));
    let out = rgw(&[
        "translate",
        &team("rg/ticTacToe.rg"),
        "--passes",
        "no-such-pass",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("unknown pass \"no-such-pass\""),
        "{}",
        out.stderr
    );
    let out = rgw(&["passes"]);
    assert!(out.stdout.contains("compact-skip-edges"));
}

#[test]
fn trace_writes_every_changing_pass_and_a_summary() {
    let dir = TempDir::new("trace");
    let trace = dir.path.join("trace").display().to_string();
    let out = rgw(&["translate", &team("hrg/ticTacToe.hrg"), "--trace", &trace]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let names: Vec<String> = std::fs::read_dir(&trace)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(names.contains(&"00-input.rg".to_string()));
    assert!(names.contains(&"summary.md".to_string()));
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("01-") && n.ends_with(".rg")),
        "{names:?}"
    );
    let summary = std::fs::read_to_string(format!("{trace}/summary.md")).unwrap();
    assert!(summary.contains("| 0 | input |"), "{summary}");
    assert!(summary.contains("fewer nodes"), "{summary}");
    // The timing table lists every pass of the pipeline once, with its runs.
    let timing = summary
        .split("## Time per pass")
        .nth(1)
        .unwrap_or_else(|| panic!("no timing table: {summary}"));
    let out = rgw(&["passes"]);
    let default_passes = out.stdout.lines().filter(|l| l.starts_with("* "));
    for line in default_passes {
        let pass = line.split_whitespace().nth(1).unwrap();
        if pass == "=" {
            continue; // the legend
        }
        let rows: Vec<&str> = timing
            .lines()
            .filter(|l| l.starts_with(&format!("| {pass} | ")))
            .collect();
        assert_eq!(rows.len(), 1, "{pass} in {timing}");
    }
    assert!(timing.contains("| **total** |"), "{timing}");
    // Every traced game is valid RG.
    for name in names.iter().filter(|n| n.ends_with(".rg")) {
        let check = rgw(&["check", &format!("{trace}/{name}")]);
        assert_eq!(check.code, 0, "{name}: {}", check.stderr);
    }
    // A second, shorter trace into the same folder leaves none of the
    // first trace's steps behind, and other files alone.
    dir.write("trace/notes.txt", "mine\n");
    let out = rgw(&[
        "translate",
        &team("hrg/ticTacToe.hrg"),
        "--trace",
        &trace,
        "--passes",
        "prune-unreachable",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mut again: Vec<String> = std::fs::read_dir(&trace)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    again.sort();
    assert!(again.len() < names.len(), "{again:?}");
    assert!(again.contains(&"notes.txt".to_string()), "{again:?}");
    for name in again.iter().filter(|n| n.ends_with(".rg")) {
        assert!(
            name == "00-input.rg" || name.ends_with("prune-unreachable.rg"),
            "stale {name} in {again:?}"
        );
    }
}

#[test]
fn dot_exports_the_automaton() {
    let out = rgw(&["dot", &team("rg/ticTacToe.rg")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("digraph"));
    assert!(out.stdout.contains("player = keeper"));
    let has_graphviz = std::process::Command::new("dot").arg("-V").output().is_ok();
    let svg = rgw(&["dot", &team("rg/ticTacToe.rg"), "--svg"]);
    if has_graphviz {
        assert_eq!(svg.code, 0, "{}", svg.stderr);
        assert!(svg.stdout.contains("<svg"));
    } else {
        assert_eq!(svg.code, 1);
        assert!(
            svg.stderr.contains("apt install graphviz"),
            "{}",
            svg.stderr
        );
    }
}

fn perft_counts(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect()
}

#[test]
fn rbg_runs_natively_and_through_its_translation() {
    let file = team("rbg/ticTacToe.rbg");
    for via in ["native", "rg"] {
        let out = rgw(&["perft", &file, "3", "--via", via]);
        assert_eq!(out.code, 0, "{via}: {}", out.stderr);
        assert_eq!(perft_counts(&out.stdout), ["1", "9", "72", "504"], "{via}");
    }
    let moves = rgw(&["moves", &file]);
    assert_eq!(moves.code, 0, "{}", moves.stderr);
    assert_eq!(moves.stdout.lines().count(), 9);
    let out = rgw(&["perft", &file, "1", "--via", "propnet"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("choose native, rg or compiled"),
        "{}",
        out.stderr
    );
}

#[test]
fn translated_rbg_go_plays_to_the_end() {
    // Go's captures are long keeper completions; searching every order of
    // their keeper moves (instead of RBG's first keeper move found) runs
    // into the engine's step limit long before a game ends.
    let Some(shared) = testkit::shared_corpus("translated_rbg_go_plays_to_the_end") else {
        return;
    };
    let go = shared.join("rbg-ll/go_nopass.rbg");
    let go = go.to_string_lossy();
    let out = rgw(&[
        "play",
        &go,
        "--via",
        "rg",
        "--playouts",
        "2",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(value["average_length"].as_f64().unwrap() > 100.0, "{value}");
    // The translation saved as RG plays the same way when asked to.
    let dir = TempDir::new("go");
    let rg = dir.path.join("go.rg");
    let rg = rg.to_string_lossy();
    assert_eq!(rgw(&["translate", &go, "-o", &rg]).code, 0);
    let again = rgw(&[
        "play",
        &rg,
        "--first-keeper-walk",
        "--playouts",
        "2",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let again: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["average_length"], value["average_length"]);
}

#[test]
fn rbg_translates_to_checked_rg_and_verifies() {
    let dir = TempDir::new("rbg-translate");
    let out_file = dir.path.join("connect4.rg").display().to_string();
    let out = rgw(&["translate", &team("rbg/connect4.rbg"), "-o", &out_file]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let check = rgw(&["check", &out_file]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let perft = rgw(&["perft", &out_file, "3"]);
    assert_eq!(perft_counts(&perft.stdout), ["1", "7", "49", "343"]);
    let verify = rgw(&["verify", &team("rbg/connect4.rbg"), "--depth", "3"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify
            .stdout
            .contains("native interpreter vs RG translation: agree up to depth 3"),
        "{}",
        verify.stdout
    );
}

#[test]
fn hrg_games_run_natively_and_verify_against_their_translation() {
    let native = rgw(&["perft", &team("hrg/connect4.hrg"), "3"]);
    assert_eq!(native.code, 0, "{}", native.stderr);
    assert_eq!(perft_counts(&native.stdout), ["1", "7", "49", "343"]);
    let moves = rgw(&["moves", &team("hrg/ticTacToe.hrg")]);
    assert_eq!(moves.stdout.lines().count(), 9, "{}", moves.stdout);
    let verify = rgw(&["verify", &team("hrg/breakthrough.hrg"), "--depth", "3"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify
            .stdout
            .contains("native interpreter vs RG translation: agree up to depth 3"),
        "{}",
        verify.stdout
    );
    let wrong = rgw(&["perft", &team("hrg/ticTacToe.hrg"), "1", "--via", "propnet"]);
    assert_eq!(wrong.code, 2);
    assert!(
        wrong.stderr.contains("choose native, rg or compiled"),
        "{}",
        wrong.stderr
    );
}

#[test]
fn rbg_errors_point_at_the_source() {
    let dir = TempDir::new("rbg-bad");
    let file = dir.write(
        "bad.rbg",
        "#players = white(100)\n#pieces = e, w\n#variables =\n#board = rectangle(up,down,left,right,[e,w])\n#rules = ->white [q]\n",
    );
    for command in ["check", "translate"] {
        let out = rgw(&[command, &file]);
        assert_eq!(out.code, 1, "{command}");
        assert!(
            out.stderr.contains("bad.rbg:5:"),
            "{command}: {}",
            out.stderr
        );
        assert!(out.stderr.contains('q'), "{command}: {}", out.stderr);
    }
}

#[test]
fn preprocess_prints_low_level_rbg() {
    let out = rgw(&["preprocess", &team("rbg/ticTacToe.rbg")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("#board"), "{}", out.stdout);
    let again = rgw(&["preprocess", &team("rg/ticTacToe.rg")]);
    assert_eq!(again.code, 2);
}

#[test]
fn gdl_runs_on_reasoner_propnet_and_translation() {
    let file = team("kif/ticTacToe.kif");
    for via in ["native", "propnet", "rg"] {
        let out = rgw(&["perft", &file, "2", "--via", via]);
        assert_eq!(out.code, 0, "{via}: {}", out.stderr);
        // Sequentialized over roles ordered by name: oplayer's noop is the
        // first ply, xplayer's mark the second.
        assert_eq!(perft_counts(&out.stdout), ["1", "1", "9"], "{via}");
    }
    let joint = rgw(&["perft", &file, "2", "--joint"]);
    assert_eq!(joint.code, 0, "{}", joint.stderr);
    assert_eq!(perft_counts(&joint.stdout), ["1", "9", "72"]);
    let verify = rgw(&["verify", &file, "--depth", "4"]);
    assert_eq!(verify.code, 0, "{}", verify.stderr);
    assert!(
        verify.stdout.contains("native reasoner vs propnet: agree")
            && verify
                .stdout
                .contains("native reasoner vs RG translation: agree"),
        "{}",
        verify.stdout
    );
}

#[test]
fn bench_measures_sizes_and_speed_of_every_model() {
    let out = rgw(&[
        "bench",
        &team("rg/ticTacToe.rg"),
        &team("rbg/ticTacToe.rbg"),
        "--seconds",
        "0.2",
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for game in games {
        assert!(game["error"].is_null(), "{game}");
        assert!(game["after"]["nodes"].as_u64() <= game["before"]["nodes"].as_u64());
        // Every model counts the same leaves at the measured depth.
        let rg = &game["rg"];
        assert!(rg["depth"].as_u64().unwrap() >= 2, "{game}");
        assert_eq!(game["optimized"]["leaves"], rg["leaves"], "{game}");
        assert!(game["rg_playouts_per_second"].as_f64().unwrap() > 0.0);
    }
    let rbg = &games[1];
    assert_eq!(rbg["language"], "rbg");
    assert_eq!(rbg["native"]["leaves"], rbg["rg"]["leaves"], "{rbg}");

    let markdown = rgw(&["bench", &team("rg/ticTacToe.rg"), "--seconds", "0.1"]);
    assert_eq!(markdown.code, 0, "{}", markdown.stderr);
    assert!(
        markdown.stdout.contains("| **total** |"),
        "{}",
        markdown.stdout
    );
    assert_eq!(rgw(&["bench", "no/such/dir"]).code, 2);
}

#[test]
fn output_into_a_closed_pipe_stops_without_a_panic() {
    // The reader goes away before rgw writes (`rgw translate … | head -0`).
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rgw"))
        .args(["translate", &team("rbg/connect4.rbg")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("rgw runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("rgw ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

#[test]
fn errors_far_along_one_line_are_reported_not_a_panic() {
    let dir = TempDir::new("long-line");
    let pad = " ".repeat(70_000);
    for (name, text) in [
        ("wide.rg", format!("{pad}→ type A = {{a}};\n")),
        ("wide.hrg", format!("{pad}% domain D = a\n")),
        ("wide.kif", format!("{pad}\"role\" (role x)\n")),
        ("wide.rbg", format!("{pad}? #players = x(100)\n")),
        (
            "string.kif",
            format!("(role \"{}\")\n", "s".repeat(1_000_000)),
        ),
    ] {
        let file = dir.write(name, &text);
        let out = rgw(&["check", &file]);
        assert_eq!(out.code, 1, "{name}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("{name}:1:")),
            "{name}: {}",
            out.stderr
        );
        if name.starts_with("wide") {
            assert!(out.stderr.contains(":1:70001"), "{name}: {}", out.stderr);
        }
        assert!(out.stderr.len() < 2000, "{name}: {}", out.stderr);
    }
}

#[test]
fn deep_nesting_is_refused_with_the_limit_not_a_stack_overflow() {
    let dir = TempDir::new("deep");
    let n = 100_000;
    for (name, text) in [
        (
            "maps.rg",
            format!("var m: A = {}a{};\n", "{:".repeat(n), "}".repeat(n)),
        ),
        ("arrows.rg", format!("type T = {}A;\n", "A -> ".repeat(n))),
        (
            "parens.hrg",
            format!("v : A = {}a{}\n", "(".repeat(n), ")".repeat(n)),
        ),
        (
            "branches.hrg",
            format!(
                "graph rules() {{ {}$ a{} }}\n",
                "branch { ".repeat(n),
                " }".repeat(n)
            ),
        ),
    ] {
        let file = dir.write(name, &text);
        let out = rgw(&["check", &file]);
        assert_eq!(out.code, 1, "{name}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("{name}:1:"))
                && out.stderr.contains("nesting deeper than 256 levels"),
            "{name}: {}",
            out.stderr
        );
    }
}

/// A move search around a cycle that emits one of two tags per turn (40
/// turns deep) has 2^40 walks: `perft --time-limit` stops inside that one
/// move generation instead of waiting for it (the budget used to be read
/// only between moves), and reports the time limit.
#[test]
fn perft_time_limit_stops_a_runaway_move_search() {
    let dir = TempDir::new("runaway-search");
    let numbers: Vec<String> = (0..40).map(|k| k.to_string()).collect();
    let successors: Vec<String> = (0..39).map(|k| format!("{k}: {}", k + 1)).collect();
    let file = dir.write(
        "cycle.rg",
        &format!(
            "type Player = {{ x }};\ntype Score = {{ 0 }};\ntype N = {{ {} }};\n\
             const next: N -> N = {{ :39, {} }};\nvar n: N = 0;\nbegin, a: player = x;\n\
             a, c: $ t;\na, c: $ s;\nc, d: n != 39;\nd, a: n = next[n];\na, b: $ u;\n\
             b, end: player = keeper;\n",
            numbers.join(", "),
            successors.join(", ")
        ),
    );
    for threads in ["1", "2"] {
        let start = std::time::Instant::now();
        let out = rgw(&[
            "perft",
            &file,
            "3",
            "--time-limit",
            "1",
            "--threads",
            threads,
        ]);
        let elapsed = start.elapsed();
        assert!(
            elapsed < std::time::Duration::from_secs(5),
            "{threads} threads: took {elapsed:?}"
        );
        assert!(
            out.stderr.contains("time limit") || out.stdout.contains("time limit"),
            "{threads} threads: {} {}",
            out.stdout,
            out.stderr
        );
    }
}

/// Draft RBG files (`.rbgd`) in the commands: check, perft by both models,
/// translate, verify, and `--via propnet` refused.
#[test]
fn draft_rbg_files_work_in_every_command() {
    let chess = team("rbg-draft/chess.rbgd");
    let out = rgw(&["check", &chess]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("chess.rbgd: ok: 2 players, 20 pieces, 8×10 board"),
        "{}",
        out.stdout
    );
    for via in ["native", "rg"] {
        let out = rgw(&["perft", &chess, "2", "--via", via]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("depth 2: 400"), "{via}: {}", out.stdout);
    }
    let out = rgw(&["translate", &team("rbg-draft/ticTacToe.rbgd")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("type Player = { xs, os };"),
        "{}",
        out.stdout
    );
    let out = rgw(&[
        "verify",
        &team("rbg-draft/englishDraughts.rbgd"),
        "--depth",
        "3",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("agree up to depth 3: perft [1, 7, 49, 302]"),
        "{}",
        out.stdout
    );
    let out = rgw(&["moves", &team("rbg-draft/moveIdentity.rbgd")]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("x0y0 e x2y0 c to_q"), "{}", out.stdout);
    let out = rgw(&["perft", &chess, "1", "--via", "propnet"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn draft_rbg_errors_point_into_the_file() {
    let dir = TempDir::new("draft-error");
    let file = dir.write(
        "bad.rbgd",
        "#game \"x\"\n#board 1 1 e\n#order p\n#player p (e/x)[q]\n#goal p 1 $turn > 2\n",
    );
    let out = rgw(&["check", &file]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("bad.rbgd:4:17"), "{}", out.stderr);
    assert!(
        out.stderr.contains("`q` is not a player of `#order`"),
        "{}",
        out.stderr
    );
}
