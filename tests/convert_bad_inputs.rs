//! `rgw convert` over a library of hostile files (the inputs that used to
//! crash or blow up a front end: deep nesting in every language, huge
//! domains and repeat counts, an error at column 70,000, a huge KIF
//! string) beside valid games: the run finishes, reports each bad file as
//! failed with its diagnostic's position, and verifies the good ones.

mod common;

use common::{rgw, team, TempDir};

fn hrg_game(declarations: &str, body: &str) -> String {
    format!(
        "domain Player = a\ndomain Score = 0 | 100\n{declarations}\n\
         graph rules() {{\n  player = a\n{body}\n  $ m\n  player = keeper\n  end()\n}}\n"
    )
}

/// (file name, text, what its failure must mention)
fn hostile_files() -> Vec<(&'static str, String, &'static str)> {
    let deep = 100_000;
    vec![
        (
            "hugeDomain.hrg",
            hrg_game("domain N = V(X) where X in 0..4294967296", ""),
            "MAX_DOMAIN_ELEMENTS",
        ),
        (
            "hugeRepeat.hrg",
            hrg_game("", "  repeat 2147483648 { $ t }"),
            "MAX_REPEAT_COUNT",
        ),
        (
            "deepBranches.hrg",
            hrg_game("", &"  branch {\n".repeat(deep)),
            "nesting deeper than 256 levels",
        ),
        (
            "deepParentheses.kif",
            format!("(role p) (init {}x{})", "(".repeat(deep), ")".repeat(deep)),
            "nested too deeply",
        ),
        (
            "longLine.kif",
            format!("(role p) {} (init )) x", " ".repeat(70_000)),
            "1:700",
        ),
        (
            "hugeString.kif",
            format!("(role \"{}\"", "s".repeat(1_000_000)),
            "1:7:",
        ),
        (
            "deepRules.rbg",
            format!(
                "#board = rectangle(up,down,left,right,[e])\n#players = a(1)\n#pieces = e\n\
                 #variables = \n#rules = {}->a{}\n",
                "(".repeat(deep),
                ")".repeat(deep)
            ),
            "nested too deeply",
        ),
    ]
}

#[test]
fn convert_contains_hostile_files_and_verifies_the_rest() {
    let dir = TempDir::new("convert-hostile");
    let library = dir.path.join("library");
    std::fs::create_dir_all(&library).unwrap();
    for game in ["rbg/ticTacToe.rbg", "kif/ticTacToe.kif", "hrg/connect4.hrg"] {
        let name = game.split('/').nth(1).unwrap();
        std::fs::copy(team(game), library.join(name)).unwrap();
    }
    let hostile = hostile_files();
    for (name, text, _) in &hostile {
        std::fs::write(library.join(name), text).unwrap();
    }
    let out_dir = dir.path.join("out");
    let out = rgw(&[
        "convert",
        library.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
        "--verify-depth",
        "2",
        "--time-limit",
        "30",
    ]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    let games = report["games"].as_array().expect("games");
    let find = |name: &str| {
        games
            .iter()
            .find(|g| g["file"] == name)
            .unwrap_or_else(|| panic!("{name} is not in the report: {report}"))
    };
    for good in ["ticTacToe.rbg", "ticTacToe.kif", "connect4.hrg"] {
        let game = find(good);
        assert_eq!(game["status"], "verified", "{game}");
        assert_eq!(game["verified_depth"], 2, "{game}");
    }
    for (name, _, needle) in &hostile {
        let game = find(name);
        assert_eq!(game["status"], "failed", "{game}");
        let error = game["error"].as_str().unwrap_or_default();
        assert!(error.contains(needle), "{name}: {error}");
        assert!(!error.contains("crashed"), "{name}: {error}");
    }
}
