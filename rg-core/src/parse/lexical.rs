//! RG words: identifiers (never a keyword) and decimal numbers.

use super::Parser;
use crate::ast::{At, Ident, KEYWORDS};
use crate::syntax::{error, skip_trivia, split_word, PResult};

impl Parser<'_> {
    /// An identifier (maximal run of alphanumerics and `_`), after trivia.
    /// Keywords are rejected.
    pub(super) fn ident<'a>(&self, input: &'a str) -> PResult<'a, (Ident, At)> {
        let input = skip_trivia(input);
        let (rest, word) = self.word(input)?;
        if KEYWORDS.contains(&word) {
            return error(
                input,
                format!("keyword \"{word}\" cannot be used as an identifier"),
            );
        }
        Ok((rest, (word.to_string(), self.span(input, rest))))
    }

    /// A maximal identifier-character run, without trivia skipping.
    fn word<'a>(&self, input: &'a str) -> PResult<'a, &'a str> {
        match split_word(input) {
            ("", _) => error(input, "expected identifier"),
            (word, rest) => Ok((rest, word)),
        }
    }

    pub(super) fn name<'a>(&self, input: &'a str) -> PResult<'a, Ident> {
        let (rest, (name, _)) = self.ident(input)?;
        Ok((rest, name))
    }

    pub(super) fn digits<'a>(&self, input: &'a str) -> PResult<'a, u64> {
        let input = skip_trivia(input);
        let (word, rest) = split_word(input);
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
            return error(input, "expected a decimal number");
        }
        match word.parse() {
            Ok(n) => Ok((rest, n)),
            Err(_) => error(input, "number too large"),
        }
    }
}
