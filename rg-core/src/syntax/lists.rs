//! Separated and delimited lists: `item { sep item }`, optionally empty
//! before a closing token, optionally between an opening and a closing one.
//!
//! The rest returned after a list is the input right after its last item
//! (or its closing token), trivia not skipped, like every other parser here.

use super::error::PResult;
use super::lexical::{peek_token, token};

/// `item { separator item }`: one or more items.
pub fn separated1<'a, T>(
    mut input: &'a str,
    separator: &'static str,
    mut item: impl FnMut(&'a str) -> PResult<'a, T>,
) -> PResult<'a, Vec<T>> {
    let mut items = Vec::new();
    loop {
        let (next, value) = item(input)?;
        items.push(value);
        if !peek_token(next, separator) {
            return Ok((next, items));
        }
        input = token(next, separator)?.0;
    }
}

/// `[ item { separator item } ]` before `close` (not consumed): no items
/// when `close` comes first.
pub fn separated0_until<'a, T>(
    input: &'a str,
    separator: &'static str,
    close: &str,
    item: impl FnMut(&'a str) -> PResult<'a, T>,
) -> PResult<'a, Vec<T>> {
    if peek_token(input, close) {
        Ok((input, Vec::new()))
    } else {
        separated1(input, separator, item)
    }
}

/// `open [ item { "," item } ] close`.
pub fn delimited_list<'a, T>(
    input: &'a str,
    open: &'static str,
    close: &'static str,
    item: impl FnMut(&'a str) -> PResult<'a, T>,
) -> PResult<'a, Vec<T>> {
    let (i, ()) = token(input, open)?;
    let (i, items) = separated0_until(i, ",", close, item)?;
    let (i, ()) = token(i, close)?;
    Ok((i, items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{error, skip_trivia, split_word};

    fn word(input: &str) -> PResult<'_, &str> {
        let input = skip_trivia(input);
        match split_word(input) {
            ("", _) => error(input, "expected a word"),
            (word, rest) => Ok((rest, word)),
        }
    }

    #[test]
    fn lists_stop_before_what_follows() {
        assert_eq!(
            separated1("a | b |c d", "|", word).unwrap(),
            (" d", vec!["a", "b", "c"])
        );
        assert_eq!(
            separated0_until(" ]", ",", "]", word).unwrap(),
            (" ]", vec![])
        );
        assert_eq!(
            delimited_list("( a, b ) x", "(", ")", word).unwrap(),
            (" x", vec!["a", "b"])
        );
        assert_eq!(delimited_list("()", "(", ")", word).unwrap(), ("", vec![]));
    }

    #[test]
    fn errors_point_at_the_missing_item_or_close() {
        let nom::Err::Error(e) = delimited_list("(a, )", "(", ")", word).unwrap_err() else {
            panic!()
        };
        assert_eq!((e.input, &*e.message), (")", "expected a word"));
        let nom::Err::Error(e) = delimited_list("(a b)", "(", ")", word).unwrap_err() else {
            panic!()
        };
        assert_eq!((e.input, &*e.message), ("b)", "expected \")\""));
    }
}
