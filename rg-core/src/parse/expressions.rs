//! Expressions: references, casts and accesses.

use super::Parser;
use crate::ast::Expr;
use crate::syntax::{error, failure, peek_token, skip_trivia, starts_with_trivia, token, PResult};

impl Parser<'_> {
    /// `expression = ident [ "(" expression ")" ] { "[" expression "]" }`
    pub(super) fn expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let input = skip_trivia(input);
        let _level = self.nesting.enter(input)?;
        let (mut i, (name, at)) = self
            .ident(input)
            .or_else(|_| error(input, "expected an expression"))?;
        let mut e = if peek_token(i, "(") {
            let (next, ()) = token(i, "(")?;
            let (next, inner) = self.expr(next)?;
            let (next, ()) = token(next, ")")?;
            i = next;
            Expr::Cast(name, Box::new(inner), self.span(input, next))
        } else {
            Expr::Ref(name, at)
        };
        // Each access after the first nests the one before it a level deeper.
        let mut levels = Vec::new();
        while i.starts_with('[') {
            if matches!(e, Expr::Access(..)) {
                levels.push(self.nesting.enter(i)?);
            }
            let (next, key) = self.expr(&i[1..])?;
            let (next, ()) = token(next, "]")?;
            i = next;
            e = Expr::Access(Box::new(e), Box::new(key), self.span(input, next));
        }
        let after = skip_trivia(i);
        if after.starts_with('[') && starts_with_trivia(i) {
            return failure(after, "whitespace is not allowed before \"[\" of an access");
        }
        Ok((i, e))
    }
}
