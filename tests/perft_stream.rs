//! `rgw perft` streams: each depth is printed as it finishes, Ctrl-C
//! (SIGINT) keeps the finished depths and exits 130, and `--divide` counts
//! below each first move; `rgw verify` stops on Ctrl-C the same way.

#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{rgw, team};

/// Perft of corpus/rg/breakthrough.rg (6x6) at depths 0..=6.
const BREAKTHROUGH: [u64; 7] = [1, 16, 256, 4308, 71478, 1_248_290, 21_470_998];

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_rgw"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rgw starts")
}

fn interrupt(child: &Child) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: sends a signal to the child this test started (and still
    // holds, so its pid cannot have been reused).
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
}

fn rest(mut reader: impl Read) -> String {
    let mut text = String::new();
    reader.read_to_string(&mut text).expect("utf-8 output");
    text
}

/// `depth 3: 4308 (0.001 s)` → (3, 4308).
fn depth_line(line: &str) -> (usize, u64) {
    let (depth, rest) = line
        .strip_prefix("depth ")
        .and_then(|l| l.split_once(": "))
        .unwrap_or_else(|| panic!("not a depth line: {line}"));
    let count = rest.split_whitespace().next().unwrap();
    (depth.parse().unwrap(), count.parse().unwrap())
}

#[test]
fn perft_prints_each_depth_as_it_finishes_and_ctrl_c_keeps_them() {
    let mut child = spawn(&["perft", &team("rg/breakthrough.rg"), "14", "--threads", "1"]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    // Depth 4 printed while the run goes on (depth 14 takes days): the
    // depths stream.
    while lines.len() < 5 {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "stdout ended early"
        );
        lines.push(line.trim_end().to_string());
    }
    interrupt(&child);
    let started = Instant::now();
    lines.extend(rest(stdout).lines().map(str::to_string));
    let status = child.wait().unwrap();
    let stderr = rest(child.stderr.take().unwrap());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the run stopped promptly"
    );
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted during depth"), "{stderr}");
    let depths: Vec<(usize, u64)> = lines.iter().map(|l| depth_line(l)).collect();
    assert!(depths.len() >= 5 && depths.len() < 15, "{lines:?}");
    for (index, &(depth, count)) in depths.iter().enumerate() {
        assert_eq!(depth, index, "{lines:?}");
        if let Some(&expected) = BREAKTHROUGH.get(depth) {
            assert_eq!(count, expected, "depth {depth}");
        }
    }
    assert!(
        stderr.contains(&format!("interrupted during depth {}", depths.len())),
        "{stderr}"
    );
}

#[test]
fn perft_json_on_ctrl_c_holds_the_finished_depths_and_says_interrupted() {
    let mut child = spawn(&[
        "perft",
        &team("rg/breakthrough.rg"),
        "14",
        "--threads",
        "2",
        "--json",
    ]);
    std::thread::sleep(Duration::from_millis(1500));
    interrupt(&child);
    let stdout = rest(child.stdout.take().unwrap());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    assert_eq!(json["complete"], false, "{json}");
    assert_eq!(json["stopped"], "interrupted", "{json}");
    let perft: Vec<u64> = serde_json::from_value(json["perft"].clone()).unwrap();
    assert!(!perft.is_empty() && perft.len() < 15, "{json}");
    for (depth, count) in perft.iter().enumerate() {
        if let Some(&expected) = BREAKTHROUGH.get(depth) {
            assert_eq!(*count, expected, "depth {depth}");
        }
    }
}

#[test]
fn verify_on_ctrl_c_reports_how_far_it_got_and_exits_130() {
    let mut child = spawn(&["verify", &team("rbg/breakthrough.rbg"), "--depth", "14"]);
    std::thread::sleep(Duration::from_millis(1500));
    interrupt(&child);
    let stdout = rest(child.stdout.take().unwrap());
    let status = child.wait().unwrap();
    let stderr = rest(child.stderr.take().unwrap());
    assert_eq!(status.code(), Some(130), "{stdout}{stderr}");
    assert!(
        stdout.contains("agree up to depth") && stdout.contains("stopped early: interrupted"),
        "{stdout}"
    );
    assert!(
        stderr.contains("interrupted: not verified to depth 14"),
        "{stderr}"
    );
}

/// `move: count` lines and `total: N`.
fn divide_lines(stdout: &str) -> (Vec<(String, u64)>, u64) {
    let mut moves = Vec::new();
    let mut total = None;
    for line in stdout.lines() {
        let (name, count) = line.rsplit_once(": ").expect("name: count");
        let count: u64 = count.parse().expect("a count");
        if name == "total" {
            total = Some(count);
        } else {
            moves.push((name.to_string(), count));
        }
    }
    (moves, total.expect("a total line"))
}

#[test]
fn divide_counts_below_each_first_move_for_every_model() {
    let cases: [(&str, &[&str], u64, usize); 6] = [
        ("rg/ticTacToe.rg", &[], 72, 9),
        ("rbg/ticTacToe.rbg", &[], 72, 9),
        ("rbg/ticTacToe.rbg", &["--via", "rg"], 72, 9),
        ("hrg/ticTacToe.hrg", &[], 72, 9),
        // The sequentialized GDL game: oplayer's noop comes first.
        ("kif/ticTacToe.kif", &[], 9, 1),
        ("kif/ticTacToe.kif", &["--via", "propnet"], 9, 1),
    ];
    for (file, extra, total, moves) in cases {
        let depth = "2";
        let mut args = vec!["perft", "--divide"];
        let path = team(file);
        args.push(&path);
        args.push(depth);
        args.extend_from_slice(extra);
        let out = rgw(&args);
        assert_eq!(out.code, 0, "{file} {extra:?}: {}", out.stderr);
        let (branches, printed_total) = divide_lines(&out.stdout);
        let perft = rgw(&[&["perft", &path, depth, "--json"], extra].concat());
        let json: serde_json::Value = serde_json::from_str(perft.stdout.trim()).unwrap();
        let expected = json["perft"][2].as_u64().unwrap();
        assert_eq!(printed_total, expected, "{file} {extra:?}: {}", out.stdout);
        assert_eq!(
            branches.iter().map(|(_, c)| c).sum::<u64>(),
            printed_total,
            "{file}"
        );
        assert_eq!(branches.len(), moves, "{file} {extra:?}: {}", out.stdout);
        assert_eq!(printed_total, total, "{file}");
    }
}

#[test]
fn divide_lists_moves_in_generation_order_and_in_json() {
    let out = rgw(&["perft", &team("rg/ticTacToe.rg"), "3", "--divide", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(json["complete"], true);
    assert_eq!(json["depth"], 3);
    assert_eq!(json["total"], 504);
    let moves: Vec<&str> = json["divide"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    // ticTacToe.rg's cells in declaration order, not sorted.
    assert_eq!(
        moves,
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    );
    assert!(json["divide"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["count"] == 56));
    let zero = rgw(&["perft", &team("rg/ticTacToe.rg"), "0", "--divide"]);
    assert_eq!(zero.stdout.trim(), "total: 1");
    // A time limit keeps the moves counted, without a total, and exits 1.
    let cut = rgw(&[
        "perft",
        &team("rbg/breakthrough.rbg"),
        "9",
        "--divide",
        "--json",
        "--time-limit",
        "0.3",
    ]);
    assert_eq!(cut.code, 1, "{}", cut.stderr);
    let json: serde_json::Value = serde_json::from_str(cut.stdout.trim()).unwrap();
    assert_eq!(json["complete"], false, "{json}");
    assert_eq!(json["stopped"], "time limit of 300.0ms reached", "{json}");
    assert!(json.get("total").is_none(), "{json}");
    assert!(
        cut.stderr.contains("stopped by the time limit after"),
        "{}",
        cut.stderr
    );
}

#[test]
fn divide_and_threads_or_joint_do_not_combine() {
    for extra in [["--threads", "2"], ["--joint", "--json"]] {
        let out = rgw(&[
            &["perft", &team("kif/ticTacToe.kif"), "2", "--divide"],
            &extra[..],
        ]
        .concat());
        assert_eq!(out.code, 2, "{extra:?}: {}", out.stderr);
    }
}
