//! Expand variable tags (E): `a, b: $$ x;` with `x: {0, 1}` becomes
//! `a, b_0: x == 0; b_0, b: $ 0; a, b_1: x == 1; b_1, b: $ 1;`. Exactly
//! one comparison holds, and it emits the same tag as `$$ x` did, so moves
//! are unchanged; the game gets larger (one branch per symbol of the
//! variable's type). Available by name only.
//!
//! `@disjoint` pragmas of the expanded edges' sources are removed (they
//! would not list the new nodes).

use crate::fx_hash::{FxMap, FxSet};

use crate::ast::{Edge, Expr, Game, Label, PragmaKind};

use crate::opt::analysis::names::{Fresh, SymbolExprs};
use crate::opt::analysis::typing::Typing;
use crate::opt::Pass;

pub struct ExpandVariableTags;

impl Pass for ExpandVariableTags {
    fn name(&self) -> &'static str {
        "expand-variable-tags"
    }

    fn description(&self) -> &'static str {
        "$$ x becomes one branch x == c, $ c per symbol c of x's type (larger game)"
    }

    fn run(&self, game: &mut Game) -> bool {
        if !game
            .edges
            .iter()
            .any(|e| matches!(e.label, Label::VarTag(_)))
        {
            return false;
        }
        let typing = Typing::new(game);
        let mut fresh = Fresh::for_game(game);
        let mut symbols = SymbolExprs::new(game);
        let mut sources: FxSet<String> = FxSet::default();
        let mut edges = Vec::with_capacity(game.edges.len());
        let mut value_cache: FxMap<String, Option<Vec<String>>> = FxMap::default();
        for e in std::mem::take(&mut game.edges) {
            let Label::VarTag(var) = &e.label else {
                edges.push(e);
                continue;
            };
            let values = value_cache
                .entry(var.clone())
                .or_insert_with(|| {
                    let symbols = typing.variables.get(var)?.symbols()?;
                    let mut seen = FxSet::default();
                    Some(
                        symbols
                            .iter()
                            .filter(|s| seen.insert(s.as_str()))
                            .cloned()
                            .collect(),
                    )
                })
                .clone();
            let Some(values) = values else {
                edges.push(e);
                continue;
            };
            for value in &values {
                let middle = fresh.name(&format!("{}_{value}", e.to));
                edges.push(Edge {
                    at: e.at,
                    ..Edge::new(
                        e.from.clone(),
                        middle.clone(),
                        Label::Compare {
                            negated: false,
                            lhs: Expr::name(var.clone()),
                            rhs: symbols.expr(value, &mut fresh),
                        },
                    )
                });
                edges.push(Edge {
                    at: e.at,
                    ..Edge::new(middle, e.to.clone(), Label::Tag(value.clone()))
                });
            }
            sources.insert(e.from.clone());
        }
        game.edges = edges;
        symbols.finish(game);
        game.pragmas.retain(
            |p| !matches!(&p.kind, PragmaKind::Disjoint { node, .. } if sources.contains(node)),
        );
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn one_branch_per_value() {
        let (changed, out) = after(
            &ExpandVariableTags,
            "var v: Bool = 0;\nbegin, a: player = x;\na, b: $$ v;\nb, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        var v: Bool = 0;
        begin, a: player = x;
        a, b_0: v == 0;
        b_0, b: $ 0;
        a, b_1: v == 1;
        b_1, b: $ 1;
        b, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
    }

    #[test]
    fn shadowed_symbols_use_constants() {
        let (_, out) = after(
            &ExpandVariableTags,
            "type T = { u, w };\nvar u: T = u;\nbegin, a: $$ u;\na, end: player = keeper;\n",
        );
        insta::assert_snapshot!(out, @r"
        type T = { u, w };
        const __gen_sym_u: { u } = u;
        var u: T = u;
        begin, a_u: u == __gen_sym_u;
        a_u, a: $ u;
        begin, a_w: u == w;
        a_w, a: $ w;
        a, end: player = keeper;
        ");
        super::super::test_support::assert_checks(&out);
    }
}
