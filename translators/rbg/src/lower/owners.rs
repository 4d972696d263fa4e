//! Who moves where (rbg.md §5.10(b)): a forward propagation over the
//! constructed automaton from `begin`, where the keeper moves; a switch
//! edge hands the following edges to its player. Dead ends (`{}`, shifts
//! along missing edges, false conditions) stop the flow, so the result is
//! as precise as the automaton.
//!
//! Every modifier of the main rules is emitted with a fork
//! `player == keeper` (no tags) / `player != keeper` (`$$ coord`,
//! `$ index_i`); here each fork is resolved where only one side can move:
//! keeper moves carry no tags, so every keeper walk has the empty labelling
//! and the keeper has exactly one RG move. A keeper-to-keeper switch is
//! marked soft (see [`super::stuck`]).

use std::collections::VecDeque;

use rg_core::ast::{Expr, Label};

use super::graph::{Graph, Kind, BEGIN};
use super::stuck::Link;

pub(crate) const KEEPER: u8 = 1;
pub(crate) const PLAYER: u8 = 2;

/// Who can be on move at each node reachable from `begin` (a bit set of
/// [`KEEPER`] and [`PLAYER`]; 0 when unreachable).
pub(crate) fn node_owners(g: &Graph) -> Vec<u8> {
    let successors = g.successors();
    let mut owners = vec![0u8; g.node_count()];
    owners[BEGIN as usize] = KEEPER;
    let mut queue = VecDeque::from([BEGIN]);
    while let Some(n) = queue.pop_front() {
        for &k in &successors[n as usize] {
            let e = &g.edges[k];
            let out = match (&e.kind, &e.label) {
                (Kind::Switch, Label::Assign { rhs, .. }) => {
                    if matches!(rhs, Expr::Ref(p, _) if p == "keeper") {
                        KEEPER
                    } else {
                        PLAYER
                    }
                }
                _ => owners[n as usize],
            };
            let slot = &mut owners[e.to as usize];
            if *slot | out != *slot {
                *slot |= out;
                queue.push_back(e.to);
            }
        }
    }
    owners
}

/// Resolves the tag forks and marks keeper-to-keeper switches soft.
pub(crate) fn resolve(g: &mut Graph, links: &mut [Link]) {
    let owners = node_owners(g);
    for e in &mut g.edges {
        let owner = owners[e.from as usize];
        let (taken, other) = match e.kind {
            Kind::ExposeKeeper => (KEEPER, PLAYER),
            Kind::ExposePlayer => (PLAYER, KEEPER),
            _ => continue,
        };
        if owner & taken == 0 {
            e.kind = Kind::Deleted;
        } else if owner & other == 0 {
            e.label = Label::Skip;
            e.kind = Kind::Skip;
        } else {
            e.kind = Kind::Test;
        }
    }
    for link in links.iter_mut() {
        let e = &g.edges[link.edge];
        let to_keeper =
            matches!(&e.label, Label::Assign { rhs: Expr::Ref(p, _), .. } if p == "keeper");
        if e.kind == Kind::Switch && to_keeper && owners[e.from as usize] == KEEPER {
            link.soft = true;
        }
    }
}
