//! The infix (Prolog-like) form of GDL (gdl.md §1.6): `head :- l1 & l2`,
//! `~` for `not`, `f(a, b)` applications, upper-case words are variables.
//! Case is significant here and is not folded.

use rg_core::diag::{Diagnostic, Span};

use super::parsed::{Parsed, MAX_NESTING};
use crate::ast::{Atom, Description, Literal, Rule, Term, TermKind};

/// Infix if `:-` occurs outside comments, or the text does not start with
/// `(` and some word is immediately followed by `(`.
pub fn looks_infix(source: &str) -> bool {
    let code = strip_comments(source);
    if code.contains(":-") {
        return true;
    }
    let starts_with_paren = code.trim_start().starts_with('(');
    !starts_with_paren
        && code
            .as_bytes()
            .windows(2)
            .any(|w| w[1] == b'(' && is_word_byte(w[0]))
}

fn strip_comments(source: &str) -> String {
    source
        .lines()
        .map(|line| line.split(';').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_+-<>=?.".contains(&b)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Open,
    Close,
    Comma,
    And,
    Not,
    If,
}

fn tokenize(source: &str) -> Result<Vec<(Token, Span)>, Diagnostic> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let single = match b {
            b'(' => Some(Token::Open),
            b')' => Some(Token::Close),
            b',' => Some(Token::Comma),
            b'&' => Some(Token::And),
            b'~' => Some(Token::Not),
            _ => None,
        };
        if let Some(token) = single {
            tokens.push((token, Span::new(i, i + 1)));
            i += 1;
        } else if b == b';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b':' && bytes.get(i + 1) == Some(&b'-') {
            tokens.push((Token::If, Span::new(i, i + 2)));
            i += 2;
        } else if is_word_byte(b) {
            let start = i;
            while i < bytes.len() && is_word_byte(bytes[i]) {
                i += 1;
            }
            tokens.push((
                Token::Word(source[start..i].to_string()),
                Span::new(start, i),
            ));
        } else {
            let len = source[i..].chars().next().map_or(1, char::len_utf8);
            return Err(Diagnostic::error(
                "unsupported token in infix GDL",
                Span::new(i, i + len),
            ));
        }
    }
    Ok(tokens)
}

struct InfixParser {
    tokens: Vec<(Token, Span)>,
    position: usize,
    end: usize,
    depth: usize,
}

type Parse<T> = Result<T, Diagnostic>;

impl InfixParser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position).map(|(t, _)| t)
    }

    fn span(&self) -> Span {
        self.tokens
            .get(self.position)
            .map_or(Span::new(self.end, self.end), |(_, s)| *s)
    }

    fn previous_end(&self) -> usize {
        self.position
            .checked_sub(1)
            .and_then(|p| self.tokens.get(p))
            .map_or(0, |(_, s)| s.end)
    }

    fn expect(&mut self, token: &Token, what: &str) -> Parse<()> {
        if self.peek() == Some(token) {
            self.position += 1;
            Ok(())
        } else {
            Err(Diagnostic::error(
                format!("syntax error: expected {what}"),
                self.span(),
            ))
        }
    }

    fn word(&mut self) -> Parse<(String, Span)> {
        match self.tokens.get(self.position) {
            Some((Token::Word(w), span)) => {
                let result = (w.clone(), *span);
                self.position += 1;
                Ok(result)
            }
            _ => Err(Diagnostic::error(
                "syntax error: expected a name",
                self.span(),
            )),
        }
    }

    fn arguments(&mut self) -> Parse<Vec<Term>> {
        let mut args = Vec::new();
        if self.peek() == Some(&Token::Open) {
            self.position += 1;
            loop {
                args.push(self.term()?);
                match self.peek() {
                    Some(Token::Comma) => self.position += 1,
                    _ => break,
                }
            }
            self.expect(&Token::Close, "`)`")?;
        }
        Ok(args)
    }

    fn term(&mut self) -> Parse<Term> {
        let (word, span) = self.word()?;
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Diagnostic::error("expressions nested too deeply", span));
        }
        let args = self.arguments();
        self.depth -= 1;
        let args = args?;
        let span = Span::new(span.start, self.previous_end());
        let is_variable = word.starts_with(|c: char| c.is_ascii_uppercase() || c == '_');
        let kind = if is_variable {
            if !args.is_empty() {
                return Err(Diagnostic::error("a variable cannot have arguments", span));
            }
            TermKind::Variable(format!("?{word}"))
        } else if args.is_empty() {
            TermKind::Constant(word)
        } else {
            TermKind::Function { name: word, args }
        };
        Ok(Term { kind, span })
    }

    fn atom(&mut self) -> Parse<Atom> {
        let (name, span) = self.word()?;
        if name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_') {
            return Err(Diagnostic::error("invalid rule head", span).with_label("a variable"));
        }
        let args = self.arguments()?;
        Ok(Atom {
            name,
            args,
            span: Span::new(span.start, self.previous_end()),
        })
    }

    fn literal(&mut self) -> Parse<Literal> {
        let start = self.span().start;
        if self.peek() == Some(&Token::Not) {
            self.position += 1;
            if self.peek() == Some(&Token::Not) {
                return Err(Diagnostic::error(
                    "negation applies only to an atom or a distinct",
                    self.span(),
                ));
            }
            let inner = self.literal()?;
            let span = Span::new(start, self.previous_end());
            return Ok(Literal::Not(Box::new(inner), span));
        }
        let atom = self.atom()?;
        match (atom.name.as_str(), atom.args.len()) {
            ("distinct", 2) => {
                let mut args = atom.args.into_iter();
                match (args.next(), args.next()) {
                    (Some(s), Some(t)) => Ok(Literal::Distinct(s, t, atom.span)),
                    _ => Err(Diagnostic::error("distinct needs two arguments", atom.span)),
                }
            }
            _ => Ok(Literal::Atom(atom)),
        }
    }

    fn sentence(&mut self) -> Parse<Rule> {
        let start = self.span().start;
        let head = self.atom()?;
        let mut body = Vec::new();
        if self.peek() == Some(&Token::If) {
            self.position += 1;
            body.push(self.literal()?);
            while self.peek() == Some(&Token::And) {
                self.position += 1;
                body.push(self.literal()?);
            }
        }
        Ok(Rule {
            head,
            body,
            span: Span::new(start, self.previous_end()),
        })
    }
}

/// Parses an infix GDL text into the common AST.
pub fn parse_infix(source: &str) -> Result<Parsed, Vec<Diagnostic>> {
    let tokens = tokenize(source).map_err(|e| vec![e])?;
    let mut parser = InfixParser {
        tokens,
        position: 0,
        end: source.len(),
        depth: 0,
    };
    let mut rules = Vec::new();
    while parser.position < parser.tokens.len() {
        rules.push(parser.sentence().map_err(|e| vec![e])?);
    }
    let warning = Diagnostic::warning("infix GDL syntax", None)
        .with_note("read with the infix parser: `:-`, `&`, `~`; upper-case words are variables");
    Ok(Parsed {
        description: Description { rules },
        warnings: vec![warning],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_infix_and_not_kif() {
        assert!(looks_infix("role(a)\nfoo :- bar"));
        assert!(looks_infix("; x :- y\nrole(a)"));
        assert!(!looks_infix("; a :- b\n(role a)\n(<= (p ?x)(q ?x))"));
    }

    #[test]
    fn reads_rules_with_negation_and_variables() {
        let parsed = parse_infix(
            "role(candidate) ; c\nnext(closed(D)) :- true(closed(D)) & ~does(random, open_door(D))\ngoal(random, 0)",
        )
        .unwrap();
        let rules = &parsed.description.rules;
        assert_eq!(rules.len(), 3);
        assert_eq!(rules[1].body.len(), 2);
        assert!(matches!(rules[1].body[1], Literal::Not(..)));
        let TermKind::Function { args, .. } = &rules[1].head.args[0].kind else {
            panic!()
        };
        assert_eq!(args[0].kind, TermKind::Variable("?D".into()));
    }

    #[test]
    fn reports_syntax_errors() {
        assert!(parse_infix("role(a :- b").is_err());
        assert!(parse_infix("p :- q & ").is_err());
        assert!(parse_infix("p :- q $ r").is_err());
    }
}
