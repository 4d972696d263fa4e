//! Prune subsumed check branches (E): a reachability check only asks
//! whether *some* walk gets from its start to its target, so inside a
//! check's sub-automaton
//!
//! - a node from which the target is reached along actions that always
//!   succeed (skips, tags, assignments) succeeds as it is: its edges
//!   become one skip to the target;
//! - a test `L` leaving a node is redundant when the same test (from the
//!   node or after a skip) leads to such a node: any walk taking it could
//!   take the other one, in the same state, and succeed.
//!
//! `? a -> b; a, h: ; h, x: coord = up[coord]; x, h: board[coord] == e;
//! x, b: board[coord] == e;` loses the loop `x, h`: if the next square is
//! empty the check already succeeds. Only nodes used by checks alone (not
//! reached by plays from `begin`) and by checks of one target are changed.

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Edge, Game, Label};
use crate::builtins::BEGIN;

use crate::opt::Pass;

pub struct PruneSubsumedChecks;

impl Pass for PruneSubsumedChecks {
    fn name(&self) -> &'static str {
        "prune-subsumed-checks"
    }

    fn description(&self) -> &'static str {
        "inside reachability checks, drop branches that another branch surely covers"
    }

    fn run(&self, game: &mut Game) -> bool {
        let view = CheckView::new(&game.edges);
        let sure = view.sure();
        let mut drop = vec![false; game.edges.len()];
        let mut shortcut: Vec<(usize, usize)> = Vec::new(); // (node, target)
        for node in 0..view.names.len() {
            let Some(target) = view.target[node] else {
                continue;
            };
            if node == target {
                continue;
            }
            let leaving = &view.leaving[node];
            if sure[node] {
                let already = leaving.len() == 1
                    && matches!(game.edges[leaving[0]].label, Label::Skip)
                    && view.to[leaving[0]] == target;
                if !already {
                    for &k in leaving {
                        drop[k] = true;
                    }
                    shortcut.push((node, target));
                }
                continue;
            }
            // Tests that surely succeed from here, directly or after a skip.
            let mut covered: FxSet<&Label> = FxSet::default();
            let mut via_skip = Vec::new();
            for &k in leaving {
                let e = &game.edges[k];
                if matches!(e.label, Label::Skip) && view.target[view.to[k]] == Some(target) {
                    via_skip.push(view.to[k]);
                }
            }
            let sources = std::iter::once(node).chain(via_skip.iter().copied());
            for source in sources {
                for &k in &view.leaving[source] {
                    let e = &game.edges[k];
                    if matches!(e.label, Label::Compare { .. }) && sure[view.to[k]] {
                        covered.insert(&e.label);
                    }
                }
            }
            for &k in leaving {
                let e = &game.edges[k];
                if covered.contains(&e.label) && !sure[view.to[k]] {
                    drop[k] = true;
                }
            }
        }
        if !drop.iter().any(|&d| d) {
            return false;
        }
        let added: Vec<Edge> = shortcut
            .into_iter()
            .map(|(node, target)| Edge::new(view.names[node], view.names[target], Label::Skip))
            .collect();
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            !drop[k - 1]
        });
        game.edges.extend(added);
        true
    }
}

/// Nodes by index, with the check each check-only node belongs to.
struct CheckView<'g> {
    names: Vec<&'g str>,
    from: Vec<usize>,
    to: Vec<usize>,
    leaving: Vec<Vec<usize>>,
    edges: &'g [Edge],
    /// For nodes only checks use, all of them checks with one target: that
    /// target.
    target: Vec<Option<usize>>,
}

impl<'g> CheckView<'g> {
    fn new(edges: &'g [Edge]) -> Self {
        let mut ids: FxMap<&'g str, usize> = FxMap::default();
        let mut names: Vec<&'g str> = Vec::new();
        let mut id = |name: &'g str| -> usize {
            *ids.entry(name).or_insert_with(|| {
                names.push(name);
                names.len() - 1
            })
        };
        id(BEGIN);
        let mut from = Vec::with_capacity(edges.len());
        let mut to = Vec::with_capacity(edges.len());
        let mut checks: Vec<(usize, usize)> = Vec::new();
        for e in edges {
            from.push(id(&e.from));
            to.push(id(&e.to));
            if let Label::Reach { from, to, .. } = &e.label {
                checks.push((id(from), id(to)));
            }
        }
        let n = names.len();
        let mut leaving = vec![Vec::new(); n];
        for (k, &f) in from.iter().enumerate() {
            leaving[f].push(k);
        }
        // Nodes plays visit (walks from `begin`, not entering checks) are
        // never changed; nor are nodes shared by checks of two targets.
        let played = walk(&leaving, &to, 0);
        let mut state: Vec<Owner> = played
            .iter()
            .map(|&p| if p { Owner::Shared } else { Owner::Unseen })
            .collect();
        let mut stack: Vec<usize> = Vec::new();
        let claim = |node: usize, owner: Owner, state: &mut Vec<Owner>, stack: &mut Vec<usize>| {
            let next = match (state[node], owner) {
                (Owner::Unseen, o) => o,
                (Owner::Check(a), Owner::Check(b)) if a == b => return,
                (Owner::Shared, _) => return,
                _ => Owner::Shared,
            };
            state[node] = next;
            stack.push(node);
        };
        for &(start, goal) in &checks {
            claim(start, Owner::Check(goal), &mut state, &mut stack);
            while let Some(v) = stack.pop() {
                for &k in &leaving[v] {
                    claim(to[k], state[v], &mut state, &mut stack);
                }
            }
        }
        let target = state
            .iter()
            .map(|s| match s {
                Owner::Check(goal) => Some(*goal),
                _ => None,
            })
            .collect();
        CheckView {
            names,
            from,
            to,
            leaving,
            edges,
            target,
        }
    }

    /// Nodes from which their check's target is reached by actions that
    /// always succeed (backwards from the targets).
    fn sure(&self) -> Vec<bool> {
        let n = self.names.len();
        let mut entering = vec![Vec::new(); n];
        for (k, &w) in self.to.iter().enumerate() {
            entering[w].push(k);
        }
        let mut sure: Vec<bool> = (0..n).map(|v| self.target[v] == Some(v)).collect();
        let mut stack: Vec<usize> = (0..n).filter(|&v| sure[v]).collect();
        while let Some(w) = stack.pop() {
            for &k in &entering[w] {
                let v = self.from[k];
                if !sure[v]
                    && self.target[v].is_some()
                    && self.target[v] == self.target[w]
                    && always_succeeds(&self.edges[k].label)
                {
                    sure[v] = true;
                    stack.push(v);
                }
            }
        }
        sure
    }
}

/// Which checks use a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Unseen,
    /// Only checks with this target.
    Check(usize),
    /// Plays, or checks of different targets.
    Shared,
}

/// Actions that never fail (rg.md §5.3; assignments in a proper game).
fn always_succeeds(label: &Label) -> bool {
    matches!(
        label,
        Label::Skip
            | Label::Tag(_)
            | Label::VarTag(_)
            | Label::Assign { .. }
            | Label::AssignAny { .. }
    )
}

/// The nodes reached from `start` along edges (not into checks).
fn walk(leaving: &[Vec<usize>], to: &[usize], start: usize) -> Vec<bool> {
    let mut seen = vec![false; leaving.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(v) = stack.pop() {
        for &k in &leaving[v] {
            let w = to[k];
            if !seen[w] {
                seen[w] = true;
                stack.push(w);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn a_loop_whose_exit_already_succeeds_is_dropped() {
        let (changed, out) = after(
            &PruneSubsumedChecks,
            "type K = { a, b };\nconst up: K -> K = { :b };\nvar board: K -> K = { :a };\nvar coord: K = a;\n\
             begin, p: ? s -> t;\np, end: player = keeper;\n\
             s, h: ;\nh, x: coord = up[coord];\nx, h: board[coord] == a;\nx, t: board[coord] == a;\nx, t: board[coord] == b;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        const up: K -> K = { :b };
        var board: K -> K = { :a };
        var coord: K = a;
        begin, p: ? s -> t;
        p, end: player = keeper;
        s, h: ;
        h, x: coord = up[coord];
        x, t: board[coord] == a;
        x, t: board[coord] == b;
        ");
    }

    #[test]
    fn a_node_that_surely_succeeds_goes_straight_to_the_target() {
        let (changed, out) = after(
            &PruneSubsumedChecks,
            "type K = { a, b };\nvar x: K = a;\n\
             begin, p: ! s -> t;\np, end: player = keeper;\n\
             s, u: x == a;\nu, v: x = b;\nv, w: $ tag;\nw, t: ;\nu, t: x == b;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        var x: K = a;
        begin, p: ! s -> t;
        p, end: player = keeper;
        s, u: x == a;
        w, t: ;
        u, t: ;
        v, t: ;
        ");
    }

    #[test]
    fn nodes_plays_visit_are_kept() {
        // `u` is both in the check and on the move: untouched.
        let source = "type K = { a, b };\nvar x: K = a;\n\
                      begin, p: ? u -> t;\np, u: ;\nu, t: x = b;\nt, end: player = keeper;\n";
        let (changed, out) = after(&PruneSubsumedChecks, source);
        assert!(!changed, "{out}");
    }
}
