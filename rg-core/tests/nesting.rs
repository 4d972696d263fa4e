//! Deep nesting never overflows the stack: past `MAX_NESTING` levels the
//! parser stops with a diagnostic naming the limit, and at the limit every
//! stage (parse, check, print, engine) runs on a 2 MB thread stack, the
//! default for spawned threads and tests.

use rg_core::check::check_game;
use rg_core::diag::{line_column, Diagnostic};
use rg_core::engine::{Engine, EngineOptions};
use rg_core::parse::parse_game;
use rg_core::print::print_game;
use rg_core::syntax::{MAX_NESTING, NESTING_MESSAGE};

const HEADER: &str = "type Player = { x };\ntype Score = { 0 };\nbegin, a: player = keeper;\n";

/// Runs `f` on a thread with a 2 MB stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// `Bool -> Bool -> … -> Bool` with `arrows` arrows.
fn arrows(arrows: usize) -> String {
    "Bool -> ".repeat(arrows) + "Bool"
}

/// `{:{:…{:0}…}}` with `maps` maps.
fn maps(maps: usize) -> String {
    "{:".repeat(maps) + "0" + &"}".repeat(maps)
}

/// The one syntax error of `source`, which must be the nesting limit.
fn nesting_error(source: String) -> Diagnostic {
    on_small_stack(move || {
        let errors = parse_game(&source).expect_err("too deep");
        assert_eq!(errors.len(), 1, "{errors:?}");
        let error = errors[0].clone();
        assert_eq!(error.message, NESTING_MESSAGE);
        error
    })
}

/// The 1-based column of a diagnostic on line `line` of `source`.
fn column(source: &str, d: &Diagnostic, line: usize) -> usize {
    let (l, c) = line_column(source, d.span.unwrap().start);
    assert_eq!(l, line);
    c
}

#[test]
fn deep_map_values_stop_at_the_limit() {
    let source = format!("var m: Bool = {};\n", maps(100_000));
    let error = nesting_error(source.clone());
    // At the map one level too deep.
    assert_eq!(column(&source, &error, 1), 15 + 2 * MAX_NESTING);
    assert!(parse_game(&format!("var m: Bool = {};\n", maps(MAX_NESTING))).is_ok());
    nesting_error(format!("var m: Bool = {};\n", maps(MAX_NESTING + 1)));
}

#[test]
fn long_arrow_chains_stop_at_the_limit() {
    let source = format!("type T = {};\n", arrows(100_000));
    let error = nesting_error(source.clone());
    assert_eq!(column(&source, &error, 1), 10 + 8 * MAX_NESTING);
    assert!(parse_game(&format!("type T = {};\n", arrows(MAX_NESTING - 1))).is_ok());
    nesting_error(format!("type T = {};\n", arrows(MAX_NESTING)));
    // Also on the right of an any-assignment.
    nesting_error(format!("a, b: x = {}(*);\n", arrows(100_000)));
}

#[test]
fn deep_expressions_stop_at_the_limit() {
    let casts = |n: usize| "Bool(".repeat(n) + "x" + &")".repeat(n);
    let keys = |n: usize| "m[".repeat(n) + "x" + &"]".repeat(n);
    let accesses = |n: usize| "m".to_string() + &"[x]".repeat(n);
    for expr in [casts, keys, accesses] {
        nesting_error(format!("a, b: {} == x;\n", expr(100_000)));
        nesting_error(format!("a, b: x = {};\n", expr(100_000)));
        nesting_error(format!("a, b: {} = x;\n", expr(MAX_NESTING + 1)));
        assert!(parse_game(&format!("a, b: {} = x;\n", expr(MAX_NESTING - 1))).is_ok());
    }
}

#[test]
fn every_stage_runs_at_the_limit_on_a_small_stack() {
    // Each construct as deep as the parser allows, less one or two levels
    // for a type to match.
    let depth = MAX_NESTING - 2;
    let access = "m".to_string() + &"[0]".repeat(depth);
    let keys = "n[".repeat(depth) + "0" + &"]".repeat(depth);
    let casts = "Bool(".repeat(depth) + "0" + &")".repeat(depth);
    // Keys of a one-symbol type keep the state small (a map over `Bool`
    // would have 2^depth cells).
    let source = format!(
        "{HEADER}type One = {{ 0 }};\nvar m: {}Bool = {};\nvar n: Bool -> Bool = {{:0}};\n\
         a, b: {access} == {keys};\nb, c: {access} = {casts};\nc, end: ;\n",
        "One -> ".repeat(depth),
        maps(depth),
    );
    on_small_stack(move || {
        let game = parse_game(&source).unwrap_or_else(|e| panic!("{e:?}"));
        let diagnostics = check_game(&game);
        assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
        let printed = print_game(&game);
        assert!(parse_game(&printed).is_ok());
        let engine = Engine::new(&game, EngineOptions::default());
        assert!(engine.is_ok(), "{:?}", engine.err());
    });
}
