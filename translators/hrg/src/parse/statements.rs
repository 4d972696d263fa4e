//! Statements of a graph body: blocks, assignments, tags, calls and the
//! control flow (`branch`, `if`, `loop`, `repeat`, `while`).

use rg_core::syntax::{
    commit, error, failure, is_nesting_limit, peek_token, skip_trivia, token, PResult,
};

use super::Parser;
use crate::ast::{Block, Expr, Name, Stmt, StmtKind};

impl Parser<'_> {
    pub(super) fn block<'a>(&self, input: &'a str) -> PResult<'a, Block> {
        let _level = self.nesting.enter(skip_trivia(input))?;
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
        let target = self.assignment_target(start);
        if let Err(e) = &target {
            if is_nesting_limit(e) {
                return Err(e.clone());
            }
        }
        if let Ok((i, (target, accessors))) = target {
            let after = skip_trivia(i);
            if after.starts_with('=') && !after.starts_with("==") {
                return commit((|| {
                    let value_start = skip_trivia(&after[1..]);
                    match self.any_type(value_start) {
                        Ok((i, ty)) => {
                            return stmt(
                                StmtKind::AssignAny {
                                    target: target.clone(),
                                    accessors: accessors.clone(),
                                    ty,
                                },
                                i,
                            );
                        }
                        Err(e) if is_nesting_limit(&e) => return Err(e),
                        Err(_) => {}
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
        // Each accessor after the first nests the access before it (once
        // lowered) a level deeper.
        let mut levels = Vec::new();
        while peek_token(i, "[") {
            if !accessors.is_empty() {
                levels.push(self.nesting.enter(skip_trivia(i))?);
            }
            let (next, ()) = token(i, "[")?;
            let (next, e) = self.expr(next)?;
            let (next, ()) = token(next, "]")?;
            accessors.push(e);
            i = next;
        }
        Ok((i, (target, accessors)))
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
            let _level = self.nesting.enter(nested_start)?;
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
}
