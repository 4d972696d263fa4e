//! Syntax errors: nom's error type for the RG and HRG parsers, and their
//! conversion to [`Diagnostic`]s.

use std::borrow::Cow;

use nom::error::{ErrorKind, ParseError};
use nom::IResult;

use super::lexical::offset;
use crate::diag::{Diagnostic, Span};

/// A syntax error: where (the remaining input) and what was expected.
#[derive(Clone, Debug)]
pub struct SyntaxError<'a> {
    /// The input at the error: a suffix of the source.
    pub input: &'a str,
    pub message: Cow<'static, str>,
}

impl<'a> ParseError<&'a str> for SyntaxError<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        SyntaxError {
            input,
            message: Cow::Borrowed("syntax error"),
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two failed alternatives, report the one that got further.
    fn or(self, other: Self) -> Self {
        if other.input.len() < self.input.len() {
            other
        } else {
            self
        }
    }
}

impl SyntaxError<'_> {
    /// The character the error points at within `source` (empty at the end).
    pub fn span(&self, source: &str) -> Span {
        let start = offset(source, self.input);
        let len = self.input.chars().next().map_or(0, char::len_utf8);
        Span::new(start, start + len)
    }

    /// The error as a diagnostic at [`SyntaxError::span`].
    pub fn to_diagnostic(&self, source: &str) -> Diagnostic {
        Diagnostic::error(self.message.to_string(), self.span(source))
    }
}

pub type PResult<'a, T> = IResult<&'a str, T, SyntaxError<'a>>;

/// A recoverable error: an enclosing alternative may still match.
pub fn error<T>(input: &str, message: impl Into<Cow<'static, str>>) -> PResult<'_, T> {
    Err(nom::Err::Error(SyntaxError {
        input,
        message: message.into(),
    }))
}

/// A final error: no alternative is tried after it.
pub fn failure<T>(input: &str, message: impl Into<Cow<'static, str>>) -> PResult<'_, T> {
    Err(nom::Err::Failure(SyntaxError {
        input,
        message: message.into(),
    }))
}

/// Makes an error final: once a construct is recognized (say, after its
/// keyword), alternatives are pointless and the message should point at the
/// real problem.
pub fn commit<T>(result: PResult<'_, T>) -> PResult<'_, T> {
    result.map_err(|e| match e {
        nom::Err::Error(e) => nom::Err::Failure(e),
        other => other,
    })
}
