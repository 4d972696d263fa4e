//! The high-level `#rules` parser (rbg.md §4.6): moves vs arithmetic by
//! context, suffix restrictions, and the sugar (`^n`, multi-offs,
//! multi-assignments, on-sets as sets) expanded into the LL tree.

use std::collections::HashSet;

use rg_core::diag::{Diagnostic, Span};

use super::cursor::{Cursor, PResult};
use crate::ast::{ActionKind, ArithOp, CompareOp, Expr, ExprKind, Name, Rule, RuleKind};
use crate::lexer::{Punct, TokenKind};
use crate::limits::{LIMITS_FILE, MAX_POWER_ITEMS};

/// Nesting limit, to reject absurd input instead of overflowing the stack.
const MAX_NESTING: usize = 256;

pub struct RulesParser<'c, 't> {
    pub cursor: &'c mut Cursor<'t>,
    /// Pieces, players and variables (not usable as shifts).
    pub declared: &'c HashSet<String>,
    /// Declared edge labels.
    pub labels: &'c HashSet<String>,
    /// Name errors that do not stop parsing.
    pub soft_errors: Vec<Diagnostic>,
    depth: usize,
    power_items: usize,
}

impl<'c, 't> RulesParser<'c, 't> {
    pub fn new(
        cursor: &'c mut Cursor<'t>,
        declared: &'c HashSet<String>,
        labels: &'c HashSet<String>,
    ) -> Self {
        RulesParser {
            cursor,
            declared,
            labels,
            soft_errors: Vec::new(),
            depth: 0,
            power_items: 0,
        }
    }

    /// The whole `#rules` body.
    pub fn rules(&mut self) -> PResult<Rule> {
        if self.cursor.at_end() {
            return Err(self.cursor.expected("the rules (a move)"));
        }
        let rule = self.sum()?;
        if let Some(t) = self.cursor.peek() {
            return Err(self
                .cursor
                .error_at(t, format!("unexpected `{}` in the rules", t.kind)));
        }
        Ok(rule)
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Diagnostic::error(
                "rules nested too deeply",
                self.cursor.here(),
            ));
        }
        Ok(())
    }

    fn sum(&mut self) -> PResult<Rule> {
        self.enter()?;
        let mut items = vec![self.concat()?];
        while self.cursor.eat_punct(Punct::Plus).is_some() {
            items.push(self.concat()?);
        }
        self.depth -= 1;
        Ok(Rule::sum(items))
    }

    fn starts_item(&self) -> bool {
        match self.cursor.peek().map(|t| &t.kind) {
            Some(TokenKind::Ident(_) | TokenKind::Number(_)) => true,
            Some(TokenKind::Punct(p)) => p.starts_rule_item(),
            _ => false,
        }
    }

    fn concat(&mut self) -> PResult<Rule> {
        if !self.starts_item() {
            return Err(self.cursor.expected("a move"));
        }
        let mut items = Vec::new();
        while self.starts_item() {
            items.push(self.item()?);
        }
        Ok(Rule::concat(items))
    }

    /// An operand with its suffixes (`*`, `^n`).
    fn item(&mut self) -> PResult<Rule> {
        let (mut rule, takes_suffix, what) = self.operand()?;
        while let Some(token) = self.cursor.peek() {
            let is_star = token.kind.is_punct(Punct::Star);
            let is_power = token.kind.is_punct(Punct::Caret);
            if !is_star && !is_power {
                break;
            }
            if !takes_suffix {
                let suffix = if is_star { "*" } else { "^" };
                return Err(self
                    .cursor
                    .error_at(token, format!("`{suffix}` cannot follow {what}"))
                    .with_label("suffix on a non-move operand")
                    .with_note(format!(
                        "suffixes apply only to moves; wrap the operand in parentheses, e.g. `({{e}}){suffix}`"
                    )));
            }
            self.cursor.pos += 1;
            if is_star {
                let span = rule.span.join(token.span);
                rule = Rule {
                    kind: RuleKind::Star(Box::new(rule)),
                    span,
                };
            } else {
                let count_token = self.cursor.peek();
                let (count, count_span) = self.cursor.number("a power (a number) after `^`")?;
                if count == 0 {
                    let d = match count_token {
                        Some(t) => self.cursor.error_at(t, "power `^0` is not allowed"),
                        None => Diagnostic::error("power `^0` is not allowed", count_span),
                    };
                    return Err(d.with_note("`x^n` repeats `x` n ≥ 1 times"));
                }
                // The copies beyond the first, counted in rule nodes, so that
                // nested powers multiply.
                let copies = rule.size().saturating_mul(count as usize - 1);
                self.power_items = self.power_items.saturating_add(copies);
                if self.power_items > MAX_POWER_ITEMS {
                    return Err(Diagnostic::error(
                        format!("powers expand to more than {MAX_POWER_ITEMS} copied rule nodes"),
                        count_span,
                    )
                    .with_note(format!(
                        "{MAX_POWER_ITEMS} rule nodes is the limit of all `^n` copies together \
                         (raise MAX_POWER_ITEMS in {LIMITS_FILE} to allow more)"
                    )));
                }
                let span = rule.span.join(count_span);
                let copies = vec![rule; count as usize];
                rule = Rule::concat(copies);
                rule.span = span;
            }
        }
        Ok(rule)
    }

    /// Returns the operand, whether it may take a suffix, and a description.
    fn operand(&mut self) -> PResult<(Rule, bool, &'static str)> {
        let Some(token) = self.cursor.next() else {
            return Err(self.cursor.expected("a move"));
        };
        let start = token.span;
        let action = |kind, span| Rule::action(kind, span);
        match &token.kind {
            TokenKind::Ident(name) => {
                let label = Name {
                    name: name.to_string(),
                    span: start,
                };
                if !self.declared.contains(name.as_ref()) && !self.labels.contains(name.as_ref()) {
                    self.soft_errors.push(
                        self.cursor
                            .error_at(token, format!("undeclared identifier `{name}`"))
                            .with_label("not a piece, player, variable or edge label"),
                    );
                }
                // A piece/player/variable here is reported by the checker.
                Ok((action(ActionKind::Shift(label), start), true, "a shift"))
            }
            TokenKind::Number(n) => Err(self
                .cursor
                .error_at(token, format!("number `{n}` in move position"))
                .with_label("arithmetic is only allowed inside `{$ ...}` and `[$ ...]`")),
            TokenKind::Punct(Punct::Dot) => Ok((action(ActionKind::Noop, start), true, "`.`")),
            TokenKind::Punct(Punct::KeeperArrow) => {
                Ok((action(ActionKind::KeeperSwitch, start), true, "`->>`"))
            }
            TokenKind::Punct(Punct::Arrow) => {
                let player = self.cursor.ident("a player name after `->`")?;
                let span = start.join(player.span);
                Ok((action(ActionKind::Switch(player), span), true, "a switch"))
            }
            TokenKind::Punct(Punct::LParen) => {
                if let Some(close) = self
                    .cursor
                    .peek()
                    .filter(|t| t.kind.is_punct(Punct::RParen))
                {
                    return Err(self
                        .cursor
                        .error_at(close, "empty parentheses `()`")
                        .with_label("a group needs at least one action"));
                }
                let inner = self.sum()?;
                let close = self.cursor.expect_punct(Punct::RParen)?;
                let span = start.join(close.span);
                Ok((Rule { span, ..inner }, true, "a group"))
            }
            TokenKind::Punct(p @ (Punct::BraceQuery | Punct::BraceBang)) => {
                let negated = *p == Punct::BraceBang;
                let inner = self.sum()?;
                let close = self.cursor.expect_punct(Punct::RBrace)?;
                let kind = ActionKind::Pattern {
                    negated,
                    rule: Box::new(inner),
                };
                Ok((
                    action(kind, start.join(close.span)),
                    false,
                    "a pattern `{? ...}`",
                ))
            }
            TokenKind::Punct(Punct::BraceDollar) => {
                let left = self.arith()?;
                let op = self.compare_op()?;
                let right = self.arith()?;
                let close = self.cursor.expect_punct(Punct::RBrace)?;
                let kind = ActionKind::Compare { left, op, right };
                Ok((
                    action(kind, start.join(close.span)),
                    false,
                    "a comparison `{$ ...}`",
                ))
            }
            TokenKind::Punct(Punct::LBrace) => {
                let mut pieces: Vec<Name> = Vec::new();
                if !self.cursor.peek_punct(Punct::RBrace) {
                    for piece in self.comma_separated1(|p| p.cursor.ident("a piece name"))? {
                        if !pieces.iter().any(|p| p.name == piece.name) {
                            pieces.push(piece);
                        }
                    }
                }
                let close = self.cursor.expect_punct(Punct::RBrace)?;
                // Set semantics: sorted, duplicates removed (rbg.md §4.6).
                pieces.sort_by(|a, b| a.name.cmp(&b.name));
                Ok((
                    action(ActionKind::On(pieces), start.join(close.span)),
                    false,
                    "an on `{...}`",
                ))
            }
            TokenKind::Punct(Punct::LBracket) => {
                let (offs, close) =
                    self.bracketed_list("empty off `[]`", "an off needs a piece", |p| {
                        p.cursor.ident("a piece name")
                    })?;
                let span = start.join(close);
                // `[a, b]` is the choice `([a] + [b])` in written order.
                let rule = Rule::sum(
                    offs.into_iter()
                        .map(|piece| Rule::action(ActionKind::Off(piece), span))
                        .collect(),
                );
                Ok((Rule { span, ..rule }, false, "an off `[...]`"))
            }
            TokenKind::Punct(Punct::BracketDollar) => {
                let (mut assignments, close) = self.bracketed_list(
                    "empty assignment `[$ ]`",
                    "expected `variable = expression`",
                    |p| {
                        let target = p.cursor.ident("a variable name")?;
                        p.cursor.expect_punct(Punct::Equals)?;
                        let value = p.arith()?;
                        let span = target.span.join(value.span);
                        Ok(Rule::action(ActionKind::Assign { target, value }, span))
                    },
                )?;
                let span = start.join(close);
                if assignments.len() == 1 {
                    if let Some(mut only) = assignments.pop() {
                        only.span = span;
                        return Ok((only, false, "an assignment `[$ ...]`"));
                    }
                }
                let rule = Rule::concat(assignments);
                Ok((Rule { span, ..rule }, false, "an assignment `[$ ...]`"))
            }
            other => Err(self
                .cursor
                .error_at(token, format!("expected a move, found `{other}`"))),
        }
    }

    /// `item { "," item }`.
    fn comma_separated1<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut items = vec![item(self)?];
        while self.cursor.eat_punct(Punct::Comma).is_some() {
            items.push(item(self)?);
        }
        Ok(items)
    }

    /// `item { "," item } "]"` (after an opening `[` or `[$`), with the span
    /// of the `]`; an empty list is the error `empty` at the `]`.
    fn bracketed_list<T>(
        &mut self,
        empty: &str,
        empty_label: &str,
        item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<(Vec<T>, Span)> {
        if let Some(close) = self
            .cursor
            .peek()
            .filter(|t| t.kind.is_punct(Punct::RBracket))
        {
            return Err(self.cursor.error_at(close, empty).with_label(empty_label));
        }
        let items = self.comma_separated1(item)?;
        let close = self.cursor.expect_punct(Punct::RBracket)?;
        Ok((items, close.span))
    }

    fn compare_op(&mut self) -> PResult<CompareOp> {
        let op = match self.cursor.peek().map(|t| &t.kind) {
            Some(TokenKind::Punct(Punct::Less)) => CompareOp::Less,
            Some(TokenKind::Punct(Punct::LessEq)) => CompareOp::LessEq,
            Some(TokenKind::Punct(Punct::EqEq)) => CompareOp::Equal,
            Some(TokenKind::Punct(Punct::NotEq)) => CompareOp::NotEqual,
            Some(TokenKind::Punct(Punct::Greater)) => CompareOp::Greater,
            Some(TokenKind::Punct(Punct::GreaterEq)) => CompareOp::GreaterEq,
            _ => return Err(self.cursor.expected("a comparison operator")),
        };
        self.cursor.pos += 1;
        Ok(op)
    }

    /// Arithmetic with the usual precedence (`*`, `/` over `+`, `-`), left associative.
    fn arith(&mut self) -> PResult<Expr> {
        self.enter()?;
        let mut left = self.term()?;
        loop {
            let op = if self.cursor.eat_punct(Punct::Plus).is_some() {
                ArithOp::Add
            } else if self.cursor.eat_punct(Punct::Minus).is_some() {
                ArithOp::Sub
            } else {
                break;
            };
            let right = self.term()?;
            left = Expr::binary(op, left, right);
        }
        self.depth -= 1;
        Ok(left)
    }

    fn term(&mut self) -> PResult<Expr> {
        let mut left = self.factor()?;
        loop {
            let op = if self.cursor.eat_punct(Punct::Star).is_some() {
                ArithOp::Mul
            } else if self.cursor.eat_punct(Punct::Slash).is_some() {
                ArithOp::Div
            } else {
                break;
            };
            let right = self.factor()?;
            left = Expr::binary(op, left, right);
        }
        Ok(left)
    }

    fn factor(&mut self) -> PResult<Expr> {
        if let Some(open) = self.cursor.eat_punct(Punct::LParen) {
            let inner = self.arith()?;
            let close = self.cursor.expect_punct(Punct::RParen)?;
            return Ok(Expr {
                span: open.span.join(close.span),
                ..inner
            });
        }
        let Some(token) = self.cursor.peek() else {
            return Err(self.cursor.expected("a number, a name or `(`"));
        };
        let kind = match &token.kind {
            TokenKind::Ident(name) => ExprKind::Name(name.to_string()),
            TokenKind::Number(_) => match token.kind.number() {
                Some(n) => ExprKind::Number(n),
                None => return Err(self.cursor.expected("a number")),
            },
            _ => return Err(self.cursor.expected("a number, a name or `(`")),
        };
        self.cursor.pos += 1;
        Ok(Expr {
            kind,
            span: token.span,
        })
    }
}
