//! HRG words: identifiers (never a reserved word), contextual keywords and
//! integers.

use rg_core::syntax::{error, skip_trivia, split_word, starts_with_trivia, PResult};

use super::Parser;
use crate::ast::Name;

/// Words that cannot be names.
const RESERVED: [&str; 3] = ["const", "type", "var"];

impl Parser<'_> {
    /// The identifier at the start of `input` (after trivia), without
    /// consuming it.
    pub(super) fn peek_word<'a>(&self, input: &'a str) -> &'a str {
        split_word(skip_trivia(input)).0
    }

    pub(super) fn ident<'a>(&self, input: &'a str) -> PResult<'a, Name> {
        let input = skip_trivia(input);
        let (text, rest) = split_word(input);
        if text.is_empty() {
            return error(input, "expected an identifier");
        }
        if RESERVED.contains(&text) {
            return error(
                input,
                format!("\"{text}\" is reserved and cannot be a name"),
            );
        }
        Ok((
            rest,
            Name {
                text: text.to_string(),
                span: self.span(input, rest),
            },
        ))
    }

    /// A contextual keyword: the identifier `word` exactly.
    pub(super) fn keyword<'a>(&self, input: &'a str, word: &'static str) -> PResult<'a, ()> {
        let start = skip_trivia(input);
        if self.peek_word(start) == word {
            Ok((&start[word.len()..], ()))
        } else {
            error(start, format!("expected \"{word}\""))
        }
    }

    /// `in`, which must be followed by whitespace or a comment.
    pub(super) fn in_keyword<'a>(&self, input: &'a str) -> PResult<'a, ()> {
        let (rest, ()) = self.keyword(input, "in")?;
        if starts_with_trivia(rest) {
            Ok((rest, ()))
        } else {
            error(skip_trivia(input), "\"in\" must be followed by a space")
        }
    }

    pub(super) fn integer<'a>(&self, input: &'a str) -> PResult<'a, i64> {
        let input = skip_trivia(input);
        let end = input
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(input.len());
        if end == 0 {
            return error(input, "expected a non-negative integer");
        }
        match input[..end].parse() {
            Ok(n) => Ok((&input[end..], n)),
            Err(_) => error(input, "integer too large"),
        }
    }
}
