//! HRG notation of expressions and types, for messages.

use crate::ast::{Expr, ExprKind, TypeExpr};

/// An expression as it would be written in HRG.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Name(n) => n.text.clone(),
        ExprKind::Constructor(n, args) => format!("{}({})", n.text, list(args)),
        ExprKind::Call(callee, args) => format!("{}({})", expr(callee), list(args)),
        ExprKind::Access(m, k) => format!("{}[{}]", expr(m), expr(k)),
        ExprKind::Binary(op, l, r) => format!("{} {} {}", expr(l), op.text(), expr(r)),
        ExprKind::If(c, a, b) => format!("if {} then {} else {}", expr(c), expr(a), expr(b)),
        ExprKind::Map(_) => "{ ... }".to_string(),
        ExprKind::Paren(inner) => format!("({})", expr(inner)),
    }
}

fn list(args: &[Expr]) -> String {
    args.iter().map(expr).collect::<Vec<_>>().join(", ")
}

/// A type as written.
pub fn ty(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Set(names, _) => format!(
            "{{ {} }}",
            names
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        TypeExpr::Named(n, None) => n.text.clone(),
        TypeExpr::Named(n, Some(target)) => format!("{} -> {}", n.text, ty(target)),
    }
}
