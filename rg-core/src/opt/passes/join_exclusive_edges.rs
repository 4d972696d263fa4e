//! Join exclusive edges (E): parallel edges with complementary conditions
//! (`? p -> q` / `! p -> q`, `l == r` / `l != r`) become one skip edge —
//! exactly one of them is legal in any state. Identical parallel edges are
//! kept once (they allow the same walks).

use crate::fx_hash::FxMap;
use std::collections::hash_map::Entry;

use crate::ast::{Expr, Game, Label};

use crate::opt::Pass;

pub struct JoinExclusiveEdges;

impl Pass for JoinExclusiveEdges {
    fn name(&self) -> &'static str {
        "join-exclusive-edges"
    }

    fn description(&self) -> &'static str {
        "complementary parallel edges become one skip; duplicate edges are kept once"
    }

    fn run(&self, game: &mut Game) -> bool {
        // Only parallel edges (same ends) can be duplicates or complements.
        let mut ends: FxMap<(&str, &str), usize> = FxMap::default();
        for e in &game.edges {
            *ends.entry((&e.from, &e.to)).or_default() += 1;
        }
        let parallel: Vec<bool> = game
            .edges
            .iter()
            .map(|e| ends[&(e.from.as_str(), e.to.as_str())] > 1)
            .collect();
        if !parallel.contains(&true) {
            return false;
        }
        // Identical parallel edges are kept once (the first).
        let mut index: FxMap<(&str, &str, Key), usize> = FxMap::default();
        let mut removed = vec![false; game.edges.len()];
        for (k, e) in game.edges.iter().enumerate() {
            if parallel[k] {
                let key = (e.from.as_str(), e.to.as_str(), Key::of(&e.label));
                match index.entry(key) {
                    Entry::Occupied(_) => removed[k] = true,
                    Entry::Vacant(slot) => {
                        slot.insert(k);
                    }
                }
            }
        }
        // Complementary pairs, found by the negation of each label.
        let mut skipped = vec![false; game.edges.len()];
        for k in 0..game.edges.len() {
            if !parallel[k] || removed[k] {
                continue;
            }
            let e = &game.edges[k];
            let partner = Key::of(&e.label)
                .negations()
                .into_iter()
                .flatten()
                .find_map(|n| index.get(&(e.from.as_str(), e.to.as_str(), n)).copied());
            if let Some(j) = partner {
                if j != k && !removed[j] {
                    removed[j] = true;
                    skipped[k] = true;
                }
            }
        }
        let changed = removed.contains(&true) || skipped.contains(&true);
        let mut k = 0;
        game.edges.retain_mut(|e| {
            k += 1;
            if skipped[k - 1] {
                e.label = Label::Skip;
            }
            !removed[k - 1]
        });
        changed
    }
}

/// A label as a lookup key, borrowed so that negations cost no copies
/// (equal keys, equal labels).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'a> {
    Compare(bool, &'a Expr, &'a Expr),
    Reach(bool, &'a str, &'a str),
    Other(&'a Label),
}

impl<'a> Key<'a> {
    fn of(label: &'a Label) -> Key<'a> {
        match label {
            Label::Compare { negated, lhs, rhs } => Key::Compare(*negated, lhs, rhs),
            Label::Reach { negated, from, to } => Key::Reach(*negated, from, to),
            _ => Key::Other(label),
        }
    }

    /// The complementary conditions: the negation, and for a comparison
    /// also the negation written the other way round (`r != l` for
    /// `l == r`).
    fn negations(self) -> [Option<Key<'a>>; 2] {
        match self {
            Key::Compare(negated, lhs, rhs) => [
                Some(Key::Compare(!negated, lhs, rhs)),
                Some(Key::Compare(!negated, rhs, lhs)),
            ],
            Key::Reach(negated, from, to) => [Some(Key::Reach(!negated, from, to)), None],
            Key::Other(_) => [None, None],
        }
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
