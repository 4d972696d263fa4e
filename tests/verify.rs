//! `rgw verify --against OTHER` (two files compared by perft, the first
//! differing move prefix reported) and `--expected TABLE`.

mod common;

use common::{rgw, team, TempDir};

#[test]
fn two_encodings_of_one_game_agree() {
    let out = rgw(&[
        "verify",
        &team("rbg/ticTacToe.rbg"),
        "--depth",
        "4",
        "--against",
        &team("rg/ticTacToe.rg"),
    ]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains(
            "RBG interpreter vs RG engine: agree up to depth 4: perft [1, 9, 72, 504, 3024]"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn a_saved_translation_is_checked_against_its_source() {
    let dir = TempDir::new("verify-against");
    let saved = dir.path.join("ticTacToe.rg");
    let out = rgw(&[
        "translate",
        &team("kif/ticTacToe.kif"),
        "-o",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = rgw(&[
        "verify",
        &team("kif/ticTacToe.kif"),
        "--depth",
        "3",
        "--against",
        saved.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("GDL reasoner vs RG engine: agree up to depth 3"),
        "{}",
        out.stdout
    );
}

#[test]
fn the_first_differing_move_prefix_is_reported() {
    // Without the c1-b2-a3 diagonal, a game x won on it goes on.
    let text = std::fs::read_to_string(team("rg/ticTacToe.rg")).unwrap();
    let broken: String = text
        .lines()
        .filter(|line| !line.contains("line7"))
        .map(|line| format!("{line}\n"))
        .collect();
    let dir = TempDir::new("verify-prefix");
    let file = dir.write("noDiagonal.rg", &broken);
    let out = rgw(&[
        "verify",
        &team("rg/ticTacToe.rg"),
        "--depth",
        "6",
        "--against",
        &file,
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let line = out.stdout.lines().next().unwrap();
    assert!(
        line.contains("agree") || line.contains("differ at depth 6: "),
        "{line}"
    );
    let prefix = line
        .split("after /")
        .nth(1)
        .and_then(|rest| rest.split("/:").next())
        .unwrap_or_else(|| panic!("no move prefix in: {line}"));
    let moves: Vec<&str> = prefix.split('/').collect();
    assert_eq!(moves.len(), 5, "{line}");
    // x (moves 1, 3, 5) holds the diagonal after the prefix.
    let mut x_cells = vec![moves[0], moves[2], moves[4]];
    x_cells.sort_unstable();
    assert_eq!(x_cells, ["a3", "b2", "c1"], "{line}");
    assert!(line.contains("moves only in the second model"), "{line}");
}

#[test]
fn expected_tables_confirm_or_refute_the_counts() {
    let game = team("rg/ticTacToe.rg");
    let table = team("rg/perft.tsv");
    let out = rgw(&["verify", &game, "--depth", "3", "--expected", &table]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("perft.tsv: agrees at depths 0-3"),
        "{}",
        out.stdout
    );

    let dir = TempDir::new("verify-expected");
    let wrong = dir.write("perft.tsv", "# a wrong row\nticTacToe.rg\t2\t71\n");
    let out = rgw(&["verify", &game, "--depth", "3", "--expected", &wrong]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("differs at depth 2: 72, expected 71"),
        "{}",
        out.stdout
    );

    let other = dir.write("other.tsv", "chess.rg\t1\t20\n");
    let out = rgw(&["verify", &game, "--depth", "1", "--expected", &other]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("other.tsv: no row for this game"),
        "{}",
        out.stdout
    );

    let malformed = dir.write("bad.tsv", "ticTacToe.rg\t2\n");
    let out = rgw(&["verify", &game, "--depth", "1", "--expected", &malformed]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("bad.tsv:1:1: expected at least 3 tab-separated fields"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_gdl_game_against_another_language_explains_plies() {
    let out = rgw(&[
        "verify",
        &team("kif/ticTacToe.kif"),
        "--depth",
        "2",
        "--against",
        &team("rg/ticTacToe.rg"),
    ]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(out.stderr.contains("perft --joint"), "{}", out.stderr);
}
