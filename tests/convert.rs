//! `rgw convert`: reports, exit codes and snapshot comparison on temporary
//! libraries.

mod common;

use common::{rgw, TempDir};

fn team_file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/corpus/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn report(out: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{out}/report.json")).unwrap()).unwrap()
}

fn game<'a>(report: &'a serde_json::Value, file: &str) -> &'a serde_json::Value {
    report["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["file"] == file)
        .unwrap_or_else(|| panic!("{file} not in the report"))
}

/// A library with two good games and a malformed one.
fn library(dir: &TempDir) -> String {
    dir.write("lib/games/ticTacToe.hrg", &team_file("hrg/ticTacToe.hrg"));
    dir.write(
        "lib/games/breakthrough.hrg",
        &team_file("hrg/breakthrough.hrg"),
    );
    dir.write(
        "lib/broken/bad.hrg",
        "domain Player = x\ndomain Score = 0\ngraph rules() {\n  check(a < b)\n  end()\n}\n",
    );
    dir.write("lib/notes.txt", "not a game");
    dir.path.join("lib").display().to_string()
}

#[test]
fn reports_every_game_and_fails_on_bad_input() {
    let dir = TempDir::new("convert");
    let lib = library(&dir);
    let out = dir.path.join("out").display().to_string();
    let run = rgw(&[
        "convert",
        &lib,
        "-o",
        &out,
        "--verify-depth",
        "2",
        "--jobs",
        "2",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // Failures are printed as path:line:col, which terminals open.
    assert!(
        run.stdout.contains(&format!(
            "{lib}/broken/bad.hrg:4:9: error: Expression \"a < b\" is not a valid condition."
        )),
        "{}",
        run.stdout
    );
    let r = report(&out);
    assert_eq!(r["games"].as_array().unwrap().len(), 3);
    let ttt = game(&r, "games/ticTacToe.hrg");
    assert_eq!(ttt["status"], "verified");
    assert_eq!(ttt["language"], "hrg");
    assert_eq!(ttt["verified_depth"], 2);
    assert_eq!(ttt["perft"], serde_json::json!([1, 9, 72]));
    assert!(ttt["nodes"].as_u64().unwrap() > 10 && ttt["edges"].as_u64().unwrap() > 10);
    assert!(ttt["translate_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(ttt["output"], "games/ticTacToe.rg");
    let bad = game(&r, "broken/bad.hrg");
    assert_eq!(bad["status"], "failed");
    assert!(
        bad["error"]
            .as_str()
            .unwrap()
            .starts_with("4:9: error: Expression \"a < b\" is not a valid condition."),
        "{bad}"
    );
    assert!(std::path::Path::new(&format!("{out}/games/breakthrough.rg")).is_file());
    let md = std::fs::read_to_string(format!("{out}/report.md")).unwrap();
    assert!(
        md.contains("| games/breakthrough.hrg | hrg | verified |"),
        "{md}"
    );
    assert_eq!(r["summary"]["failed"], 1);
    assert_eq!(r["summary"]["verified"], 2);
}

#[test]
fn a_clean_library_exits_0() {
    let dir = TempDir::new("convert-clean");
    dir.write("lib/ticTacToe.hrg", &team_file("hrg/ticTacToe.hrg"));
    let lib = dir.path.join("lib").display().to_string();
    let out = dir.path.join("out").display().to_string();
    let run = rgw(&["convert", &lib, "-o", &out]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(report(&out)["games"][0]["status"], "translated");
}

#[test]
fn against_reports_exactly_the_edited_game_and_bless_accepts_it() {
    let dir = TempDir::new("convert-against");
    let lib = library(&dir);
    let first = dir.path.join("first").display().to_string();
    assert_eq!(
        rgw(&["convert", &lib, "-o", &first, "--verify-depth", "1"]).code,
        1
    );
    // Nothing changed: every game unchanged (the broken one still fails, so
    // the exit code stays 1 because of it).
    let second = dir.path.join("second").display().to_string();
    let run = rgw(&[
        "convert",
        &lib,
        "-o",
        &second,
        "--verify-depth",
        "1",
        "--against",
        &first,
    ]);
    let r = report(&second);
    assert_eq!(r["comparison"]["changed"], 0, "{}", run.stdout);
    assert_eq!(r["comparison"]["unchanged"], 3);
    // Edit one game: the draw now scores 0 for both players.
    let edited = team_file("hrg/ticTacToe.hrg")
        .replace("domain Score = 50 | 0 | 100", "domain Score = 0 | 50 | 100");
    dir.write("lib/games/ticTacToe.hrg", &edited);
    let third = dir.path.join("third").display().to_string();
    let run = rgw(&[
        "convert",
        &lib,
        "-o",
        &third,
        "--verify-depth",
        "1",
        "--against",
        &first,
    ]);
    assert_eq!(run.code, 1);
    let r = report(&third);
    assert_eq!(r["comparison"]["changed"], 1, "{}", run.stdout);
    assert_eq!(r["comparison"]["unchanged"], 2);
    let changed = game(&r, "games/ticTacToe.hrg");
    assert_eq!(changed["change"]["kind"], "changed");
    assert!(changed["change"]["diff"]
        .as_str()
        .unwrap()
        .contains("+type Score = { 0, 50, 100 };"));
    assert_eq!(changed["change"]["perft_before"], serde_json::json!([1, 9]));
    assert_eq!(
        game(&r, "games/breakthrough.hrg")["change"]["kind"],
        "unchanged"
    );
    let md = std::fs::read_to_string(format!("{third}/report.md")).unwrap();
    assert!(md.contains("### changed: `games/ticTacToe.hrg`"), "{md}");
    // A new game and a removed one.
    dir.write("lib/games/connect4.hrg", &team_file("hrg/connect4.hrg"));
    std::fs::remove_file(dir.path.join("lib/games/breakthrough.hrg")).unwrap();
    let fourth = dir.path.join("fourth").display().to_string();
    rgw(&["convert", &lib, "-o", &fourth, "--against", &first]);
    let r = report(&fourth);
    assert_eq!(r["comparison"]["new"], 1);
    assert_eq!(
        r["comparison"]["removed"],
        serde_json::json!(["games/breakthrough.hrg"])
    );
    // Bless: the snapshot becomes this run's output; comparing again shows no change.
    std::fs::remove_file(dir.path.join("lib/broken/bad.hrg")).unwrap();
    let fifth = dir.path.join("fifth").display().to_string();
    let run = rgw(&[
        "convert",
        &lib,
        "-o",
        &fifth,
        "--against",
        &first,
        "--bless",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let sixth = dir.path.join("sixth").display().to_string();
    let run = rgw(&["convert", &lib, "-o", &sixth, "--against", &first]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(report(&sixth)["comparison"]["unchanged"], 2);
}

#[test]
fn usage_errors() {
    let dir = TempDir::new("convert-usage");
    let lib = library(&dir);
    let out = dir.path.join("out").display().to_string();
    assert_eq!(rgw(&["convert", "no/such/dir", "-o", &out]).code, 2);
    assert_eq!(rgw(&["convert", &lib]).code, 2);
    assert_eq!(rgw(&["convert", &lib, "-o", &out, "--bless"]).code, 2);
    assert_eq!(
        rgw(&["convert", &lib, "-o", &out, "--against", &lib]).code,
        2
    );
    assert_eq!(
        rgw(&["convert", &lib, "-o", &out, "--time-limit", "0"]).code,
        2
    );
}

/// The README's main command: the bundled corpus converts, and every RBG,
/// draft RBG, GDL, HRG and replay game is verified against its native model.
#[test]
fn the_bundled_corpus_converts_and_verifies() {
    let dir = TempDir::new("bundled");
    let out = dir.path.join("out").display().to_string();
    let run = rgw(&["convert", "corpus", "-o", &out, "--verify-depth", "3"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let r = report(&out);
    let games = r["games"].as_array().unwrap();
    // 13 games before, the twelve draft games of corpus/rbg-draft, the
    // prisoner's dilemma of corpus/kif and the eleven games of
    // corpus/replay.
    assert_eq!(games.len(), 37, "{r}");
    for g in games {
        assert_eq!(g["status"], "verified", "{g}");
        assert!(g["nodes"].as_u64().unwrap() > 0, "{g}");
        assert!(
            std::path::Path::new(&out)
                .join(
                    g["file"]
                        .as_str()
                        .unwrap()
                        .rsplit_once('.')
                        .unwrap()
                        .0
                        .to_string()
                        + ".rg"
                )
                .is_file(),
            "{g}"
        );
    }
    let ttt = game(&r, "rbg/ticTacToe.rbg");
    assert_eq!(ttt["verified_depth"], 3);
    assert_eq!(ttt["perft"], serde_json::json!([1, 9, 72, 504]));
}

/// Guard rails: the output directory may not be inside the library (nor be
/// it), and a library without games is an error, not an empty success.
#[test]
fn output_inside_the_library_and_empty_libraries_are_refused() {
    let dir = TempDir::new("convert-guards");
    let lib = library(&dir);
    for out in [
        lib.clone(),
        format!("{lib}/out"),
        format!("{lib}/games/../x"),
    ] {
        let run = rgw(&["convert", &lib, "-o", &out]);
        assert_eq!(run.code, 2, "{out}: {}", run.stderr);
        assert!(
            run.stderr.contains("is inside the library"),
            "{}",
            run.stderr
        );
    }
    assert!(!std::path::Path::new(&format!("{lib}/report.md")).exists());
    let empty = dir.path.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    dir.write("empty/notes.txt", "no games here\n");
    let out = dir.path.join("empty-out").display().to_string();
    let run = rgw(&["convert", &empty.display().to_string(), "-o", &out]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("no games found"), "{}", run.stderr);
}

/// Two games with the same name in different languages are both written,
/// each keeping its source extension, and the report says so.
#[test]
fn games_with_the_same_name_keep_their_source_extension() {
    let dir = TempDir::new("convert-collide");
    dir.write("lib/ticTacToe.hrg", &team_file("hrg/ticTacToe.hrg"));
    dir.write("lib/ticTacToe.kif", &team_file("kif/ticTacToe.kif"));
    dir.write("lib/connect4.rbg", &team_file("rbg/connect4.rbg"));
    let lib = dir.path.join("lib").display().to_string();
    let out = dir.path.join("out").display().to_string();
    let run = rgw(&["convert", &lib, "-o", &out]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let r = report(&out);
    assert_eq!(game(&r, "ticTacToe.hrg")["output"], "ticTacToe.hrg.rg");
    assert_eq!(game(&r, "ticTacToe.kif")["output"], "ticTacToe.kif.rg");
    assert_eq!(game(&r, "connect4.rbg")["output"], "connect4.rg");
    assert!(game(&r, "ticTacToe.kif")["note"]
        .as_str()
        .unwrap()
        .contains("would be shared"));
    for file in ["ticTacToe.hrg.rg", "ticTacToe.kif.rg", "connect4.rg"] {
        assert!(
            std::path::Path::new(&format!("{out}/{file}")).is_file(),
            "{file}"
        );
    }
    assert!(!std::path::Path::new(&format!("{out}/ticTacToe.rg")).exists());
}

/// The snapshot gate compares outcomes, not only the RG text: a game that
/// is no longer verified, or verified less deep, is a change (exit 1), and
/// the console names every changed game with what changed.
#[test]
fn against_sees_outcome_regressions_with_the_same_translation() {
    let dir = TempDir::new("convert-outcome");
    dir.write("lib/ticTacToe.hrg", &team_file("hrg/ticTacToe.hrg"));
    let lib = dir.path.join("lib").display().to_string();
    let first = dir.path.join("first").display().to_string();
    assert_eq!(
        rgw(&["convert", &lib, "-o", &first, "--verify-depth", "2"]).code,
        0
    );
    // Verification not asked this time: verified -> translated.
    let second = dir.path.join("second").display().to_string();
    let run = rgw(&["convert", &lib, "-o", &second, "--against", &first]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("changed ticTacToe.hrg: status verified → translated"),
        "{}",
        run.stdout
    );
    let r = report(&second);
    assert_eq!(r["comparison"]["changed"], 1);
    assert!(game(&r, "ticTacToe.hrg")["change"]["diff"].is_null());
    // Verified less deep.
    let third = dir.path.join("third").display().to_string();
    let run = rgw(&[
        "convert",
        &lib,
        "-o",
        &third,
        "--verify-depth",
        "1",
        "--against",
        &first,
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("verified depth 2 → 1"),
        "{}",
        run.stdout
    );
    // The same outcome again: unchanged, exit 0.
    let fourth = dir.path.join("fourth").display().to_string();
    let run = rgw(&[
        "convert",
        &lib,
        "-o",
        &fourth,
        "--verify-depth",
        "2",
        "--against",
        &first,
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(report(&fourth)["comparison"]["unchanged"], 1);
}

/// A library where one game's worker aborts, one overflows its stack, one
/// runs out of memory and one hangs (made so by the test-only
/// RGW_TEST_CRASH variable), beside good games: every bad game is reported
/// as failed with what happened, the good ones are verified, and the run
/// writes its report.
#[test]
fn a_crashing_worker_is_its_games_failure_and_the_run_goes_on() {
    let dir = TempDir::new("convert-crash");
    let ttt = team_file("rbg/ticTacToe.rbg");
    for name in ["abort", "overflow", "memory", "hang"] {
        dir.write(&format!("lib/bad/{name}.rbg"), &ttt);
    }
    dir.write("lib/good/ticTacToe.rbg", &ttt);
    dir.write("lib/good/ticTacToe.kif", &team_file("kif/ticTacToe.kif"));
    dir.write("lib/good/connect4.hrg", &team_file("hrg/connect4.hrg"));
    let lib = dir.path.join("lib").display().to_string();
    let out = dir.path.join("out").display().to_string();
    let run = common::rgw_with_env(
        &[
            "convert",
            &lib,
            "-o",
            &out,
            "--verify-depth",
            "2",
            "--time-limit",
            "1",
            "--memory-limit",
            "700",
            "--jobs",
            "2",
        ],
        &[(
            "RGW_TEST_CRASH",
            "abort:abort.rbg,stack-overflow:overflow.rbg,memory:memory.rbg,hang:hang.rbg",
        )],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let r = report(&out);
    assert_eq!(r["summary"]["games"], 7, "{r}");
    assert_eq!(r["summary"]["complete"], true, "{r}");
    for good in [
        "good/ticTacToe.rbg",
        "good/ticTacToe.kif",
        "good/connect4.hrg",
    ] {
        assert_eq!(game(&r, good)["status"], "verified", "{good}: {r}");
    }
    let error = |file: &str| {
        let g = game(&r, file);
        assert_eq!(g["status"], "failed", "{g}");
        g["error"].as_str().unwrap().to_string()
    };
    let abort = error("bad/abort.rbg");
    assert!(
        abort.starts_with("the worker process crashed with SIGABRT while translating"),
        "{abort}"
    );
    let overflow = error("bad/overflow.rbg");
    assert!(
        overflow.contains("SIGABRT") && overflow.contains("has overflowed its stack"),
        "{overflow}"
    );
    let memory = error("bad/memory.rbg");
    assert!(
        memory.contains("memory allocation of")
            && memory.contains("the limit is 700 MB, --memory-limit raises it"),
        "{memory}"
    );
    let hang = error("bad/hang.rbg");
    assert_eq!(
        hang,
        "translation did not finish within the time limit of 1.0 s; the worker process was stopped"
    );
    // Off a terminal, one line per finished game on stderr.
    assert_eq!(
        run.stderr.lines().filter(|l| l.starts_with('[')).count(),
        7,
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(&format!("verified {lib}/good/connect4.hrg (depth 2)")),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains(&format!(
            "{lib}/bad/abort.rbg: failed: the worker process crashed with SIGABRT"
        )),
        "{}",
        run.stdout
    );
}

/// Ctrl-C (SIGINT) during a conversion writes the report of the games
/// done so far, marked incomplete, and exits 130. As from a terminal, the
/// signal goes to the whole process group: rgw and its running worker.
#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_report_of_the_games_done() {
    use std::io::{BufRead, BufReader, Read};
    use std::os::unix::process::CommandExt;
    let dir = TempDir::new("convert-interrupt");
    let ttt = team_file("rbg/ticTacToe.rbg");
    dir.write("lib/a.rbg", &ttt);
    dir.write("lib/b.hrg", &team_file("hrg/ticTacToe.hrg"));
    dir.write("lib/z-hang.rbg", &ttt);
    let lib = dir.path.join("lib").display().to_string();
    let out = dir.path.join("out").display().to_string();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rgw"))
        .args([
            "convert",
            &lib,
            "-o",
            &out,
            "--verify-depth",
            "2",
            "--jobs",
            "1",
        ])
        .env("RGW_TEST_CRASH", "hang:z-hang.rbg")
        .process_group(0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut finished = Vec::new();
    // The two good games are done when their lines are printed; the third
    // hangs (for the 60 s default time limit).
    while finished.len() < 2 {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "{finished:?}");
        finished.push(line);
    }
    let group = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: signals the process group of the child this test started
    // (and still holds) as its leader.
    assert_eq!(unsafe { libc::kill(-group, libc::SIGINT) }, 0);
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{finished:?}{rest}");
    assert!(
        rest.contains("interrupted: 2 of 3 games converted"),
        "{rest}"
    );
    let r = report(&out);
    assert_eq!(r["summary"]["complete"], false, "{r}");
    assert_eq!(r["summary"]["games_found"], 3, "{r}");
    let files: Vec<&str> = r["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["a.rbg", "b.hrg"]);
    let md = std::fs::read_to_string(format!("{out}/report.md")).unwrap();
    assert!(
        md.contains("Incomplete: interrupted (Ctrl-C) after 2 of 3 games"),
        "{md}"
    );
    // An interrupted run is no snapshot.
    let again = dir.path.join("again").display().to_string();
    let run = rgw(&["convert", &lib, "-o", &again, "--against", &out]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("holds an interrupted run"),
        "{}",
        run.stderr
    );
}

/// Draft RBG games (`.rbgd`) sit beside the other languages in one folder
/// and are each verified against the draft interpreter.
#[test]
fn a_folder_mixing_draft_rbg_with_other_languages_verifies() {
    let dir = TempDir::new("convert-mixed-draft");
    for file in [
        "rbg-draft/ticTacToe.rbgd",
        "rbg-draft/chess.rbgd",
        "rbg-draft/moveIdentity.rbgd",
        "rbg/connect4.rbg",
        "hrg/ticTacToe.hrg",
        "kif/ticTacToe.kif",
    ] {
        let name = file.rsplit('/').next().unwrap();
        dir.write(&format!("lib/{name}"), &team_file(file));
    }
    let lib = dir.path.join("lib").display().to_string();
    let out = dir.path.join("out").display().to_string();
    let run = rgw(&["convert", &lib, "-o", &out, "--verify-depth", "3"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let r = report(&out);
    assert_eq!(r["games"].as_array().unwrap().len(), 6, "{r}");
    for g in r["games"].as_array().unwrap() {
        assert_eq!(g["status"], "verified", "{g}");
    }
    let chess = game(&r, "chess.rbgd");
    assert_eq!(chess["language"], "rbgd");
    assert_eq!(chess["perft"], serde_json::json!([1, 20, 400, 8902]));
}
