//! Expressions by precedence (`||`, `&&`, comparisons, `+ - % in`,
//! postfix access and calls), map literals, and the patterns of function
//! cases and map keys.

use rg_core::diag::Span;
use rg_core::syntax::{delimited_list, error, peek_token, skip_trivia, token, PResult};

use super::Parser;
use crate::ast::{BinaryOp, Expr, ExprKind, MapLiteral, MapPart, Pattern};

impl Parser<'_> {
    pub(super) fn expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let _level = self.nesting.enter(skip_trivia(input))?;
        self.or_expr(input)
    }

    fn binary(&self, op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        let span = lhs.span.join(rhs.span);
        Expr {
            kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
            span,
        }
    }

    /// `||` and `&&` are right-associative.
    fn or_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (i, lhs) = self.and_expr(input)?;
        if peek_token(i, "||") {
            let (i, ()) = token(i, "||")?;
            let _level = self.nesting.enter(skip_trivia(i))?;
            let (i, rhs) = self.or_expr(i)?;
            return Ok((i, self.binary(BinaryOp::Or, lhs, rhs)));
        }
        Ok((i, lhs))
    }

    fn and_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (i, lhs) = self.compare_expr(input)?;
        if peek_token(i, "&&") {
            let (i, ()) = token(i, "&&")?;
            let _level = self.nesting.enter(skip_trivia(i))?;
            let (i, rhs) = self.and_expr(i)?;
            return Ok((i, self.binary(BinaryOp::And, lhs, rhs)));
        }
        Ok((i, lhs))
    }

    fn compare_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (mut i, mut lhs) = self.additive_expr(input)?;
        // Each operator after the first nests the operation before it a
        // level deeper.
        let mut levels = Vec::new();
        let mut operators = 0;
        loop {
            let rest = skip_trivia(i);
            let op = [
                ("==", BinaryOp::Eq),
                ("!=", BinaryOp::Ne),
                ("<=", BinaryOp::Le),
                (">=", BinaryOp::Ge),
                ("<", BinaryOp::Lt),
                (">", BinaryOp::Gt),
            ]
            .into_iter()
            .find(|(text, _)| rest.starts_with(text));
            let Some((text, op)) = op else {
                return Ok((i, lhs));
            };
            if operators > 0 {
                levels.push(self.nesting.enter(rest)?);
            }
            operators += 1;
            let (next, rhs) = self.additive_expr(&rest[text.len()..])?;
            lhs = self.binary(op, lhs, rhs);
            i = next;
        }
    }

    fn additive_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (mut i, mut lhs) = self.postfix_expr(input)?;
        let mut levels = Vec::new();
        let mut operators = 0;
        loop {
            let rest = skip_trivia(i);
            let (op, after) = if let Some(after) = rest.strip_prefix('+') {
                (BinaryOp::Add, after)
            } else if let Some(after) = rest.strip_prefix('-').filter(|a| !a.starts_with('>')) {
                (BinaryOp::Sub, after)
            } else if let Some(after) = rest.strip_prefix('%') {
                (BinaryOp::Mod, after)
            } else if let Ok((after, ())) = self.in_keyword(rest) {
                (BinaryOp::In, after)
            } else {
                return Ok((i, lhs));
            };
            if operators > 0 {
                levels.push(self.nesting.enter(rest)?);
            }
            operators += 1;
            let (next, rhs) = self.postfix_expr(after)?;
            lhs = self.binary(op, lhs, rhs);
            i = next;
        }
    }

    fn postfix_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (mut i, mut e) = self.operand(input)?;
        let mut levels = Vec::new();
        let mut postfixes = 0;
        loop {
            if postfixes > 0 && (peek_token(i, "[") || peek_token(i, "(")) {
                levels.push(self.nesting.enter(skip_trivia(i))?);
            }
            postfixes += 1;
            if peek_token(i, "[") {
                let (next, ()) = token(i, "[")?;
                let (next, key) = self.expr(next)?;
                let (next, ()) = token(next, "]")?;
                let span = Span::new(e.span.start, self.offset(next));
                e = Expr {
                    kind: ExprKind::Access(Box::new(e), Box::new(key)),
                    span,
                };
                i = next;
            } else if peek_token(i, "(") {
                let (next, args) = self.arguments(i)?;
                let span = Span::new(e.span.start, self.offset(next));
                e = Expr {
                    kind: ExprKind::Call(Box::new(e), args),
                    span,
                };
                i = next;
            } else {
                return Ok((i, e));
            }
        }
    }

    fn operand<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let start = skip_trivia(input);
        let expr = |kind: ExprKind, rest: &'a str| {
            Ok((
                rest,
                Expr {
                    kind,
                    span: self.span(start, rest),
                },
            ))
        };
        if start.starts_with('(') {
            let (i, ()) = token(start, "(")?;
            let (i, inner) = self.expr(i)?;
            let (i, ()) = token(i, ")")?;
            return expr(ExprKind::Paren(Box::new(inner)), i);
        }
        if start.starts_with('{') {
            let (i, map) = self.map_literal(start)?;
            return expr(ExprKind::Map(map), i);
        }
        if self.peek_word(start) == "if" {
            let (i, ()) = self.keyword(start, "if")?;
            let (i, c) = self.expr(i)?;
            let (i, ()) = self.keyword(i, "then")?;
            let (i, a) = self.expr(i)?;
            let (i, ()) = self.keyword(i, "else")?;
            let (i, b) = self.expr(i)?;
            return expr(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), i);
        }
        let (i, name) = self
            .ident(start)
            .or_else(|_| error(start, "expected an expression"))?;
        if name.is_upper() && i.starts_with('(') {
            let (i, args) = self.arguments(i)?;
            return expr(ExprKind::Constructor(name, args), i);
        }
        expr(ExprKind::Name(name), i)
    }

    /// `"(" [ expr { "," expr } ] ")"`
    pub(super) fn arguments<'a>(&self, input: &'a str) -> PResult<'a, Vec<Expr>> {
        delimited_list(input, "(", ")", |i| self.expr(i))
    }

    /// `{ :default [; part ...] }` or `{ part [; part ...] }`.
    fn map_literal<'a>(&self, input: &'a str) -> PResult<'a, MapLiteral> {
        let (i, ()) = token(input, "{")?;
        let (mut i, default) = if peek_token(i, ":") {
            let (i, ()) = token(i, ":")?;
            let (i, d) = self.expr(i)?;
            (i, Some(Box::new(d)))
        } else {
            (i, None)
        };
        let mut parts = Vec::new();
        let mut need_separator = default.is_some();
        loop {
            if peek_token(i, "}") {
                break;
            }
            if need_separator {
                i = token(i, ";")
                    .or_else(|_| error(skip_trivia(i), "expected \";\" or \"}\" in a map literal"))?
                    .0;
            }
            let start = skip_trivia(i);
            let (next, key) = self.pattern(start)?;
            let (next, ()) = token(next, "=")?;
            let (next, value) = self.expr(next)?;
            let (next, bindings) = if self.peek_word(next) == "where" {
                let (next, ()) = self.keyword(next, "where")?;
                self.bindings(next)?
            } else {
                (next, Vec::new())
            };
            parts.push(MapPart {
                key,
                value,
                bindings,
                span: self.span(start, next),
            });
            i = next;
            need_separator = true;
        }
        let (i, ()) = token(i, "}")?;
        Ok((i, MapLiteral { default, parts }))
    }

    pub(super) fn pattern<'a>(&self, input: &'a str) -> PResult<'a, Pattern> {
        let start = skip_trivia(input);
        let _level = self.nesting.enter(start)?;
        let (i, name) = self
            .ident(start)
            .or_else(|_| error(start, "expected a pattern"))?;
        if name.text == "_" {
            return Ok((i, Pattern::Wildcard(name.span)));
        }
        if !i.starts_with('(') {
            return Ok((i, Pattern::Name(name)));
        }
        let (i, args) = delimited_list(i, "(", ")", |i| self.pattern(i))?;
        Ok((i, Pattern::Constructor(name, args, self.span(start, i))))
    }
}
