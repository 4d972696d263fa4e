//! A forward data-flow framework over the rules automaton.
//!
//! Facts flow along edges from `begin`; a reachability check `? a -> b` on
//! an edge leaving `s` also makes the facts of `s` flow into `a` (the
//! sub-automaton runs on the state where the check is evaluated). The
//! result over-approximates every walk of every play, so whatever holds at
//! a node in the result holds whenever a walk is there.

use crate::fx_hash::FxMap;
use std::borrow::Cow;

use crate::ast::{Edge, Game};
use crate::builtins::BEGIN;

use super::graph::NodeIndex;
use super::worklist::{Direction, Worklist};

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
pub struct Solution<F> {
    ids: FxMap<String, u32>,
    /// Per node id.
    facts: Vec<Option<F>>,
}

impl<F> Solution<F> {
    /// The facts at a node.
    pub fn get(&self, node: &str) -> Option<&F> {
        self.facts[*self.ids.get(node)? as usize].as_ref()
    }
}

/// The facts before each edge (at its source; absent: never reached),
/// for passes that walk the edges: no node names are kept.
pub struct EdgeFacts<F> {
    /// Node id of each edge's source, in `game.edges` order.
    sources: Vec<u32>,
    /// Per node id.
    facts: Vec<Option<F>>,
}

impl<F> EdgeFacts<F> {
    /// The facts before edge `k` of the solved game.
    pub fn before(&self, k: usize) -> Option<&F> {
        self.facts[self.sources[k] as usize].as_ref()
    }
}

/// Solves `analysis` over the game.
pub fn solve<A: Analysis>(game: &Game, analysis: &A) -> Solution<A::Fact> {
    let index = NodeIndex::new(game);
    let facts = fixpoint(game, &index, analysis);
    Solution {
        ids: index
            .into_ids()
            .into_iter()
            .map(|(name, id)| (name.to_string(), id))
            .collect(),
        facts,
    }
}

/// Solves `analysis` over the game, for lookups by edge.
pub fn solve_by_edge<A: Analysis>(game: &Game, analysis: &A) -> EdgeFacts<A::Fact> {
    let index = NodeIndex::new(game);
    EdgeFacts {
        facts: fixpoint(game, &index, analysis),
        sources: index.ends.iter().map(|e| e.from).collect(),
    }
}

/// The facts per node id. Nodes are worked on in reverse postorder (see
/// [`Worklist`]), each edge in game order: analyses whose transfer is not
/// monotone (bounded fact sets) get the same result on every run.
fn fixpoint<A: Analysis>(game: &Game, index: &NodeIndex, analysis: &A) -> Vec<Option<A::Fact>> {
    let nodes = index.count();
    let outgoing = index.outgoing();
    let begin = index.get(BEGIN);
    let mut solver = Solver {
        analysis,
        facts: vec![None; nodes],
        queue: Worklist::new(index, begin.as_slice(), Direction::Forward),
    };
    if let Some(begin) = begin {
        solver.flow(begin, Cow::Owned(analysis.entry()));
    }
    while let Some(node) = solver.queue.pop() {
        let n = node as usize;
        // The node's facts are moved out while its edges are followed,
        // unless they flow back into it (then a copy is followed).
        let loops = outgoing[n].iter().any(|&k| {
            let ends = index.ends[k];
            ends.to == node || ends.reach.is_some_and(|(start, _)| start == node)
        });
        let fact = if loops {
            solver.facts[n].clone()
        } else {
            solver.facts[n].take()
        };
        let Some(fact) = fact else {
            continue;
        };
        for &k in &outgoing[n] {
            let ends = index.ends[k];
            solver.flow(
                ends.to,
                Cow::Owned(analysis.transfer(&game.edges[k], &fact)),
            );
            // The check's sub-automaton runs on the state before the edge.
            if let Some((start, _)) = ends.reach {
                solver.flow(start, Cow::Borrowed(&fact));
            }
        }
        if !loops {
            solver.facts[n] = Some(fact);
        }
    }
    solver.facts
}

struct Solver<'a, A: Analysis> {
    analysis: &'a A,
    facts: Vec<Option<A::Fact>>,
    queue: Worklist,
}

impl<A: Analysis> Solver<'_, A> {
    /// Joins `new` into the facts of `target`, queueing it if they grew.
    fn flow(&mut self, target: u32, new: Cow<'_, A::Fact>) {
        let changed = match &mut self.facts[target as usize] {
            Some(old) => self.analysis.join(old, &new),
            slot @ None => {
                *slot = Some(new.into_owned());
                true
            }
        };
        if changed {
            self.queue.push(target);
        }
    }
}
