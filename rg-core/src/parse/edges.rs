//! Edges and their labels.

use super::Parser;
use crate::ast::{Edge, Label};
use crate::syntax::{commit, error, is_nesting_limit, skip_trivia, token, PResult};

impl Parser<'_> {
    /// `edge = node "," node ":" label ";"`
    pub(super) fn edge<'a>(&self, input: &'a str) -> PResult<'a, Edge> {
        let (i, from) = self.name(input).or_else(|_| {
            error(
                input,
                "expected a declaration (type, const, var, an edge or a pragma)",
            )
        })?;
        let (i, ()) = token(i, ",")?;
        commit((|| {
            let (i, to) = self.name(i)?;
            let (i, ()) = token(i, ":")?;
            let (i, label) = self.label(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((
                rest,
                Edge {
                    from,
                    to,
                    label,
                    at,
                },
            ))
        })())
    }

    fn label<'a>(&self, input: &'a str) -> PResult<'a, Label> {
        let input = skip_trivia(input);
        if input.starts_with(';') {
            return Ok((input, Label::Skip));
        }
        if let Some(rest) = input.strip_prefix("$$") {
            let (i, name) = self.name(rest)?;
            return Ok((i, Label::VarTag(name)));
        }
        if let Some(rest) = input.strip_prefix('$') {
            let (i, name) = self.name(rest)?;
            return Ok((i, Label::Tag(name)));
        }
        for (prefix, negated) in [('?', false), ('!', true)] {
            if let Some(rest) = input.strip_prefix(prefix) {
                let (i, from) = self.name(rest)?;
                let (i, ()) = token(i, "->")?;
                let (i, to) = self.name(i)?;
                return Ok((i, Label::Reach { negated, from, to }));
            }
        }
        let (i, lhs) = self.expr(input)?;
        let operator = skip_trivia(i);
        for (op, negated) in [("==", false), ("!=", true)] {
            if let Some(rest) = operator.strip_prefix(op) {
                let (i, rhs) = self.expr(rest)?;
                return Ok((i, Label::Compare { negated, lhs, rhs }));
            }
        }
        let Some(rest) = operator.strip_prefix('=') else {
            return error(
                operator,
                "expected \"==\", \"!=\" or \"=\" after the left side",
            );
        };
        match self.any_assignment_type(rest) {
            Ok((i, ty)) => return Ok((i, Label::AssignAny { lhs, ty })),
            Err(e) if is_nesting_limit(&e) => return Err(e),
            Err(_) => {}
        }
        let (i, rhs) = self.expr(rest)?;
        Ok((i, Label::Assign { lhs, rhs }))
    }
}
