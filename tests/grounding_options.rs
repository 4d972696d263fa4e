//! `--grounding-atoms`, `--grounding-rules` and `--time-limit` bound GDL
//! grounding wherever a command grounds (translate, perft and moves
//! through `--via rg`/`--via propnet`, verify, convert), and are usage
//! errors where nothing is grounded.

mod common;

use common::{rgw, team, TempDir};

/// A game whose static relation `big` has 40^4 tuples: slow to ground.
fn slow_game(dir: &TempDir) -> String {
    let digits: String = (0..40).map(|i| format!("(d {i}) ")).collect();
    dir.write(
        "slow.kif",
        &format!(
            "(role p) {digits}
             (<= (big ?a ?b ?c ?e) (d ?a) (d ?b) (d ?c) (d ?e))
             (<= (legal p (go ?a ?b ?c ?e)) (big ?a ?b ?c ?e))
             (init (s 0)) (<= (next (s 1)) (does p (go ?a ?b ?c ?e)))
             (<= terminal (true (s 1))) (goal p 100)"
        ),
    )
}

#[test]
fn size_limits_stop_grounding_with_their_numbers() {
    let game = team("kif/ticTacToe.kif");
    let out = rgw(&["translate", &game, "--grounding-atoms", "5"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("grounding exceeded 5 atoms"),
        "{}",
        out.stderr
    );

    let out = rgw(&["translate", &game, "--grounding-rules", "3"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("grounding exceeded 3 rule instances"),
        "{}",
        out.stderr
    );

    for via in ["rg", "propnet"] {
        let out = rgw(&["perft", &game, "2", "--via", via, "--grounding-atoms", "5"]);
        assert_eq!(out.code, 1, "--via {via}: {}", out.stderr);
        assert!(
            out.stderr.contains("grounding exceeded 5 atoms"),
            "{}",
            out.stderr
        );
    }
    let out = rgw(&["verify", &game, "--depth", "1", "--grounding-atoms", "5"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("grounding exceeded 5 atoms"),
        "{}",
        out.stderr
    );
    // Generous limits change nothing.
    let out = rgw(&[
        "perft",
        &game,
        "2",
        "--via",
        "rg",
        "--grounding-atoms",
        "100000",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("depth 2: 9"), "{}", out.stdout);
}

#[test]
fn the_time_limit_bounds_grounding() {
    let dir = TempDir::new("grounding-time");
    let game = slow_game(&dir);
    let out = rgw(&["translate", &game, "--time-limit", "0.2"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("grounding exceeded the time limit of 200.0ms"),
        "{}",
        out.stderr
    );
    let out = rgw(&["perft", &game, "1", "--via", "rg", "--time-limit", "0.2"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("time limit of 200.0ms"),
        "{}",
        out.stderr
    );
}

#[test]
fn grounding_options_where_nothing_is_grounded_are_usage_errors() {
    let out = rgw(&[
        "perft",
        &team("kif/ticTacToe.kif"),
        "2",
        "--grounding-atoms",
        "5",
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("without grounding"), "{}", out.stderr);
    let rbg = team("rbg/ticTacToe.rbg");
    let hrg = team("hrg/ticTacToe.hrg");
    let rg = team("rg/ticTacToe.rg");
    for args in [
        vec!["translate", &rbg],
        vec!["verify", &hrg, "--depth", "1"],
        vec!["perft", &rg, "1"],
    ] {
        let args = [&args[..], &["--grounding-rules", "10"]].concat();
        let out = rgw(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("--grounding-rules"), "{}", out.stderr);
    }
    let out = rgw(&["translate", &team("rbg/ticTacToe.rbg"), "--time-limit", "1"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("not a GDL file"), "{}", out.stderr);
}

#[test]
fn convert_passes_grounding_limits_to_its_workers() {
    let dir = TempDir::new("convert-grounding");
    let library = dir.path.join("library");
    std::fs::create_dir_all(&library).unwrap();
    std::fs::copy(team("kif/ticTacToe.kif"), library.join("ticTacToe.kif")).unwrap();
    std::fs::copy(team("rbg/ticTacToe.rbg"), library.join("ticTacToe.rbg")).unwrap();
    let out = rgw(&[
        "convert",
        library.to_str().unwrap(),
        "-o",
        dir.path.join("out").to_str().unwrap(),
        "--grounding-atoms",
        "5",
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report = std::fs::read_to_string(dir.path.join("out/report.md")).unwrap();
    let kif = report
        .lines()
        .find(|l| l.contains("ticTacToe.kif"))
        .unwrap();
    assert!(
        kif.contains("| failed |") && kif.contains("grounding exceeded 5 atoms"),
        "{kif}"
    );
    let rbg = report
        .lines()
        .find(|l| l.contains("ticTacToe.rbg |"))
        .unwrap();
    assert!(rbg.contains("| translated |"), "{rbg}");
}
