//! Compact comparisons (E): parallel comparisons of one expression against
//! constants, `a, b: x == 1; a, b: x == 2;` with `x: {1, 2, 3}`, become the
//! smaller equivalent `a, b: x != 3;` (a chain of `!=` edges for the
//! symbols not listed, or one skip when all are listed).

use crate::fx_hash::{FxMap, FxSet};
use std::collections::BTreeMap;

use crate::ast::{Edge, Expr, Game, Label};

use crate::opt::analysis::names::declared_names;
use crate::opt::analysis::typing::Typing;
use crate::opt::Pass;

pub struct CompactComparisons;

/// Parallel `subject == symbol` edges: the subject, the symbols, the edges.
type Group<'g> = (&'g Expr, Vec<&'g String>, Vec<usize>);

impl Pass for CompactComparisons {
    fn name(&self) -> &'static str {
        "compact-comparisons"
    }

    fn description(&self) -> &'static str {
        "parallel x == c edges become fewer x != d edges"
    }

    fn run(&self, game: &mut Game) -> bool {
        let declared = declared_names(game);
        // Each edge's `subject == symbol` comparison, if it has one.
        let tests: Vec<Option<(&Expr, &String)>> = game
            .edges
            .iter()
            .map(|e| test(&e.label, &declared))
            .collect();
        // Only ends with two such edges can have a group to compact.
        let mut parallel: FxMap<(&str, &str), usize> = FxMap::default();
        for (e, test) in game.edges.iter().zip(&tests) {
            if test.is_some() {
                *parallel.entry((&e.from, &e.to)).or_default() += 1;
            }
        }
        if parallel.values().all(|&n| n < 2) {
            return false;
        }
        // (from, to, printed expression) → (expression, symbols, edge indices)
        let mut groups: BTreeMap<(&str, &str, String), Group> = BTreeMap::new();
        for (k, (e, test)) in game.edges.iter().zip(&tests).enumerate() {
            let Some((subject, symbol)) = *test else {
                continue;
            };
            if parallel[&(e.from.as_str(), e.to.as_str())] < 2 {
                continue;
            }
            let entry = groups
                .entry((&e.from, &e.to, subject.to_string()))
                .or_insert_with(|| (subject, Vec::new(), Vec::new()));
            entry.1.push(symbol);
            entry.2.push(k);
        }
        let typing = Typing::new(game);
        // Node names, gathered when a new one is first needed.
        let mut nodes: Option<FxSet<String>> = None;
        let mut removed = vec![false; game.edges.len()];
        let mut added: Vec<Edge> = Vec::new();
        let mut counter = 0;
        for ((from, to, _), (subject, symbols, edges)) in groups {
            if edges.len() < 2 {
                continue;
            }
            let Some(all) = typing
                .of(subject)
                .and_then(|t| t.symbols().map(<[String]>::to_vec))
            else {
                continue;
            };
            let listed: FxSet<&String> = symbols.into_iter().collect();
            if listed.iter().any(|s| !all.contains(s)) {
                continue;
            }
            let rest: Vec<&String> = all.iter().filter(|s| !listed.contains(s)).collect();
            if rest.len() >= listed.len() || rest.iter().any(|s| declared.contains(s.as_str())) {
                continue;
            }
            let at = game.edges[edges[0]].at;
            for &k in &edges {
                removed[k] = true;
            }
            let mut current = from.to_string();
            for (i, symbol) in rest.iter().enumerate() {
                let next = if i + 1 == rest.len() {
                    to.to_string()
                } else {
                    let nodes = nodes.get_or_insert_with(|| {
                        game.edges
                            .iter()
                            .flat_map(|e| [e.from.clone(), e.to.clone()])
                            .collect()
                    });
                    loop {
                        counter += 1;
                        let candidate = format!("{from}_ne{counter}");
                        if nodes.insert(candidate.clone()) {
                            break candidate;
                        }
                    }
                };
                added.push(Edge {
                    at,
                    ..Edge::new(
                        current,
                        next.clone(),
                        Label::Compare {
                            negated: true,
                            lhs: subject.clone(),
                            rhs: Expr::name((*symbol).clone()),
                        },
                    )
                });
                current = next;
            }
            if rest.is_empty() {
                added.push(Edge {
                    at,
                    ..Edge::new(from, to, Label::Skip)
                });
            }
        }
        if added.is_empty() && !removed.iter().any(|&r| r) {
            return false;
        }
        let mut k = 0;
        game.edges.retain(|_| {
            k += 1;
            !removed[k - 1]
        });
        game.edges.extend(added);
        true
    }
}

/// `subject == symbol` (either way round), with `symbol` a symbol no
/// declaration shadows and `subject` not a bare symbol.
fn test<'g>(label: &'g Label, declared: &FxSet<&str>) -> Option<(&'g Expr, &'g String)> {
    let Label::Compare {
        negated: false,
        lhs,
        rhs,
    } = label
    else {
        return None;
    };
    [(lhs, rhs), (rhs, lhs)]
        .into_iter()
        .find_map(|(subject, constant)| match constant.without_casts() {
            Expr::Ref(symbol, _)
                if !declared.contains(symbol.as_str())
                    && !matches!(subject.without_casts(), Expr::Ref(s, _) if !declared.contains(s.as_str())) =>
            {
                Some((subject, symbol))
            }
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::after;
    use super::*;

    #[test]
    fn parallel_equalities_become_fewer_inequalities() {
        let (changed, out) = after(
            &CompactComparisons,
            "type N = { 1, 2, 3 };\nvar x: N = 1;\nbegin, b: x == 1;\nbegin, b: 2 == x;\nb, c: x == 1;\nb, c: x == 2;\nb, c: x == 3;\nc, end: player = keeper;\n",
        );
        assert!(changed);
        insta::assert_snapshot!(out, @r"
        type N = { 1, 2, 3 };
        var x: N = 1;
        c, end: player = keeper;
        b, c: ;
        begin, b: x != 3;
        ");
    }
}
