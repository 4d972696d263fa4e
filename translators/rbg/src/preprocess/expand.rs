//! Lazy, call-by-name macro expansion with token pasting (rbg.md §4.3–4.4).
//!
//! Every produced token remembers where its text was written (`span`) and
//! the outermost macro call that produced it (`site`), which is what the
//! source map and the diagnostics report.

use std::rc::Rc;

use rg_core::diag::{Diagnostic, Span};

use super::items::Macros;
use crate::lexer::{number_fits, Punct, Token, TokenKind};
use crate::limits::{LIMITS_FILE, MAX_MACRO_DEPTH, MAX_MACRO_TOKENS};

/// A token of expanded text.
#[derive(Clone, Debug)]
pub struct XToken {
    pub kind: TokenKind,
    /// Where the token's text was written in the original source.
    pub span: Span,
    /// The outermost macro call producing it (equal to `span` if written directly).
    pub site: Span,
}

/// One argument: its text and the scope it was written in.
struct Arg<'a> {
    tokens: &'a [Token],
    env: Rc<Env<'a>>,
    order: usize,
    in_macro: bool,
}

/// Parameter bindings of one macro invocation.
#[derive(Default)]
struct Env<'a> {
    params: Vec<(Rc<str>, Arg<'a>)>,
}

impl<'a> Env<'a> {
    fn lookup(&self, name: &str) -> Option<&Arg<'a>> {
        self.params
            .iter()
            .find(|(p, _)| p.as_ref() == name)
            .map(|(_, a)| a)
    }
}

pub struct Expander<'m, 'a> {
    pub macros: &'m Macros<'a>,
}

/// The context of a token list being expanded.
#[derive(Clone)]
struct Scope<'a> {
    env: Rc<Env<'a>>,
    /// Definition order of the item whose text this is.
    order: usize,
    /// Whether that item is a macro (`~` is allowed only there).
    in_macro: bool,
    /// The outermost call site, once inside a macro.
    site: Option<Span>,
    /// Nesting of macro bodies and arguments being expanded.
    depth: usize,
}

impl<'m, 'a> Expander<'m, 'a> {
    /// Expands the body of the item with definition order `order`.
    pub fn expand_section(
        &self,
        body: &'a [Token],
        order: usize,
    ) -> Result<Vec<XToken>, Diagnostic> {
        let mut out = Vec::new();
        let scope = Scope {
            env: Rc::new(Env::default()),
            order,
            in_macro: false,
            site: None,
            depth: 0,
        };
        self.expand(body, &scope, &mut out)?;
        Ok(out)
    }

    fn expand(
        &self,
        tokens: &'a [Token],
        scope: &Scope<'a>,
        out: &mut Vec<XToken>,
    ) -> Result<(), Diagnostic> {
        let mut i = 0;
        // Tokens produced by the previous unit (the left operand of `~`).
        let mut previous_len = 0;
        while i < tokens.len() {
            let token = &tokens[i];
            if token.kind.is_punct(Punct::Tilde) {
                if !scope.in_macro {
                    return Err(
                        Diagnostic::error("token pasting `~` outside a macro", token.span)
                            .with_label("`~` is only allowed inside macro bodies"),
                    );
                }
                let next_is_operand = tokens
                    .get(i + 1)
                    .is_some_and(|t| !t.kind.is_punct(Punct::Tilde));
                if i == 0 || !next_is_operand {
                    return Err(
                        Diagnostic::error("`~` needs an operand on each side", token.span)
                            .with_label("nothing to paste here"),
                    );
                }
                let written = tokens[i - 1].span.join(tokens[i + 1].span);
                let right_start = out.len();
                i = self.unit(tokens, i + 1, scope, out)?;
                let right_len = out.len() - right_start;
                if right_len > 0 && previous_len > 0 {
                    let right = out.remove(right_start);
                    let left = &mut out[right_start - 1];
                    left.kind = paste(&left.kind, &right.kind).map_err(|message| {
                        Diagnostic::error(message, written)
                            .with_label("cannot paste these tokens")
                            .with_note(
                                "see the table of allowed pastes in the RBG reference (§4.4)",
                            )
                    })?;
                    left.span = written;
                    left.site = scope.site.unwrap_or(written);
                    previous_len = right_len;
                } else {
                    previous_len += right_len;
                }
                continue;
            }
            let start = out.len();
            i = self.unit(tokens, i, scope, out)?;
            previous_len = out.len() - start;
            if out.len() > MAX_MACRO_TOKENS {
                return Err(Diagnostic::error(
                    format!("macro expansion produces more than {MAX_MACRO_TOKENS} tokens"),
                    token.span,
                )
                .with_note(format!(
                    "{MAX_MACRO_TOKENS} tokens is the limit of an expansion (raise \
                     MAX_MACRO_TOKENS in {LIMITS_FILE} to allow more)"
                )));
            }
        }
        Ok(())
    }

    /// Expands one unit (a token, a parameter, or a macro call) starting at
    /// `i`; returns the index after it.
    fn unit(
        &self,
        tokens: &'a [Token],
        i: usize,
        scope: &Scope<'a>,
        out: &mut Vec<XToken>,
    ) -> Result<usize, Diagnostic> {
        let token = &tokens[i];
        let TokenKind::Ident(name) = &token.kind else {
            out.push(self.plain(token, scope));
            return Ok(i + 1);
        };
        if scope.depth >= MAX_MACRO_DEPTH {
            return Err(
                Diagnostic::error("macro expansion nested too deeply", token.span).with_note(
                    format!(
                        "at most {MAX_MACRO_DEPTH} nested macro calls are supported (raise \
                         MAX_MACRO_DEPTH in {LIMITS_FILE} to allow more)"
                    ),
                ),
            );
        }
        if let Some(arg) = scope.env.lookup(name) {
            let arg_scope = Scope {
                env: arg.env.clone(),
                order: arg.order,
                in_macro: arg.in_macro,
                site: scope.site,
                depth: scope.depth + 1,
            };
            self.expand(arg.tokens, &arg_scope, out)?;
            return Ok(i + 1);
        }
        let Some(definitions) = self.macros.get(name) else {
            out.push(self.plain(token, scope));
            return Ok(i + 1);
        };
        let visible: Vec<_> = definitions
            .iter()
            .filter(|d| d.order < scope.order)
            .collect();
        if visible.is_empty() {
            // Used above its definition (or inside itself): a plain identifier.
            out.push(self.plain(token, scope));
            return Ok(i + 1);
        }
        if visible.iter().any(|d| d.params.is_empty()) {
            let def = visible[0];
            let body_scope = Scope {
                env: Rc::new(Env::default()),
                order: def.order,
                in_macro: true,
                site: Some(scope.site.unwrap_or(token.span)),
                depth: scope.depth + 1,
            };
            self.expand(def.body, &body_scope, out)?;
            return Ok(i + 1);
        }
        // A parametrized macro: collect `( arg ; arg ... )`.
        let Some(open) = tokens.get(i + 1).filter(|t| t.kind.is_punct(Punct::LParen)) else {
            return Err(Diagnostic::error(
                format!("expected `(` after macro `{name}`"),
                token.span,
            )
            .with_label("this macro takes arguments")
            .with_note(format!(
                "defined with {} parameter(s)",
                arity_list(&visible)
            )));
        };
        let mut args: Vec<&'a [Token]> = Vec::new();
        let mut depth = 0usize;
        let mut arg_start = i + 2;
        let mut j = i + 2;
        let close = loop {
            let Some(t) = tokens.get(j) else {
                return Err(Diagnostic::error(
                    format!("unbalanced arguments of macro `{name}`"),
                    open.span,
                )
                .with_label("this `(` is never closed")
                .with_note("only parentheses count for nesting in macro arguments"));
            };
            match &t.kind {
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) if depth == 0 => {
                    args.push(&tokens[arg_start..j]);
                    break j;
                }
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                TokenKind::Punct(Punct::Semicolon) if depth == 0 => {
                    args.push(&tokens[arg_start..j]);
                    arg_start = j + 1;
                }
                _ => {}
            }
            j += 1;
        };
        let call = token.span.join(tokens[close].span);
        let Some(def) = visible.iter().find(|d| d.params.len() == args.len()) else {
            return Err(Diagnostic::error(
                format!(
                    "macro `{name}` has no definition with {} parameter(s)",
                    args.len()
                ),
                call,
            )
            .with_label(format!("called with {} argument(s)", args.len()))
            .with_note(format!("visible definitions take {}", arity_list(&visible))));
        };
        let env = Env {
            params: def
                .params
                .iter()
                .cloned()
                .zip(args.into_iter().map(|tokens| Arg {
                    tokens,
                    env: scope.env.clone(),
                    order: scope.order,
                    in_macro: scope.in_macro,
                }))
                .collect(),
        };
        let body_scope = Scope {
            env: Rc::new(env),
            order: def.order,
            in_macro: true,
            site: Some(scope.site.unwrap_or(call)),
            depth: scope.depth + 1,
        };
        self.expand(def.body, &body_scope, out)?;
        Ok(close + 1)
    }

    fn plain(&self, token: &Token, scope: &Scope<'a>) -> XToken {
        XToken {
            kind: token.kind.clone(),
            span: token.span,
            site: scope.site.unwrap_or(token.span),
        }
    }
}

fn arity_list(defs: &[&super::items::MacroDef<'_>]) -> String {
    let mut arities: Vec<usize> = defs.iter().map(|d| d.params.len()).collect();
    arities.sort();
    arities
        .iter()
        .map(std::string::ToString::to_string)
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Joins two tokens (rbg.md §4.4); the error is a message.
pub fn paste(left: &TokenKind, right: &TokenKind) -> Result<TokenKind, String> {
    use TokenKind::{Ident, Keyword, Number, Punct as P};
    let word = |k: &TokenKind| match k {
        Ident(s) => Some(s.to_string()),
        Keyword(k) => Some(k.text().to_string()),
        _ => None,
    };
    if let Some(l) = word(left) {
        let r = match right {
            Number(digits) => Some(digits.to_string()),
            other => word(other),
        };
        if let Some(r) = r {
            return Ok(TokenKind::word(&format!("{l}{r}")));
        }
    }
    if let (Number(a), Number(b)) = (left, right) {
        let digits = format!("{a}{b}");
        if !number_fits(&digits) {
            return Err(format!("pasted number `{digits}` is too large"));
        }
        return Ok(Number(Rc::from(digits.as_str())));
    }
    if let (P(a), P(b)) = (left, right) {
        let joined = format!("{}{}", a.text(), b.text());
        if let Some(p) = Punct::from_text(&joined) {
            let allowed = matches!(
                p,
                Punct::Arrow
                    | Punct::KeeperArrow
                    | Punct::PlusArrow
                    | Punct::BraceQuery
                    | Punct::BraceBang
                    | Punct::BraceDollar
                    | Punct::BracketDollar
                    | Punct::LessEq
                    | Punct::GreaterEq
                    | Punct::EqEq
                    | Punct::NotEq
            );
            if allowed {
                return Ok(P(p));
            }
        }
    }
    Err(format!("cannot paste `{left}` and `{right}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> TokenKind {
        crate::lexer::tokenize(text).unwrap()[0].kind.clone()
    }

    #[test]
    fn paste_table() {
        let cases = [
            ("white", "Pawn", "whitePawn"),
            ("v", "1", "v1"),
            ("1", "2", "12"),
            ("-", ">", "->"),
            ("->", ">", "->>"),
            ("+", ">", "+>"),
            ("{", "?", "{?"),
            ("{", "$", "{$"),
            ("[", "$", "[$"),
            ("!", "=", "!="),
            ("<", "=", "<="),
            ("board", "s", "boards"),
        ];
        for (a, b, expected) in cases {
            assert_eq!(paste(&kind(a), &kind(b)).unwrap().to_string(), expected);
        }
        assert_eq!(
            paste(&kind("rules"), &kind("x")).unwrap(),
            TokenKind::word("rulesx")
        );
        assert!(matches!(
            paste(&kind("rule"), &kind("s")).unwrap(),
            TokenKind::Keyword(_)
        ));
        assert!(paste(&kind("8"), &kind("y")).is_err());
        assert!(paste(&kind("("), &kind(")")).is_err());
        assert!(paste(&kind("4294967"), &kind("296")).is_err());
    }
}
