//! The lexical rules RG and HRG share: trivia, identifier words and
//! punctuation tokens, and positions within the source.

use super::error::{error, PResult};
use crate::ast::is_ident_char;
use crate::diag::Span;

/// The whitespace characters.
pub const WHITESPACE: [char; 4] = [' ', '\t', '\r', '\n'];

/// Skips whitespace (space, tab, CR, LF) and `//` comments, which end at a
/// line feed or a carriage return.
pub fn skip_trivia(mut input: &str) -> &str {
    loop {
        let trimmed = input.trim_start_matches(WHITESPACE);
        if let Some(comment) = trimmed.strip_prefix("//") {
            let end = comment.find(['\n', '\r']).unwrap_or(comment.len());
            input = &comment[end..];
        } else {
            return trimmed;
        }
    }
}

/// Whether `input` starts with whitespace or a comment.
pub fn starts_with_trivia(input: &str) -> bool {
    input.starts_with(WHITESPACE) || input.starts_with("//")
}

/// The maximal run of identifier characters at the start of `input` (no
/// trivia skipped; empty if there is none), and the rest.
pub fn split_word(input: &str) -> (&str, &str) {
    let end = input
        .find(|c: char| !is_ident_char(c))
        .unwrap_or(input.len());
    input.split_at(end)
}

/// The exact punctuation `token`, after trivia.
pub fn token<'a>(input: &'a str, token: &'static str) -> PResult<'a, ()> {
    let input = skip_trivia(input);
    match input.strip_prefix(token) {
        Some(rest) => Ok((rest, ())),
        None => error(input, format!("expected \"{token}\"")),
    }
}

/// Whether the next token (after trivia) starts with `token`.
pub fn peek_token(input: &str, token: &str) -> bool {
    skip_trivia(input).starts_with(token)
}

/// The byte offset of `input`, a suffix of `source`, within `source`.
pub fn offset(source: &str, input: &str) -> usize {
    input.as_ptr() as usize - source.as_ptr() as usize
}

/// The span of `source` from `start` to `rest` (both suffixes of it).
pub fn span(source: &str, start: &str, rest: &str) -> Span {
    Span::new(offset(source, start), offset(source, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_end_at_a_line_feed_or_a_carriage_return() {
        assert_eq!(skip_trivia(" // a\n b"), "b");
        assert_eq!(skip_trivia("// a\rb"), "b");
        assert_eq!(skip_trivia("\t// a"), "");
        assert_eq!(skip_trivia("/ a"), "/ a");
    }

    #[test]
    fn words_are_identifier_character_runs() {
        assert_eq!(split_word("é1_x(y)"), ("é1_x", "(y)"));
        assert_eq!(split_word(" x"), ("", " x"));
    }
}
