//! Rendered diagnostics of malformed descriptions, pinned with insta. Each
//! case must point at the exact place in the ORIGINAL source, also when the
//! error is found in macro-expanded or low-level text.

use rg_core::diag::render_all;

/// The full pipeline's errors, rendered.
fn errors(source: &str) -> String {
    match rbg::parse_and_check(source) {
        Ok(_) => panic!("expected errors for:\n{source}"),
        Err(errors) => {
            assert!(!errors.is_empty());
            render_all(&errors, "game.rbg", source)
        }
    }
}

/// A valid game; cases below change one part of it.
fn game(board: &str, rules: &str) -> String {
    format!(
        "#players = white(10), black(10)\n#pieces = empty, pawn\n#variables = turn(5)\n\
         #board = {board}\n#rules = {rules}\n"
    )
}

const BOARD: &str = "rectangle(up, down, left, right,\n    [empty, pawn]\n    [pawn, empty])";

#[test]
fn base_game_is_valid() {
    let source = game(BOARD, "->white up ->black");
    assert!(rbg::parse_and_check(&source).is_ok());
}

#[test]
fn unterminated_comment() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white /* no end")));
}

#[test]
fn stray_character_and_huge_number() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white @ [$ turn = 4294967296]")));
}

#[test]
fn file_must_start_with_hash() {
    insta::assert_snapshot!(errors("players = a(1)\n#pieces = e\n"));
}

#[test]
fn keyword_cannot_name_a_macro() {
    insta::assert_snapshot!(errors(&format!(
        "#rectangle = x\n{}",
        game(BOARD, "->white")
    )));
}

#[test]
fn missing_and_duplicated_sections() {
    insta::assert_snapshot!(errors(
        "#players = a(1)\n#pieces = e\n#board = rectangle(u,d,l,r,[e])\n#pieces = f\n#rules = ->a\n"
    ));
}

#[test]
fn arity_clash_and_duplicate_macro() {
    insta::assert_snapshot!(errors(&format!(
        "#m = up\n#m(x) = x\n#n(a; b) = a\n#n(c; d) = d\n{}",
        game(BOARD, "->white")
    )));
}

#[test]
fn parametrized_macro_without_arguments() {
    insta::assert_snapshot!(errors(&format!(
        "#step(dir) = dir {{empty}}\n{}",
        game(BOARD, "->white step ->black")
    )));
}

#[test]
fn no_definition_with_this_arity() {
    insta::assert_snapshot!(errors(&format!(
        "#step(dir) = dir {{empty}}\n#step(a; b) = a b\n{}",
        game(BOARD, "->white step(up; down; left) ->black")
    )));
}

#[test]
fn unbalanced_macro_arguments() {
    insta::assert_snapshot!(errors(&format!(
        "#step(dir) = dir\n{}",
        game(BOARD, "->white step((up) ->black")
    )));
}

#[test]
fn bad_paste_inside_macro() {
    insta::assert_snapshot!(errors(&format!(
        "#cell(n) = n~y\n{}",
        game(BOARD, "->white cell(8) ->black")
    )));
}

#[test]
fn paste_outside_macro() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white up~down ->black")));
}

#[test]
fn undeclared_identifier_in_rules() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white upp {empty} ->black")));
}

#[test]
fn name_clashes_are_reported_at_the_declaration() {
    insta::assert_snapshot!(errors(
        "#players = white(10), pawn(10)\n#pieces = empty, pawn\n#variables = white(3)\n\
         #board = rectangle(up,down,left,right,[empty])\n#rules = ->white"
    ));
}

#[test]
fn zero_bound() {
    insta::assert_snapshot!(errors(
        "#limit = 0\n#players = white(limit)\n#pieces = e\n#variables =\n\
         #board = rectangle(up,down,left,right,[e])\n#rules = ->white"
    ));
}

#[test]
fn explicit_graph_problems() {
    insta::assert_snapshot!(errors(&game(
        "a [empty] {next: b, next: a}\n    b [pawn] {next: c}\n    a [queen] {next: a}",
        "->white next ->black"
    )));
}

#[test]
fn ragged_rectangle() {
    insta::assert_snapshot!(errors(&game(
        "rectangle(up, down, left, right,\n    [empty, pawn]\n    [pawn])",
        "->white"
    )));
}

#[test]
fn invalid_hexagon_shape() {
    insta::assert_snapshot!(errors(&game(
        "hexagon(nw, ne, e, se, sw, w,\n    [empty]\n    [empty, empty, empty])",
        "->white"
    )));
}

#[test]
fn tokens_after_generator() {
    insta::assert_snapshot!(errors(&game(&format!("{BOARD} extra"), "->white")));
}

#[test]
fn star_after_an_on() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white {empty}* ->black")));
}

#[test]
fn empty_off_and_empty_group() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white [] ->black")));
    insta::assert_snapshot!(errors(&game(BOARD, "->white () ->black")));
}

#[test]
fn power_zero() {
    insta::assert_snapshot!(errors(&game(BOARD, "->white up^0 ->black")));
}

#[test]
fn switch_inside_pattern_from_a_macro() {
    // Found by the checker in the low-level text, reported in the macro body.
    insta::assert_snapshot!(errors(&format!(
        "#sneaky = up ->black\n{}",
        game(BOARD, "->white {? sneaky} ->black")
    )));
}

#[test]
fn undeclared_names_from_macros_map_to_their_text() {
    insta::assert_snapshot!(errors(&format!(
        "#place(p) = [p] [$ score = 1]\n{}",
        game(BOARD, "->white place(queen) ->blue")
    )));
}

#[test]
fn low_level_parser_errors_in_several_sections() {
    let source = "#board = a[e]{r:b\n#players = x(1)\n#pieces = e\n#variables = t(2\n#rules = ->x {$ t < } ->>\n";
    let errors = rbg::parse::parse_ll(source).unwrap_err();
    insta::assert_snapshot!(render_all(&errors, "game.rbg", source));
}

#[test]
fn low_level_checker_errors() {
    let source =
        "#board = a[e]{r:b} b[p]{l:a, l:b}\n#players = x(1)\n#pieces = e, e\n#variables = t(2)\n\
                  #rules = ->x {? ->>} [q] [$ u = t + v] x ->y\n";
    let game = rbg::parse::parse_ll(source).unwrap();
    let errors = rbg::check::check(&game);
    insta::assert_snapshot!(render_all(&errors, "game.rbg", source));
}
