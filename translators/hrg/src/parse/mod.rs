//! The HRG parser (hrg.md §1–4, appendix A), built with nom over `&str` on
//! the parser support it shares with RG ([`rg_core::syntax`]).
//!
//! Newlines carry no meaning; statements have no terminators. Syntax errors
//! are diagnostics with spans; after one, parsing resumes at the next line
//! that starts a declaration in column 1, so one run reports several.

use rg_core::diag::{Diagnostic, Span};
use rg_core::syntax::{
    self, commit, delimited_list, error, failure, peek_token, separated1, skip_trivia, split_word,
    starts_with_trivia, token, PResult, WHITESPACE,
};

use crate::ast::*;

/// Parses a whole program.
pub fn parse_program(source: &str) -> Result<Program, Vec<Diagnostic>> {
    let parser = Parser { src: source };
    match syntax::parse_sequence(source, |input| parser.declaration(input), resume_point) {
        Ok(declarations) => Ok(Program { declarations }),
        Err(errors) => Err(errors.iter().map(|e| e.to_diagnostic(source)).collect()),
    }
}

/// The next line (after the failure) that starts with a letter in column 1,
/// where declarations usually begin.
fn resume_point(mut input: &str) -> &str {
    loop {
        match input.find('\n') {
            None => return "",
            Some(k) => {
                input = &input[k + 1..];
                if input.starts_with(|c: char| c.is_alphabetic()) {
                    return input;
                }
            }
        }
    }
}

const RESERVED: [&str; 3] = ["const", "type", "var"];

struct Parser<'s> {
    src: &'s str,
}

impl<'s> Parser<'s> {
    fn offset(&self, input: &str) -> usize {
        syntax::offset(self.src, input)
    }

    fn span(&self, start: &str, rest: &str) -> Span {
        syntax::span(self.src, start, rest)
    }

    /// The identifier at the start of `input` (after trivia), without
    /// consuming it.
    fn peek_word<'a>(&self, input: &'a str) -> &'a str {
        split_word(skip_trivia(input)).0
    }

    fn ident<'a>(&self, input: &'a str) -> PResult<'a, Name> {
        let input = skip_trivia(input);
        let (text, rest) = split_word(input);
        if text.is_empty() {
            return error(input, "expected an identifier");
        }
        if RESERVED.contains(&text) {
            return error(
                input,
                format!("\"{text}\" is reserved and cannot be a name"),
            );
        }
        Ok((
            rest,
            Name {
                text: text.to_string(),
                span: self.span(input, rest),
            },
        ))
    }

    /// A contextual keyword: the identifier `word` exactly.
    fn keyword<'a>(&self, input: &'a str, word: &'static str) -> PResult<'a, ()> {
        let start = skip_trivia(input);
        if self.peek_word(start) == word {
            Ok((&start[word.len()..], ()))
        } else {
            error(start, format!("expected \"{word}\""))
        }
    }

    /// `in`, which must be followed by whitespace or a comment.
    fn in_keyword<'a>(&self, input: &'a str) -> PResult<'a, ()> {
        let (rest, ()) = self.keyword(input, "in")?;
        if starts_with_trivia(rest) {
            Ok((rest, ()))
        } else {
            error(skip_trivia(input), "\"in\" must be followed by a space")
        }
    }

    fn integer<'a>(&self, input: &'a str) -> PResult<'a, i64> {
        let input = skip_trivia(input);
        let end = input
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(input.len());
        if end == 0 {
            return error(input, "expected a non-negative integer");
        }
        match input[..end].parse() {
            Ok(n) => Ok((&input[end..], n)),
            Err(_) => error(input, "integer too large"),
        }
    }

    // ---- declarations ------------------------------------------------------

    fn declaration<'a>(&self, input: &'a str) -> PResult<'a, Declaration> {
        match self.peek_word(input) {
            "domain" => self.domain(input).map(|(r, d)| (r, Declaration::Domain(d))),
            "reusable" | "graph" => self.graph(input).map(|(r, g)| (r, Declaration::Graph(g))),
            "" => error(
                input,
                "expected a declaration (domain, graph, variable or function)",
            ),
            _ => self.value_declaration(input),
        }
    }

    fn domain<'a>(&self, input: &'a str) -> PResult<'a, DomainDecl> {
        let (i, ()) = self.keyword(input, "domain")?;
        commit((|| {
            let (i, name) = self.ident(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, elements) = if peek_token(i, "|") || self.starts_declaration(i) {
                (i, Vec::new())
            } else {
                separated1(i, "|", |i| self.element(i))?
            };
            Ok((
                i,
                DomainDecl {
                    name,
                    elements,
                    span: self.span(skip_trivia(input), i),
                },
            ))
        })())
    }

    /// Whether the text after an empty `domain D =` is already the next
    /// declaration (an empty domain).
    fn starts_declaration(&self, input: &str) -> bool {
        let rest = skip_trivia(input);
        rest.is_empty() || matches!(self.peek_word(rest), "domain" | "graph" | "reusable") || {
            let word = self.peek_word(rest);
            !word.is_empty() && peek_token(&rest[word.len()..], ":")
        }
    }

    fn element<'a>(&self, input: &'a str) -> PResult<'a, Element> {
        let start = skip_trivia(input);
        let (i, name) = self.ident(start)?;
        if !i.starts_with('(') {
            return Ok((i, Element::Name(name)));
        }
        let (i, arguments) = delimited_list(i, "(", ")", |i| self.ident(i))?;
        let (i, ()) = self.keyword(i, "where").or_else(|_| {
            error(
                skip_trivia(i),
                "expected \"where\" after a generator (a generator needs at least one binding)",
            )
        })?;
        let (i, bindings) = self.bindings(i)?;
        Ok((
            i,
            Element::Generator {
                constructor: name,
                arguments,
                bindings,
                span: self.span(start, i),
            },
        ))
    }

    fn bindings<'a>(&self, i: &'a str) -> PResult<'a, Vec<Binding>> {
        separated1(i, ",", |i| self.binding(i))
    }

    /// `X in lo..hi` or `X in { a, b }`.
    fn binding<'a>(&self, input: &'a str) -> PResult<'a, Binding> {
        let start = skip_trivia(input);
        let (i, variable) = self.ident(start)?;
        let (i, ()) = self.in_keyword(i)?;
        let rest = skip_trivia(i);
        if rest.starts_with('{') {
            let (i, names) = delimited_list(rest, "{", "}", |i| self.ident(i))?;
            return Ok((
                i,
                Binding {
                    variable,
                    values: BindingValues::List(names),
                    span: self.span(start, i),
                },
            ));
        }
        let (i, lo) = self.integer(rest)?;
        let Some(i) = i.strip_prefix("..") else {
            return error(i, "expected \"..\" in a range (no spaces inside \"..\")");
        };
        if i.starts_with(WHITESPACE) {
            return error(i, "expected the upper bound right after \"..\"");
        }
        let (i, hi) = self.integer(i)?;
        Ok((
            i,
            Binding {
                variable,
                values: BindingValues::Range(lo, hi),
                span: self.span(start, i),
            },
        ))
    }

    fn ty<'a>(&self, input: &'a str) -> PResult<'a, TypeExpr> {
        let start = skip_trivia(input);
        if start.starts_with('{') {
            let (i, names) = delimited_list(start, "{", "}", |i| self.ident(i))?;
            if names.is_empty() {
                return error(start, "a set type needs at least one element");
            }
            return Ok((i, TypeExpr::Set(names, self.span(start, i))));
        }
        let (i, name) = self
            .ident(start)
            .or_else(|_| error(start, "expected a type"))?;
        if peek_token(i, "->") {
            let (i, ()) = token(i, "->")?;
            let (i, target) = self.ty(i)?;
            return Ok((i, TypeExpr::Named(name, Some(Box::new(target)))));
        }
        Ok((i, TypeExpr::Named(name, None)))
    }

    /// `name : type [= init]`, or a constant function `name : type` with its cases.
    fn value_declaration<'a>(&self, input: &'a str) -> PResult<'a, Declaration> {
        let start = skip_trivia(input);
        let (i, name) = self.ident(start)?;
        let (i, ()) = token(i, ":").or_else(|_| {
            error(
                skip_trivia(i),
                format!(
                    "expected \":\" after \"{}\" (a variable or function declaration)",
                    name.text
                ),
            )
        })?;
        commit((|| {
            let (i, ty) = self.ty(i)?;
            if self.is_case_start(i, &name.text) {
                let mut cases = Vec::new();
                let mut i = i;
                while self.is_case_start(i, &name.text) {
                    let (next, case) = self.case(i)?;
                    cases.push(case);
                    i = next;
                }
                return Ok((
                    i,
                    Declaration::Function(FunctionDecl {
                        name,
                        ty,
                        cases,
                        span: self.span(start, i),
                    }),
                ));
            }
            let (i, init) = if peek_token(i, "=") && !peek_token(i, "==") {
                let (i, ()) = token(i, "=")?;
                let (i, e) = self.expr(i)?;
                (i, Some(e))
            } else {
                (i, None)
            };
            Ok((
                i,
                Declaration::Variable(VariableDecl {
                    name,
                    ty,
                    init,
                    span: self.span(start, i),
                }),
            ))
        })())
    }

    fn is_case_start(&self, input: &str, name: &str) -> bool {
        let rest = skip_trivia(input);
        self.peek_word(rest) == name && rest[name.len()..].starts_with('(')
    }

    fn case<'a>(&self, input: &'a str) -> PResult<'a, Case> {
        let start = skip_trivia(input);
        let (i, _) = self.ident(start)?;
        let (i, patterns) = delimited_list(i, "(", ")", |i| self.pattern(i))?;
        let (i, ()) = token(i, "=")?;
        let (i, body) = self.expr(i)?;
        Ok((
            i,
            Case {
                patterns,
                body,
                span: self.span(start, i),
            },
        ))
    }

    fn pattern<'a>(&self, input: &'a str) -> PResult<'a, Pattern> {
        let start = skip_trivia(input);
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

    fn graph<'a>(&self, input: &'a str) -> PResult<'a, GraphDecl> {
        let start = skip_trivia(input);
        let (i, reusable) = match self.keyword(start, "reusable") {
            Ok((i, ())) => (i, true),
            Err(_) => (start, false),
        };
        let (i, ()) = self.keyword(i, "graph")?;
        commit((|| {
            let (i, name) = self.ident(i)?;
            let (i, params) = delimited_list(i, "(", ")", |i| self.param(i))?;
            let (i, body) = self.block(i)?;
            Ok((
                i,
                GraphDecl {
                    reusable,
                    name,
                    params,
                    body,
                    span: self.span(start, i),
                },
            ))
        })())
    }

    /// `name : type` (a graph parameter).
    fn param<'a>(&self, input: &'a str) -> PResult<'a, Param> {
        let (i, name) = self.ident(input)?;
        let (i, ()) = token(i, ":")?;
        let (i, ty) = self.ty(i)?;
        Ok((i, Param { name, ty }))
    }

    // ---- statements --------------------------------------------------------

    fn block<'a>(&self, input: &'a str) -> PResult<'a, Block> {
        let (mut i, ()) = token(input, "{")?;
        let mut statements = Vec::new();
        loop {
            let rest = skip_trivia(i);
            if let Some(after) = rest.strip_prefix('}') {
                return Ok((after, statements));
            }
            if rest.is_empty() {
                return failure(rest, "expected \"}\" to close the block");
            }
            let (next, s) = self.statement(rest)?;
            statements.push(s);
            i = next;
        }
    }

    fn statement<'a>(&self, input: &'a str) -> PResult<'a, Stmt> {
        let start = skip_trivia(input);
        let stmt = |kind: StmtKind, rest: &'a str| {
            Ok((
                rest,
                Stmt {
                    kind,
                    span: self.span(start, rest),
                },
            ))
        };
        if let Some(rest) = start.strip_prefix("$$") {
            let (i, name) = commit(self.ident(rest))?;
            return stmt(StmtKind::VarTag(name), i);
        }
        if let Some(rest) = start.strip_prefix('$') {
            let (rest, artificial) = match rest.strip_prefix('_') {
                Some(after) => (after, true),
                None => (rest, false),
            };
            let (i, symbols) = if peek_token(rest, "(") {
                let (mut i, ()) = token(rest, "(")?;
                let mut symbols = Vec::new();
                while !peek_token(i, ")") {
                    let (next, s) = commit(self.ident(i))?;
                    symbols.push(s);
                    i = next;
                }
                let (i, ()) = token(i, ")")?;
                if symbols.is_empty() {
                    return failure(rest, "a tag needs at least one symbol");
                }
                (i, symbols)
            } else {
                let (i, s) = commit(self.ident(rest))?;
                (i, vec![s])
            };
            return stmt(
                StmtKind::Tag {
                    artificial,
                    symbols,
                },
                i,
            );
        }
        let word = self.peek_word(start);
        if word.is_empty() {
            return error(start, "expected a statement");
        }
        // Assignment: IDENT { [expr] } = ...
        if let Ok((i, (target, accessors))) = self.assignment_target(start) {
            let after = skip_trivia(i);
            if after.starts_with('=') && !after.starts_with("==") {
                return commit((|| {
                    let value_start = skip_trivia(&after[1..]);
                    if let Ok((i, ty)) = self.any_type(value_start) {
                        return stmt(
                            StmtKind::AssignAny {
                                target: target.clone(),
                                accessors: accessors.clone(),
                                ty,
                            },
                            i,
                        );
                    }
                    let (i, value) = self.expr(value_start)?;
                    stmt(
                        StmtKind::Assign {
                            target: target.clone(),
                            accessors: accessors.clone(),
                            value,
                        },
                        i,
                    )
                })());
            }
        }
        let after_word = &start[word.len()..];
        match word {
            "branch" if !after_word.starts_with('(') => {
                return commit(
                    self.branch(start, after_word)
                        .and_then(|(i, kind)| stmt(kind, i)),
                );
            }
            "if" | "while" if peek_token(after_word, "(") => {
                return failure(
                    skip_trivia(after_word),
                    format!("the condition of \"{word}\" must not start with \"(\": write `{word} a == b {{ ... }}`"),
                );
            }
            _ => {}
        }
        if after_word.starts_with('(')
            || (peek_token(after_word, "(") && !matches!(word, "if" | "while"))
        {
            let (i, callee) = self.ident(start)?;
            let (i, args) = commit(self.arguments(i))?;
            return stmt(StmtKind::Call { callee, args }, i);
        }
        commit((|| match word {
            "if" => {
                let (i, kind) = self.if_statement(start)?;
                stmt(kind, i)
            }
            "loop" => {
                let (i, body) = self.block(after_word)?;
                stmt(StmtKind::Loop(body), i)
            }
            "repeat" => {
                if self
                    .peek_word(after_word)
                    .chars()
                    .all(|c| c.is_ascii_digit())
                {
                    let (i, count) = self.integer(after_word)?;
                    let Ok(count) = u32::try_from(count) else {
                        return failure(skip_trivia(after_word), "repeat count too large");
                    };
                    let (i, body) = self.block(i)?;
                    stmt(StmtKind::Repeat { count, body }, i)
                } else {
                    let (i, variable) = self.ident(after_word)?;
                    let (i, ()) = self.in_keyword(i)?;
                    let (i, ty) = self.ty(i)?;
                    let (i, body) = self.block(i)?;
                    stmt(StmtKind::RepeatIn { variable, ty, body }, i)
                }
            }
            "while" => {
                let (i, condition) = self.expr(after_word)?;
                let (i, body) = self.block(i)?;
                stmt(StmtKind::While { condition, body }, i)
            }
            _ => error(
                skip_trivia(after_word),
                format!("expected a statement: \"{word}\" is followed by neither \"=\" nor \"(\""),
            ),
        })())
    }

    /// `IDENT { "[" expr "]" }` (the left side of an assignment).
    fn assignment_target<'a>(&self, input: &'a str) -> PResult<'a, (Name, Vec<Expr>)> {
        let (mut i, target) = self.ident(input)?;
        let mut accessors = Vec::new();
        while peek_token(i, "[") {
            let (next, ()) = token(i, "[")?;
            let (next, e) = self.expr(next)?;
            let (next, ()) = token(next, "]")?;
            accessors.push(e);
            i = next;
        }
        Ok((i, (target, accessors)))
    }

    /// `type "(" "*" ")"` — the right side of an any-assignment.
    fn any_type<'a>(&self, input: &'a str) -> PResult<'a, TypeExpr> {
        let (i, ty) = self.ty(input)?;
        let (i, ()) = token(i, "(")?;
        let (i, ()) = token(i, "*")?;
        let (i, ()) = token(i, ")")?;
        Ok((i, ty))
    }

    fn branch<'a>(&self, _start: &'a str, after_word: &'a str) -> PResult<'a, StmtKind> {
        if !peek_token(after_word, "{") {
            let (i, variable) = self.ident(after_word)?;
            let (i, ()) = self.in_keyword(i)?;
            let (i, ty) = self.ty(i)?;
            let (i, body) = self.block(i)?;
            return Ok((i, StmtKind::BranchIn { variable, ty, body }));
        }
        let (mut i, first) = self.block(after_word)?;
        let mut arms = vec![first];
        while self.peek_word(i) == "or" {
            let (next, ()) = self.keyword(i, "or")?;
            let (next, arm) = self.block(next)?;
            arms.push(arm);
            i = next;
        }
        Ok((i, StmtKind::Branch(arms)))
    }

    fn if_statement<'a>(&self, input: &'a str) -> PResult<'a, StmtKind> {
        let (i, ()) = self.keyword(input, "if")?;
        if peek_token(i, "(") {
            return failure(
                skip_trivia(i),
                "the condition of \"if\" must not start with \"(\": write `if a == b { ... }`",
            );
        }
        let (i, condition) = self.expr(i)?;
        let (i, then_block) = self.block(i)?;
        if self.peek_word(i) != "else" {
            return Ok((
                i,
                StmtKind::If {
                    condition,
                    then_block,
                    else_block: None,
                },
            ));
        }
        let (i, ()) = self.keyword(i, "else")?;
        if self.peek_word(i) == "if" {
            let nested_start = skip_trivia(i);
            let (rest, kind) = self.if_statement(nested_start)?;
            let nested = Stmt {
                kind,
                span: self.span(nested_start, rest),
            };
            return Ok((
                rest,
                StmtKind::If {
                    condition,
                    then_block,
                    else_block: Some(vec![nested]),
                },
            ));
        }
        let (i, else_block) = self.block(i)?;
        Ok((
            i,
            StmtKind::If {
                condition,
                then_block,
                else_block: Some(else_block),
            },
        ))
    }

    /// `"(" [ expr { "," expr } ] ")"`
    fn arguments<'a>(&self, input: &'a str) -> PResult<'a, Vec<Expr>> {
        delimited_list(input, "(", ")", |i| self.expr(i))
    }

    // ---- expressions ---------------------------------------------------------

    pub fn expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
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
            let (i, rhs) = self.or_expr(i)?;
            return Ok((i, self.binary(BinaryOp::Or, lhs, rhs)));
        }
        Ok((i, lhs))
    }

    fn and_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (i, lhs) = self.compare_expr(input)?;
        if peek_token(i, "&&") {
            let (i, ()) = token(i, "&&")?;
            let (i, rhs) = self.and_expr(i)?;
            return Ok((i, self.binary(BinaryOp::And, lhs, rhs)));
        }
        Ok((i, lhs))
    }

    fn compare_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (mut i, mut lhs) = self.additive_expr(input)?;
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
            let (next, rhs) = self.additive_expr(&rest[text.len()..])?;
            lhs = self.binary(op, lhs, rhs);
            i = next;
        }
    }

    fn additive_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (mut i, mut lhs) = self.postfix_expr(input)?;
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
            let (next, rhs) = self.postfix_expr(after)?;
            lhs = self.binary(op, lhs, rhs);
            i = next;
        }
    }

    fn postfix_expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let (mut i, mut e) = self.operand(input)?;
        loop {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        parse_program(text).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn first_error(text: &str) -> String {
        parse_program(text).unwrap_err()[0].message.clone()
    }

    #[test]
    fn declarations_of_every_kind() {
        let p = program(
            "domain Player = x | o\ndomain Pos = null | P(I, J) where I in 0..2, J in { a, 10 }\n\
             board : Pos -> Player = { :x; P(I, I) = o where I in 0..2 }\nme : Player = x\n\
             op : Player -> Player\nop(x) = o\nop(_) = x\nreusable graph g(a: Player, b: Pos -> Player) { }\n",
        );
        assert_eq!(p.domains().count(), 2);
        assert_eq!(p.variables().count(), 2);
        let f = p.functions().next().unwrap();
        assert_eq!(f.cases.len(), 2);
        let g = p.graphs().next().unwrap();
        assert!(g.reusable);
        assert_eq!(g.params.len(), 2);
    }

    #[test]
    fn statements_of_every_kind() {
        let p = program(
            "graph rules() {\n  x = y  $ t\n  board[p][q] = me\n  pos = Position(*)\n  v = { a, b }(*)\n\
             branch { check(a == b) } or { return() } or { }\n  branch d in Dir { $_d }\n\
             if a == b && c != d { end() } else if e == f { break() } else { continue() }\n\
             loop { turn(x) }\n  repeat 3 { $(a b c) }\n  repeat d in { up, down } { $_(x y) }\n\
             while x != y { x = f(x)(y)[z] }\n  $$ pos\n}\n",
        );
        let g = p.graphs().next().unwrap();
        let kinds: Vec<&str> = g
            .body
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Assign { .. } => "assign",
                StmtKind::AssignAny { .. } => "any",
                StmtKind::Branch(_) => "branch",
                StmtKind::BranchIn { .. } => "branch-in",
                StmtKind::If { .. } => "if",
                StmtKind::Loop(_) => "loop",
                StmtKind::Repeat { .. } => "repeat",
                StmtKind::RepeatIn { .. } => "repeat-in",
                StmtKind::While { .. } => "while",
                StmtKind::VarTag(_) => "$$",
                StmtKind::Tag { .. } => "$",
                StmtKind::Call { .. } => "call",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "assign",
                "$",
                "assign",
                "any",
                "any",
                "branch",
                "branch-in",
                "if",
                "loop",
                "repeat",
                "repeat-in",
                "while",
                "$$"
            ]
        );
        match &g.body[1].kind {
            StmtKind::Tag {
                artificial,
                symbols,
            } => {
                assert!(!artificial);
                assert_eq!(symbols[0].text, "t");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn precedence_of_operators() {
        let p = program("f : A -> A\nf(X) = if X + 1 % 3 == 2 || a && b then X else Y\n");
        let body = &p.functions().next().unwrap().cases[0].body;
        let ExprKind::If(c, _, _) = &body.kind else {
            panic!()
        };
        // `||` at the top; `(X + 1) % 3 == 2` on its left.
        let ExprKind::Binary(BinaryOp::Or, lhs, rhs) = &c.kind else {
            panic!("{c:?}")
        };
        assert!(matches!(rhs.kind, ExprKind::Binary(BinaryOp::And, _, _)));
        let ExprKind::Binary(BinaryOp::Eq, arith, _) = &lhs.kind else {
            panic!()
        };
        let ExprKind::Binary(BinaryOp::Mod, sum, _) = &arith.kind else {
            panic!("{arith:?}")
        };
        assert!(matches!(sum.kind, ExprKind::Binary(BinaryOp::Add, _, _)));
    }

    #[test]
    fn artificial_tag_spacing() {
        let p = program("graph rules() { $_x $_ y $ _z }");
        let tags: Vec<(bool, String)> = p
            .graphs()
            .next()
            .unwrap()
            .body
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Tag {
                    artificial,
                    symbols,
                } => (*artificial, symbols[0].text.clone()),
                _ => panic!(),
            })
            .collect();
        assert_eq!(
            tags,
            [(true, "x".into()), (true, "y".into()), (false, "_z".into())]
        );
    }

    #[test]
    fn syntax_errors() {
        assert!(first_error("graph rules() { if (a == b) { end() } }")
            .contains("must not start with \"(\""));
        assert!(first_error("domain D = C(X) \n").contains("where"));
        assert!(first_error("domain D = C(X) where X in 0 .. 2\n").contains(".."));
        assert!(first_error("graph rules() { x = }").contains("expected an expression"));
        assert!(first_error("graph rules() { x = y").contains("}"));
        assert!(first_error("var x : A\n").contains("reserved"));
        // Several errors, one per broken declaration.
        let errors =
            parse_program("graph a() { x = }\ngraph b() { y = }\ndomain D = a\n").unwrap_err();
        assert_eq!(errors.len(), 2);
    }
}
