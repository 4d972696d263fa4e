//! Tokenizer of the draft (rbg-draft.md §1): maximal munch over ASCII text,
//! both comment kinds, reserved keywords, byte spans for diagnostics.
#![warn(clippy::cast_possible_truncation)]

use std::fmt;
use std::rc::Rc;

use rg_core::diag::{Diagnostic, Span};

/// The reserved words (§1.2); they are never identifiers.
pub const KEYWORDS: [&str; 11] = [
    "and", "or", "not", "move", "turn", "def", "game", "board", "player", "order", "goal",
];

/// Operators, longest first so that the lexer munches maximally.
const OPERATORS: [&str; 24] = [
    "+>", "<=", ">=", "==", "!=", "(", ")", "{", "}", "[", "]", "~", "#", "-", "+", "^", "*", ",",
    "/", "$", "@", "=", "!", "<",
];

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    Ident(Rc<str>),
    Keyword(&'static str),
    Number(u32),
    Str(Rc<str>),
    /// An operator; `>` is the only one not in `OPERATORS` (it is matched
    /// after `>=`).
    Op(&'static str),
}

impl Tok {
    pub fn is_op(&self, op: &str) -> bool {
        matches!(self, Tok::Op(o) if *o == op)
    }

    pub fn is_keyword(&self, word: &str) -> bool {
        matches!(self, Tok::Keyword(k) if *k == word)
    }

    pub fn ident(&self) -> Option<&str> {
        match self {
            Tok::Ident(name) => Some(name),
            _ => None,
        }
    }
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(name) => f.write_str(name),
            Tok::Keyword(word) | Tok::Op(word) => f.write_str(word),
            Tok::Number(n) => write!(f, "{n}"),
            Tok::Str(text) => write!(f, "\"{text}\""),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Tokenizes `source` (also the joined text of a `~` paste).
pub fn lex(source: &str) -> Result<Vec<Token>, Vec<Diagnostic>> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == 0x0b {
            i += 1;
            continue;
        }
        if source[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if source[i..].starts_with("/*") {
            match source[i + 2..].find("*/") {
                Some(end) => i += end + 4,
                None => {
                    errors.push(
                        Diagnostic::error("unterminated comment", Span::new(i, i + 2))
                            .with_label("this `/*` has no `*/`"),
                    );
                    break;
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let text = &source[start..i];
            let tok = match KEYWORDS.iter().find(|k| **k == text) {
                Some(k) => Tok::Keyword(k),
                None => Tok::Ident(Rc::from(text)),
            };
            tokens.push(Token {
                tok,
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let span = Span::new(start, i);
            match source[start..i].parse::<u32>() {
                Ok(n) => tokens.push(Token {
                    tok: Tok::Number(n),
                    span,
                }),
                Err(_) => errors.push(
                    Diagnostic::error("number too large", span)
                        .with_label("numbers must be below 2^32"),
                ),
            }
            continue;
        }
        if c == b'"' {
            match source[i + 1..].find('"') {
                Some(len) => {
                    i += len + 2;
                    tokens.push(Token {
                        tok: Tok::Str(Rc::from(&source[start + 1..i - 1])),
                        span: Span::new(start, i),
                    });
                }
                None => {
                    errors.push(
                        Diagnostic::error("unterminated string", Span::new(i, i + 1))
                            .with_label("this `\"` is never closed"),
                    );
                    break;
                }
            }
            continue;
        }
        if let Some(op) = OPERATORS.iter().find(|op| source[i..].starts_with(**op)) {
            i += op.len();
            tokens.push(Token {
                tok: Tok::Op(op),
                span: Span::new(start, i),
            });
            continue;
        }
        if c == b'>' {
            i += 1;
            tokens.push(Token {
                tok: Tok::Op(">"),
                span: Span::new(start, i),
            });
            continue;
        }
        let width = source[i..].chars().next().map_or(1, char::len_utf8);
        errors.push(
            Diagnostic::error("unexpected character", Span::new(i, i + width))
                .with_label("not part of any token of the draft"),
        );
        i += width;
    }
    if errors.is_empty() {
        Ok(tokens)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<String> {
        lex(source)
            .unwrap()
            .iter()
            .map(|t| t.tok.to_string())
            .collect()
    }

    #[test]
    fn maximal_munch_and_keywords() {
        assert_eq!(
            texts("8y $bkingu $turn @a -1 +> >= > a_b"),
            ["8", "y", "$", "bkingu", "$", "turn", "@", "a", "-", "1", "+>", ">=", ">", "a_b"]
        );
        assert!(matches!(lex("turn").unwrap()[0].tok, Tok::Keyword("turn")));
    }

    #[test]
    fn comments_and_strings() {
        assert_eq!(
            texts("a // x\n b /* c \n d */ \"e f\""),
            ["a", "b", "\"e f\""]
        );
        assert!(lex("/* open").is_err());
        assert!(lex("\"open").is_err());
        assert!(lex("4294967296").is_err());
        assert!(lex("a ; b").is_err());
    }
}
