//! Expression helpers shared by the substituting passes
//! (`inline-assignment`, `propagate-compared-values`).

use crate::ast::Expr;

/// Nodes in an expression.
pub fn size(e: &Expr) -> usize {
    match e {
        Expr::Ref(..) => 1,
        Expr::Cast(_, inner, _) => 1 + size(inner),
        Expr::Access(m, k, _) => 1 + size(m) + size(k),
    }
}

/// Whether `e` mentions the name `name`.
pub fn reads(e: &Expr, name: &str) -> bool {
    match e {
        Expr::Ref(n, _) => n == name,
        Expr::Cast(_, inner, _) => reads(inner, name),
        Expr::Access(m, k, _) => reads(m, name) || reads(k, name),
    }
}

/// Whether a key of the assignment target `target` (`k` in `m[k]`)
/// mentions `name`.
pub fn keys_read(target: &Expr, name: &str) -> bool {
    match target {
        Expr::Ref(..) => false,
        Expr::Cast(_, inner, _) => keys_read(inner, name),
        Expr::Access(m, k, _) => keys_read(m, name) || reads(k, name),
    }
}

/// `e` with every sub-expression `replace` has a replacement for replaced
/// (outermost first; a replacement is not rewritten further).
pub fn rewrite(e: &Expr, replace: &dyn Fn(&Expr) -> Option<Expr>) -> Expr {
    if let Some(new) = replace(e) {
        return new;
    }
    match e {
        Expr::Ref(..) => e.clone(),
        Expr::Cast(t, inner, at) => Expr::Cast(t.clone(), Box::new(rewrite(inner, replace)), *at),
        Expr::Access(m, k, at) => Expr::Access(
            Box::new(rewrite(m, replace)),
            Box::new(rewrite(k, replace)),
            *at,
        ),
    }
}

/// An assignment target with [`rewrite`] applied to its keys only.
pub fn rewrite_keys(target: &Expr, replace: &dyn Fn(&Expr) -> Option<Expr>) -> Expr {
    match target {
        Expr::Ref(..) => target.clone(),
        Expr::Cast(t, inner, at) => {
            Expr::Cast(t.clone(), Box::new(rewrite_keys(inner, replace)), *at)
        }
        Expr::Access(m, k, at) => Expr::Access(
            Box::new(rewrite_keys(m, replace)),
            Box::new(rewrite(k, replace)),
            *at,
        ),
    }
}
