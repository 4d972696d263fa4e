//! Pragma inference (E, adds pragmas only): `@tagIndex n1 … : i` for nodes
//! whose outgoing tags are always at position `i` of the move, and
//! `@tagMaxIndex n1 … : i` for nodes whose outgoing tags are at a position
//! ≤ `i`. Available by name only.
//!
//! A forward analysis over the moves: the set of possible numbers of tags
//! emitted since the move started, for every node a move search can visit
//! (from `begin`, restarting at 0 after every `player` assignment, never
//! entering reachability sub-automata, where tags are ignored). Positions
//! are tracked up to 63; a node that can be reached with more tags, or
//! along a cycle of tags, gets no pragma. Only nodes with an outgoing tag
//! edge are listed. This pass runs once, after the fixpoint: later
//! rewriting could merge the nodes a pragma names.

use crate::fx_hash::{FxMap, FxSet};
use std::collections::{BTreeMap, VecDeque};

use crate::ast::{Game, Pragma, PragmaKind};
use crate::builtins::{BEGIN, END};

use crate::opt::Pass;

pub struct InferTagIndex;

/// Possible positions as a bit set; `None`: unbounded.
type Positions = Option<u64>;

impl Pass for InferTagIndex {
    fn name(&self) -> &'static str {
        "infer-tag-index"
    }

    fn description(&self) -> &'static str {
        "add @tagIndex / @tagMaxIndex pragmas from tag positions since the last player assignment"
    }

    fn is_final(&self) -> bool {
        true
    }

    fn run(&self, game: &mut Game) -> bool {
        if game
            .pragmas
            .iter()
            .any(|p| matches!(p.kind, PragmaKind::TagIndex { .. }))
        {
            return false;
        }
        let facts = positions(game);
        let mut exact: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        let mut bounded: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        let mut listed = FxSet::default();
        for e in &game.edges {
            if !e.label.is_tag() || !listed.insert(e.from.as_str()) {
                continue;
            }
            let Some(Some(set)) = facts.get(e.from.as_str()) else {
                continue;
            };
            if *set == 0 {
                continue;
            }
            let max = u64::from(63 - set.leading_zeros());
            if set.count_ones() == 1 {
                exact.entry(max).or_default().push(e.from.clone());
            } else {
                bounded.entry(max).or_default().push(e.from.clone());
            }
        }
        let added: Vec<Pragma> = exact
            .into_iter()
            .map(|(index, nodes)| (false, index, nodes))
            .chain(
                bounded
                    .into_iter()
                    .map(|(index, nodes)| (true, index, nodes)),
            )
            .map(|(max, index, nodes)| Pragma::new(PragmaKind::TagIndex { max, nodes, index }))
            .collect();
        let changed = !added.is_empty();
        game.pragmas.extend(added);
        changed
    }
}

/// The possible tag positions at every node a move search can visit.
fn positions(game: &Game) -> FxMap<&str, Positions> {
    let mut outgoing: FxMap<&str, Vec<usize>> = FxMap::default();
    for (k, e) in game.edges.iter().enumerate() {
        outgoing.entry(&e.from).or_default().push(k);
    }
    let mut facts: FxMap<&str, Positions> = [(BEGIN, Some(1))].into_iter().collect();
    let mut queue: VecDeque<&str> = VecDeque::from([BEGIN]);
    while let Some(node) = queue.pop_front() {
        if node == END {
            continue;
        }
        let fact = facts[node];
        for &k in outgoing.get(node).map_or(&[][..], Vec::as_slice) {
            let e = &game.edges[k];
            let next: Positions = if e.label.is_player_assignment() {
                Some(1)
            } else if e.label.is_tag() {
                fact.and_then(|set| (set >> 63 == 0).then_some(set << 1))
            } else {
                fact
            };
            let old = facts.get(e.to.as_str()).copied();
            let joined = match (old, next) {
                (None, n) => n,
                (Some(None), _) | (_, None) => None,
                (Some(Some(a)), Some(b)) => Some(a | b),
            };
            if old != Some(joined) {
                facts.insert(&e.to, joined);
                queue.push_back(&e.to);
            }
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn positions_of_tags() {
        let (changed, out) = after(
            &InferTagIndex,
            "var v: Bool = 0;\nbegin, a: player = x;\na, b: $ t;\nb, c: $$ v;\nb, c: ;\nc, d: $ u;\nd, e: ? s -> s2;\n\
             e, e: v = 1;\ne, end: player = keeper;\ns, s2: $ w;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        @tagIndex a : 0;
        @tagIndex b : 1;
        @tagMaxIndex c : 2;
        type Player = { x };
        type Score = { 0 };
        var v: Bool = 0;
        begin, a: player = x;
        a, b: $ t;
        b, c: $$ v;
        b, c: ;
        c, d: $ u;
        d, e: ? s -> s2;
        e, e: v = 1;
        e, end: player = keeper;
        s, s2: $ w;
        ");
        super::super::test_support::assert_checks(&out);
    }
}
