//! Low-level RBG parser (rbg.md §2.1, §2.7): tokens to [`ast::Game`].
//!
//! Hand-written recursive descent over the shared token stream, so that every
//! node gets an exact span. A syntax error abandons only its section; the
//! other sections are still parsed, so several problems are reported at once.

use rg_core::diag::{Diagnostic, Span};

use crate::ast::{
    Action, ActionKind, ArithOp, BoundedName, CompareOp, Edge, Expr, ExprKind, Game, Name, Rule,
    RuleKind, Vertex,
};
use crate::lexer::{tokenize, Keyword, Punct, Token, TokenKind};
use crate::limits::{too_many_vertices, MAX_BOARD_VERTICES};

/// Parses low-level RBG text (no semantic checks; see [`crate::check`]).
pub fn parse_ll(source: &str) -> Result<Game, Vec<Diagnostic>> {
    let tokens = tokenize(source)?;
    parse_tokens(&tokens, source.len())
}

/// Nesting limit for rules and expressions: deeper input is rejected instead
/// of overflowing the stack.
const MAX_NESTING: usize = 256;

/// Parses a token stream of low-level RBG; `end` is the source length (the
/// position reported for "missing" things at the end of the input).
pub fn parse_tokens(tokens: &[Token], end: usize) -> Result<Game, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut players = None;
    let mut pieces = None;
    let mut variables = None;
    let mut board = None;
    let mut rules = None;

    if let Some(first) = tokens.first() {
        if !first.kind.is_punct(Punct::Hash) {
            errors.push(
                Diagnostic::error("expected a section starting with `#`", first.span)
                    .with_label("the file must start with `#`"),
            );
        }
    }
    let mut index = tokens
        .iter()
        .position(|t| t.kind.is_punct(Punct::Hash))
        .unwrap_or(tokens.len());
    while index < tokens.len() {
        let hash = &tokens[index];
        let next_hash = tokens[index + 1..]
            .iter()
            .position(|t| t.kind.is_punct(Punct::Hash))
            .map_or(tokens.len(), |p| index + 1 + p);
        let section = &tokens[index + 1..next_hash];
        // "Missing" things are reported just after the section's last token.
        let section_end = section.last().map_or(end, |t| t.span.end);
        index = next_hash;
        let Some(name_token) = section.first() else {
            errors.push(Diagnostic::error(
                "expected a section name after `#`",
                hash.span,
            ));
            continue;
        };
        let keyword = match &name_token.kind {
            TokenKind::Keyword(k) if k.is_section() => *k,
            other => {
                errors.push(
                    Diagnostic::error(format!("unknown section `#{other}`"), name_token.span)
                        .with_note("sections are #players, #pieces, #variables, #board and #rules"),
                );
                continue;
            }
        };
        let header = hash.span.join(name_token.span);
        match section.get(1) {
            Some(t) if t.kind.is_punct(Punct::Equals) => {}
            Some(t) => {
                errors.push(Diagnostic::error(
                    "expected `=` after the section name",
                    t.span,
                ));
                continue;
            }
            None => {
                errors.push(Diagnostic::error(
                    "expected `=` after the section name",
                    header,
                ));
                continue;
            }
        }
        let body = &section[2..];
        let mut parser = Parser::new(body, section_end);
        let slot_filled = match keyword {
            Keyword::Players => players.is_some(),
            Keyword::Pieces => pieces.is_some(),
            Keyword::Variables => variables.is_some(),
            Keyword::Board => board.is_some(),
            _ => rules.is_some(),
        };
        if slot_filled {
            errors.push(
                Diagnostic::error(format!("duplicate section `#{}`", keyword.text()), header)
                    .with_label("second definition"),
            );
            continue;
        }
        let result = match keyword {
            Keyword::Players => parser
                .section(|p| p.bounded_list(false, "#players"))
                .map(|v| players = Some(v)),
            Keyword::Pieces => parser.section(Parser::piece_list).map(|v| pieces = Some(v)),
            Keyword::Variables => parser
                .section(|p| p.bounded_list(true, "#variables"))
                .map(|v| variables = Some(v)),
            Keyword::Board => parser.section(Parser::board).map(|v| board = Some(v)),
            _ => parser.section(|p| p.rule(0)).map(|v| rules = Some(v)),
        };
        if let Err(e) = result {
            errors.push(e);
        }
    }

    let missing = |name: &str| {
        Diagnostic::error(format!("section `#{name}` is missing"), None)
            .with_note("every game needs #players, #pieces, #variables, #board and #rules")
    };
    // A section that failed to parse was present: report only truly absent ones.
    let present = |k: Keyword| {
        tokens
            .windows(2)
            .any(|w| w[0].kind.is_punct(Punct::Hash) && w[1].kind == TokenKind::Keyword(k))
    };
    for (keyword, name) in [
        (Keyword::Players, "players"),
        (Keyword::Pieces, "pieces"),
        (Keyword::Variables, "variables"),
        (Keyword::Board, "board"),
        (Keyword::Rules, "rules"),
    ] {
        if !present(keyword) {
            errors.push(missing(name));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    match (players, pieces, variables, board, rules) {
        (Some(players), Some(pieces), Some(variables), Some(board), Some(mut rules)) => {
            rules.assign_modifier_indices();
            Ok(Game {
                players,
                pieces,
                variables,
                board,
                rules,
            })
        }
        _ => Err(vec![Diagnostic::error("incomplete game description", None)]),
    }
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    /// Where "end of section" errors point.
    end: usize,
    depth: usize,
}

type PResult<T> = Result<T, Diagnostic>;

impl<'a> Parser<'a> {
    fn new(tokens: &'a [Token], end: usize) -> Self {
        Parser {
            tokens,
            pos: 0,
            end,
            depth: 0,
        }
    }

    fn section<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let value = f(self)?;
        match self.peek() {
            None => Ok(value),
            Some(t) => Err(
                Diagnostic::error(format!("unexpected `{}`", t.kind), t.span)
                    .with_label("expected the end of the section"),
            ),
        }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    fn peek_punct(&self, p: Punct) -> bool {
        self.peek().is_some_and(|t| t.kind.is_punct(p))
    }

    fn eat_punct(&mut self, p: Punct) -> Option<Span> {
        if self.peek_punct(p) {
            self.pos += 1;
            Some(self.tokens[self.pos - 1].span)
        } else {
            None
        }
    }

    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => t.span,
            None => Span::new(self.end, self.end),
        }
    }

    fn expected(&self, what: &str) -> Diagnostic {
        match self.peek() {
            Some(t) => Diagnostic::error(format!("expected {what}, found `{}`", t.kind), t.span),
            None => Diagnostic::error(
                format!("expected {what}, found the end of the section"),
                self.here(),
            ),
        }
    }

    fn expect_punct(&mut self, p: Punct) -> PResult<Span> {
        self.eat_punct(p)
            .ok_or_else(|| self.expected(&format!("`{}`", p.text())))
    }

    fn ident(&mut self, what: &str) -> PResult<Name> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Ident(name),
                span,
            }) => {
                self.pos += 1;
                Ok(Name {
                    name: name.to_string(),
                    span: *span,
                })
            }
            _ => Err(self.expected(what)),
        }
    }

    fn number(&mut self) -> PResult<(u32, Span)> {
        match self.peek() {
            Some(t) => match t.kind.number() {
                Some(n) => {
                    self.pos += 1;
                    Ok((n, t.span))
                }
                None => Err(self.expected("a number")),
            },
            None => Err(self.expected("a number")),
        }
    }

    fn previous_end(&self) -> usize {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(self.end, |t| t.span.end)
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(
                Diagnostic::error("rules nested too deeply", self.here()).with_note(format!(
                    "at most {MAX_NESTING} levels of nesting are supported"
                )),
            );
        }
        Ok(())
    }

    /// `name(bound), ...`; `#variables` may be empty.
    fn bounded_list(&mut self, may_be_empty: bool, section: &str) -> PResult<Vec<BoundedName>> {
        let mut list = Vec::new();
        if self.peek().is_none() {
            if may_be_empty {
                return Ok(list);
            }
            return Err(self.expected(&format!("at least one entry in {section}")));
        }
        loop {
            let name = self.ident("a name")?;
            self.expect_punct(Punct::LParen)?;
            let (bound, _) = self.number()?;
            let close = self.expect_punct(Punct::RParen)?;
            list.push(BoundedName {
                name: name.name,
                bound,
                span: name.span.join(close),
            });
            if self.eat_punct(Punct::Comma).is_none() {
                return Ok(list);
            }
        }
    }

    fn piece_list(&mut self) -> PResult<Vec<Name>> {
        let mut list = vec![self.ident("a piece name")?];
        while self.eat_punct(Punct::Comma).is_some() {
            list.push(self.ident("a piece name")?);
        }
        Ok(list)
    }

    fn board(&mut self) -> PResult<Vec<Vertex>> {
        let mut vertices = Vec::new();
        if self.peek().is_none() {
            return Err(self.expected("at least one vertex"));
        }
        while self.peek().is_some() {
            let name = self.ident("a vertex name")?;
            self.expect_punct(Punct::LBracket)?;
            let piece = self.ident("a piece name")?;
            self.expect_punct(Punct::RBracket)?;
            self.expect_punct(Punct::LBrace)?;
            let mut edges = Vec::new();
            if !self.peek_punct(Punct::RBrace) {
                loop {
                    let label = self.ident("an edge label")?;
                    self.expect_punct(Punct::Colon)?;
                    let target = self.ident("a vertex name")?;
                    edges.push(Edge {
                        span: label.span.join(target.span),
                        label,
                        target,
                    });
                    if self.eat_punct(Punct::Comma).is_none() {
                        break;
                    }
                }
            }
            let close = self.expect_punct(Punct::RBrace)?;
            if vertices.len() == MAX_BOARD_VERTICES {
                return Err(too_many_vertices(name.span));
            }
            vertices.push(Vertex {
                span: name.span.join(close),
                name,
                piece,
                edges,
            });
        }
        Ok(vertices)
    }

    /// `rule ::= alt ('+' alt)*`
    fn rule(&mut self, _: usize) -> PResult<Rule> {
        self.enter()?;
        let first = self.alternative()?;
        let mut items = vec![first];
        while self.eat_punct(Punct::Plus).is_some() {
            items.push(self.alternative()?);
        }
        self.depth -= 1;
        Ok(Rule::sum(items))
    }

    fn starts_item(&self) -> bool {
        match self.peek().map(|t| &t.kind) {
            Some(TokenKind::Ident(_)) => true,
            Some(TokenKind::Punct(p)) => p.starts_rule_item(),
            _ => false,
        }
    }

    /// `alt ::= item+`
    fn alternative(&mut self) -> PResult<Rule> {
        if !self.starts_item() {
            return Err(self.expected("an action or `(`"));
        }
        let mut items = Vec::new();
        while self.starts_item() {
            items.push(self.item()?);
        }
        Ok(Rule::concat(items))
    }

    /// `item ::= (action | '(' rule ')') ['*']`
    fn item(&mut self) -> PResult<Rule> {
        let mut rule = if let Some(open) = self.eat_punct(Punct::LParen) {
            if self.peek_punct(Punct::RParen) {
                return Err(
                    Diagnostic::error("empty parentheses", open.join(self.here())).with_label(
                        "`()` denotes no move; an alternative needs at least one action",
                    ),
                );
            }
            let inner = self.rule(0)?;
            let close = self.expect_punct(Punct::RParen)?;
            Rule {
                span: open.join(close),
                ..inner
            }
        } else {
            self.action()?
        };
        if let Some(star) = self.eat_punct(Punct::Star) {
            let span = rule.span.join(star);
            rule = Rule {
                kind: RuleKind::Star(Box::new(rule)),
                span,
            };
        }
        Ok(rule)
    }

    fn action(&mut self) -> PResult<Rule> {
        let Some(token) = self.peek() else {
            return Err(self.expected("an action"));
        };
        let start = token.span;
        let kind = match &token.kind {
            TokenKind::Ident(name) => {
                self.pos += 1;
                ActionKind::Shift(Name {
                    name: name.to_string(),
                    span: start,
                })
            }
            TokenKind::Punct(Punct::Dot) => {
                self.pos += 1;
                ActionKind::Noop
            }
            TokenKind::Punct(Punct::KeeperArrow) => {
                self.pos += 1;
                ActionKind::KeeperSwitch
            }
            TokenKind::Punct(Punct::Arrow) => {
                self.pos += 1;
                ActionKind::Switch(self.ident("a player name after `->`")?)
            }
            TokenKind::Punct(Punct::LBrace) => {
                self.pos += 1;
                let mut pieces = Vec::new();
                if !self.peek_punct(Punct::RBrace) {
                    pieces.push(self.ident("a piece name")?);
                    while self.eat_punct(Punct::Comma).is_some() {
                        pieces.push(self.ident("a piece name")?);
                    }
                }
                self.expect_punct(Punct::RBrace)?;
                ActionKind::On(pieces)
            }
            TokenKind::Punct(Punct::LBracket) => {
                self.pos += 1;
                let piece = self.ident("a piece name")?;
                self.expect_punct(Punct::RBracket)?;
                ActionKind::Off(piece)
            }
            TokenKind::Punct(Punct::BracketDollar) => {
                self.pos += 1;
                let target = self.ident("a variable name")?;
                self.expect_punct(Punct::Equals)?;
                let value = self.expr()?;
                self.expect_punct(Punct::RBracket)?;
                ActionKind::Assign { target, value }
            }
            TokenKind::Punct(Punct::BraceDollar) => {
                self.pos += 1;
                let left = self.expr()?;
                let op = self.compare_op()?;
                let right = self.expr()?;
                self.expect_punct(Punct::RBrace)?;
                ActionKind::Compare { left, op, right }
            }
            TokenKind::Punct(p @ (Punct::BraceQuery | Punct::BraceBang)) => {
                let negated = *p == Punct::BraceBang;
                self.pos += 1;
                let rule = self.rule(0)?;
                self.expect_punct(Punct::RBrace)?;
                ActionKind::Pattern {
                    negated,
                    rule: Box::new(rule),
                }
            }
            _ => return Err(self.expected("an action")),
        };
        Ok(Rule {
            kind: RuleKind::Action(Action {
                kind,
                modifier_index: None,
            }),
            span: start.join(Span::new(start.start, self.previous_end())),
        })
    }

    fn compare_op(&mut self) -> PResult<CompareOp> {
        let op = match self.peek().map(|t| &t.kind) {
            Some(TokenKind::Punct(Punct::Less)) => CompareOp::Less,
            Some(TokenKind::Punct(Punct::LessEq)) => CompareOp::LessEq,
            Some(TokenKind::Punct(Punct::EqEq)) => CompareOp::Equal,
            Some(TokenKind::Punct(Punct::NotEq)) => CompareOp::NotEqual,
            Some(TokenKind::Punct(Punct::Greater)) => CompareOp::Greater,
            Some(TokenKind::Punct(Punct::GreaterEq)) => CompareOp::GreaterEq,
            _ => {
                return Err(
                    self.expected("a comparison operator (`<`, `<=`, `==`, `!=`, `>`, `>=`)")
                )
            }
        };
        self.pos += 1;
        Ok(op)
    }

    /// `expr ::= term (('+' | '-') term)*`, left associative.
    fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let mut left = self.term()?;
        loop {
            let op = if self.eat_punct(Punct::Plus).is_some() {
                ArithOp::Add
            } else if self.eat_punct(Punct::Minus).is_some() {
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
            let op = if self.eat_punct(Punct::Star).is_some() {
                ArithOp::Mul
            } else if self.eat_punct(Punct::Slash).is_some() {
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
        if let Some(open) = self.eat_punct(Punct::LParen) {
            let inner = self.expr()?;
            let close = self.expect_punct(Punct::RParen)?;
            return Ok(Expr {
                span: open.join(close),
                ..inner
            });
        }
        match self.peek() {
            Some(Token {
                kind: TokenKind::Ident(name),
                span,
            }) => {
                self.pos += 1;
                Ok(Expr {
                    kind: ExprKind::Name(name.to_string()),
                    span: *span,
                })
            }
            Some(
                t @ Token {
                    kind: TokenKind::Number(_),
                    ..
                },
            ) => {
                let (value, span) = self.number()?;
                let _ = t;
                Ok(Expr {
                    kind: ExprKind::Number(value),
                    span,
                })
            }
            _ => Err(self.expected("a number, a name or `(`")),
        }
    }
}

impl Expr {
    pub fn binary(op: ArithOp, left: Expr, right: Expr) -> Expr {
        Expr {
            span: left.span.join(right.span),
            kind: ExprKind::Binary {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
        }
    }
}

impl Rule {
    /// An alternative; nested sums are merged and a single item stands alone.
    pub fn sum(items: Vec<Rule>) -> Rule {
        Rule::flattened(items, true)
    }

    /// A concatenation; nested concatenations are merged and a single item
    /// stands alone.
    pub fn concat(items: Vec<Rule>) -> Rule {
        Rule::flattened(items, false)
    }

    fn flattened(items: Vec<Rule>, is_sum: bool) -> Rule {
        let mut flat = Vec::with_capacity(items.len());
        for item in items {
            match item.kind {
                RuleKind::Sum(inner) if is_sum => flat.extend(inner),
                RuleKind::Concat(inner) if !is_sum => flat.extend(inner),
                kind => flat.push(Rule {
                    kind,
                    span: item.span,
                }),
            }
        }
        if flat.len() == 1 {
            if let Some(only) = flat.pop() {
                return only;
            }
        }
        let span = match (flat.first(), flat.last()) {
            (Some(a), Some(b)) => a.span.join(b.span),
            _ => Span::default(),
        };
        Rule {
            kind: if is_sum {
                RuleKind::Sum(flat)
            } else {
                RuleKind::Concat(flat)
            },
            span,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "#board = a[e]{r:b} b[e]{l:a}
        #players = x(1), y(1)
        #pieces = e, p
        #variables = t(2)
        #rules = ->x r* {e} [p] [$ t = t + 1] ->> {? l} ->y l {e} [p] ->> ->> {}";

    #[test]
    fn parses_sections_in_any_order_and_indexes_modifiers() {
        let game = parse_ll(TINY).unwrap();
        assert_eq!(game.board.len(), 2);
        assert_eq!(game.players[1].name, "y");
        assert_eq!(game.variables[0].bound, 2);
        assert_eq!(game.modifier_count(), 8);
    }

    #[test]
    fn precedence_star_concat_sum() {
        let game = parse_ll(
            "#board = a[e]{} #players = x(1) #pieces = e #variables = \
             #rules = up left + [e] (up [e])* ->x",
        )
        .unwrap();
        let RuleKind::Sum(alternatives) = &game.rules.kind else {
            panic!("expected a sum: {:?}", game.rules)
        };
        assert_eq!(alternatives.len(), 2);
        let RuleKind::Concat(items) = &alternatives[1].kind else {
            panic!()
        };
        assert!(matches!(items[1].kind, RuleKind::Star(_)));
        // `[e]` = 1, inner `[e]` = 2, `->x` = 3
        assert_eq!(game.modifier_count(), 3);
    }

    #[test]
    fn arithmetic_precedence() {
        let game = parse_ll(
            "#board = a[e]{} #players = x(1) #pieces = e #variables = \
             #rules = [$ x = 1 + 2 * 3 - 4 / 2] ->x",
        )
        .unwrap();
        let RuleKind::Concat(items) = &game.rules.kind else {
            panic!()
        };
        let RuleKind::Action(Action {
            kind: ActionKind::Assign { value, .. },
            ..
        }) = &items[0].kind
        else {
            panic!()
        };
        // ((1 + (2 * 3)) - (4 / 2))
        let ExprKind::Binary { op, left, .. } = &value.kind else {
            panic!()
        };
        assert_eq!(*op, ArithOp::Sub);
        assert!(matches!(
            left.kind,
            ExprKind::Binary {
                op: ArithOp::Add,
                ..
            }
        ));
    }

    #[test]
    fn reports_errors_of_several_sections() {
        let errors = parse_ll("#board = a[e]{ #players = x( #pieces = e #rules = ()").unwrap_err();
        // board, players, rules errors, and #variables is missing
        assert_eq!(errors.len(), 4, "{errors:?}");
    }
}
