//! Inputs past the size limits (src/limits.rs) are refused with a
//! diagnostic, quickly, instead of exhausting time, memory or the stack.

use std::time::Instant;

fn game(board: &str, player: &str) -> String {
    format!("#game \"g\"\n#board {board}\n#order p\n#player p {player}\n#goal p 1 $turn > 3\n")
}

fn first_error(source: &str) -> String {
    let started = Instant::now();
    let errors = rbg_draft::parse_and_check(source).expect_err("the input is refused");
    // Generous: the token limit is only reached after millions of tokens,
    // on a machine shared with other builds.
    assert!(started.elapsed().as_secs() < 30, "refusing took too long");
    errors
        .iter()
        .find(|d| d.is_error())
        .map(|d| d.message.clone())
        .unwrap_or_default()
}

#[test]
fn nested_powers_past_the_letter_limit() {
    let message = first_error(&game("1 1 e", "(((e)^1000)^1000)[p]"));
    assert!(message.contains("more than 100000 letters"), "{message}");
}

#[test]
fn board_past_the_square_limit() {
    let message = first_error(&game("1000 101 e", "(e)[p]"));
    assert!(message.contains("more than 100000 squares"), "{message}");
}

#[test]
fn exponential_macros_past_the_token_limit() {
    let mut source = String::from("#def M0 = e e\n");
    for k in 1..=30 {
        source.push_str(&format!("#def M{k} = M{} M{}\n", k - 1, k - 1));
    }
    source.push_str(&game("1 1 M30", "(e)[p]"));
    let message = first_error(&source);
    assert!(message.contains("more than 5000000 tokens"), "{message}");
}

#[test]
fn largest_board_is_accepted() {
    // 100 000 squares, at the limit.
    let source = game(&format!("1000 100 {}", "e ".repeat(100_000)), "(e/x)[p]");
    let checked = rbg_draft::parse_and_check(&source).expect("valid");
    assert_eq!(checked.game.board.len(), 100_000);
}

#[test]
fn counter_comparison_too_large_to_translate() {
    let source = format!(
        "#game \"g\"\n#board 2000 2 {}\n#order p\n#player p (e/x)[p]\n#goal p 1 $e < $x\n",
        "e ".repeat(4000)
    );
    assert!(rbg_draft::parse_and_check(&source).is_ok());
    let errors = rbg_draft::translate(&source).expect_err("refused");
    let rendered = rg_core::diag::render_all(&errors, "g.rbgd", &source);
    assert!(rendered.contains("too large a table"), "{rendered}");
    assert!(rendered.contains("g.rbgd:5:11"), "{rendered}");
}
