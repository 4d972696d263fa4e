//! replay's tokens (replay.md §1): identifiers, the wildcard, keywords,
//! int/float/string literals, operators and punctuation, with `/* … */`
//! comments (not nested) as whitespace. A comment whose text begins with
//! `@rgw` is a *directive* (§5.2) and is kept for the front end.

#![warn(clippy::cast_possible_truncation)] // user data is read here

use rg_core::diag::{Diagnostic, Span};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// A keyword (replay.md §1.2).
    Keyword(&'static str),
    /// `_`.
    Wildcard,
    Int(i64),
    Float(f64),
    Str(String),
    /// Operators and punctuation, as written (`->`, `==`, `(`, …).
    Punct(&'static str),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// A directive comment: its text after `@rgw`, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub text: String,
    pub span: Span,
}

pub const KEYWORDS: [&str; 16] = [
    "int", "bool", "float", "string", "void", "Game", "Strategy", "Player", "if", "else", "for",
    "in", "return", "true", "false", "strat",
];

/// `rand` is a keyword too (an expression); kept apart for the table above.
pub const RAND: &str = "rand";

/// Longest first, so that `->` is not read as `-` `>` (maximal munch).
const PUNCTUATION: [&str; 27] = [
    "->", "==", "!=", "<=", ">=", "&&", "||", "+", "-", "*", "/", "<", ">", "!", "=", "%", "#",
    "~", "(", ")", "[", "]", "{", "}", ":", ";", ",",
];

const MORE_PUNCTUATION: [&str; 2] = [".", "|"];

/// The tokens and directives of `source`, or every lexical error.
pub fn tokenize(source: &str) -> Result<(Vec<Token>, Vec<Directive>), Vec<Diagnostic>> {
    let mut lexer = Lexer {
        source,
        at: 0,
        tokens: Vec::new(),
        directives: Vec::new(),
        errors: Vec::new(),
    };
    lexer.run();
    if lexer.errors.is_empty() {
        Ok((lexer.tokens, lexer.directives))
    } else {
        Err(lexer.errors)
    }
}

struct Lexer<'s> {
    source: &'s str,
    at: usize,
    tokens: Vec<Token>,
    directives: Vec<Directive>,
    errors: Vec<Diagnostic>,
}

impl Lexer<'_> {
    fn rest(&self) -> &str {
        &self.source[self.at..]
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.tokens.push(Token {
            tok,
            span: Span::new(start, self.at),
        });
    }

    fn run(&mut self) {
        while let Some(c) = self.rest().chars().next() {
            let start = self.at;
            if matches!(c, ' ' | '\t' | '\r' | '\n') {
                self.at += 1;
            } else if self.rest().starts_with("/*") {
                self.comment();
            } else if self.rest().starts_with("//") {
                self.errors.push(
                    Diagnostic::error(
                        "\"//\" is not a comment in replay; use /* … */",
                        Span::new(start, start + 2),
                    )
                    .with_note("replay has only /* … */ comments; // is two divisions"),
                );
                self.at += 2;
            } else if c.is_ascii_alphabetic() || c == '_' {
                self.word();
            } else if c.is_ascii_digit()
                || (c == '.' && self.rest()[1..].starts_with(|d: char| d.is_ascii_digit()))
            {
                self.number();
            } else if c == '"' {
                self.string();
            } else if let Some(p) = PUNCTUATION
                .iter()
                .chain(&MORE_PUNCTUATION)
                .find(|p| self.rest().starts_with(**p))
            {
                self.at += p.len();
                self.push(Tok::Punct(p), start);
            } else {
                self.at += c.len_utf8();
                let mut d = Diagnostic::error(
                    format!("unexpected character \"{c}\""),
                    Span::new(start, self.at),
                );
                if c == '&' || c == '|' {
                    d = d.with_note(format!("the logical operator is {c}{c}"));
                } else if c == '^' {
                    d = d.with_note("replay has no power operator");
                }
                self.errors.push(d);
            }
        }
    }

    fn comment(&mut self) {
        let start = self.at;
        let body = &self.rest()[2..];
        match body.find("*/") {
            Some(end) => {
                let text = &body[..end];
                if let Some(directive) = text.strip_prefix("@rgw") {
                    self.directives.push(Directive {
                        text: directive.trim().to_string(),
                        span: Span::new(start, start + 2 + end + 2),
                    });
                }
                self.at = start + 2 + end + 2;
            }
            None => {
                let (line, column) = rg_core::diag::line_column(self.source, start);
                self.errors.push(Diagnostic::error(
                    format!("unterminated comment (opened at {line}:{column})"),
                    Span::new(start, start + 2),
                ));
                self.at = self.source.len();
            }
        }
    }

    fn word(&mut self) {
        let start = self.at;
        let length = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.rest().len());
        self.at += length;
        let word = &self.source[start..self.at];
        if word == "_" {
            self.push(Tok::Wildcard, start);
        } else if word.starts_with('_') {
            self.errors.push(Diagnostic::error(
                format!("identifiers start with a letter: \"{word}\""),
                Span::new(start, self.at),
            ));
        } else if let Some(k) = KEYWORDS.iter().chain(&[RAND]).find(|k| **k == word) {
            self.push(Tok::Keyword(k), start);
        } else {
            self.push(Tok::Ident(word.to_string()), start);
        }
    }

    fn number(&mut self) {
        let start = self.at;
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        self.at += digits(self.rest());
        let mut float = false;
        if self.rest().starts_with('.') {
            float = true;
            self.at += 1;
            self.at += digits(self.rest());
        }
        // An exponent: lower-case e, an optional sign, digits.
        let rest = self.rest();
        if let Some(after) = rest.strip_prefix('e') {
            let sign = usize::from(after.starts_with(['+', '-']));
            let count = digits(&after[sign..]);
            if count > 0 {
                float = true;
                self.at += 1 + sign + count;
            }
        }
        let text = &self.source[start..self.at];
        let span = Span::new(start, self.at);
        if float {
            match text.parse::<f64>() {
                Ok(value) => self.push(Tok::Float(value), start),
                Err(_) => self.errors.push(Diagnostic::error(
                    format!("malformed float \"{text}\""),
                    span,
                )),
            }
        } else {
            match text.parse::<i64>() {
                Ok(value) => self.push(Tok::Int(value), start),
                Err(_) => self.errors.push(Diagnostic::error(
                    format!("the integer {text} does not fit in 64 bits"),
                    span,
                )),
            }
        }
    }

    fn string(&mut self) {
        let start = self.at;
        self.at += 1;
        let mut value = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                self.errors.push(Diagnostic::error(
                    "unterminated string",
                    Span::new(start, start + 1),
                ));
                return;
            };
            let here = self.at;
            self.at += c.len_utf8();
            match c {
                '"' => break,
                '\n' => {
                    self.errors.push(Diagnostic::error(
                        "a string cannot contain a line break (write \\n)",
                        Span::new(start, here),
                    ));
                    return;
                }
                '\\' => {
                    let escaped = self.rest().chars().next();
                    match escaped {
                        Some(e @ ('\\' | '"' | 'n' | 't' | 'r')) => {
                            self.at += 1;
                            value.push(match e {
                                'n' => '\n',
                                't' => '\t',
                                'r' => '\r',
                                other => other,
                            });
                        }
                        _ => {
                            let end = here + 1 + escaped.map_or(0, char::len_utf8);
                            self.at = end;
                            self.errors.push(Diagnostic::error(
                                "unknown escape: replay knows \\\\ \\\" \\n \\t \\r",
                                Span::new(here, end),
                            ));
                        }
                    }
                }
                other => value.push(other),
            }
        }
        self.push(Tok::Str(value), start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<Tok> {
        tokenize(text)
            .unwrap()
            .0
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    fn first_error(text: &str) -> (String, Span) {
        let errors = tokenize(text).unwrap_err();
        (errors[0].message.clone(), errors[0].span.unwrap())
    }

    #[test]
    fn tokens_of_the_reference() {
        assert_eq!(
            toks("Game pd = Game[2 | { (C,_) -> (-1, x1) }];"),
            [
                Tok::Keyword("Game"),
                Tok::Ident("pd".into()),
                Tok::Punct("="),
                Tok::Keyword("Game"),
                Tok::Punct("["),
                Tok::Int(2),
                Tok::Punct("|"),
                Tok::Punct("{"),
                Tok::Punct("("),
                Tok::Ident("C".into()),
                Tok::Punct(","),
                Tok::Wildcard,
                Tok::Punct(")"),
                Tok::Punct("->"),
                Tok::Punct("("),
                Tok::Punct("-"),
                Tok::Int(1),
                Tok::Punct(","),
                Tok::Ident("x1".into()),
                Tok::Punct(")"),
                Tok::Punct("}"),
                Tok::Punct("]"),
                Tok::Punct(";"),
            ]
        );
    }

    #[test]
    fn numbers_follow_section_1_3() {
        assert_eq!(
            toks("1. .5 2e3 1.5e-2 7"),
            [
                Tok::Float(1.0),
                Tok::Float(0.5),
                Tok::Float(2000.0),
                Tok::Float(0.015),
                Tok::Int(7)
            ]
        );
        // `1E5` is the int 1 and the identifier E5.
        assert_eq!(toks("1E5"), [Tok::Int(1), Tok::Ident("E5".into())]);
        assert!(first_error("99999999999999999999").0.contains("64 bits"));
    }

    #[test]
    fn comments_directives_and_strings() {
        let (tokens, directives) =
            tokenize("/*@rgw game=pd rounds=2 */ /* a */ \"x\\n\\\"\" ").unwrap();
        assert_eq!(tokens[0].tok, Tok::Str("x\n\"".into()));
        assert_eq!(directives[0].text, "game=pd rounds=2");
        assert_eq!(
            first_error("int x; /* open").0,
            "unterminated comment (opened at 1:8)"
        );
        assert_eq!(first_error("\"abc").0, "unterminated string");
        assert!(first_error("\"a\\q\"").0.contains("unknown escape"));
    }

    #[test]
    fn characters_outside_the_language_are_reported_where_they_are() {
        assert_eq!(
            first_error("x ^ y"),
            ("unexpected character \"^\"".into(), Span::new(2, 3))
        );
        assert_eq!(first_error("a & b").0, "unexpected character \"&\"");
        assert_eq!(first_error("'").0, "unexpected character \"'\"");
        assert!(first_error("x // y").0.contains("not a comment"));
        assert!(first_error("_x").0.contains("start with a letter"));
    }
}
