//! Ordered choice for the keeper (rbg.md §5.11, first caveat).
//!
//! RBG only requires the keeper's *completion* to be unique: a keeper that
//! copies every changed square one move at a time may pick the squares in
//! any order (arimaa). The lowering merges consecutive keeper moves into
//! one RG move (see [`super::stuck`]), so every order ends in the same
//! state, but exploring all orders is exponential. So where the keeper
//! picks a vertex (`coord = T(*)`, e.g. "any square"), it takes the first
//! vertex (in the order of `T`) from which its current RBG move can be
//! completed, scanning with a successor map:
//!
//! ```text
//! n -> l: coord = v1;
//! l -> t: ? t' -> Y;                 (t' -> Y: the copied region)
//! l -> l1: ! t' -> Y;   l1 -> l2: coord = next[coord];   l2 -> l: coord != null;
//! ```
//!
//! Any non-empty subset of the keeper's walks that still contains a
//! completing walk gives the same completion, so this is exact. When the
//! move can be completed from every value, the first value is simply taken;
//! when from none, the edge is dropped.

use rg_core::ast::{Expr, Label, Type};
use rg_core::build::label::{assign, ne};

use super::graph::{reach, Graph, IrEdge, Kind};
use super::owners::{node_owners, KEEPER};
use super::stuck::{copy_region, Plan, Regions};

/// The scanned variable and what the scan needs.
pub(crate) struct Scan<'a> {
    /// The variable chosen (`coord`).
    pub variable: &'a str,
    /// The value after the last (`null`).
    pub none: &'a str,
    /// The values of a set type.
    pub symbols: &'a dyn Fn(&Type) -> Option<Vec<String>>,
    /// A successor map over the given values (`none` after the last).
    pub successor: &'a mut dyn FnMut(&[String]) -> Expr,
}

/// Applies the ordered choice to every keeper-only `coord = T(*)` edge of
/// the main rules.
pub(crate) fn order_keeper_choices(g: &mut Graph, scan: &mut Scan<'_>) {
    let owners = node_owners(g);
    let variable = Expr::name(scan.variable);
    let candidates: Vec<(usize, Vec<String>)> = g
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| owners[e.from as usize] == KEEPER)
        .filter_map(|(k, e)| match &e.label {
            Label::AssignAny { lhs, ty } if *lhs == variable => (scan.symbols)(ty)
                .filter(|values| !values.is_empty())
                .map(|values| (k, values)),
            _ => None,
        })
        .collect();
    if candidates.is_empty() {
        return;
    }
    let regions = Regions::new(g);
    let plans: Vec<Plan> = candidates
        .iter()
        .map(|(k, _)| regions.plan(g, g.edges[*k].to))
        .collect();
    let original = g.edges.len();
    for ((k, values), plan) in candidates.into_iter().zip(plans) {
        let IrEdge {
            from: n,
            to: t,
            origin,
            ..
        } = g.edges[k].clone();
        g.origin = origin;
        let first = assign(variable.clone(), Expr::name(values[0].clone()));
        match plan {
            Plan::End => g.edges[k].kind = Kind::Deleted,
            Plan::Keep => {
                g.edges[k].label = first;
                g.edges[k].kind = Kind::Assign;
            }
            Plan::Check { keep, sources } => {
                let (t_copy, y) = copy_region(g, original, &keep, &sources, t);
                let next = (scan.successor)(&values);
                g.edges[k].kind = Kind::Deleted;
                let scan_node = g.node_with_hint("scan");
                g.edge(n, scan_node, first, Kind::Assign);
                g.edge(scan_node, t, reach(false, t_copy, y), Kind::Check);
                let skipped = g.node_with_hint("scan");
                g.edge(scan_node, skipped, reach(true, t_copy, y), Kind::Check);
                let advanced = g.node_with_hint("scan");
                g.edge(
                    skipped,
                    advanced,
                    assign(variable.clone(), next.at_key(variable.clone())),
                    Kind::CoordLookup,
                );
                g.edge(
                    advanced,
                    scan_node,
                    ne(variable.clone(), Expr::name(scan.none)),
                    Kind::NullCheck,
                );
            }
        }
    }
    g.origin = None;
}
