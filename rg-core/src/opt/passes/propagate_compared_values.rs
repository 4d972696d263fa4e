//! Propagate compared values (E): after `e == s` (or `e = s`) with `s` a
//! symbol, `e` is known to be `s` until something it reads changes, on
//! every path (a forward "must" data-flow of `e == s` facts). Later reads
//! of `e` are replaced by `s`:
//! `a, b: board[coord] == empty; b, c: n[board[coord]] = m[n[board[coord]]];`
//! becomes `b, c: n[empty] = m[n[empty]];` — so the counter entry becomes
//! a constant key that `skip-dead-assignments` can judge, and repeated
//! tests become decided ones for `propagate-constants`. An assignment
//! target itself is not replaced, only its keys.

use crate::fx_hash::FxSet;
use std::borrow::Cow;
use std::rc::Rc;

use crate::ast::{Edge, Expr, Game, Label};

use crate::opt::analysis::dataflow::{solve, Analysis};
use crate::opt::analysis::exprs::{keys_read, reads, rewrite, rewrite_keys, size};
use crate::opt::Pass;

pub struct PropagateComparedValues;

/// Largest expression (in nodes) tracked.
const MAX_SIZE: usize = 5;
/// Most facts tracked at once (forgetting a fact is always sound).
const MAX_FACTS: usize = 8;

impl Pass for PropagateComparedValues {
    fn name(&self) -> &'static str {
        "propagate-compared-values"
    }

    fn description(&self) -> &'static str {
        "after e == s or e = s (s a symbol), later reads of e become s while e is unchanged"
    }

    fn run(&self, game: &mut Game) -> bool {
        let analysis = Comparisons {
            variables: game.variables.iter().map(|v| v.name.clone()).collect(),
            constants: game.constants.iter().map(|c| c.name.clone()).collect(),
        };
        let facts = solve(game, &analysis);
        let mut changed = false;
        let mut keep = vec![true; game.edges.len()];
        for (k, e) in game.edges.iter_mut().enumerate() {
            let Some(fact) = facts.get(&e.from) else {
                continue;
            };
            if fact.is_empty() || !label_reads_known(&e.label, fact) {
                continue;
            }
            let label = match &e.label {
                Label::Compare { negated, lhs, rhs } => {
                    let (lhs, rhs) = (substitute(lhs, fact), substitute(rhs, fact));
                    // Two bare symbols do not type-check: decide the test.
                    match (analysis.symbol(&lhs), analysis.symbol(&rhs)) {
                        (Some(a), Some(b)) if (a == b) != *negated => Label::Skip,
                        (Some(_), Some(_)) => {
                            keep[k] = false;
                            changed = true;
                            continue;
                        }
                        _ => Label::Compare {
                            negated: *negated,
                            lhs,
                            rhs,
                        },
                    }
                }
                Label::Assign { lhs, rhs } => Label::Assign {
                    lhs: substitute_keys(lhs, fact),
                    rhs: substitute(rhs, fact),
                },
                Label::AssignAny { lhs, ty } => Label::AssignAny {
                    lhs: substitute_keys(lhs, fact),
                    ty: ty.clone(),
                },
                Label::VarTag(v) => match known(&Expr::name(v.as_str()), fact) {
                    Some(symbol) => Label::Tag(symbol.clone()),
                    None => continue,
                },
                _ => continue,
            };
            if label != e.label {
                e.label = label;
                changed = true;
            }
        }
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        changed
    }
}

/// Facts: expressions with the symbol they equal, in the order learned.
/// Shared, so that copying the facts along every edge stays cheap.
type Known = Vec<Rc<(Expr, String)>>;

struct Comparisons {
    variables: FxSet<String>,
    constants: FxSet<String>,
}

impl Comparisons {
    /// Whether `e` is a symbol literal (not a constant or variable name).
    fn symbol<'e>(&self, e: &'e Expr) -> Option<&'e String> {
        match e.without_casts() {
            Expr::Ref(name, _)
                if !self.variables.contains(name) && !self.constants.contains(name) =>
            {
                Some(name)
            }
            _ => None,
        }
    }

    /// Whether `e` reads some variable (only such expressions can change).
    fn reads_variable(&self, e: &Expr) -> bool {
        match e {
            Expr::Ref(n, _) => self.variables.contains(n) && !self.constants.contains(n),
            Expr::Cast(_, inner, _) => self.reads_variable(inner),
            Expr::Access(m, k, _) => self.reads_variable(m) || self.reads_variable(k),
        }
    }

    /// Records `e == symbol` if it is worth tracking.
    fn learn(&self, out: &mut Known, e: &Expr, symbol: &str) {
        let e = e.without_casts();
        if out.len() < MAX_FACTS
            && size(e) <= MAX_SIZE
            && self.reads_variable(e)
            && !out.iter().any(|f| f.0 == *e)
        {
            out.push(Rc::new((e.clone(), symbol.to_string())));
        }
    }
}

/// The symbol `e` is known to equal (facts are stored without casts; a
/// cast around `e` stays where it is).
fn known<'f>(e: &Expr, fact: &'f Known) -> Option<&'f String> {
    fact.iter().find(|f| f.0 == *e).map(|f| &f.1)
}

impl Analysis for Comparisons {
    type Fact = Known;

    fn entry(&self) -> Known {
        Known::new()
    }

    fn transfer(&self, edge: &Edge, fact: &Known) -> Known {
        let mut out = fact.clone();
        match &edge.label {
            Label::Compare {
                negated: false,
                lhs,
                rhs,
            } => {
                let (lhs, rhs) = (substituted(lhs, fact), substituted(rhs, fact));
                match (self.symbol(&lhs), self.symbol(&rhs)) {
                    (None, Some(s)) => self.learn(&mut out, &lhs, s),
                    (Some(s), None) => self.learn(&mut out, &rhs, s),
                    _ => {}
                }
            }
            Label::Assign { lhs, rhs } => {
                let Some(root) = lhs.target_root() else {
                    return out;
                };
                out.retain(|f| !reads(&f.0, root));
                // `m[m[k]] = s` may change what its own target denotes.
                if !keys_read(lhs, root) {
                    if let Some(s) = self.symbol(&substituted(rhs, fact)) {
                        let target = substitute_keys(lhs, fact);
                        self.learn(&mut out, &target, s);
                    }
                }
            }
            Label::AssignAny { lhs, .. } => {
                if let Some(root) = lhs.target_root() {
                    out.retain(|f| !reads(&f.0, root));
                }
            }
            _ => {}
        }
        out
    }

    fn join(&self, into: &mut Known, other: &Known) -> bool {
        let before = into.len();
        into.retain(|f| other.iter().any(|o| Rc::ptr_eq(o, f) || o == f));
        into.len() != before
    }
}

/// Whether some expression `label` reads is known.
fn label_reads_known(label: &Label, fact: &Known) -> bool {
    fn any(e: &Expr, fact: &Known) -> bool {
        known(e, fact).is_some()
            || match e {
                Expr::Ref(..) => false,
                Expr::Cast(_, inner, _) => any(inner, fact),
                Expr::Access(m, k, _) => any(m, fact) || any(k, fact),
            }
    }
    match label {
        Label::Compare { lhs, rhs, .. } => any(lhs, fact) || any(rhs, fact),
        Label::Assign { lhs, rhs } => any(lhs, fact) || any(rhs, fact),
        Label::AssignAny { lhs, .. } => any(lhs, fact),
        Label::VarTag(v) => known(&Expr::name(v.as_str()), fact).is_some(),
        _ => false,
    }
}

/// `e` with every known sub-expression replaced by its symbol, copied
/// only when there is something to replace.
fn substituted<'e>(e: &'e Expr, fact: &Known) -> Cow<'e, Expr> {
    if fact.is_empty() {
        Cow::Borrowed(e)
    } else {
        Cow::Owned(substitute(e, fact))
    }
}

/// `e` with every known sub-expression replaced by its symbol.
fn substitute(e: &Expr, fact: &Known) -> Expr {
    rewrite(e, &|x| {
        known(x, fact).map(|symbol| Expr::name(symbol.as_str()))
    })
}

/// An assignment target with substitutions in its keys only.
fn substitute_keys(e: &Expr, fact: &Known) -> Expr {
    rewrite_keys(e, &|x| {
        known(x, fact).map(|symbol| Expr::name(symbol.as_str()))
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn a_compared_value_replaces_its_expression_until_it_changes() {
        let (changed, out) = after(
            &PropagateComparedValues,
            "type K = { a, b };\ntype N = { 0, 1 };\nconst incr: N -> N = { :1 };\nconst up: K -> K = { :b };\n\
             var board: K -> K = { :a };\nvar n: K -> N = { :0 };\nvar coord: K = a;\n\
             begin, p: board[coord] == b;\np, q: n[board[coord]] = incr[n[board[coord]]];\n\
             q, r: board[coord] == a;\nr, s: coord = up[coord];\ns, t: board[coord] == b;\n\
             t, u: board[coord] = a;\nu, v: board[coord] != b;\nv, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        type N = { 0, 1 };
        const incr: N -> N = { :1 };
        const up: K -> K = { :b };
        var board: K -> K = { :a };
        var n: K -> N = { :0 };
        var coord: K = a;
        begin, p: board[coord] == b;
        p, q: n[b] = incr[n[b]];
        r, s: coord = up[coord];
        s, t: board[coord] == b;
        t, u: board[coord] = a;
        u, v: ;
        v, end: player = keeper;
        ");
    }

    #[test]
    fn only_facts_of_every_path_count() {
        let (changed, out) = after(
            &PropagateComparedValues,
            "type K = { a, b };\nvar x: K = a;\nvar y: K = a;\n\
             begin, p: x == a;\nbegin, p: y == a;\np, q: y = x;\nq, end: player = keeper;\n",
        );
        assert!(!changed, "{out}");
    }
}
