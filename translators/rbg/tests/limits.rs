//! Size limits of the RBG front end (issue #18, docs/reliability.md): huge
//! boards, macro expansions and `^n` powers, and deeply nested input, are
//! refused with a diagnostic naming the limit, quickly and without
//! overflowing the stack.

use std::time::{Duration, Instant};

use rg_core::diag::Diagnostic;

/// A valid high-level game around a board and rules, with `macros` before
/// the rules.
fn game(board: &str, macros: &str, rules: &str) -> String {
    format!(
        "#players = white(10), black(10)\n#pieces = e, w\n#variables =\n\
         #board = {board}\n{macros}\n#rules = {rules}\n"
    )
}

/// The errors of the whole pipeline (preprocessing, parsing, checking); it
/// must refuse `source` within ten seconds.
fn refusal(source: &str) -> Vec<Diagnostic> {
    let start = Instant::now();
    let errors = rbg::parse_and_check(source).expect_err("refused");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    errors
}

/// The error mentioning `needle` (in its message or notes).
fn find<'e>(errors: &'e [Diagnostic], needle: &str) -> &'e Diagnostic {
    errors
        .iter()
        .find(|d| d.message.contains(needle) || d.notes.iter().any(|n| n.contains(needle)))
        .unwrap_or_else(|| panic!("no error mentions {needle:?}: {errors:?}"))
}

/// A rectangle of `rows` lines of `columns` slots.
fn rectangle(rows: usize, columns: usize) -> String {
    let line = format!("[{}]\n", vec!["e"; columns].join(", "));
    format!("rectangle(up, down, left, right,\n{})", line.repeat(rows))
}

#[test]
fn a_board_past_the_vertex_limit_is_refused_at_the_first_slot_past_it() {
    // 400 × 400 = 160,000 slots; the 100,001st is on line 251.
    let source = game(&rectangle(400, 400), "", "->white");
    let errors = refusal(&source);
    let error = find(
        &errors,
        "raise MAX_BOARD_VERTICES in translators/rbg/src/limits.rs",
    );
    assert!(
        error
            .message
            .contains("the board has more than 100000 vertices"),
        "{error:?}"
    );
    let board_start = source.find("[e").unwrap();
    let line = "e, ".repeat(399).len() + "e]\n".len() + 1;
    assert_eq!(
        error.span.unwrap().start,
        board_start + 250 * line + 1,
        "{error:?}"
    );
    // 300 × 300 fit.
    assert!(rbg::parse_and_check(&game(&rectangle(300, 300), "", "->white")).is_ok());
}

#[test]
fn cuboid_layers_and_hexagons_count_towards_the_vertex_limit() {
    // Two layers of 250 × 250: each fits, not both.
    let layer = format!(
        "[{}]",
        format!("[{}]\n", vec!["e"; 250].join(", ")).repeat(250)
    );
    let cuboid = format!("cuboid(up, down, left, right, front, back,\n{layer}\n{layer})");
    find(
        &refusal(&game(&cuboid, "", "->white")),
        "MAX_BOARD_VERTICES",
    );
    let hexagon = rectangle(400, 400).replace(
        "rectangle(up, down, left, right,",
        "hexagon(a, b, c, d, f, g,",
    );
    find(
        &refusal(&game(&hexagon, "", "->white")),
        "MAX_BOARD_VERTICES",
    );
}

#[test]
fn explicit_boards_count_towards_the_vertex_limit() {
    let vertices: String = (0..100_001).map(|k| format!("v{k}[e]{{}} ")).collect();
    // High-level text.
    let source = game(&vertices, "", "->white");
    let errors = refusal(&source);
    let error = find(&errors, "MAX_BOARD_VERTICES");
    assert_eq!(error.span.unwrap().start, source.find("v100000[").unwrap());
    // Low-level text, parsed directly.
    let ll = format!(
        "#board = {vertices}\n#players = white(10), black(10)\n#pieces = e, w\n#variables =\n#rules = ->white\n"
    );
    let errors = rbg::parse::parse_ll(&ll).expect_err("refused");
    let error = find(&errors, "MAX_BOARD_VERTICES");
    assert_eq!(error.span.unwrap().start, ll.find("v100000[").unwrap());
}

#[test]
fn macro_expansion_is_refused_past_its_size_and_depth_limits() {
    // 2^25 tokens from 25 doubling macros.
    let mut macros = String::from("#a0 = up\n");
    for k in 1..=25 {
        macros.push_str(&format!("#a{k} = a{} a{}\n", k - 1, k - 1));
    }
    let errors = refusal(&game(&rectangle(2, 2), &macros, "a25"));
    let error = find(
        &errors,
        "raise MAX_MACRO_TOKENS in translators/rbg/src/limits.rs",
    );
    assert!(
        error.message.contains("more than 5000000 tokens"),
        "{error:?}"
    );
    // 300 nested calls of the identity.
    let rules = format!("{}up{}", "m(".repeat(300), ")".repeat(300));
    let errors = refusal(&game(&rectangle(2, 2), "#m(x) = x\n", &rules));
    let error = find(
        &errors,
        "raise MAX_MACRO_DEPTH in translators/rbg/src/limits.rs",
    );
    assert!(
        error.message.contains("macro expansion nested too deeply"),
        "{error:?}"
    );
}

#[test]
fn powers_are_refused_past_their_limit() {
    // Nested powers multiply: 1000 × 1001 copies.
    let source = game(&rectangle(2, 2), "", "->white (up^1000)^1001");
    let errors = refusal(&source);
    let error = find(
        &errors,
        "raise MAX_POWER_ITEMS in translators/rbg/src/limits.rs",
    );
    assert!(
        error
            .message
            .contains("powers expand to more than 1000000 copied rule nodes"),
        "{error:?}"
    );
    assert_eq!(error.span.unwrap().start, source.find("1001").unwrap());
    // So do powers of long rules; short ones pass.
    let long = format!("->white ({})^1000", "up ".repeat(1001));
    find(
        &refusal(&game(&rectangle(2, 2), "", &long)),
        "MAX_POWER_ITEMS",
    );
    let short = game(&rectangle(2, 2), "", "->white ((up down)^10)^10");
    assert!(rbg::parse_and_check(&short).is_ok());
}

#[test]
fn nesting_of_depth_100000_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}up{}", "(".repeat(100_000), ")".repeat(100_000));
    // High-level rules.
    let errors = refusal(&game(&rectangle(2, 2), "", &deep));
    find(&errors, "nested too deeply");
    // Macro arguments.
    let call = format!("{}up{}", "m(".repeat(100_000), ")".repeat(100_000));
    find(
        &refusal(&game(&rectangle(2, 2), "#m(x) = x\n", &call)),
        "nested too deeply",
    );
    // Low-level rules.
    let ll = format!(
        "#board = a[e]{{}}\n#players = white(10), black(10)\n#pieces = e, w\n#variables =\n#rules = {deep}\n"
    );
    let errors = rbg::parse::parse_ll(&ll).expect_err("refused");
    find(&errors, "levels of nesting are supported");
}
