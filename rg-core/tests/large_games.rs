//! The checker on translation-sized games: tens of thousands of
//! reachability checks over hundreds of thousands of nodes (GDL chess
//! translations have 42,000 check sub-automata and millions of edges).
//! Checking the check targets once per start with one shared node set
//! keeps this to seconds and megabytes; a node set per start would need
//! 20,000 × 400,000 bytes here. The strongly connected components are found
//! without recursion, so a 400,000-node chain fits a test thread's stack.

use std::fmt::Write;
use std::time::{Duration, Instant};

#[test]
fn many_checks_over_many_nodes_are_checked_quickly() {
    let checks = 20_000;
    let chain = 400_000;
    let mut text =
        String::from("type Player = { x };\ntype Score = { 0 };\nbegin, n0: player = x;\n");
    for i in 0..chain {
        let _ = writeln!(text, "n{i}, n{}: ;", i + 1);
    }
    let _ = writeln!(text, "n{chain}, t: $ go;\nt, end: player = keeper;");
    for k in 0..checks {
        // Each check's sub-automaton is its own two nodes; every tenth
        // target is unreachable.
        let target = if k % 10 == 0 {
            format!("z{k}")
        } else {
            format!("b{k}")
        };
        let _ = writeln!(
            text,
            "n{k}, m{k}: ? a{k} -> {target};\nm{k}, n{k}: ;\na{k}, b{k}: ;"
        );
    }
    let game = rg_core::parse::parse_game(&text).unwrap();
    let start = Instant::now();
    let diagnostics = rg_core::check::check_game(&game);
    let elapsed = start.elapsed();
    let unreachable = diagnostics
        .iter()
        .filter(|d| d.message.contains("is not reachable from a"))
        .count();
    assert_eq!(
        unreachable,
        checks / 10,
        "{:?}",
        &diagnostics[..5.min(diagnostics.len())]
    );
    assert!(
        elapsed < Duration::from_secs(60),
        "checking took {elapsed:?}"
    );
}
