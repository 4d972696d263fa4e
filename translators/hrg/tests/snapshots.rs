//! Snapshots: the RG produced for the team's HRG games (a change in the
//! translation shows up as a reviewable diff), and the diagnostics of
//! malformed or ill-typed HRG programs.

use rg_core::diag::render_all;

fn translate_team(name: &str) -> String {
    let path = testkit::team_corpus().join("hrg").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let t = hrg::translate(&text).unwrap_or_else(|d| panic!("{}", render_all(&d, name, &text)));
    rg_core::print::print_game(&t.game)
}

#[test]
fn team_tic_tac_toe_translation() {
    insta::assert_snapshot!("ticTacToe_rg", translate_team("ticTacToe.hrg"));
}

#[test]
fn team_breakthrough_translation() {
    insta::assert_snapshot!("breakthrough_rg", translate_team("breakthrough.hrg"));
}

#[test]
fn team_connect4_translation() {
    insta::assert_snapshot!("connect4_rg", translate_team("connect4.hrg"));
}

const HEADER: &str =
    "domain Player = x | o\ndomain Score = 0 | 100\ndomain Cell = C(N) where N in 0..2\n\
                      board : Cell -> Player = { _ = x }\ncell : Cell\n";

/// Renders every diagnostic of translating `source` (errors, or warnings
/// when it translates).
fn diagnose(source: &str) -> String {
    let diagnostics = match hrg::translate(source) {
        Err(errors) => errors,
        Ok(t) => t.warnings,
    };
    assert!(!diagnostics.is_empty(), "no diagnostic for:\n{source}");
    render_all(&diagnostics, "input.hrg", source)
}

fn with_header(rest: &str) -> String {
    format!("{HEADER}{rest}\n")
}

macro_rules! case {
    ($name:ident, $source:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), diagnose(&$source));
        }
    };
}

case!(
    d01_if_condition_in_parentheses,
    with_header("graph rules() {\n  if (cell == cell) { end() }\n}")
);
case!(
    d02_unclosed_block,
    with_header("graph rules() {\n  cell = Cell(*)\n")
);
case!(d03_missing_rules, with_header("graph main() { end() }"));
case!(
    d04_unknown_graph,
    with_header("graph rules() {\n  play(x)\n  end()\n}")
);
case!(
    d05_graph_arity,
    with_header("graph turn(me: Player) { $$ cell }\ngraph rules() {\n  turn()\n  end()\n}")
);
case!(
    d06_unknown_function,
    with_header("f : Cell -> Cell\nf(C(N)) = g(N)\ngraph rules() { end() }")
);
case!(
    d07_unbound_variable,
    with_header("f : Cell -> Cell\nf(C(N)) = C(M)\ngraph rules() { end() }")
);
case!(
    d08_function_not_exhaustive,
    with_header("f : Cell -> Player\nf(C(0)) = x\nf(C(1)) = o\ngraph rules() { end() }")
);
case!(
    d09_incomparable_values,
    with_header("f : Cell -> Player\nf(N) = if N == 0 then x else o\ngraph rules() { end() }")
);
case!(
    d10_duplicated_map_key,
    with_header(
        "m : Cell -> Player = { C(0) = x; C(N) = o where N in 0..2 }\ngraph rules() { end() }"
    )
);
case!(
    d11_duplicated_binding,
    with_header(
        "m : Cell -> Player = { C(N) = o where N in 0..1, N in 1..2 }\ngraph rules() { end() }"
    )
);
case!(
    d12_substitute_assigned_variable,
    with_header("graph rules() {\n  branch cell in Cell { cell = C(0) }\n  end()\n}")
);
case!(
    d13_jump_not_last,
    with_header("graph rules() {\n  end()\n  cell = C(1)\n}")
);
case!(
    d14_break_outside_loop,
    with_header("graph rules() {\n  break()\n}")
);
case!(
    d15_invalid_condition,
    with_header("graph rules() {\n  check(cell < cell)\n  end()\n}")
);
case!(
    d16_runtime_arithmetic,
    with_header("graph rules() {\n  cell = cell + 1\n  end()\n}")
);
case!(
    d17_set_type_without_initializer,
    with_header("flag : { on, off }\ngraph rules() { end() }")
);
case!(
    d18_unknown_type_in_branch,
    with_header("graph rules() {\n  branch d in Direction { $_d }\n  end()\n}")
);
case!(
    d19_ill_typed_assignment,
    with_header("graph rules() {\n  board[x] = x\n  end()\n}")
);
case!(
    d20_assignment_to_function,
    with_header("f : Cell -> Cell\nf(_) = C(0)\ngraph rules() {\n  f = cell\n  end()\n}")
);
case!(
    d21_recursive_graph,
    with_header("graph loopy() { loopy() }\ngraph rules() {\n  loopy()\n  end()\n}")
);
case!(
    d22_duplicated_domain,
    format!("domain Cell = a\n{HEADER}graph rules() {{ end() }}\n")
);
case!(
    d23_generator_without_binding,
    with_header("domain Pair = P(I, J) where I in 0..1\ngraph rules() { end() }")
);
case!(d24_unused_case_warning, with_header("f : Cell -> Player\nf(_) = x\nf(C(1)) = o\ngraph rules() {\n  player = f(cell)\n  end()\n}"));
case!(
    d25_check_arity,
    with_header("graph rules() {\n  check(cell == cell, cell == cell)\n  end()\n}")
);
case!(
    d26_ill_typed_comparison,
    with_header("graph rules() {\n  check(cell == x)\n  end()\n}")
);
case!(
    d27_any_assignment_to_player,
    with_header("graph rules() {\n  player = Player(*)\n  end()\n}")
);
