//! Types: set types, named types and arrows, and the `Type(*)` right side
//! of an any-assignment.

use super::Parser;
use crate::ast::Type;
use crate::syntax::{error, peek_token, separated1, skip_trivia, token, PResult};

impl Parser<'_> {
    /// `type = ( set_type | ident ) [ "->" type ]`
    pub(super) fn ty<'a>(&self, input: &'a str) -> PResult<'a, Type> {
        let input = skip_trivia(input);
        let _level = self.nesting.enter(input)?;
        let (i, base) = if input.starts_with('{') {
            self.set_type(input)?
        } else {
            match self.ident(input) {
                Ok((i, (name, at))) => (i, Type::Name(name, at)),
                Err(_) => return error(input, "expected a type"),
            }
        };
        if peek_token(i, "->") {
            let (i, ()) = token(i, "->")?;
            let (i, target) = self.ty(i)?;
            Ok((i, Type::Arrow(Box::new(base), Box::new(target))))
        } else {
            Ok((i, base))
        }
    }

    fn set_type<'a>(&self, input: &'a str) -> PResult<'a, Type> {
        let (i, ()) = token(input, "{")?;
        if peek_token(i, "}") {
            return error(
                skip_trivia(i),
                "expected: identifier (set types cannot be empty)",
            );
        }
        let (i, symbols) = separated1(i, ",", |i| self.name(i))?;
        let (rest, ()) = token(i, "}")
            .or_else(|_| error(skip_trivia(i), "expected \",\" or \"}\" in a set type"))?;
        Ok((rest, Type::Set(symbols, self.span(input, rest))))
    }

    /// `type "(" "*" ")"` — the right side of an any-assignment.
    pub(super) fn any_assignment_type<'a>(&self, input: &'a str) -> PResult<'a, Type> {
        let (i, ty) = self.ty(input)?;
        let (i, ()) = token(i, "(")?;
        let (i, ()) = token(i, "*")?;
        let (i, ()) = token(i, ")")?;
        Ok((i, ty))
    }
}
