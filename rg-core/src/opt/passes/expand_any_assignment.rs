//! Expand any-assignment (E): `x = C(*)` becomes one parallel edge
//! `x = c` per symbol `c` of `C`, in `C`'s order. The move search does the
//! same either way (one alternative per symbol), so moves and states are
//! unchanged; the game gets larger. Available by name only.
//!
//! `@iterator` pragmas about an expanded edge and `@disjoint` pragmas of
//! its source node (which now has several legal edges to one target) are
//! removed.

use crate::fx_hash::FxSet;

use crate::ast::{Edge, Game, Label, PragmaKind};
use crate::builtins::with_builtins;
use crate::types::TypeEnv;

use crate::opt::analysis::names::{Fresh, SymbolExprs};
use crate::opt::Pass;

pub struct ExpandAnyAssignment;

impl Pass for ExpandAnyAssignment {
    fn name(&self) -> &'static str {
        "expand-any-assignment"
    }

    fn description(&self) -> &'static str {
        "x = C(*) becomes one parallel edge x = c per symbol c of C (larger game)"
    }

    fn run(&self, game: &mut Game) -> bool {
        if !game
            .edges
            .iter()
            .any(|e| matches!(e.label, Label::AssignAny { .. }))
        {
            return false;
        }
        let full = with_builtins(game);
        let env = TypeEnv::new(&full);
        let mut fresh = Fresh::for_game(game);
        let mut symbols = SymbolExprs::new(game);
        let mut expanded: FxSet<(String, String)> = FxSet::default();
        let mut edges = Vec::with_capacity(game.edges.len());
        for e in std::mem::take(&mut game.edges) {
            let Label::AssignAny { lhs, ty } = &e.label else {
                edges.push(e);
                continue;
            };
            let Some(values) = env
                .resolve(ty)
                .ok()
                .and_then(|t| t.symbols().map(<[String]>::to_vec))
            else {
                edges.push(e);
                continue;
            };
            let mut seen = FxSet::default();
            for value in values.iter().filter(|v| seen.insert(v.as_str())) {
                edges.push(Edge {
                    at: e.at,
                    ..Edge::new(
                        e.from.clone(),
                        e.to.clone(),
                        Label::Assign {
                            lhs: lhs.clone(),
                            rhs: symbols.expr(value, &mut fresh),
                        },
                    )
                });
            }
            expanded.insert((e.from.clone(), e.to.clone()));
        }
        game.edges = edges;
        symbols.finish(game);
        game.pragmas.retain(|p| match &p.kind {
            PragmaKind::Iterator { nodes, .. } => {
                !expanded.contains(&(nodes[0].clone(), nodes[1].clone()))
            }
            PragmaKind::Disjoint { node, .. } => !expanded.iter().any(|(from, _)| from == node),
            _ => true,
        });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn one_edge_per_symbol() {
        let (changed, out) = after(
            &ExpandAnyAssignment,
            "type C = { a, b, c };\nvar x: C = a;\nvar m: C -> C = { :a };\nvar b: C = a;\n\
             begin, s: x = C(*);\ns, t: m[x] = { a, b }(*);\nt, end: player = keeper;\n",
        );
        assert!(changed);
        // `b` is also a variable: the symbol is reached through a constant.
        insta::assert_snapshot!(out, @r"
        type C = { a, b, c };
        const __gen_sym_b: { b } = b;
        var x: C = a;
        var m: C -> C = { :a };
        var b: C = a;
        begin, s: x = a;
        begin, s: x = __gen_sym_b;
        begin, s: x = c;
        s, t: m[x] = a;
        s, t: m[x] = __gen_sym_b;
        t, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
        let (changed, _) = after(&ExpandAnyAssignment, "begin, end: player = keeper;\n");
        assert!(!changed);
    }
}
