//! Type expressions: set types, named types and arrows, and the `Type(*)`
//! right side of an any-assignment.

use rg_core::syntax::{delimited_list, error, peek_token, skip_trivia, token, PResult};

use super::Parser;
use crate::ast::TypeExpr;

impl Parser<'_> {
    pub(super) fn ty<'a>(&self, input: &'a str) -> PResult<'a, TypeExpr> {
        let start = skip_trivia(input);
        let _level = self.nesting.enter(start)?;
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

    /// `type "(" "*" ")"` — the right side of an any-assignment.
    pub(super) fn any_type<'a>(&self, input: &'a str) -> PResult<'a, TypeExpr> {
        let (i, ty) = self.ty(input)?;
        let (i, ()) = token(i, "(")?;
        let (i, ()) = token(i, "*")?;
        let (i, ()) = token(i, ")")?;
        Ok((i, ty))
    }
}
