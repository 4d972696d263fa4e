//! Tokenizer shared by high-level and low-level RBG (rbg.md §1).
//!
//! Maximal munch over ASCII text; comments behave like whitespace. Tokens own
//! their text through `Rc<str>` because the preprocessor creates new tokens
//! (token pasting) that exist nowhere in the source.

use std::fmt;
use std::rc::Rc;

use rg_core::diag::{Diagnostic, Span};

/// Reserved words: never identifiers (rbg.md §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    Players,
    Pieces,
    Variables,
    Rules,
    Board,
    Rectangle,
    Hexagon,
    Cuboid,
}

impl Keyword {
    pub fn from_text(text: &str) -> Option<Keyword> {
        Some(match text {
            "players" => Keyword::Players,
            "pieces" => Keyword::Pieces,
            "variables" => Keyword::Variables,
            "rules" => Keyword::Rules,
            "board" => Keyword::Board,
            "rectangle" => Keyword::Rectangle,
            "hexagon" => Keyword::Hexagon,
            "cuboid" => Keyword::Cuboid,
            _ => return None,
        })
    }

    pub fn text(self) -> &'static str {
        match self {
            Keyword::Players => "players",
            Keyword::Pieces => "pieces",
            Keyword::Variables => "variables",
            Keyword::Rules => "rules",
            Keyword::Board => "board",
            Keyword::Rectangle => "rectangle",
            Keyword::Hexagon => "hexagon",
            Keyword::Cuboid => "cuboid",
        }
    }

    /// Section keywords may follow `#`.
    pub fn is_section(self) -> bool {
        matches!(
            self,
            Keyword::Players
                | Keyword::Pieces
                | Keyword::Variables
                | Keyword::Rules
                | Keyword::Board
        )
    }
}

/// Punctuation tokens, longest forms first in the lexer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    KeeperArrow,   // ->>
    Arrow,         // ->
    BraceQuery,    // {?
    BraceBang,     // {!
    BraceDollar,   // {$
    BracketDollar, // [$
    EqEq,          // ==
    NotEq,         // !=
    LessEq,        // <=
    GreaterEq,     // >=
    PlusArrow,     // +> (reserved)
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Hash,
    Comma,
    Semicolon,
    Colon,
    Equals,
    Less,
    Greater,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Tilde,
    Dot,
    Bang,
    Query,
    Dollar,
}

impl Punct {
    pub fn text(self) -> &'static str {
        match self {
            Punct::KeeperArrow => "->>",
            Punct::Arrow => "->",
            Punct::BraceQuery => "{?",
            Punct::BraceBang => "{!",
            Punct::BraceDollar => "{$",
            Punct::BracketDollar => "[$",
            Punct::EqEq => "==",
            Punct::NotEq => "!=",
            Punct::LessEq => "<=",
            Punct::GreaterEq => ">=",
            Punct::PlusArrow => "+>",
            Punct::LParen => "(",
            Punct::RParen => ")",
            Punct::LBracket => "[",
            Punct::RBracket => "]",
            Punct::LBrace => "{",
            Punct::RBrace => "}",
            Punct::Hash => "#",
            Punct::Comma => ",",
            Punct::Semicolon => ";",
            Punct::Colon => ":",
            Punct::Equals => "=",
            Punct::Less => "<",
            Punct::Greater => ">",
            Punct::Plus => "+",
            Punct::Minus => "-",
            Punct::Star => "*",
            Punct::Slash => "/",
            Punct::Caret => "^",
            Punct::Tilde => "~",
            Punct::Dot => ".",
            Punct::Bang => "!",
            Punct::Query => "?",
            Punct::Dollar => "$",
        }
    }

    /// Longest-first table used by maximal munch.
    const ALL: [Punct; 34] = [
        Punct::KeeperArrow,
        Punct::Arrow,
        Punct::BraceQuery,
        Punct::BraceBang,
        Punct::BraceDollar,
        Punct::BracketDollar,
        Punct::EqEq,
        Punct::NotEq,
        Punct::LessEq,
        Punct::GreaterEq,
        Punct::PlusArrow,
        Punct::LParen,
        Punct::RParen,
        Punct::LBracket,
        Punct::RBracket,
        Punct::LBrace,
        Punct::RBrace,
        Punct::Hash,
        Punct::Comma,
        Punct::Semicolon,
        Punct::Colon,
        Punct::Equals,
        Punct::Less,
        Punct::Greater,
        Punct::Plus,
        Punct::Minus,
        Punct::Star,
        Punct::Slash,
        Punct::Caret,
        Punct::Tilde,
        Punct::Dot,
        Punct::Bang,
        Punct::Query,
        Punct::Dollar,
    ];

    /// The single token spelled exactly `text`, if any.
    pub fn from_text(text: &str) -> Option<Punct> {
        Punct::ALL.iter().copied().find(|p| p.text() == text)
    }

    /// Whether a rule item (an action or a parenthesized rule) can start
    /// with this token, in low-level and high-level `#rules` alike.
    pub fn starts_rule_item(self) -> bool {
        matches!(
            self,
            Punct::LParen
                | Punct::LBrace
                | Punct::LBracket
                | Punct::BracketDollar
                | Punct::BraceDollar
                | Punct::BraceQuery
                | Punct::BraceBang
                | Punct::Arrow
                | Punct::KeeperArrow
                | Punct::Dot
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Ident(Rc<str>),
    /// Decimal digits as written (kept for token pasting); always < 2^32.
    Number(Rc<str>),
    Keyword(Keyword),
    Punct(Punct),
}

impl TokenKind {
    pub fn is_punct(&self, p: Punct) -> bool {
        matches!(self, TokenKind::Punct(q) if *q == p)
    }

    pub fn ident(&self) -> Option<&Rc<str>> {
        match self {
            TokenKind::Ident(name) => Some(name),
            _ => None,
        }
    }

    /// The numeric value of a number token.
    pub fn number(&self) -> Option<u32> {
        match self {
            TokenKind::Number(digits) => digits.parse().ok(),
            _ => None,
        }
    }

    /// Classifies an identifier-like text as keyword or identifier.
    pub fn word(text: &str) -> TokenKind {
        match Keyword::from_text(text) {
            Some(k) => TokenKind::Keyword(k),
            None => TokenKind::Ident(Rc::from(text)),
        }
    }
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenKind::Ident(s) | TokenKind::Number(s) => f.write_str(s),
            TokenKind::Keyword(k) => f.write_str(k.text()),
            TokenKind::Punct(p) => f.write_str(p.text()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

/// Digits of a number token are valid iff the value fits in 32 bits.
pub fn number_fits(digits: &str) -> bool {
    digits.parse::<u32>().is_ok()
}

/// Tokenizes `source`. Identifiers may contain `_` after the first letter
/// (an LL-reader tolerance, rbg.md §1.2). Lexing continues after an error so
/// that several problems are reported at once.
pub fn tokenize(source: &str) -> Result<Vec<Token>, Vec<Diagnostic>> {
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
                Some(end) => i = i + 2 + end + 2,
                None => {
                    errors.push(
                        Diagnostic::error("unterminated block comment", Span::new(i, i + 2))
                            .with_label("this comment is never closed")
                            .with_note("block comments end at the first `*/`"),
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
            tokens.push(Token {
                kind: TokenKind::word(&source[start..i]),
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &source[start..i];
            if !number_fits(digits) {
                errors.push(
                    Diagnostic::error(
                        format!("number `{digits}` is too large"),
                        Span::new(start, i),
                    )
                    .with_label("must be below 2^32"),
                );
            }
            tokens.push(Token {
                kind: TokenKind::Number(Rc::from(digits)),
                span: Span::new(start, i),
            });
            continue;
        }
        let rest = &source[i..];
        match Punct::ALL.iter().find(|p| rest.starts_with(p.text())) {
            Some(p) => {
                let len = p.text().len();
                tokens.push(Token {
                    kind: TokenKind::Punct(*p),
                    span: Span::new(start, start + len),
                });
                i += len;
            }
            None => {
                let ch = rest.chars().next().unwrap_or('?');
                let len = ch.len_utf8();
                errors.push(
                    Diagnostic::error(
                        format!("unexpected character `{ch}`"),
                        Span::new(start, start + len),
                    )
                    .with_label("not part of any RBG token"),
                );
                i += len;
            }
        }
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
        tokenize(source)
            .unwrap()
            .iter()
            .map(|t| t.kind.to_string())
            .collect()
    }

    #[test]
    fn maximal_munch_and_comments() {
        assert_eq!(texts("->/**/>"), ["->", ">"]);
        assert_eq!(texts("->>"), ["->>"]);
        assert_eq!(texts("-> >"), ["->", ">"]);
        assert_eq!(
            texts("{e}{!e}{ ?"),
            ["{", "e", "}", "{!", "e", "}", "{", "?"]
        );
        assert_eq!(
            texts("rx0y0 8y a<=b a=b // x\n[$"),
            ["rx0y0", "8", "y", "a", "<=", "b", "a", "=", "b", "[$"]
        );
    }

    #[test]
    fn keywords_are_not_identifiers() {
        let tokens = tokenize("board boards rules2").unwrap();
        assert_eq!(tokens[0].kind, TokenKind::Keyword(Keyword::Board));
        assert!(matches!(tokens[1].kind, TokenKind::Ident(_)));
        assert!(matches!(tokens[2].kind, TokenKind::Ident(_)));
    }

    #[test]
    fn errors_have_spans() {
        let errors = tokenize("a /* open").unwrap_err();
        assert_eq!(errors[0].span, Some(Span::new(2, 4)));
        let errors = tokenize("a @ 4294967296").unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].span, Some(Span::new(2, 3)));
        assert_eq!(errors[1].span, Some(Span::new(4, 14)));
        assert!(tokenize("4294967295").is_ok());
    }
}
