//! Snapshots of the rendered diagnostics of malformed and ill-typed RG
//! inputs: one case per check of the rg.md §4.6 catalogue (and a few more),
//! each pinned with its location, excerpt and message.

use rg_core::check::check_game;
use rg_core::diag::render_all;
use rg_core::parse::parse_game;

/// A valid game prefix the cases extend.
const HEADER: &str = "type Player = { x };\ntype Score = { 0 };\nbegin, end: player = keeper;\n";

/// Parses and checks `source`, rendering every diagnostic (syntax errors,
/// or the checker's errors and warnings).
fn diagnose(source: &str) -> String {
    let diagnostics = match parse_game(source) {
        Err(errors) => errors,
        Ok(game) => check_game(&game),
    };
    assert!(!diagnostics.is_empty(), "no diagnostic for:\n{source}");
    render_all(&diagnostics, "input.rg", source)
}

macro_rules! case {
    ($name:ident, $source:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), diagnose(&$source));
        }
    };
}

fn with_header(fragment: &str) -> String {
    format!("{HEADER}{fragment}\n")
}

/// Declarations the expression cases use.
fn with_decls(label: &str) -> String {
    with_header(&format!(
        "var v: Bool = 0;\nvar m: Bool -> Bool = {{ :0 }};\nconst q: Bool = 1;\ntype T = {{ 0, 1, 2 }};\nbegin, a: {label};\na, end: v == m[q];"
    ))
}

case!(c01_syntax_unicode_arrow, "type A = {a, b} → {c};\n");
case!(
    c01b_syntax_missing_semicolon,
    "type Player = { x }\ntype Score = { 0 };\n"
);
case!(
    c01c_syntax_several_errors,
    "type A = {a};\nvar v A = a;\nb, c: x;\nd, e: x [y] = z;\n"
);
case!(c02_empty_set_type, "type Score = {};\n");
case!(
    c03_missing_player,
    "type Score = { 0 };\nbegin, end: player = keeper;\n"
);
case!(
    c04_player_not_a_set,
    "type Player = Bool -> Bool;\ntype Score = { 0 };\nbegin, end: player = keeper;\n"
);
case!(
    c05_builtin_type_mismatch,
    with_header("type Bool = {2, 3};")
);
case!(
    c06_builtin_variable_mismatch,
    with_header("var goals: Score = 0;")
);
case!(
    c07_duplicate_alias,
    with_header("type A = {a};\ntype A = {b};")
);
case!(
    c08_duplicate_constant,
    with_header("const c: Bool = 0;\nconst c: Bool = 1;\nbegin, a: c == 0;\na, end: ;")
);
case!(
    c09_duplicate_variable,
    with_header("var w: Bool = 0;\nvar w: Bool = 1;\nbegin, a: w == 0;\na, end: ;")
);
case!(
    c10_constant_variable_clash,
    with_header("var w: Bool = 0;\nconst w: Bool = 1;\nbegin, a: w == 0;\na, end: ;")
);
case!(
    c11_unknown_type,
    with_header("var w: T = 0;\nbegin, a: w == 0;\na, end: ;")
);
case!(c12_recursive_alias, with_header("type A = B;\ntype B = A;"));
case!(
    c13_arrow_source_not_a_set,
    with_header("type X = Bool -> Bool;\ntype A = X -> Bool;")
);
case!(
    c14_value_not_in_type,
    with_header("var w: Bool = 2;\nbegin, a: w == 0;\na, end: ;")
);
case!(
    c15_map_for_a_set_type,
    with_header("var w: Bool = { :0 };\nbegin, a: w == 0;\na, end: ;")
);
case!(
    c16_symbol_for_an_arrow_type,
    with_header("var w: Bool -> Bool = 0;\nbegin, a: w == w;\na, end: ;")
);
case!(
    c17_bad_map_key,
    with_header("var w: Bool -> Bool = { :0, 2: 1 };\nbegin, a: w == w;\na, end: ;")
);
case!(
    c18_missing_default,
    with_header("var w: Bool -> Bool = { 0: 1 };\nbegin, a: w == w;\na, end: ;")
);
case!(
    c19_duplicate_key,
    with_header("var w: Bool -> Bool = { :0, 0: 1, 0: 0 };\nbegin, a: w == w;\na, end: ;")
);
case!(
    c20_two_defaults,
    with_header("var w: Bool -> Bool = { :0, :1 };\nbegin, a: w == w;\na, end: ;")
);
case!(
    c21_forward_constant,
    with_header("const c: Bool = d;\nconst d: Bool = c;\nbegin, a: c == d;\na, end: ;")
);
case!(c22_access_on_non_map, with_decls("v[0] == 0"));
case!(c23_map_used_as_key, with_decls("m[m] == 0"));
case!(c24_key_outside_domain, with_decls("m[x] == 0"));
case!(c25_cast_mismatch, with_decls("Player(v) == x"));
case!(c26_unknown_cast_type, with_decls("Foo(v) == 0"));
case!(c27_assignment_mismatch, with_decls("v = x"));
case!(c28_comparison_mismatch, with_decls("v == x"));
case!(c28b_misspelled_variable_hint, with_decls("posz == 1"));
case!(c29_any_assignment_too_wide, with_decls("v = T(*)"));
case!(c30_assignment_to_constant, with_decls("q = 1"));
case!(c30b_assignment_to_symbol, with_decls("zz = 1"));
case!(
    c31_any_assignment_to_player,
    with_decls("player = PlayerOrSystem(*)")
);
case!(c32_tag_of_non_variable, with_decls("$$ q"));
case!(c33_tag_of_map_variable, with_decls("$$ m"));
case!(c34_tag_self_loop, with_header("begin, begin: $ t;"));
case!(
    c35_end_unreachable,
    "type Player = { x };\ntype Score = { 0 };\nbegin, a: ;\nb, end: player = keeper;\n"
);
case!(
    c36_reachability_target_warning,
    with_header("begin, a: ? x -> y;\na, end: ;")
);
case!(
    c37_recursive_reachability_warning,
    with_header("begin, s: ;\ns, t: ? s -> t;\nt, end: ;")
);
case!(
    x01_player_contains_keeper,
    "type Player = { x, keeper };\ntype Score = { 0 };\nbegin, end: player = keeper;\n"
);
case!(
    x02_stored_symbol_outside_type,
    with_header("const c: {a, b} = b;\nvar w: {a} = c;\nbegin, t: w == c;\nt, end: ;")
);
case!(x03_edge_leaving_end_warning, with_header("end, begin: ;"));
