//! Deep nesting never overflows the stack: past `MAX_NESTING` levels the
//! HRG parser stops with a diagnostic naming the limit, and near the limit
//! the whole pipeline (parse, evaluate, lower, check the RG output, the
//! native interpreter) runs on a 2 MB thread stack, the default for
//! spawned threads and tests.

use hrg::parse::parse_program;
use hrg::Interpreter;
use rg_core::diag::line_column;
use rg_core::syntax::{MAX_NESTING, NESTING_MESSAGE};

const HEADER: &str = "domain Player = x\ndomain Score = 0\ndomain B = t | f\n";

/// Runs `f` on a thread with a 2 MB stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// `source` fails to parse with the nesting limit as its first error, on
/// line `line`.
fn assert_too_deep(source: String, line: usize) {
    on_small_stack(move || {
        let errors = parse_program(&source).expect_err("too deep");
        assert_eq!(errors[0].message, NESTING_MESSAGE, "{errors:?}");
        let (l, _) = line_column(&source, errors[0].span.unwrap().start);
        assert_eq!(l, line);
    });
}

fn parens(n: usize) -> String {
    "(".repeat(n) + "t" + &")".repeat(n)
}

fn branches(n: usize) -> String {
    "branch { ".repeat(n) + "$ t" + &" }".repeat(n)
}

/// Expressions of `n` levels of each kind, each of type `B`.
fn expressions(n: usize) -> Vec<String> {
    vec![
        parens(n),
        "{ :".repeat(n) + "t" + &" }".repeat(n) + &"[t]".repeat(n),
        "if t == t then ".repeat(n) + "t" + &" else t".repeat(n),
        "id(".repeat(n) + "t" + &")".repeat(n),
        "id".to_string() + &"(t)".repeat(n),
        "t".to_string() + &" + t".repeat(n),
        "t".to_string() + &" == t".repeat(n),
        "t".to_string() + &" && t".repeat(n),
        "t".to_string() + &" || t".repeat(n),
    ]
}

#[test]
fn deep_expressions_stop_at_the_limit() {
    for expr in expressions(100_000) {
        assert_too_deep(format!("{HEADER}v : B = {expr}\n"), 4);
        assert_too_deep(format!("{HEADER}graph rules() {{ v = {expr} }}\n"), 4);
    }
    assert!(parse_program(&format!("{HEADER}v : B = {}\n", parens(MAX_NESTING - 1))).is_ok());
    assert_too_deep(format!("{HEADER}v : B = {}\n", parens(MAX_NESTING)), 4);
}

#[test]
fn deep_types_patterns_and_accessors_stop_at_the_limit() {
    let arrows = "B -> ".repeat(100_000) + "B";
    assert_too_deep(format!("{HEADER}m : {arrows}\n"), 4);
    assert_too_deep(format!("{HEADER}graph rules() {{ m = {arrows}(*) }}\n"), 4);
    let pattern = "C(".repeat(100_000) + "_" + &")".repeat(100_000);
    assert_too_deep(format!("{HEADER}f : B -> B\nf({pattern}) = t\n"), 5);
    let accessors = "[t]".repeat(100_000);
    assert_too_deep(format!("{HEADER}graph rules() {{ m{accessors} = t }}\n"), 4);
}

#[test]
fn deep_blocks_stop_at_the_limit() {
    let source = format!("{HEADER}graph rules() {{\n{} }}\n", branches(100_000));
    assert_too_deep(source, 5);
    for body in [
        "loop { ".repeat(100_000),
        "while t == t { ".repeat(100_000),
        "if t == t { ".repeat(100_000),
        "if t == t { } else ".repeat(100_000),
        "repeat 2 { ".repeat(100_000),
    ] {
        assert_too_deep(format!("{HEADER}graph rules() {{\n{body}"), 5);
    }
    // The graph's own block is the first level.
    let at_limit = format!(
        "{HEADER}graph rules() {{ {} }}\n",
        branches(MAX_NESTING - 1)
    );
    assert!(parse_program(&at_limit).is_ok());
    let past = format!("{HEADER}graph rules() {{\n{} }}\n", branches(MAX_NESTING));
    assert_too_deep(past, 5);
}

#[test]
fn every_stage_runs_near_the_limit_on_a_small_stack() {
    let depth = MAX_NESTING - 8;
    // Each kind of expression, at translation time and in a graph: an
    // error or a translation, never an overflow.
    for expr in expressions(depth) {
        let source = format!(
            "{HEADER}id : B -> B\nid(X) = X\nv : B = {expr}\n\
             graph rules() {{\n  player = x\n  v = {expr}\n  check({expr})\n}}\n"
        );
        on_small_stack(move || {
            let _ = hrg::translate(&source);
            let _ = Interpreter::new(&source);
        });
    }
    // A valid game with every construct this deep (map keys of a
    // one-element domain: over `B` the map would have 2^depth entries).
    let source = format!(
        "{HEADER}domain O = o\nid : B -> B\nid(X) = X\nm : {}B = {}\n\
         a : B = {}\nb : B = {}\nc : B = {}\nw : B = t\n\
         graph rules() {{\n  player = x\n  check({})\n  check({})\n  w = m{}\n  {}\n\
         player = keeper\n  goals[x] = 0\n}}\n",
        "O -> ".repeat(depth),
        "{ :".repeat(depth) + "t" + &" }".repeat(depth),
        parens(depth),
        "if t == t then ".repeat(depth) + "t" + &" else t".repeat(depth),
        "id(".repeat(depth) + "t" + &")".repeat(depth),
        "w == t".to_string() + &" && w == t".repeat(depth),
        "w == t".to_string() + &" || w == t".repeat(depth),
        "[o]".repeat(depth),
        branches(depth),
    );
    on_small_stack(move || {
        let translation = hrg::translate(&source);
        assert!(translation.is_ok(), "{:?}", translation.err());
        let interpreter = Interpreter::new(&source);
        assert!(interpreter.is_ok(), "{:?}", interpreter.err());
    });
}
