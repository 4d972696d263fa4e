//! The replay parser (replay.md §2): recursive descent over the tokens,
//! with the statement forms told apart by what follows a leading postfix
//! expression. A syntax error stops the statement it is in; parsing
//! resumes after the next `;` or `}` at the same depth, so one run reports
//! every broken statement. Input nested deeper than [`MAX_NESTING`] levels
//! is refused instead of overflowing the stack.

use rg_core::diag::{Diagnostic, Span};

use crate::ast::{
    Base, BinaryOp, Expr, ExprKind, Function, Item, Name, Outcome, Param, Pattern, Program,
    StateDef, Stmt, StmtKind, Transition, Type, UnaryOp,
};
use crate::lexer::{tokenize, Directive, Tok, Token};

/// Blocks, statements and expressions nested deeper than this are refused.
pub const MAX_NESTING: usize = 256;

/// A parsed file: the program and its directive comments.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub program: Program,
    pub directives: Vec<Directive>,
}

/// Parses a replay source, or returns every error found.
pub fn parse(source: &str) -> Result<Parsed, Vec<Diagnostic>> {
    let (tokens, directives) = tokenize(source)?;
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
        end: source.len(),
        errors: Vec::new(),
    };
    let program = parser.program();
    if parser.errors.is_empty() {
        Ok(Parsed {
            program,
            directives,
        })
    } else {
        Err(parser.errors)
    }
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
    end: usize,
    errors: Vec<Diagnostic>,
}

/// A syntax error, already recorded; unwinds to the statement level.
struct Failed;

type PResult<T> = Result<T, Failed>;

const BINARY_LEVELS: [&[(&str, BinaryOp)]; 6] = [
    &[("||", BinaryOp::Or)],
    &[("&&", BinaryOp::And)],
    &[("==", BinaryOp::Eq), ("!=", BinaryOp::Ne)],
    &[
        ("<", BinaryOp::Lt),
        ("<=", BinaryOp::Le),
        (">", BinaryOp::Gt),
        (">=", BinaryOp::Ge),
    ],
    &[("+", BinaryOp::Add), ("-", BinaryOp::Sub)],
    &[("*", BinaryOp::Mul), ("/", BinaryOp::Div)],
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn peek_at(&self, offset: usize) -> Option<&Tok> {
        self.tokens.get(self.at + offset).map(|t| &t.tok)
    }

    /// The span of the current token, or an empty span at the end.
    fn here(&self) -> Span {
        self.tokens
            .get(self.at)
            .map_or(Span::new(self.end, self.end), |t| t.span)
    }

    fn previous_end(&self) -> usize {
        self.at
            .checked_sub(1)
            .and_then(|k| self.tokens.get(k))
            .map_or(0, |t| t.span.end)
    }

    fn span_from(&self, start: usize) -> Span {
        Span::new(start, self.previous_end().max(start))
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn is_keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Keyword(q)) if *q == k)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let found = self.is_punct(p);
        if found {
            self.at += 1;
        }
        found
    }

    fn fail<T>(&mut self, message: impl Into<String>) -> PResult<T> {
        let span = self.here();
        self.fail_at(message, span)
    }

    fn fail_at<T>(&mut self, message: impl Into<String>, span: Span) -> PResult<T> {
        self.errors.push(Diagnostic::error(message, span));
        Err(Failed)
    }

    fn describe(&self) -> String {
        match self.peek() {
            None => "the end of the file".into(),
            Some(Tok::Ident(name)) => format!("\"{name}\""),
            Some(Tok::Keyword(k)) => format!("\"{k}\""),
            Some(Tok::Punct(p)) => format!("\"{p}\""),
            Some(Tok::Wildcard) => "\"_\"".into(),
            Some(Tok::Int(v)) => format!("\"{v}\""),
            Some(Tok::Float(v)) => format!("\"{v}\""),
            Some(Tok::Str(_)) => "a string".into(),
        }
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            let found = self.describe();
            self.fail(format!("expected \"{p}\", found {found}"))
        }
    }

    fn name(&mut self, what: &str) -> PResult<Name> {
        match self.peek().cloned() {
            Some(Tok::Ident(text)) => {
                let span = self.here();
                self.at += 1;
                Ok(Name { text, span })
            }
            _ => {
                let found = self.describe();
                self.fail(format!("expected {what}, found {found}"))
            }
        }
    }

    /// Enters one nesting level (blocks, statements, expressions).
    fn nest<T>(&mut self, body: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return self.fail(format!("nesting deeper than {MAX_NESTING} levels"));
        }
        self.depth += 1;
        let result = body(self);
        self.depth -= 1;
        result
    }

    /// Skips to just after the next `;` (or before a `}`) at this depth.
    fn recover(&mut self) {
        let mut depth = 0usize;
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Punct("(" | "[" | "{") => depth += 1,
                Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
                Tok::Punct("}") if depth == 0 => return,
                Tok::Punct("}") => depth -= 1,
                Tok::Punct(";") if depth == 0 => {
                    self.at += 1;
                    return;
                }
                _ => {}
            }
            self.at += 1;
        }
    }

    fn program(&mut self) -> Program {
        let mut items = Vec::new();
        while self.peek().is_some() {
            if self.is_punct("}") {
                let _: PResult<()> = self.fail("unmatched \"}\"");
                self.at += 1;
                continue;
            }
            let item = if self.starts_function() {
                self.function().map(Item::Function)
            } else {
                self.statement().map(Item::Stmt)
            };
            match item {
                Ok(item) => items.push(item),
                Err(Failed) => self.recover(),
            }
            if self.errors.len() > 100 {
                break;
            }
        }
        Program { items }
    }

    /// `type ident (` or `void ident (`.
    fn starts_function(&self) -> bool {
        let typed = match self.peek() {
            Some(Tok::Keyword("void")) => 1,
            Some(Tok::Keyword(k)) if Base::from_keyword(k).is_some() => {
                if matches!(self.peek_at(1), Some(Tok::Punct("["))) {
                    3
                } else {
                    1
                }
            }
            _ => return false,
        };
        matches!(self.peek_at(typed), Some(Tok::Ident(_)))
            && matches!(self.peek_at(typed + 1), Some(Tok::Punct("(")))
    }

    fn function(&mut self) -> PResult<Function> {
        let start = self.here().start;
        let returns = if self.is_keyword("void") {
            self.at += 1;
            None
        } else {
            Some(self.ty()?)
        };
        let name = self.name("a function name")?;
        self.expect_punct("(")?;
        let mut params = Vec::new();
        if !self.is_punct(")") {
            loop {
                let ty = self.ty()?;
                let param = self.name("a parameter name")?;
                params.push((ty, param));
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        let body = self.block_body()?;
        Ok(Function {
            returns,
            name,
            params,
            body,
            span: self.span_from(start),
        })
    }

    fn ty(&mut self) -> PResult<Type> {
        let span = self.here();
        let base = match self.peek() {
            Some(Tok::Keyword(k)) => Base::from_keyword(k),
            Some(Tok::Ident(name)) if name == "String" => {
                return self.fail("\"String\" is not a replay type; write string");
            }
            _ => None,
        };
        let Some(base) = base else {
            let found = self.describe();
            return self.fail(format!("expected a type, found {found}"));
        };
        self.at += 1;
        let mut array = false;
        if self.is_punct("[") && matches!(self.peek_at(1), Some(Tok::Punct("]"))) {
            self.at += 2;
            array = true;
            if self.is_punct("[") {
                return self.fail("arrays of arrays do not exist in replay (⟨A22⟩)");
            }
        }
        Ok(Type {
            base,
            array,
            span: self.span_from(span.start),
        })
    }

    /// `{ stmt… }`
    fn block_body(&mut self) -> PResult<Vec<Stmt>> {
        self.expect_punct("{")?;
        self.nest(|p| {
            let mut body = Vec::new();
            while !p.is_punct("}") {
                if p.peek().is_none() {
                    return p.fail("expected \"}\", found the end of the file");
                }
                match p.statement() {
                    Ok(stmt) => body.push(stmt),
                    Err(Failed) => p.recover(),
                }
            }
            p.at += 1;
            Ok(body)
        })
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.nest(Self::statement_inner)
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let start = self.here().start;
        let kind = match self.peek().cloned() {
            Some(Tok::Keyword("strat")) => {
                self.at += 1;
                self.expect_punct("{")?;
                let mut names = vec![self.name("a strategy move name")?];
                while self.eat_punct(",") {
                    names.push(self.name("a strategy move name")?);
                }
                self.expect_punct("}")?;
                self.expect_punct(";")?;
                StmtKind::Strat(names)
            }
            Some(Tok::Keyword("return")) => {
                self.at += 1;
                let value = if self.is_punct(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect_punct(";")?;
                StmtKind::Return(value)
            }
            Some(Tok::Keyword("if")) => {
                self.at += 1;
                self.expect_punct("(")?;
                let condition = self.expr()?;
                self.expect_punct(")")?;
                let then = Box::new(self.statement()?);
                let otherwise = if self.is_keyword("else") {
                    self.at += 1;
                    Some(Box::new(self.statement()?))
                } else {
                    None
                };
                StmtKind::If {
                    condition,
                    then,
                    otherwise,
                }
            }
            Some(Tok::Keyword("for")) => {
                self.at += 1;
                let var = self.name("the loop variable")?;
                if !self.is_keyword("in") {
                    let found = self.describe();
                    return self.fail(format!("expected \"in\", found {found}"));
                }
                self.at += 1;
                let iterable = self.expr()?;
                let body = Box::new(self.statement()?);
                StmtKind::For {
                    var,
                    iterable,
                    body,
                }
            }
            Some(Tok::Punct("{")) => StmtKind::Block(self.block_body()?),
            Some(Tok::Ident(word)) if word == "while" => {
                return self.fail("while is not a replay keyword; use for … in");
            }
            Some(Tok::Ident(word))
                if word == "String" && matches!(self.peek_at(1), Some(Tok::Ident(_))) =>
            {
                return self.fail("\"String\" is not a replay type; write string");
            }
            Some(Tok::Keyword("void")) => {
                return self.fail("void is only a function's result type");
            }
            _ if self.starts_function() => {
                return self.fail("functions are declared at top level only");
            }
            Some(Tok::Keyword(k))
                if Base::from_keyword(k).is_some() && !self.starts_constructor() =>
            {
                let ty = self.ty()?;
                let name = self.name("the declared variable's name")?;
                let init = if self.eat_punct("=") {
                    Some(self.expr()?)
                } else {
                    None
                };
                self.expect_punct(";")?;
                StmtKind::Decl { ty, name, init }
            }
            _ => self.expression_statement()?,
        };
        Ok(Stmt {
            kind,
            span: self.span_from(start),
        })
    }

    /// `Base[` with something other than `]` next: a constructor.
    fn starts_constructor(&self) -> bool {
        matches!(self.peek_at(1), Some(Tok::Punct("[")))
            && !matches!(self.peek_at(2), Some(Tok::Punct("]")))
    }

    /// Play, mutate, crossover, assignment or call (replay.md §2.1).
    fn expression_statement(&mut self) -> PResult<StmtKind> {
        let first = self.expr()?;
        let target = |p: &mut Self, e: &Expr| -> PResult<()> {
            if matches!(
                e.kind,
                ExprKind::Var(_) | ExprKind::Index(..) | ExprKind::Field(..)
            ) {
                Ok(())
            } else {
                p.fail_at("expected a variable or an array element here", e.span)
            }
        };
        let kind = if self.is_punct(",") || self.is_punct("%") {
            target(self, &first)?;
            let mut players = vec![first];
            while self.eat_punct(",") {
                let next = self.expr()?;
                target(self, &next)?;
                players.push(next);
            }
            self.expect_punct("%")?;
            StmtKind::Play {
                players,
                game: self.expr()?,
            }
        } else if self.eat_punct("~") {
            target(self, &first)?;
            StmtKind::Mutate {
                target: first,
                rate: self.expr()?,
            }
        } else if self.eat_punct("#") {
            target(self, &first)?;
            let fraction = self.expr()?;
            self.expect_punct("#")?;
            let right = self.expr()?;
            target(self, &right)?;
            StmtKind::Crossover {
                left: first,
                fraction,
                right,
            }
        } else if self.eat_punct("=") {
            target(self, &first)?;
            StmtKind::Assign {
                target: first,
                value: self.expr()?,
            }
        } else if self.is_punct(";") {
            if !first.is_call() {
                return self.fail_at(
                    "this expression has no effect; only calls can be statements",
                    first.span,
                );
            }
            StmtKind::Call(first)
        } else {
            let found = self.describe();
            return self.fail(format!("expected \";\", found {found}"));
        };
        self.expect_punct(";")?;
        Ok(kind)
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.nest(|p| p.binary(0))
    }

    fn binary(&mut self, level: usize) -> PResult<Expr> {
        if level == BINARY_LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        loop {
            let op = BINARY_LEVELS[level]
                .iter()
                .find(|(symbol, _)| self.is_punct(symbol))
                .map(|&(_, op)| op);
            let Some(op) = op else { return Ok(left) };
            self.at += 1;
            let right = self.binary(level + 1)?;
            let span = Span::new(left.span.start, right.span.end);
            left = Expr {
                kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                span,
            };
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.here().start;
        let op = if self.is_punct("-") {
            UnaryOp::Neg
        } else if self.is_punct("!") {
            UnaryOp::Not
        } else {
            return self.postfix();
        };
        self.at += 1;
        let operand = self.nest(Self::unary)?;
        Ok(Expr {
            span: Span::new(start, operand.span.end),
            kind: ExprKind::Unary(op, Box::new(operand)),
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut expr = self.primary()?;
        loop {
            let start = expr.span.start;
            if self.eat_punct("[") {
                let index = self.expr()?;
                self.expect_punct("]")?;
                expr = Expr {
                    kind: ExprKind::Index(Box::new(expr), Box::new(index)),
                    span: self.span_from(start),
                };
            } else if self.eat_punct(".") {
                let name = self.name("an attribute name")?;
                if self.eat_punct("(") {
                    let args = self.args(Some(&name.text))?;
                    expr = Expr {
                        kind: ExprKind::Method {
                            target: Box::new(expr),
                            name,
                            args,
                        },
                        span: self.span_from(start),
                    };
                } else {
                    expr = Expr {
                        kind: ExprKind::Field(Box::new(expr), name),
                        span: self.span_from(start),
                    };
                }
            } else {
                return Ok(expr);
            }
        }
    }

    /// Call arguments after `(`, through `)`. A states block is allowed
    /// only as the second argument of `.change` (⟨A9⟩).
    fn args(&mut self, method: Option<&str>) -> PResult<Vec<Param>> {
        let mut args = Vec::new();
        if !self.eat_punct(")") {
            loop {
                let arg = self.param()?;
                let allowed =
                    matches!(arg, Param::Expr(_)) || (method == Some("change") && args.len() == 1);
                if !allowed {
                    let span = param_span(&arg);
                    return self.fail_at(BLOCK_PLACE, span);
                }
                args.push(arg);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct(")")?;
        }
        Ok(args)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let span = self.here();
        let simple = |kind| Ok(Expr { kind, span });
        match self.peek().cloned() {
            Some(Tok::Int(v)) => {
                self.at += 1;
                simple(ExprKind::Int(v))
            }
            Some(Tok::Float(v)) => {
                self.at += 1;
                simple(ExprKind::Float(v))
            }
            Some(Tok::Str(s)) => {
                self.at += 1;
                simple(ExprKind::Str(s))
            }
            Some(Tok::Keyword("true")) => {
                self.at += 1;
                simple(ExprKind::Bool(true))
            }
            Some(Tok::Keyword("false")) => {
                self.at += 1;
                simple(ExprKind::Bool(false))
            }
            Some(Tok::Keyword("rand")) => {
                self.at += 1;
                simple(ExprKind::Rand)
            }
            Some(Tok::Ident(text)) => {
                self.at += 1;
                if self.eat_punct("(") {
                    let name = Name { text, span };
                    let args = self.args(None)?;
                    Ok(Expr {
                        kind: ExprKind::Call { name, args },
                        span: self.span_from(span.start),
                    })
                } else {
                    simple(ExprKind::Var(text))
                }
            }
            Some(Tok::Punct("(")) => {
                self.at += 1;
                let inner = self.expr()?;
                self.expect_punct(")")?;
                Ok(Expr {
                    kind: inner.kind,
                    span: self.span_from(span.start),
                })
            }
            Some(Tok::Punct("[")) => {
                self.at += 1;
                let from = self.expr()?;
                self.expect_punct(":")?;
                let to = self.expr()?;
                self.expect_punct("]")?;
                Ok(Expr {
                    kind: ExprKind::Range(Box::new(from), Box::new(to)),
                    span: self.span_from(span.start),
                })
            }
            Some(Tok::Keyword(k)) if Base::from_keyword(k).is_some() => self.constructor(),
            _ => {
                let found = self.describe();
                self.fail(format!("expected an expression, found {found}"))
            }
        }
    }

    /// `Base[param | …]`; a block only as the last parameter (⟨A9⟩).
    fn constructor(&mut self) -> PResult<Expr> {
        let start = self.here().start;
        let Some(Tok::Keyword(k)) = self.peek() else {
            return self.fail("expected a constructor");
        };
        let base = Base::from_keyword(k).expect("checked by the caller");
        self.at += 1;
        self.expect_punct("[")?;
        let mut params = vec![self.param()?];
        while self.eat_punct("|") {
            if let Some(block) = params.iter().find(|p| !matches!(p, Param::Expr(_))) {
                let span = param_span(block);
                return self.fail_at(BLOCK_PLACE, span);
            }
            params.push(self.param()?);
        }
        self.expect_punct("]")?;
        Ok(Expr {
            kind: ExprKind::Construct { base, params },
            span: self.span_from(start),
        })
    }

    /// An expression, or a block: after `{`, an identifier starts states
    /// and `(` starts outcomes.
    fn param(&mut self) -> PResult<Param> {
        if !self.is_punct("{") {
            return Ok(Param::Expr(self.expr()?));
        }
        let start = self.here().start;
        self.at += 1;
        self.nest(|p| match p.peek() {
            Some(Tok::Ident(_)) => {
                let states = p.states()?;
                Ok(Param::States(states, p.span_from(start)))
            }
            Some(Tok::Punct("(")) => {
                let outcomes = p.outcomes()?;
                Ok(Param::Outcomes(outcomes, p.span_from(start)))
            }
            Some(Tok::Punct("}")) => p.fail("a block is never empty: states or outcomes expected"),
            _ => {
                let found = p.describe();
                p.fail(format!(
                    "expected a state (label: output) or an outcome ((moves) -> (payoffs)), found {found}"
                ))
            }
        })
    }

    /// States through the closing `}`.
    fn states(&mut self) -> PResult<Vec<StateDef>> {
        let mut states = Vec::new();
        loop {
            let label = self.name("a state label")?;
            self.expect_punct(":")?;
            let output = self.expr()?;
            let mut transitions = Vec::new();
            if self.eat_punct(",") {
                loop {
                    let start = self.here().start;
                    let patterns = self.patterns()?;
                    self.expect_punct("->")?;
                    let target = self.name("a state label")?;
                    transitions.push(Transition {
                        patterns,
                        target,
                        span: self.span_from(start),
                    });
                    if !self.eat_punct("|") {
                        break;
                    }
                }
            }
            states.push(StateDef {
                label,
                output,
                transitions,
            });
            let separated = self.eat_punct(";");
            if self.eat_punct("}") {
                return Ok(states);
            }
            if !separated {
                let found = self.describe();
                return self.fail(format!("expected \";\" or \"}}\", found {found}"));
            }
        }
    }

    /// Outcomes through the closing `}`.
    fn outcomes(&mut self) -> PResult<Vec<Outcome>> {
        let mut outcomes = Vec::new();
        loop {
            let start = self.here().start;
            let patterns = self.patterns()?;
            self.expect_punct("->")?;
            self.expect_punct("(")?;
            let mut payoffs = vec![self.expr()?];
            while self.eat_punct(",") {
                payoffs.push(self.expr()?);
            }
            self.expect_punct(")")?;
            outcomes.push(Outcome {
                patterns,
                payoffs,
                span: self.span_from(start),
            });
            if self.eat_punct("|") {
                continue;
            }
            self.eat_punct(";");
            self.expect_punct("}")?;
            return Ok(outcomes);
        }
    }

    /// `(pattern, …)`
    fn patterns(&mut self) -> PResult<Vec<Pattern>> {
        self.expect_punct("(")?;
        let mut patterns = Vec::new();
        loop {
            let span = self.here();
            let pattern = match self.peek().cloned() {
                Some(Tok::Wildcard) => Pattern::Wildcard(span),
                Some(Tok::Int(v)) => Pattern::Int(v, span),
                Some(Tok::Ident(text)) => Pattern::Name(Name { text, span }),
                _ => {
                    let found = self.describe();
                    return self.fail(format!(
                        "expected a pattern (_, a move number or a name), found {found}"
                    ));
                }
            };
            self.at += 1;
            patterns.push(pattern);
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        Ok(patterns)
    }
}

const BLOCK_PLACE: &str =
    "a states block is only allowed as the last parameter of Strategy[…] or in .change(…)";

fn param_span(param: &Param) -> Span {
    match param {
        Param::Expr(e) => e.span,
        Param::States(_, span) | Param::Outcomes(_, span) => *span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        parse(text)
            .unwrap_err()
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn statement_forms_are_told_apart() {
        let parsed = parse(
            "strat {C, D};\nint x = 1 + 2 * 3;\nx = x - 1;\nprint(x);\np, q % g;\np ~ 0.1;\np # 0.5 # q;\n\
             for i in [0:3] { if (i == 1) println(i); else {} }\nint[] a = int[3];\n",
        )
        .unwrap();
        let kinds: Vec<&str> = parsed
            .program
            .items
            .iter()
            .map(|item| match item {
                Item::Stmt(Stmt { kind, .. }) => match kind {
                    StmtKind::Strat(_) => "strat",
                    StmtKind::Decl { .. } => "decl",
                    StmtKind::Assign { .. } => "assign",
                    StmtKind::Call(_) => "call",
                    StmtKind::Play { .. } => "play",
                    StmtKind::Mutate { .. } => "mutate",
                    StmtKind::Crossover { .. } => "crossover",
                    StmtKind::For { .. } => "for",
                    _ => "other",
                },
                Item::Function(_) => "function",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "strat",
                "decl",
                "assign",
                "call",
                "play",
                "mutate",
                "crossover",
                "for",
                "decl"
            ]
        );
    }

    #[test]
    fn precedence_and_associativity() {
        let parsed = parse("bool b = 1 + 2 * 3 < 4 || !true && false;").unwrap();
        let Item::Stmt(Stmt {
            kind: StmtKind::Decl { init: Some(e), .. },
            ..
        }) = &parsed.program.items[0]
        else {
            panic!()
        };
        let ExprKind::Binary(BinaryOp::Or, left, right) = &e.kind else {
            panic!("{e:?}")
        };
        assert!(matches!(left.kind, ExprKind::Binary(BinaryOp::Lt, _, _)));
        assert!(matches!(right.kind, ExprKind::Binary(BinaryOp::And, _, _)));
    }

    #[test]
    fn the_manual_examples_parse() {
        let source = "/*@rgw game=pd rounds=2 */
strat {C, D};
Game pd = Game[2 | { (C,C) -> (-1,-1) | (C,D) -> (-5,0) | (D,C) -> (0,-5) | (D,D) -> (-3,-3); }];
Strategy grim = Strategy[10 | 2 | {
  cooperate: C, (_,D) -> defect
              | (_,C) -> cooperate;
  defect:    D, (_,_) -> defect; }];
Player noisy = Player[grim | 0.5 | 0.1 | 0.25];
int mod3(int v) { return v - (v / 3) * 3; }
Game prod = Game[3 | { (x,y) -> (x * y - 1, x * y + 1) }];
void tweak(Strategy s) { s.change(0, { coop: C, (D,_) -> punish; punish: D; }); }
";
        let parsed = parse(source).unwrap();
        assert_eq!(parsed.program.items.len(), 7);
        assert_eq!(parsed.directives[0].text, "game=pd rounds=2");
        let Item::Function(f) = &parsed.program.items[4] else {
            panic!()
        };
        assert_eq!(f.name.text, "mod3");
    }

    #[test]
    fn syntax_errors_are_specific_and_every_statement_is_reported() {
        assert_eq!(
            errors("x + 1;\nwhile (true) {}\n"),
            [
                "this expression has no effect; only calls can be statements",
                "while is not a replay keyword; use for … in",
            ]
        );
        assert_eq!(errors("Game g = Game[{ (x) -> (1) } | 2];"), [BLOCK_PLACE]);
        assert_eq!(errors("print({ a: 1 });"), [BLOCK_PLACE]);
        assert_eq!(
            errors("int[][] a;"),
            ["arrays of arrays do not exist in replay (⟨A22⟩)"]
        );
        assert_eq!(
            errors("String s;"),
            ["\"String\" is not a replay type; write string"]
        );
        assert_eq!(
            errors("void f() { int g() { return 1; } }"),
            ["functions are declared at top level only"]
        );
        assert_eq!(errors("int x = ;"), ["expected an expression, found \";\""]);
        assert_eq!(
            errors("Game g = Game[2 | {}];")[0],
            "a block is never empty: states or outcomes expected"
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!("int x = {}1{};", "(".repeat(100_000), ")".repeat(100_000));
        assert_eq!(errors(&deep), ["nesting deeper than 256 levels"]);
        let blocks = format!("{}{}", "{".repeat(100_000), "}".repeat(100_000));
        assert!(errors(&blocks).contains(&"nesting deeper than 256 levels".to_string()));
    }
}
