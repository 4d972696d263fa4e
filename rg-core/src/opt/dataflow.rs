//! A forward data-flow framework over the rules automaton.
//!
//! Facts flow along edges from `begin`; a reachability check `? a -> b` on
//! an edge leaving `s` also makes the facts of `s` flow into `a` (the
//! sub-automaton runs on the state where the check is evaluated). The
//! result over-approximates every walk of every play, so whatever holds at
//! a node in the result holds whenever a walk is there.

use std::collections::{HashMap, VecDeque};

use crate::ast::{Edge, Game, Label};
use crate::builtins::BEGIN;

/// An analysis: its lattice of facts and how an edge transforms them.
pub trait Analysis {
    type Fact: Clone + PartialEq;

    /// The facts at `begin`.
    fn entry(&self) -> Self::Fact;
    /// The facts after taking `edge` with `fact` before it.
    fn transfer(&self, edge: &Edge, fact: &Self::Fact) -> Self::Fact;
    /// Least upper bound, in place; returns whether `into` changed.
    fn join(&self, into: &mut Self::Fact, other: &Self::Fact) -> bool;
}

/// The facts holding at each reachable node (absent: never reached).
pub fn solve<A: Analysis>(game: &Game, analysis: &A) -> HashMap<String, A::Fact> {
    let mut outgoing: HashMap<&str, Vec<&Edge>> = HashMap::new();
    for e in &game.edges {
        outgoing.entry(&e.from).or_default().push(e);
    }
    let mut facts: HashMap<String, A::Fact> = HashMap::new();
    facts.insert(BEGIN.to_string(), analysis.entry());
    let mut queue: VecDeque<String> = VecDeque::from([BEGIN.to_string()]);
    let mut queued: std::collections::HashSet<String> =
        std::collections::HashSet::from([BEGIN.to_string()]);
    while let Some(node) = queue.pop_front() {
        queued.remove(&node);
        let Some(fact) = facts.get(&node).cloned() else {
            continue;
        };
        for e in outgoing.get(node.as_str()).map_or(&[][..], Vec::as_slice) {
            let mut flows = vec![(e.to.as_str(), analysis.transfer(e, &fact))];
            if let Label::Reach { from, .. } = &e.label {
                flows.push((from.as_str(), fact.clone()));
            }
            for (target, new) in flows {
                let changed = match facts.get_mut(target) {
                    Some(old) => analysis.join(old, &new),
                    None => {
                        facts.insert(target.to_string(), new);
                        true
                    }
                };
                if changed && queued.insert(target.to_string()) {
                    queue.push_back(target.to_string());
                }
            }
        }
    }
    facts
}
