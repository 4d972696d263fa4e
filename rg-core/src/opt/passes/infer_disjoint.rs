//! Pragma inference (E, adds pragmas only): `@disjoint n : t1 t2 …` when
//! the edges leaving `n` are tests of one expression against constants
//! with pairwise disjoint sets of accepted values (`x == 1`, `x == 2`,
//! `x != 3`...) or complementary checks (`? a -> b`, `! a -> b`);
//! `@disjointExhaustive` when together they accept every value. The engine
//! stops trying a disjoint node's edges once one has passed.
//!
//! This pass runs once, after the fixpoint: later rewriting could merge
//! the nodes a pragma names.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Expr, Game, Label, Pragma, PragmaKind};

use crate::opt::analysis::names::declared_names;
use crate::opt::analysis::typing::Typing;
use crate::opt::Pass;

pub struct InferDisjoint;

impl Pass for InferDisjoint {
    fn name(&self) -> &'static str {
        "infer-disjoint"
    }

    fn description(&self) -> &'static str {
        "add @disjoint / @disjointExhaustive pragmas for mutually exclusive outgoing tests"
    }

    fn is_final(&self) -> bool {
        true
    }

    fn run(&self, game: &mut Game) -> bool {
        let typing = Typing::new(game);
        let declared = declared_names(game);
        let already: FxSet<String> = game
            .pragmas
            .iter()
            .filter_map(|p| match &p.kind {
                PragmaKind::Disjoint { node, .. } => Some(node.clone()),
                _ => None,
            })
            .collect();
        let mut outgoing: FxMap<&str, Vec<&Label>> = FxMap::default();
        let mut targets: FxMap<&str, Vec<&str>> = FxMap::default();
        for e in &game.edges {
            outgoing.entry(&e.from).or_default().push(&e.label);
            targets.entry(&e.from).or_default().push(&e.to);
        }
        let mut added = Vec::new();
        let mut nodes: Vec<&str> = outgoing.keys().copied().collect();
        nodes.sort();
        for node in nodes {
            let labels = &outgoing[node];
            let to = &targets[node];
            let distinct: FxSet<&&str> = to.iter().collect();
            if labels.len() < 2 || distinct.len() != labels.len() || already.contains(node) {
                continue;
            }
            let verdict = complementary_checks(labels)
                .or_else(|| exclusive_tests(labels, &typing, &declared));
            if let Some(exhaustive) = verdict {
                added.push(Pragma::new(PragmaKind::Disjoint {
                    exhaustive,
                    node: node.to_string(),
                    targets: to.iter().map(std::string::ToString::to_string).collect(),
                }));
            }
        }
        let changed = !added.is_empty();
        game.pragmas.extend(added);
        changed
    }
}

/// `? a -> b` and `! a -> b`: exactly one holds.
fn complementary_checks(labels: &[&Label]) -> Option<bool> {
    match labels {
        [Label::Reach {
            negated: n1,
            from: f1,
            to: t1,
        }, Label::Reach {
            negated: n2,
            from: f2,
            to: t2,
        }] if n1 != n2 && f1 == f2 && t1 == t2 => Some(true),
        _ => None,
    }
}

/// Tests of one expression against constants with pairwise disjoint
/// accepted sets; `Some(exhaustive)`.
fn exclusive_tests(labels: &[&Label], typing: &Typing, declared: &FxSet<&str>) -> Option<bool> {
    let mut subject: Option<&Expr> = None;
    let mut accepted: Vec<FxSet<String>> = Vec::new();
    let mut all: Option<Vec<String>> = None;
    for label in labels {
        let Label::Compare { negated, lhs, rhs } = label else {
            return None;
        };
        let (s, c) =
            [(lhs, rhs), (rhs, lhs)]
                .into_iter()
                .find_map(|(s, c)| match c.without_casts() {
                    Expr::Ref(symbol, _)
                        if !declared.contains(symbol.as_str()) && !is_symbol(s, declared) =>
                    {
                        Some((s, symbol))
                    }
                    _ => None,
                })?;
        match subject {
            None => subject = Some(s),
            Some(existing) if existing.without_casts() == s.without_casts() => {}
            Some(_) => return None,
        }
        let symbols = all.get_or_insert_with(|| {
            typing
                .of(s)
                .and_then(|t| t.symbols().map(<[String]>::to_vec))
                .unwrap_or_default()
        });
        if symbols.is_empty() {
            return None;
        }
        let set: FxSet<String> = if *negated {
            symbols.iter().filter(|x| *x != c).cloned().collect()
        } else {
            [c.clone()].into_iter().collect::<FxSet<_>>()
        };
        accepted.push(set);
    }
    for i in 0..accepted.len() {
        for j in i + 1..accepted.len() {
            if !accepted[i].is_disjoint(&accepted[j]) {
                return None;
            }
        }
    }
    let covered: FxSet<&String> = accepted.iter().flatten().collect();
    Some(all?.iter().all(|s| covered.contains(s)))
}

fn is_symbol(e: &Expr, declared: &FxSet<&str>) -> bool {
    matches!(e.without_casts(), Expr::Ref(n, _) if !declared.contains(n.as_str()))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn exclusive_outgoing_tests_get_pragmas() {
        let (changed, out) = after(
            &InferDisjoint,
            "type N = { 1, 2, 3 };\nvar x: N = 1;\nbegin, a: x == 1;\nbegin, b: x == 2;\nbegin, c: x != 3;\n\
             a, d: x == 1;\na, e: x != 1;\nc, f: ? s -> t;\nc, g: ! s -> t;\nd, end: player = keeper;\ne, end: player = keeper;\n\
             f, end: player = keeper;\ng, end: player = keeper;\ns, t: ;\n",
        );
        assert!(changed);
        // `begin`'s tests overlap (x == 1 and x != 3): no pragma there.
        insta::assert_snapshot!(out, @r"
        @disjointExhaustive a : d e;
        @disjointExhaustive c : f g;
        type Player = { x };
        type Score = { 0 };
        type N = { 1, 2, 3 };
        var x: N = 1;
        begin, a: x == 1;
        begin, b: x == 2;
        begin, c: x != 3;
        a, d: x == 1;
        a, e: x != 1;
        c, f: ? s -> t;
        c, g: ! s -> t;
        d, end: player = keeper;
        e, end: player = keeper;
        f, end: player = keeper;
        g, end: player = keeper;
        s, t: ;
        ");
    }
}
