//! Values of constants and variables: symbols and (nested) maps.

use super::Parser;
use crate::ast::{MapEntry, Value};
use crate::syntax::{error, separated0_until, skip_trivia, token, PResult};

impl Parser<'_> {
    /// `value = ident | map`
    pub(super) fn value<'a>(&self, input: &'a str) -> PResult<'a, Value> {
        let input = skip_trivia(input);
        if !input.starts_with('{') {
            return match self.ident(input) {
                Ok((rest, (name, at))) => Ok((rest, Value::Symbol(name, at))),
                Err(_) => error(input, "expected a value (a symbol or a map)"),
            };
        }
        let _level = self.nesting.enter(input)?;
        let (i, ()) = token(input, "{")?;
        let (i, entries) = separated0_until(i, ",", "}", |i| self.map_entry(i))?;
        let (rest, ()) =
            token(i, "}").or_else(|_| error(skip_trivia(i), "expected \",\" or \"}\" in a map"))?;
        Ok((rest, Value::Map(entries, self.span(input, rest))))
    }

    /// `entry = [ ident ] ":" value`
    fn map_entry<'a>(&self, input: &'a str) -> PResult<'a, MapEntry> {
        let input = skip_trivia(input);
        let (i, key) = if input.starts_with(':') {
            (input, None)
        } else {
            let (i, key) = self.name(input).or_else(|_| {
                error(
                    input,
                    "expected a map entry (\"key: value\" or \":default\")",
                )
            })?;
            (i, Some(key))
        };
        let (i, ()) = token(i, ":")?;
        let (i, value) = self.value(i)?;
        Ok((i, MapEntry { key, value }))
    }
}
