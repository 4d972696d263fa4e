//! Prune unused constants, variables and types (E): declarations that are
//! never read are removed; assignments to an unread variable become skips.
//! The state shrinks while the moves stay the same. In games with a random
//! player variables are kept (fewer variables can merge random outcomes in
//! perft, rg.md §6). Built-in types and variables are never removed.

use crate::fx_hash::FxSet;

use crate::ast::{Expr, Game, Label, PatternTag, PragmaKind, Type, Value};
use crate::builtins;

use crate::opt::analysis::features;
use crate::opt::Pass;

pub struct PruneUnused;

impl Pass for PruneUnused {
    fn name(&self) -> &'static str {
        "prune-unused"
    }

    fn description(&self) -> &'static str {
        "remove constants, variables and types that are never read"
    }

    fn run(&self, game: &mut Game) -> bool {
        let mut changed = false;
        let reads = names_read(game);
        let unread: FxSet<String> = if features::has_random(game) {
            FxSet::default()
        } else {
            game.variables
                .iter()
                .map(|v| v.name.as_str())
                .filter(|name| !reads.contains(name) && !builtins::is_builtin_variable(name))
                .map(str::to_string)
                .collect()
        };
        let read_constants: Vec<bool> = game
            .constants
            .iter()
            .map(|c| reads.contains(c.name.as_str()))
            .collect();
        if !unread.is_empty() {
            game.variables.retain(|v| !unread.contains(&v.name));
            for e in &mut game.edges {
                if let Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } = &e.label {
                    if lhs.target_root().is_some_and(|root| unread.contains(root)) {
                        e.label = Label::Skip;
                    }
                }
            }
            changed = true;
        }
        let before = game.constants.len();
        let mut read = read_constants.iter();
        game.constants
            .retain(|_| *read.next().expect("a verdict per constant"));
        changed |= game.constants.len() != before;
        let types = types_used(game);
        let before = game.typedefs.len();
        game.typedefs
            .retain(|t| types.contains(&t.name) || builtins::is_builtin_type(&t.name));
        changed |= game.typedefs.len() != before;
        changed
    }
}

/// Every identifier read by an expression, a value or a pragma (assignment
/// targets' roots are written, not read; their keys are read).
fn names_read(game: &Game) -> FxSet<&str> {
    let mut reads = FxSet::default();
    fn expr<'g>(e: &'g Expr, out: &mut FxSet<&'g str>) {
        match e {
            Expr::Ref(n, _) => {
                out.insert(n);
            }
            Expr::Cast(_, inner, _) => expr(inner, out),
            Expr::Access(m, k, _) => {
                expr(m, out);
                expr(k, out);
            }
        }
    }
    fn target_keys<'g>(e: &'g Expr, out: &mut FxSet<&'g str>) {
        match e {
            Expr::Ref(..) => {}
            Expr::Cast(_, inner, _) => target_keys(inner, out),
            Expr::Access(m, k, _) => {
                target_keys(m, out);
                expr(k, out);
            }
        }
    }
    fn value<'g>(v: &'g Value, out: &mut FxSet<&'g str>) {
        match v {
            Value::Symbol(n, _) => {
                out.insert(n);
            }
            Value::Map(entries, _) => entries.iter().for_each(|e| value(&e.value, out)),
        }
    }
    for e in &game.edges {
        match &e.label {
            Label::Compare { lhs, rhs, .. } => {
                expr(lhs, &mut reads);
                expr(rhs, &mut reads);
            }
            Label::Assign { lhs, rhs } => {
                target_keys(lhs, &mut reads);
                expr(rhs, &mut reads);
            }
            Label::AssignAny { lhs, .. } => target_keys(lhs, &mut reads),
            Label::VarTag(v) => {
                reads.insert(v);
            }
            _ => {}
        }
    }
    for c in &game.constants {
        value(&c.value, &mut reads);
    }
    for v in &game.variables {
        value(&v.value, &mut reads);
    }
    for p in &game.pragmas {
        match &p.kind {
            PragmaKind::SimpleApply(sa) => {
                for (l, r) in &sa.assignments {
                    expr(l, &mut reads);
                    expr(r, &mut reads);
                }
            }
            PragmaKind::Repeat { variables, .. } => {
                reads.extend(variables.iter().map(String::as_str));
            }
            PragmaKind::Iterator { variable, .. } => {
                reads.insert(variable);
            }
            _ => {}
        }
    }
    reads
}

/// Every type name mentioned anywhere (declarations, casts, any-assignments).
fn types_used(game: &Game) -> FxSet<String> {
    let mut used = FxSet::default();
    fn ty(t: &Type, out: &mut FxSet<String>) {
        match t {
            Type::Set(..) => {}
            Type::Name(n, _) => {
                out.insert(n.clone());
            }
            Type::Arrow(k, v) => {
                ty(k, out);
                ty(v, out);
            }
        }
    }
    fn casts(e: &Expr, out: &mut FxSet<String>) {
        match e {
            Expr::Ref(..) => {}
            Expr::Cast(t, inner, _) => {
                out.insert(t.clone());
                casts(inner, out);
            }
            Expr::Access(m, k, _) => {
                casts(m, out);
                casts(k, out);
            }
        }
    }
    for t in &game.typedefs {
        ty(&t.ty, &mut used);
    }
    for c in &game.constants {
        ty(&c.ty, &mut used);
    }
    for v in &game.variables {
        ty(&v.ty, &mut used);
    }
    for e in &game.edges {
        match &e.label {
            Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => {
                casts(lhs, &mut used);
                casts(rhs, &mut used);
            }
            Label::AssignAny { lhs, ty: t } => {
                casts(lhs, &mut used);
                ty(t, &mut used);
            }
            _ => {}
        }
    }
    for p in &game.pragmas {
        if let PragmaKind::SimpleApply(sa) = &p.kind {
            for tag in &sa.tags {
                if let PatternTag::Bind(_, t) = tag {
                    ty(t, &mut used);
                }
            }
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn unread_declarations_go() {
        let (changed, out) = after(
            &PruneUnused,
            "type Unused = { q };\ntype K = { a, b };\nconst c: K -> K = { :a };\nconst d: K = b;\nvar v: K = a;\nvar w: K = a;\n\
             begin, n: v = c[w];\nn, m: w = K(*);\nm, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        const c: K -> K = { :a };
        var w: K = a;
        begin, n: ;
        n, m: w = K(*);
        m, end: player = keeper;
        ");
    }
}
