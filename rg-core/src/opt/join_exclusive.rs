//! Join exclusive edges (E): parallel edges with complementary conditions
//! (`? p -> q` / `! p -> q`, `l == r` / `l != r`) become one skip edge —
//! exactly one of them is legal in any state. Identical parallel edges are
//! kept once (they allow the same walks).

use std::collections::{HashMap, HashSet};

use crate::ast::{Edge, Game, Label};

use super::Pass;

pub struct JoinExclusiveEdges;

impl Pass for JoinExclusiveEdges {
    fn name(&self) -> &'static str {
        "join-exclusive-edges"
    }

    fn description(&self) -> &'static str {
        "complementary parallel edges become one skip; duplicate edges are kept once"
    }

    fn run(&self, game: &mut Game) -> bool {
        let before = game.edges.len();
        // Identical parallel edges.
        let mut seen: HashSet<Edge> = HashSet::new();
        game.edges.retain(|e| seen.insert(e.clone()));
        // Complementary pairs, found by the negation of each label.
        let mut index: HashMap<(String, String, Label), usize> = HashMap::new();
        for (k, e) in game.edges.iter().enumerate() {
            index.insert((e.from.clone(), e.to.clone(), e.label.clone()), k);
        }
        let mut removed = vec![false; game.edges.len()];
        let mut changed = false;
        for k in 0..game.edges.len() {
            if removed[k] {
                continue;
            }
            let e = &game.edges[k];
            let Some(negation) = negate(&e.label) else {
                continue;
            };
            let partner = index
                .get(&(e.from.clone(), e.to.clone(), negation.clone()))
                .or_else(|| {
                    swapped(&negation).and_then(|s| index.get(&(e.from.clone(), e.to.clone(), s)))
                });
            if let Some(&j) = partner {
                if j != k && !removed[j] {
                    removed[j] = true;
                    game.edges[k].label = Label::Skip;
                    changed = true;
                }
            }
        }
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            !removed[k - 1]
        });
        changed || game.edges.len() != before
    }
}

/// The complementary condition of a test label.
fn negate(label: &Label) -> Option<Label> {
    match label {
        Label::Compare { negated, lhs, rhs } => Some(Label::Compare {
            negated: !negated,
            lhs: lhs.clone(),
            rhs: rhs.clone(),
        }),
        Label::Reach { negated, from, to } => Some(Label::Reach {
            negated: !negated,
            from: from.clone(),
            to: to.clone(),
        }),
        _ => None,
    }
}

/// `r == l` for `l == r` (comparisons are symmetric).
fn swapped(label: &Label) -> Option<Label> {
    match label {
        Label::Compare { negated, lhs, rhs } => Some(Label::Compare {
            negated: *negated,
            lhs: rhs.clone(),
            rhs: lhs.clone(),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn complementary_and_duplicate_edges() {
        let (changed, out) = after(
            &JoinExclusiveEdges,
            "var v: Bool = 0;\nbegin, a: ? p -> q;\nbegin, a: ! p -> q;\na, b: v == 1;\na, b: 1 != v;\nb, c: $ t;\nb, c: $ t;\nc, d: v == 0;\nc, e: v != 0;\nd, end: player = keeper;\ne, end: player = keeper;\np, q: ;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: ;
        a, b: ;
        b, c: $ t;
        c, d: v == 0;
        c, e: v != 0;
        d, end: player = keeper;
        e, end: player = keeper;
        p, q: ;
        ");
    }
}
