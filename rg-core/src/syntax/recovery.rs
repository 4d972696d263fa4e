//! The top level of a parser with error recovery: a sequence of items
//! (declarations) in which a syntax error skips ahead instead of stopping,
//! so one run reports several errors.

use nom::Finish;

use super::error::{PResult, SyntaxError};
use super::lexical::skip_trivia;

/// Parses all of `source` as `item`s with trivia around them. After an
/// error, parsing resumes at `resume(where the error is)`, a suffix of the
/// source (empty to stop).
pub fn parse_sequence<'a, T>(
    source: &'a str,
    mut item: impl FnMut(&'a str) -> PResult<'a, T>,
    resume: impl Fn(&'a str) -> &'a str,
) -> Result<Vec<T>, Vec<SyntaxError<'a>>> {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    let mut input = skip_trivia(source);
    while !input.is_empty() {
        match item(input).finish() {
            Ok((rest, value)) => {
                items.push(value);
                input = skip_trivia(rest);
            }
            Err(e) => {
                input = skip_trivia(resume(e.input));
                errors.push(e);
            }
        }
    }
    if errors.is_empty() {
        Ok(items)
    } else {
        Err(errors)
    }
}
