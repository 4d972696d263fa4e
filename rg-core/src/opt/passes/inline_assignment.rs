//! Inline assignment (E): after `x = e`, later reads of `x` are replaced
//! by `e` as long as neither `x` nor anything `e` reads has changed on any
//! path in between (a forward data-flow of "x holds e" facts).
//! `a, b: t = m[x]; b, c: t != y;` → `b, c: m[x] != y;` — the assignment
//! itself stays until `prune-unused` finds `t` unread. Only small
//! expressions reading some variable are propagated (constants are
//! `propagate-constants`' job); `$$ x` keeps its variable.

use crate::fx_hash::FxSet;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::ast::{Edge, Expr, Game, Label};

use crate::opt::analysis::dataflow::{solve_by_edge, Analysis};
use crate::opt::analysis::exprs::{reads, rewrite, rewrite_keys, size};

use crate::opt::Pass;

pub struct InlineAssignment;

/// Largest expression (in nodes) copied into its uses.
const MAX_SIZE: usize = 4;
/// Most facts tracked at once. Facts are copied along every edge, so an
/// unbounded set makes big games (GDL translations with thousands of
/// variables) quadratic; forgetting a fact is always sound (a fact only
/// enables a substitution).
const MAX_FACTS: usize = 16;

impl Pass for InlineAssignment {
    fn name(&self) -> &'static str {
        "inline-assignment"
    }

    fn description(&self) -> &'static str {
        "replace reads of a variable by the expression last assigned to it, while still valid"
    }

    fn run(&self, game: &mut Game) -> bool {
        let analysis = CopyAnalysis {
            variables: game.variables.iter().map(|v| v.name.clone()).collect(),
        };
        let facts = solve_by_edge(game, &analysis);
        let mut changed = false;
        for (k, e) in game.edges.iter_mut().enumerate() {
            let Some(fact) = facts.before(k) else {
                continue;
            };
            if fact.is_empty() {
                continue;
            }
            let label = match &e.label {
                Label::Compare { negated, lhs, rhs } => Label::Compare {
                    negated: *negated,
                    lhs: substitute(lhs, fact),
                    rhs: substitute(rhs, fact),
                },
                Label::Assign { lhs, rhs } => Label::Assign {
                    lhs: substitute_keys(lhs, fact),
                    rhs: substitute(rhs, fact),
                },
                Label::AssignAny { lhs, ty } => Label::AssignAny {
                    lhs: substitute_keys(lhs, fact),
                    ty: ty.clone(),
                },
                _ => continue,
            };
            if label != e.label {
                e.label = label;
                changed = true;
            }
        }
        changed
    }
}

/// Facts: variable → the expression it currently equals.
type Copies = BTreeMap<String, Expr>;
/// Shared: most edges pass their facts on unchanged.
type CopyFacts = Rc<Copies>;

struct CopyAnalysis {
    variables: FxSet<String>,
}

impl CopyAnalysis {
    fn reads_variable(&self, e: &Expr) -> bool {
        match e {
            Expr::Ref(n, _) => self.variables.contains(n),
            Expr::Cast(_, inner, _) => self.reads_variable(inner),
            Expr::Access(m, k, _) => self.reads_variable(m) || self.reads_variable(k),
        }
    }
}

/// Drops the facts about `written` or depending on it.
fn kill(fact: &mut Copies, written: &str) {
    fact.retain(|v, e| v != written && !reads(e, written));
}

impl Analysis for CopyAnalysis {
    type Fact = CopyFacts;

    fn entry(&self) -> CopyFacts {
        CopyFacts::default()
    }

    fn transfer(&self, edge: &Edge, fact: &CopyFacts) -> CopyFacts {
        let (lhs, rhs) = match &edge.label {
            Label::Assign { lhs, rhs } => (lhs, Some(rhs)),
            Label::AssignAny { lhs, .. } => (lhs, None),
            _ => return fact.clone(),
        };
        let Some(root) = lhs.target_root() else {
            return fact.clone();
        };
        let mut out = Copies::clone(fact);
        kill(&mut out, root);
        if let (Some(rhs), Expr::Ref(v, _)) = (rhs, lhs.without_casts()) {
            let value = substitute(rhs, fact);
            if out.len() < MAX_FACTS
                && !reads(&value, v)
                && size(&value) <= MAX_SIZE
                && self.reads_variable(&value)
            {
                out.insert(v.clone(), value);
            }
        }
        Rc::new(out)
    }

    fn join(&self, into: &mut CopyFacts, other: &CopyFacts) -> bool {
        let kept = |v: &String, e: &Expr| other.get(v) == Some(e);
        if into.iter().all(|(v, e)| kept(v, e)) {
            return false;
        }
        Rc::make_mut(into).retain(|v, e| kept(v, e));
        true
    }
}

fn substitute(e: &Expr, fact: &Copies) -> Expr {
    rewrite(e, &|x| match x {
        Expr::Ref(name, _) => fact.get(name).cloned(),
        _ => None,
    })
}

/// An assignment target with substitutions in its keys only.
fn substitute_keys(e: &Expr, fact: &Copies) -> Expr {
    rewrite_keys(e, &|x| match x {
        Expr::Ref(name, _) => fact.get(name).cloned(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn reads_use_the_assigned_expression_while_valid() {
        let (changed, out) = after(
            &InlineAssignment,
            "type K = { a, b };\nconst m: K -> K = { :a };\nvar x: K = a;\nvar t: K = a;\nvar y: K = a;\n\
             begin, p: x = K(*);\np, q: t = m[x];\nq, r: t != y;\nr, s: x = b;\ns, u: t == y;\nu, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        const m: K -> K = { :a };
        var x: K = a;
        var t: K = a;
        var y: K = a;
        begin, p: x = K(*);
        p, q: t = m[x];
        q, r: m[x] != y;
        r, s: x = b;
        s, u: t == y;
        u, end: player = keeper;
        ");
    }
}
