//! `#players`, `#pieces` and `#variables` in high-level syntax (rbg.md §4.6):
//! comma lists that tolerate repeated commas; duplicate pieces collapse.

use super::cursor::{Cursor, PResult};
use crate::ast::{BoundedName, Name};
use crate::lexer::Punct;

/// `p1, p2, ...` (at least one piece); duplicates are dropped.
pub fn pieces(cursor: &mut Cursor<'_>) -> PResult<Vec<Name>> {
    let mut pieces: Vec<Name> = Vec::new();
    loop {
        while cursor.eat_punct(Punct::Comma).is_some() {}
        if cursor.at_end() {
            break;
        }
        let name = cursor.ident("a piece name")?;
        if !pieces.iter().any(|p| p.name == name.name) {
            pieces.push(name);
        }
        if !cursor.at_end() && !cursor.peek_punct(Punct::Comma) {
            return Err(cursor.expected("`,` between pieces"));
        }
    }
    if pieces.is_empty() {
        return Err(cursor.expected("at least one piece"));
    }
    Ok(pieces)
}

/// `name(bound), ...` with bounds ≥ 1; `what` names the section.
pub fn bounded_names(
    cursor: &mut Cursor<'_>,
    what: &str,
    may_be_empty: bool,
) -> PResult<Vec<BoundedName>> {
    let mut list = Vec::new();
    loop {
        while cursor.eat_punct(Punct::Comma).is_some() {}
        if cursor.at_end() {
            break;
        }
        let name = cursor.ident(&format!("a {what} name"))?;
        cursor.expect_punct(Punct::LParen)?;
        let bound_token = cursor.peek();
        let (bound, bound_span) = cursor.number("a bound (a number)")?;
        if bound == 0 {
            let diagnostic = match bound_token {
                Some(t) => cursor.error_at(
                    t,
                    format!("the bound of `{}` must be at least 1", name.name),
                ),
                None => rg_core::diag::Diagnostic::error("bound must be at least 1", bound_span),
            };
            return Err(diagnostic.with_label("bound 0"));
        }
        let close = cursor.expect_punct(Punct::RParen)?;
        list.push(BoundedName {
            name: name.name,
            bound,
            span: name.span.join(close.span),
        });
        if !cursor.at_end() && !cursor.peek_punct(Punct::Comma) {
            return Err(cursor.expected(&format!("`,` between {what}s")));
        }
    }
    if list.is_empty() && !may_be_empty {
        return Err(cursor.expected(&format!("at least one {what}")));
    }
    Ok(list)
}
