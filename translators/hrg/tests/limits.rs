//! Size limits of the translation and of the native interpreter (issue #18,
//! docs/reliability.md): huge domains, ranges, tables and `repeat` counts
//! are refused with a diagnostic at the offending text naming the limit,
//! instead of exhausting memory or running for minutes.

use std::time::{Duration, Instant};

use hrg::Interpreter;
use rg_core::diag::Diagnostic;

/// A small valid game around `declarations` and a `rules` body.
fn game(declarations: &str, body: &str) -> String {
    format!(
        "domain Player = a\ndomain Score = 0 | 100\n{declarations}\n\
         graph rules() {{\n  player = a\n{body}\n  $ m\n  player = keeper\n  end()\n}}\n"
    )
}

fn translation_errors(source: &str) -> Vec<Diagnostic> {
    match hrg::translate(source) {
        Ok(_) => panic!("the translation accepted the game"),
        Err(errors) => errors,
    }
}

/// Both pipelines refuse `source`; every error mentions `needle`, and the
/// first one (with a span) starts at `at` in the source. Returns quickly.
fn refused(source: &str, needle: &str, at: Option<&str>) {
    let start = Instant::now();
    let translation = translation_errors(source);
    let interpreter = Interpreter::new(source).err().expect("interpreter refused");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    for (what, errors) in [("translation", &translation), ("interpreter", &interpreter)] {
        let error: &Diagnostic = errors
            .iter()
            .find(|d| d.message.contains(needle))
            .unwrap_or_else(|| panic!("{what}: {errors:?}"));
        if let Some(at) = at {
            let span = error
                .span
                .unwrap_or_else(|| panic!("{what}: no span: {error:?}"));
            assert_eq!(span.start, source.find(at).unwrap(), "{what}: {error:?}");
        }
    }
}

#[test]
fn a_huge_range_is_refused_at_the_range() {
    for range in ["0..4294967296", "0..1000000", "0..9223372036854775807"] {
        let source = game(&format!("domain N = V(X) where X in {range}"), "");
        refused(
            &source,
            "more than the limit of 100000 elements per domain (raise MAX_DOMAIN_ELEMENTS",
            Some("X in"),
        );
    }
}

#[test]
fn a_huge_generator_product_is_refused_at_the_constructor() {
    let source = game("domain P = C(X, Y) where X in 0..999, Y in 0..999", "");
    refused(&source, "more than 100000 combinations", Some("C(X, Y)"));
}

#[test]
fn a_huge_union_of_domains_is_refused_at_the_domain() {
    let mut declarations = String::from("domain D0 = V(X) where X in 0..60000\n");
    for k in 1..=8 {
        declarations.push_str(&format!("domain D{k} = D{} | D{}\n", k - 1, k - 1));
    }
    let source = game(&declarations, "");
    refused(
        &source,
        "elements, more than the limit of 100000",
        Some("D1 ="),
    );
}

#[test]
fn the_largest_allowed_range_still_translates() {
    let source = game("domain N = V(X) where X in 1..100000\nn : N = V(1)", "");
    hrg::translate(&source).unwrap_or_else(|d| panic!("{d:?}"));
}

#[test]
fn a_huge_function_table_is_refused() {
    let source = game(
        "domain N = V(X) where X in 0..9999\nf : N -> N -> N\nf(A, B) = A",
        "  check(f[V(0)][V(1)] == V(0))",
    );
    // The translation tabulates f; the interpreter may not need to.
    let errors = translation_errors(&source);
    assert!(
        errors.iter().any(|d| d
            .message
            .contains("more than 10000000 entries (raise MAX_TABLE_ENTRIES")),
        "{errors:?}"
    );
}

#[test]
fn a_huge_repeat_count_is_refused_at_the_repeat() {
    for count in ["2147483648", "4294967295", "10001"] {
        let source = game("", &format!("  repeat {count} {{ $ t }}"));
        refused(
            &source,
            "the limit of a repeat count (raise MAX_REPEAT_COUNT",
            Some("repeat"),
        );
    }
}

#[test]
fn nested_repeats_are_refused_past_the_expansion_limit() {
    let source = game("", "  repeat 10000 { repeat 10000 { $ t } }");
    let errors = translation_errors(&source);
    assert!(
        errors
            .iter()
            .any(|d| d.message.contains("more than 2000000 statements")
                && d.message.contains("MAX_EXPANDED_STATEMENTS")
                && d.span.is_some()),
        "{errors:?}"
    );
    let start = Instant::now();
    let errors = Interpreter::new(&source).err().expect("refused");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        errors
            .iter()
            .any(|d| d.message.contains("more than 2000000 statements")),
        "{errors:?}"
    );
}

/// A domain just under the limit must translate in reasonable time: a
/// function testing membership over 65,536 elements took a minute to
/// tabulate (a linear `in` and a quadratic map compression).
#[test]
fn a_function_over_a_large_domain_tabulates_quickly() {
    let source = game(
        "domain N = V(X) where X in 0..65535\nn : N = V(0)\nf : N -> N\n\
         f(V(X)) = if V(X + 1) in N then V(X + 1) else V(0)",
        "  n = f[n]",
    );
    let start = Instant::now();
    hrg::translate(&source).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
}

/// The declaration of a variable `name` of type `Bool -> … -> Bool`
/// (`depth` arrows) without initializer: every entry is 0.
fn nested_bool_variable(name: &str, depth: usize) -> String {
    format!("{name} : {}Bool", "Bool -> ".repeat(depth))
}

#[test]
fn the_interpreter_refuses_a_map_variable_past_the_table_limit() {
    // 2^248 entries (formerly built one by one until memory ran out) and
    // 2^24: refused at the outermost type name past the limit.
    for depth in [248, 24] {
        let source = game(&nested_bool_variable("m", depth), "");
        let start = Instant::now();
        let errors = Interpreter::new(&source).err().expect("refused");
        assert!(start.elapsed() < Duration::from_secs(10));
        let error = &errors[0];
        assert!(
            error
                .message
                .contains("more than the limit of 10000000 entries per table")
                && error
                    .message
                    .contains("raise MAX_TABLE_ENTRIES in translators/hrg/src/limits.rs"),
            "{errors:?}"
        );
        // The 24th arrow from the right (2^24 entries) is the first refused.
        let at = source.find(": ").unwrap() + 2 + "Bool -> ".len() * (depth - 24);
        assert_eq!(error.span.unwrap().start, at, "{errors:?}");
    }
    // 2^10 entries are fine.
    let source = game(&nested_bool_variable("m", 10), "");
    assert!(Interpreter::new(&source).is_ok());
}

#[test]
fn the_interpreter_refuses_a_state_past_the_slot_limit() {
    // Two variables of 2^23 entries each fit the table limit, but not the
    // state limit of 10^7 slots together.
    let declarations: Vec<String> = (0..2)
        .map(|k| nested_bool_variable(&format!("m{k}"), 23))
        .collect();
    let source = game(&declarations.join("\n"), "");
    let errors = Interpreter::new(&source).err().expect("refused");
    let error = &errors[0];
    assert!(
        error
            .message
            .contains("The state would have more than 10000000 slots")
            && error.message.contains("raise MAX_STATE_SLOTS"),
        "{errors:?}"
    );
    assert_eq!(
        error.span.unwrap().start,
        source.find("m1 :").unwrap(),
        "{errors:?}"
    );
}
