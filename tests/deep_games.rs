//! Deep games on the parallel perft path (worker threads): a move search
//! through 100,000 edges and reachability checks nested 900 deep finish
//! with their counts; checks nested past the engine's limit stop with an
//! error naming it. None of them may end the process by a signal (the
//! default 2 MB stack of a spawned thread would). A GDL game derives its
//! one move through a chain of 20,000 rules.

mod common;

use common::{rgw, TempDir};

/// A one-player game: each move passes the nested checks, tags `go`, and
/// the keeper ends the game after the third move.
fn nested_checks(depth: usize) -> String {
    let mut text = String::from(
        "type Player = { x };\ntype Score = { 0 };\ntype Count = { c0, c1, c2 };
const succ: Count -> Count = { c0: c1, c1: c2, :c2 };\nvar n: Count = c0;
begin, m: player = x;\nm, t: ? s0 -> f0;\nt, u: $ go;\nu, u1: player = keeper;
u1, u2: n != c2;\nu2, u3: n = succ[n];\nu3, m: player = x;\nu1, end: n == c2;\n",
    );
    for i in 0..depth {
        text.push_str(&format!("s{i}, f{i}: ? s{} -> f{};\n", i + 1, i + 1));
    }
    text.push_str(&format!("s{depth}, f{depth}: ;\n"));
    text
}

#[test]
fn nested_checks_on_worker_threads() {
    let dir = TempDir::new("deep-checks");
    let file = dir.write("nested.rg", &nested_checks(900));
    let out = rgw(&["perft", &file, "3", "--threads", "2"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("depth 3: 1 "), "{}", out.stdout);

    let file = dir.write("tooDeep.rg", &nested_checks(1200));
    let out = rgw(&["perft", &file, "3", "--threads", "2"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("reachability checks nested more than 1000 deep"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_move_through_a_long_chain_on_worker_threads() {
    let n = 100_000;
    let mut text = String::from(
        "type Player = { x };\ntype Score = { 0 };\ntype Bit = { 0, 1 };\nvar v: Bit = 0;
begin, c0: player = x;\n",
    );
    for i in 0..n {
        text.push_str(&format!("c{i}, c{}: ;\n", i + 1));
    }
    text.push_str(&format!(
        "c{n}, t: $ go;\nt, d: player = keeper;\nd, begin: v == 0;\nd, end: v == 1;\n"
    ));
    let dir = TempDir::new("deep-chain");
    let file = dir.write("chain.rg", &text);
    let out = rgw(&["perft", &file, "3", "--threads", "2"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("depth 3: 1 "), "{}", out.stdout);
}

/// A GDL game whose one move is legal only at the end of a chain of `n`
/// derived propositions `p0 … pn`, each from the one before.
fn derivation_chain(n: usize) -> String {
    let mut text = format!(
        "(role x)\n(init (c 0))\n(<= (legal x go) (true (c 0)) p{n})\n\
         (<= (next (c 1)) (does x go))\n(<= terminal (true (c 1)))\n\
         (<= (goal x 100) (true (c 1)))\n(<= (goal x 0) (true (c 0)))\n(<= p0 (true (c 0)))\n"
    );
    for i in 1..=n {
        text.push_str(&format!("(<= p{i} p{})\n", i - 1));
    }
    text
}

#[test]
fn a_long_derivation_chain_in_gdl() {
    let dir = TempDir::new("deep-gdl");
    // Within the prover's call depth: all three models agree.
    let file = dir.write("chain.kif", &derivation_chain(5_000));
    let out = rgw(&["verify", &file, "--depth", "2"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("vs RG translation: agree up to depth 2: perft [1, 1, 0]"),
        "{}",
        out.stdout
    );
    // 20,000 steps: grounding is linear in the chain (it used to visit
    // every rule in each of the 20,000 semi-naive rounds, about 30 s), and
    // the grounded models run on worker threads; the prover stops at its
    // call depth with an error naming the limit.
    let file = dir.write("longChain.kif", &derivation_chain(20_000));
    for via in ["propnet", "rg"] {
        let out = rgw(&[
            "perft",
            &file,
            "2",
            "--via",
            via,
            "--threads",
            "2",
            "--time-limit",
            "10",
        ]);
        assert_eq!(out.code, 0, "{via}: {}", out.stderr);
        assert!(out.stdout.contains("depth 1: 1 "), "{via}: {}", out.stdout);
    }
    let out = rgw(&["perft", &file, "2", "--via", "native", "--threads", "2"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("ProverLimits::call_depth"),
        "{}",
        out.stderr
    );
}
