//! KIF text of AST nodes, for messages.

use std::fmt;

use crate::ast::{Atom, Literal, Term, TermKind};
use crate::normalize::NormalLiteral;

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TermKind::Constant(name) | TermKind::Variable(name) => f.write_str(name),
            TermKind::Function { name, args } => {
                write!(f, "({name}")?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.args.is_empty() {
            return f.write_str(&self.name);
        }
        write!(f, "({}", self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Atom(atom) => write!(f, "{atom}"),
            Literal::Not(inner, _) => write!(f, "(not {inner})"),
            Literal::Distinct(s, t, _) => write!(f, "(distinct {s} {t})"),
            Literal::Or(items, _) | Literal::And(items, _) => {
                f.write_str(if matches!(self, Literal::Or(..)) {
                    "(or"
                } else {
                    "(and"
                })?;
                for item in items {
                    write!(f, " {item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

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
