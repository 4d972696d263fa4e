//! `--expected TABLE` on `perft` and `convert`: counts checked against a
//! perft table in the corpus format (verify's are in tests/verify.rs).

mod common;

use common::{rgw, team, TempDir};

#[test]
fn perft_confirms_counts_from_a_table() {
    let out = rgw(&[
        "perft",
        &team("rg/ticTacToe.rg"),
        "4",
        "--expected",
        &team("rg/perft.tsv"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("perft.tsv: agrees at depths 0-4"),
        "{}",
        out.stdout
    );

    let out = rgw(&[
        "perft",
        &team("rg/ticTacToe.rg"),
        "2",
        "--json",
        "--expected",
        &team("rg/perft.tsv"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(json["expected"]["agrees"], true, "{json}");
    assert_eq!(
        json["expected"]["confirmed"],
        serde_json::json!([0, 1, 2]),
        "{json}"
    );
}

#[test]
fn perft_fails_on_a_wrong_count_or_a_missing_row() {
    let dir = TempDir::new("perft-expected");
    let wrong = dir.write("wrong.tsv", "rg/ticTacToe.rg\t3\t500\n");
    let out = rgw(&["perft", &team("rg/ticTacToe.rg"), "3", "--expected", &wrong]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("differs at depth 3: 504, expected 500"),
        "{}",
        out.stdout
    );
    // The counts are still printed.
    assert!(out.stdout.contains("depth 3: 504"), "{}", out.stdout);

    let out = rgw(&[
        "perft",
        &team("rg/ticTacToe.rg"),
        "3",
        "--json",
        "--expected",
        &wrong,
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    let json: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(
        json["expected"]["mismatches"],
        serde_json::json!([{"depth": 3, "count": 504, "expected": 500}]),
        "{json}"
    );

    let other = dir.write("other.tsv", "chess.rg\t1\t20\n");
    let out = rgw(&["perft", &team("rg/ticTacToe.rg"), "1", "--expected", &other]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("other.tsv: no row for this game"),
        "{}",
        out.stdout
    );

    let out = rgw(&[
        "perft",
        &team("rg/ticTacToe.rg"),
        "1",
        "--divide",
        "--expected",
        &other,
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn convert_marks_games_whose_counts_differ_from_the_table() {
    let dir = TempDir::new("convert-expected");
    let library = dir.path.join("library");
    std::fs::create_dir_all(&library).unwrap();
    for game in ["ticTacToe.rbg", "connect4.rbg"] {
        std::fs::copy(team(&format!("rbg/{game}")), library.join(game)).unwrap();
    }
    let table = dir.write("perft.tsv", "ticTacToe.rbg\t2\t71\nconnect4.rbg\t2\t49\n");
    let out_dir = dir.path.join("out");
    let out = rgw(&[
        "convert",
        library.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--verify-depth",
        "2",
        "--expected",
        &table,
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("ticTacToe.rbg: mismatch: perft differs at depth 2: 72, expected 71"),
        "{}",
        out.stdout
    );
    let report = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    let connect4 = report.lines().find(|l| l.contains("connect4.rbg")).unwrap();
    assert!(connect4.contains("| verified |"), "{connect4}");
    assert!(
        connect4.contains("perft.tsv: agrees at depth 2"),
        "{connect4}"
    );

    let malformed = dir.write("bad.tsv", "x\n");
    let out = rgw(&[
        "convert",
        library.to_str().unwrap(),
        "-o",
        dir.path.join("out2").to_str().unwrap(),
        "--expected",
        &malformed,
    ]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("bad.tsv:1:1"), "{}", out.stderr);
    assert!(!dir.path.join("out2").exists(), "nothing is converted");
}
