//! `.replay` files through the command line: every command that reads a
//! game accepts them, the replay options override the file's directives,
//! and the options are usage errors where they do not apply.

mod common;

use common::{rgw, team, TempDir};

const PD: &str = "replay/prisonersDilemma.replay";

#[test]
fn check_translate_and_stats() {
    let out = rgw(&["check", &team(PD)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("45 nodes, 50 edges"), "{}", out.stdout);
    let out = rgw(&["translate", &team(PD)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("@replayGoals p0 scale 1 offset -10"),
        "{}",
        out.stdout
    );
    // --echo shows what the program printed.
    let tour = team("replay/manualTour.replay");
    let out = rgw(&["check", &tour, "--echo"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("0\n1\n0\n"), "{}", out.stdout);
    let out = rgw(&["stats", &team(PD), "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn perft_native_and_rg_and_options_override_directives() {
    for via in ["native", "rg"] {
        let out = rgw(&["perft", &team(PD), "5", "--via", via]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("depth 4: 16"), "{via}: {}", out.stdout);
        assert!(out.stdout.contains("depth 5: 0"), "{via}: {}", out.stdout);
        // Three rounds instead of the directive's two.
        let out = rgw(&["perft", &team(PD), "7", "--via", via, "--rounds", "3"]);
        assert!(out.stdout.contains("depth 6: 64"), "{via}: {}", out.stdout);
        assert!(out.stdout.contains("depth 7: 0"), "{via}: {}", out.stdout);
    }
    // --fix replaces the directive's fix=0:grim: seat 1 is grim now, seat
    // 0 free; still one ply per round, three rounds.
    let grim = team("replay/grimVsFree.replay");
    let out = rgw(&["verify", &grim, "--depth", "4", "--fix", "1:grim"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("perft [1, 2, 4, 8, 0]"),
        "{}",
        out.stdout
    );
    // Both seats grim: no ply at all.
    let out = rgw(&["perft", &grim, "1", "--fix", "0:grim", "--fix", "1:grim"]);
    assert!(out.stdout.contains("depth 1: 0"), "{}", out.stdout);
}

#[test]
fn verify_play_moves_and_bench() {
    let noisy = team("replay/noisyGrim.replay");
    let out = rgw(&["verify", &noisy, "--depth", "7"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("native model vs RG translation: agree"),
        "{}",
        out.stdout
    );
    // Depth 7 is past the end of the game: the goals of all plays compared.
    assert!(
        out.stdout.contains(
            "terminal goals: native model vs RG translation: agree over 64 plays (8 goal vectors)"
        ),
        "{}",
        out.stdout
    );
    let out = rgw(&["play", &team(PD), "--playouts", "200", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = rgw(&["moves", &team(PD), "--via", "rg"]);
    assert_eq!(out.stdout.lines().collect::<Vec<_>>(), ["0", "1"]);
    let out = rgw(&["bench", &team(PD), "--seconds", "0.05", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn options_are_refused_where_they_do_not_apply() {
    let out = rgw(&["perft", &team("hrg/ticTacToe.hrg"), "1", "--rounds", "2"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("--rounds applies to .replay files only"),
        "{}",
        out.stderr
    );
    let dir = TempDir::new("replay-convert");
    let outdir = dir.path.join("out").display().to_string();
    let out = rgw(&["convert", "corpus/replay", "-o", &outdir, "--rounds", "2"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("does not apply to convert"),
        "{}",
        out.stderr
    );
    let out = rgw(&["perft", &team(PD), "1", "--fix", "zero"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let out = rgw(&["perft", &team(PD), "1", "--via", "propnet"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn errors_are_diagnostics_with_positions() {
    let dir = TempDir::new("replay-errors");
    let file = dir.write(
        "sim.replay",
        "strat {C, D};\nGame g = Game[2 | { (x,y) -> (x,y) }];\nPlayer p;\np, p % g;\n",
    );
    let out = rgw(&["check", &file, "--rounds", "1"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("sim.replay:4:1"), "{}", out.stderr);
    assert!(out.stderr.contains("plays a round"), "{}", out.stderr);
    let out = rgw(&["check", &file, "--rounds", "1", "--stop-at-simulation"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("evaluation stopped"), "{}", out.stderr);
}
