//! KIF text of normal-form literals, for messages (the AST's own
//! `Display` is in `gdl_ast`), and structural term equality.

use std::fmt;

use crate::ast::{Term, TermKind};
use crate::normalize::NormalLiteral;

impl fmt::Display for NormalLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NormalLiteral::Positive(a) => write!(f, "{a}"),
            NormalLiteral::Negative(a) => write!(f, "(not {a})"),
            NormalLiteral::Distinct(s, t, _) => write!(f, "(distinct {s} {t})"),
            NormalLiteral::Equal(s, t, _) => write!(f, "(not (distinct {s} {t}))"),
        }
    }
}

/// Structural equality of terms, ignoring spans.
pub fn same_term(a: &Term, b: &Term) -> bool {
    match (&a.kind, &b.kind) {
        (TermKind::Constant(x), TermKind::Constant(y))
        | (TermKind::Variable(x), TermKind::Variable(y)) => x == y,
        (TermKind::Function { name: f, args: xs }, TermKind::Function { name: g, args: ys }) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_term(x, y))
        }
        _ => false,
    }
}
