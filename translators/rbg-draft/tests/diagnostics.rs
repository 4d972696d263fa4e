//! Rendered diagnostics (file:line:column, excerpt, macro call stack) for
//! every error of rbg-draft.md §1–§3 and the warnings of §3.3, pinned with
//! insta. Each case changes one thing in a valid game.

use rg_core::diag::render_all;

/// The pipeline's errors (and warnings that came with them), rendered.
fn errors(source: &str) -> String {
    match rbg_draft::parse_and_check(source) {
        Ok(_) => panic!("expected errors for:\n{source}"),
        Err(diagnostics) => {
            assert!(diagnostics.iter().any(rg_core::diag::Diagnostic::is_error));
            render_all(&diagnostics, "game.rbgd", source)
        }
    }
}

/// The warnings of a valid description, rendered.
fn warnings(source: &str) -> String {
    match rbg_draft::parse_and_check(source) {
        Ok(checked) => {
            assert!(!checked.warnings.is_empty(), "expected warnings");
            render_all(&checked.warnings, "game.rbgd", source)
        }
        Err(e) => panic!("{}", render_all(&e, "game.rbgd", source)),
    }
}

/// A valid two-player game; `player` is the body of `#player a`, `goal`
/// that of `#goal a`.
fn game(player: &str, goal: &str) -> String {
    format!(
        "#game \"t\"\n#board 2 2 e x\n           x e\n#order a b\n#player a {player}\n\
         #player b (e/x)[a]\n#goal a {goal}\n#goal b 1 $turn > 4\n"
    )
}

const PLAYER: &str = "(e/x)[b]";
const GOAL: &str = "1 $turn > 4";

#[test]
fn base_game_is_valid() {
    assert!(rbg_draft::parse_and_check(&game(PLAYER, GOAL)).is_ok());
}

// ---- lexical ---------------------------------------------------------------

#[test]
fn unterminated_comment() {
    insta::assert_snapshot!(errors(&game("(e/x)[b] /* no end", GOAL)));
}

#[test]
fn unterminated_string() {
    insta::assert_snapshot!(errors("#game \"open\n#board 1 1 e\n"));
}

#[test]
fn stray_character_and_huge_number() {
    insta::assert_snapshot!(errors(&game("(e/x)[b] ;", "4294967296 $turn > 4")));
}

// ---- items -----------------------------------------------------------------

#[test]
fn file_must_start_with_hash() {
    insta::assert_snapshot!(errors("game \"t\"\n#board 1 1 e\n"));
}

#[test]
fn unknown_item_and_bare_hash() {
    insta::assert_snapshot!(errors(&format!("{}#pieces e\n#\n", game(PLAYER, GOAL))));
}

#[test]
fn missing_items() {
    insta::assert_snapshot!(errors("#def A = x\n"));
}

#[test]
fn duplicated_items() {
    insta::assert_snapshot!(errors(&format!(
        "{}#game \"u\"\n#player a (x/e)[b]\n#goal b 2 $turn > 3\n",
        game(PLAYER, GOAL)
    )));
}

#[test]
fn player_item_without_name() {
    insta::assert_snapshot!(errors(&format!("{}#player (e/x)[a]\n", game(PLAYER, GOAL))));
}

#[test]
fn players_of_items_and_order_differ() {
    insta::assert_snapshot!(errors(
        "#game \"t\"\n#board 1 1 e\n#order a b\n#player a (e/x)[b]\n#player c (e)[a]\n\
         #goal a 1 $turn > 2\n"
    ));
}

#[test]
fn duplicate_player_in_order() {
    insta::assert_snapshot!(errors(
        "#game \"t\"\n#board 1 1 e\n#order a b a\n#player a (e/x)[b]\n#player b (x/e)[a]\n\
         #goal a 1 $turn > 2\n#goal b 1 $turn > 2\n"
    ));
}

// ---- macros ----------------------------------------------------------------

#[test]
fn macro_defined_twice_with_same_arity() {
    insta::assert_snapshot!(errors(&format!(
        "#def M(x) = x\n#def M(y) = y\n{}",
        game(PLAYER, GOAL)
    )));
}

#[test]
fn macro_with_and_without_parameters() {
    insta::assert_snapshot!(errors(&format!(
        "#def M(x) = x\n#def M = y\n{}",
        game(PLAYER, GOAL)
    )));
}

#[test]
fn repeated_parameter_and_missing_equals() {
    insta::assert_snapshot!(errors(&format!(
        "#def M(x, x) = x\n#def N(x) x\n{}",
        game(PLAYER, GOAL)
    )));
}

#[test]
fn wrong_argument_count_names_the_call_stack() {
    insta::assert_snapshot!(errors(&format!(
        "#def STEP(p, q) = (p/q)\n#def MOVE(p) = STEP(p)[b]\n{}",
        game("MOVE(e)", GOAL)
    )));
}

#[test]
fn tilde_outside_macros() {
    insta::assert_snapshot!(errors(&game("(e/x~y)[b]", GOAL)));
}

#[test]
fn tilde_without_operands() {
    insta::assert_snapshot!(errors(&format!(
        "#def L(x) = ~x\n#def R(x) = x~\n{}",
        game("(e/L(x))[b]", GOAL)
    )));
    insta::assert_snapshot!(errors(&format!(
        "#def R(x) = x~\n{}",
        game("(e/R(x))[b]", GOAL)
    )));
}

#[test]
fn paste_that_is_not_one_token() {
    insta::assert_snapshot!(errors(&format!(
        "#def P(x) = 5~x\n{}",
        game("(e/P(a))[b]", GOAL)
    )));
}

#[test]
fn unclosed_argument_list() {
    insta::assert_snapshot!(errors(&format!(
        "#def P(x) = x\n{}",
        game("(e/x)[b] + P((e/x)[b]", GOAL)
    )));
}

#[test]
fn macro_nesting_limit() {
    let mut source = String::from("#def M0(x) = x\n");
    for k in 1..=250 {
        source.push_str(&format!("#def M{k}(x) = M{}(x)\n", k - 1));
    }
    source.push_str(&game("(e/M250(x))[b]", GOAL));
    let rendered = errors(&source);
    assert!(rendered.contains("nested deeper than 200"), "{rendered}");
}

#[test]
fn macro_warnings() {
    insta::assert_snapshot!(warnings(&format!(
        "#def E = \n#def M(x) = x\n{}",
        game("(e/x)[b] E + (M)[b]", GOAL)
    )));
}

// ---- grammar ---------------------------------------------------------------

#[test]
fn board_count_mismatch_silverman() {
    // The document's §2.2 example: 23 names for a 4×5 board (Erratum E8).
    insta::assert_snapshot!(errors(
        "#def PIECES(color) = color~Rook color~King color~Queen color~Rook\n\
         #def COPY5(piece) = piece piece piece piece piece\n\
         #board 4 5 PIECES(Black) COPY5(BlackPawn) COPY5(empty) COPY5(WhitePawn)\n\
         PIECES(White)\n#game \"s\"\n#order w\n#player w (empty/WhitePawn)[w]\n#goal w 1 $turn > 2\n"
    ));
}

#[test]
fn board_too_few_names_and_zero_width() {
    insta::assert_snapshot!(errors(
        "#game \"t\"\n#board 2 2 e e e\n#order a\n#player a (e)[a]\n#goal a 1 $turn > 2\n"
    ));
    insta::assert_snapshot!(errors(
        "#game \"t\"\n#board 0 2\n#order a\n#player a (e)[a]\n#goal a 1 $turn > 2\n"
    ));
}

#[test]
fn power_needs_star_or_number() {
    insta::assert_snapshot!(errors(&game("(e/x)(0,1)^(0,1,e)[b]", GOAL)));
    insta::assert_snapshot!(errors(&game("(e/x)((0,1))^0[b]", GOAL)));
}

#[test]
fn marker_takes_no_power() {
    insta::assert_snapshot!(errors(&game("(e/x)[b]^*", GOAL)));
}

#[test]
fn marker_names_an_unknown_player() {
    insta::assert_snapshot!(errors(&game("(e/x)[c]", GOAL)));
}

#[test]
fn malformed_steps() {
    insta::assert_snapshot!(errors(&game("(e x/x)[b]", GOAL)));
    insta::assert_snapshot!(errors(&game("(1 1)[b]", GOAL)));
    insta::assert_snapshot!(errors(&game("(e/{x,})[b]", GOAL)));
}

#[test]
fn goal_needs_a_score_and_a_condition() {
    insta::assert_snapshot!(errors(&game(PLAYER, "$turn > 4")));
    insta::assert_snapshot!(errors(&game(PLAYER, "1 $turn 4")));
    insta::assert_snapshot!(errors(&game(PLAYER, "1 @ e 0")));
}

#[test]
fn bad_game_name() {
    insta::assert_snapshot!(errors(&game(PLAYER, GOAL).replace("\"t\"", "\"t\" (x)")));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}(e/x){}[b]", "(".repeat(5000), ")".repeat(5000));
    let rendered = errors(&game(&deep, GOAL));
    assert!(rendered.contains("nested deeper than 200"), "{rendered}");
    let goal = format!("1 {}$turn > 4{}", "(".repeat(5000), ")".repeat(5000));
    let rendered = errors(&game(PLAYER, &goal));
    assert!(rendered.contains("nested deeper than 200"), "{rendered}");
}

#[test]
fn lone_greater_than_separator_is_a_warning() {
    insta::assert_snapshot!(warnings(&game("(e/x)[b] > (x/e)[b]", GOAL)));
}

// ---- static checks ---------------------------------------------------------

#[test]
fn letter_after_marker() {
    // The document's invalid examples (§9.2).
    insta::assert_snapshot!(errors(&game("(e)[a](1,1,e)", GOAL)));
    insta::assert_snapshot!(errors(&game("(e)([a]+(1,1,e))(1,1,e)", GOAL)));
}

#[test]
fn power_over_marker() {
    insta::assert_snapshot!(errors(&game("((e/x)[b])^2", GOAL)));
    insta::assert_snapshot!(errors(&game("((e/x)[b])^*", GOAL)));
}

#[test]
fn nullable_level_and_pattern() {
    insta::assert_snapshot!(errors(&game("((e/x))^*", GOAL)));
    insta::assert_snapshot!(errors(&game(PLAYER, "1 move((e)^*)")));
}

#[test]
fn pattern_with_off_or_marker() {
    insta::assert_snapshot!(errors(&game(PLAYER, "1 move((e/x))")));
    insta::assert_snapshot!(errors(&game(PLAYER, "1 move((e)[b])")));
}

#[test]
fn square_off_the_board() {
    insta::assert_snapshot!(errors(&game(PLAYER, "1 @ e 2 0 or @ e 0 -1")));
}

#[test]
fn queried_piece_that_exists_nowhere() {
    insta::assert_snapshot!(errors(&format!(
        "#def COUNT(p) = $p~s < 1\n{}",
        game(PLAYER, "1 COUNT(e) or @ y 0 0")
    )));
}

#[test]
fn static_warnings() {
    insta::assert_snapshot!(warnings(&game("(e/x)(0,5,zz)[b] + (b/x)[b]", GOAL)));
}

// ---- the published chess file (§9.4): each erratum is an error ------------

fn chess() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/rbg-draft/chess.rbgd"
    ))
    .expect("chess.rbgd")
}

fn with_erratum(from: &str, to: &str) -> String {
    let fixed = chess();
    assert!(fixed.contains(from));
    fixed.replacen(from, to, 1)
}

#[test]
fn chess_erratum_e1_bare_power() {
    insta::assert_snapshot!(errors(&with_erratum(
        "(x,y,{empty})^*(x,y,",
        "(x,y,{empty})^(x,y,"
    )));
}

#[test]
fn chess_erratum_e2_any_square() {
    insta::assert_snapshot!(errors(&with_erratum("g 1,ANYSQUARE)", "g 1,ANY SQUARE)")));
}

#[test]
fn chess_erratum_e3_unknown_macro() {
    insta::assert_snapshot!(errors(&with_erratum(
        "(/PROMOTEPIECES(s))",
        "(/PROMOTEPieces(s))"
    )));
}

#[test]
fn chess_erratum_e5_arity() {
    insta::assert_snapshot!(errors(&with_erratum("(LEGALS(b,w,-,))", "(LEGALS(b,w,-))")));
}

#[test]
fn bad_macro_heads() {
    insta::assert_snapshot!(errors(&format!(
        "#def turn = x\n#def M(x y) = x\n#def N(1) = x\n{}",
        game(PLAYER, GOAL)
    )));
}

#[test]
fn empty_items_and_empty_file() {
    insta::assert_snapshot!(errors(
        "#game\n#board\n#order\n#player p (e)[p]\n#goal p 1 $turn > 1\n"
    ));
    insta::assert_snapshot!(errors("// nothing but a comment\n"));
}

#[test]
fn unknown_marker_offset_syntax_and_value() {
    insta::assert_snapshot!(errors(&game("(e/x)[*]", GOAL)));
    insta::assert_snapshot!(errors(&game(PLAYER, "1 $ 3 > 4")));
}
