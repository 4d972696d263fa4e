//! A cursor over expanded tokens, shared by the section parsers.

use rg_core::diag::{line_column, Diagnostic, Span};

use super::expand::XToken;
use crate::ast::Name;
use crate::lexer::{Punct, TokenKind};

pub struct Cursor<'t> {
    pub source: &'t str,
    pub tokens: &'t [XToken],
    pub pos: usize,
    /// Where "end of section" errors point.
    pub end: Span,
}

pub type PResult<T> = Result<T, Diagnostic>;

impl<'t> Cursor<'t> {
    pub fn new(source: &'t str, tokens: &'t [XToken], end: Span) -> Self {
        Cursor {
            source,
            tokens,
            pos: 0,
            end,
        }
    }

    pub fn peek(&self) -> Option<&'t XToken> {
        self.tokens.get(self.pos)
    }

    pub fn peek_at(&self, offset: usize) -> Option<&'t XToken> {
        self.tokens.get(self.pos + offset)
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    pub fn peek_punct(&self, p: Punct) -> bool {
        self.peek().is_some_and(|t| t.kind.is_punct(p))
    }

    pub fn eat_punct(&mut self, p: Punct) -> Option<&'t XToken> {
        if self.peek_punct(p) {
            self.pos += 1;
            Some(&self.tokens[self.pos - 1])
        } else {
            None
        }
    }

    pub fn next(&mut self) -> Option<&'t XToken> {
        let t = self.tokens.get(self.pos)?;
        self.pos += 1;
        Some(t)
    }

    /// The span of the current token, or the end of the section.
    pub fn here(&self) -> Span {
        self.peek().map_or(self.end, |t| t.span)
    }

    /// "expected X, found Y" at the current token.
    pub fn expected(&self, what: &str) -> Diagnostic {
        match self.peek() {
            Some(t) => self.error_at(t, format!("expected {what}, found `{}`", t.kind)),
            None => Diagnostic::error(
                format!("expected {what}, found the end of the section"),
                self.end,
            ),
        }
    }

    pub fn expect_punct(&mut self, p: Punct) -> PResult<&'t XToken> {
        match self.eat_punct(p) {
            Some(t) => Ok(t),
            None => Err(self.expected(&format!("`{}`", p.text()))),
        }
    }

    pub fn ident(&mut self, what: &str) -> PResult<Name> {
        match self.peek() {
            Some(
                t @ XToken {
                    kind: TokenKind::Ident(name),
                    ..
                },
            ) => {
                self.pos += 1;
                Ok(Name {
                    name: name.to_string(),
                    span: t.span,
                })
            }
            _ => Err(self.expected(what)),
        }
    }

    pub fn number(&mut self, what: &str) -> PResult<(u32, Span)> {
        match self.peek() {
            Some(t) => match t.kind.number() {
                Some(n) => {
                    self.pos += 1;
                    Ok((n, t.span))
                }
                None => Err(self.expected(what)),
            },
            None => Err(self.expected(what)),
        }
    }

    /// An error at a token; mentions the macro call when the token came from one.
    pub fn error_at(&self, token: &XToken, message: impl Into<String>) -> Diagnostic {
        with_site_note(Diagnostic::error(message, token.span), token, self.source)
    }
}

/// Adds "in the expansion of the macro call at line:column" when `token` was
/// produced by a macro.
pub fn with_site_note(diagnostic: Diagnostic, token: &XToken, source: &str) -> Diagnostic {
    if token.site != token.span {
        let (line, column) = line_column(source, token.site.start);
        diagnostic.with_note(format!(
            "in the expansion of the macro call at line {line}, column {column}"
        ))
    } else {
        diagnostic
    }
}
