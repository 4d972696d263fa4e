//! Inline check assignments (E): inside a check's sub-automaton the state
//! is thrown away once the target is reached, so when the part below the
//! check's start is a tree (every node after the start entered by one
//! edge only), each node is reached along one path and the assignments on
//! it can be replaced by substitution:
//! `? a -> c; a, b: x = m[x]; b, c: t[x] == w;` →
//! `? a -> c; a, b: ; b, c: t[m[x]] == w;`.
//! `compact-skip-edges` and `inline-reachability` then usually turn the
//! check into a single test.
//!
//! Any walk into the tree comes in through its start, and no node of the
//! tree assigns `player`, so no move passes through it: only checks see
//! the rewritten labels, and every test sees the values it saw before.
//! A substituted value whose type differs from the variable's gets a cast
//! to the variable's type, so that every access stays well typed.

use crate::ast::{At, Expr, Game, Label};
use crate::builtins::RESERVED_NODES;
use crate::fx_hash::{FxMap, FxSet};

use crate::opt::analysis::exprs::{rewrite, size};
use crate::opt::analysis::graph::{NodeId, NodeIndex};
use crate::opt::analysis::typing::Typing;
use crate::opt::analysis::{features, pragmas};
use crate::opt::Pass;

pub struct InlineCheckAssignments;

/// Largest tree rewritten (edges).
const MAX_EDGES: usize = 64;
/// Largest substituted expression (nodes); `merge-accesses` folds chains
/// of constant-map lookups afterwards.
const MAX_SIZE: usize = 32;

impl Pass for InlineCheckAssignments {
    fn name(&self) -> &'static str {
        "inline-check-assignments"
    }

    fn description(&self) -> &'static str {
        "in checks over tree-shaped sub-automata, assignments become skips and tests read the assigned expressions"
    }

    fn run(&self, game: &mut Game) -> bool {
        if !features::has_checks(game) {
            return false;
        }
        let rewrites = {
            let tree = Trees::new(game);
            let mut starts: Vec<NodeId> = Vec::new();
            let mut seen = FxSet::default();
            for ends in &tree.index.ends {
                if let Some((start, _)) = ends.reach {
                    if seen.insert(start) {
                        starts.push(start);
                    }
                }
            }
            starts
                .into_iter()
                .filter_map(|start| tree.rewrite_below(start))
                .flatten()
                .collect::<Vec<_>>()
        };
        let changed = !rewrites.is_empty();
        for (k, label) in rewrites {
            game.edges[k].label = label;
        }
        changed
    }
}

/// Variable → the expression (over the values at the tree's start) it
/// holds at a node of the tree.
type Substitution = FxMap<String, Expr>;

/// The game's automaton, indexed for finding trees below check starts.
struct Trees<'g> {
    game: &'g Game,
    index: NodeIndex<'g>,
    outgoing: Vec<Vec<usize>>,
    incoming: Vec<Vec<usize>>,
    /// Nodes where some check starts.
    check_starts: Vec<bool>,
    /// `begin`, `end` and nodes named by pragmas.
    fixed: Vec<bool>,
    typing: Typing,
}

impl<'g> Trees<'g> {
    fn new(game: &'g Game) -> Trees<'g> {
        let index = NodeIndex::new(game);
        let mut check_starts = vec![false; index.count()];
        for ends in &index.ends {
            if let Some((start, _)) = ends.reach {
                check_starts[start as usize] = true;
            }
        }
        let mut fixed = vec![false; index.count()];
        let pragma_nodes = pragmas::pragma_nodes(game);
        for name in pragma_nodes
            .iter()
            .map(String::as_str)
            .chain(RESERVED_NODES)
        {
            if let Some(id) = index.get(name) {
                fixed[id as usize] = true;
            }
        }
        Trees {
            game,
            outgoing: index.outgoing(),
            incoming: index.incoming(),
            index,
            check_starts,
            fixed,
            typing: Typing::new(game),
        }
    }

    /// The new labels of the tree below `start` (`None`: not a tree, an
    /// edge that cannot be rewritten, or nothing to do).
    fn rewrite_below(&self, start: NodeId) -> Option<Vec<(usize, Label)>> {
        if self.fixed[start as usize] {
            return None;
        }
        let mut rewrites = Vec::new();
        let mut assigns = false;
        let mut visited = 0;
        let mut stack = vec![(start, Substitution::default())];
        while let Some((node, substitution)) = stack.pop() {
            for &k in &self.outgoing[node as usize] {
                visited += 1;
                let next = self.index.ends[k].to;
                if visited > MAX_EDGES
                    || next == start
                    || self.fixed[next as usize]
                    || self.check_starts[next as usize]
                    || self.incoming[next as usize].len() != 1
                {
                    return None;
                }
                let label = &self.game.edges[k].label;
                let mut after = substitution.clone();
                let new_label = match label {
                    Label::Skip | Label::Tag(_) => None,
                    Label::Compare { negated, lhs, rhs } => Some(Label::Compare {
                        negated: *negated,
                        lhs: substitute(lhs, &substitution),
                        rhs: substitute(rhs, &substitution),
                    }),
                    Label::Assign { lhs, rhs } => {
                        let variable = self.plain_variable(lhs)?;
                        let value = self.typed(variable, substitute(rhs, &substitution))?;
                        after.insert(variable.to_string(), value);
                        assigns = true;
                        Some(Label::Skip)
                    }
                    // Tags reading a variable, nested checks (they see
                    // the real state) and any-assignments (a branch per
                    // value) are left alone.
                    Label::VarTag(_) | Label::Reach { .. } | Label::AssignAny { .. } => {
                        return None
                    }
                };
                if let Some(new_label) = new_label {
                    if new_label != *label {
                        rewrites.push((k, new_label));
                    }
                }
                stack.push((next, after));
            }
        }
        (assigns && !rewrites.is_empty()).then_some(rewrites)
    }

    /// The variable a whole-value assignment writes, if it may be
    /// replaced by substitution (not `player`: that would end a move).
    /// A cast on the left (`L(k) = c`) may store a value outside the
    /// variable's own type: such assignments stay.
    fn plain_variable<'e>(&self, lhs: &'e Expr) -> Option<&'e str> {
        match lhs {
            Expr::Ref(name, _)
                if name != crate::builtins::PLAYER_VAR
                    && self.typing.variables.contains_key(name.as_str()) =>
            {
                Some(name)
            }
            _ => None,
        }
    }

    /// `value` as a replacement for reads of `variable`: cast to the
    /// variable's type when its own type differs (`None`: too big, or the
    /// type has no name to cast to).
    fn typed(&self, variable: &str, value: Expr) -> Option<Expr> {
        if size(&value) > MAX_SIZE {
            return None;
        }
        let declared = self.typing.variables.get(variable)?;
        if self.typing.of(&value).is_some_and(|ty| ty.equals(declared)) {
            return Some(value);
        }
        // A cast does not re-key a map (only an assignment copies it key
        // by key): map values of another type stay assigned.
        if declared.arrow().is_some() {
            return None;
        }
        // A resolved type remembers the alias it was declared by.
        let name = declared.name.clone()?;
        Some(Expr::Cast(name, Box::new(value), At::NOWHERE))
    }
}

fn substitute(e: &Expr, substitution: &Substitution) -> Expr {
    if substitution.is_empty() {
        return e.clone();
    }
    rewrite(e, &|x| match x {
        Expr::Ref(name, _) => substitution.get(name.as_str()).cloned(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn tests_read_the_assigned_expressions() {
        let (changed, out) = after(
            &InlineCheckAssignments,
            "type K = { a, b, c };\nconst m: K -> K = { :c, a: b };\nconst t: K -> K = { :a };\nvar x: K = a;\n\
             begin, s: ! p -> q;\ns, end: player = keeper;\n\
             p, p1: x = m[x];\np1, p2: t[x] == b;\np2, p3: x = m[x];\np3, q: x != c;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b, c };
        const m: K -> K = { :c, a: b };
        const t: K -> K = { :a };
        var x: K = a;
        begin, s: ! p -> q;
        s, end: player = keeper;
        p, p1: ;
        p1, p2: t[m[x]] == b;
        p2, p3: ;
        p3, q: m[m[x]] != c;
        ");
    }

    #[test]
    fn branches_each_see_their_own_path() {
        let (changed, out) = after(
            &InlineCheckAssignments,
            "type K = { a, b, c };\nconst m: K -> K = { :c, a: b };\nvar x: K = a;\nvar y: K = a;\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: x = m[x];\np, p2: y = x;\np1, q: x == y;\np2, r: y == b;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b, c };
        const m: K -> K = { :c, a: b };
        var x: K = a;
        var y: K = a;
        begin, s: ? p -> q;
        s, end: player = keeper;
        p, p1: ;
        p, p2: ;
        p1, q: m[x] == y;
        p2, r: x == b;
        ");
    }

    #[test]
    fn values_of_other_types_are_cast() {
        let (changed, out) = after(
            &InlineCheckAssignments,
            "type K = { a, b };\ntype L = { a, b, c };\nconst m: L -> K = { :a };\nvar x: L = a;\nvar y: K = a;\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: x = y;\np1, q: m[x] == a;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type K = { a, b };
        type L = { a, b, c };
        const m: L -> K = { :a };
        var x: L = a;
        var y: K = a;
        begin, s: ? p -> q;
        s, end: player = keeper;
        p, p1: ;
        p1, q: m[L(y)] == a;
        ");
    }

    #[test]
    fn leaves_shared_and_looping_sub_automata_alone() {
        // `p1` is entered twice (a loop): the value of `x` there depends on
        // the walk.
        let looping = "type K = { a, b, c };\nconst m: K -> K = { :c, a: b };\nvar x: K = a;\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: x = m[x];\np1, p: x != c;\np1, q: x == b;\n";
        assert!(!after(&InlineCheckAssignments, looping).0);
        // The main automaton runs through `p1`: its state matters there.
        let shared = "type K = { a, b, c };\nconst m: K -> K = { :c, a: b };\nvar x: K = a;\n\
             begin, s: ? p -> q;\ns, p1: x == a;\n\
             p, p1: x = m[x];\np1, q: x == b;\nq, end: player = keeper;\n";
        assert!(!after(&InlineCheckAssignments, shared).0);
        // A nested check sees the real state.
        let nested = "type K = { a, b, c };\nconst m: K -> K = { :c, a: b };\nvar x: K = a;\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: x = m[x];\np1, q: ? u -> w;\nu, w: x == b;\n";
        assert!(!after(&InlineCheckAssignments, nested).0);
        // Moves end at `player` assignments: never substituted away.
        let player = "type K = { a, b };\nvar x: K = a;\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: player = keeper;\np1, q: x == b;\n";
        assert!(!after(&InlineCheckAssignments, player).0);
        // A cast on the left may store `c`, outside `k`'s own type.
        let widened = "type K = { a, b };\ntype L = { a, b, c };\nvar k: K = a;\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: L(k) = c;\np1, q: k == a;\n";
        assert!(!after(&InlineCheckAssignments, widened).0);
        // A cast does not re-key a map of another type.
        let maps = "type K = { a, b };\ntype K2 = { a, b, c };\ntype A = K -> Bool;\ntype A2 = K2 -> Bool;\n\
             var m: A = { :0 };\nvar z: A2 = { :0, c: 1 };\nvar y: A = { :0 };\n\
             begin, s: ? p -> q;\ns, end: player = keeper;\n\
             p, p1: m = z;\np1, q: m == y;\n";
        assert!(!after(&InlineCheckAssignments, maps).0);
    }
}
