//! Compact comparisons (E): parallel comparisons of one expression against
//! constants, `a, b: x == 1; a, b: x == 2;` with `x: {1, 2, 3}`, become the
//! smaller equivalent `a, b: x != 3;` (a chain of `!=` edges for the
//! symbols not listed, or one skip when all are listed).

use std::collections::{BTreeMap, HashSet};

use crate::ast::{Edge, Expr, Game, Label};

use super::names::declared_names;
use super::typing::Typing;
use super::Pass;

pub struct CompactComparisons;

/// Parallel `subject == symbol` edges: the subject, the symbols, the edges.
type Group = (Expr, Vec<String>, Vec<usize>);

impl Pass for CompactComparisons {
    fn name(&self) -> &'static str {
        "compact-comparisons"
    }

    fn description(&self) -> &'static str {
        "parallel x == c edges become fewer x != d edges"
    }

    fn run(&self, game: &mut Game) -> bool {
        let typing = Typing::new(game);
        let declared = declared_names(game);
        // (from, to, printed expression) → (expression, symbols, edge indices)
        let mut groups: BTreeMap<(String, String, String), Group> = BTreeMap::new();
        for (k, e) in game.edges.iter().enumerate() {
            let Label::Compare {
                negated: false,
                lhs,
                rhs,
            } = &e.label
            else {
                continue;
            };
            for (subject, constant) in [(lhs, rhs), (rhs, lhs)] {
                if let Expr::Ref(symbol, _) = constant.without_casts() {
                    if !declared.contains(symbol.as_str())
                        && !matches!(subject.without_casts(), Expr::Ref(s, _) if !declared.contains(s.as_str()))
                    {
                        let entry = groups
                            .entry((e.from.clone(), e.to.clone(), subject.to_string()))
                            .or_insert_with(|| (subject.clone(), Vec::new(), Vec::new()));
                        entry.1.push(symbol.clone());
                        entry.2.push(k);
                        break;
                    }
                }
            }
        }
        let mut nodes: HashSet<String> = game
            .edges
            .iter()
            .flat_map(|e| [e.from.clone(), e.to.clone()])
            .collect();
        let mut removed = vec![false; game.edges.len()];
        let mut added: Vec<Edge> = Vec::new();
        let mut counter = 0;
        for ((from, to, _), (subject, symbols, edges)) in groups {
            if edges.len() < 2 {
                continue;
            }
            let Some(all) = typing
                .of(&subject)
                .and_then(|t| t.symbols().map(<[String]>::to_vec))
            else {
                continue;
            };
            let listed: HashSet<&String> = symbols.iter().collect();
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
            let mut current = from.clone();
            for (i, symbol) in rest.iter().enumerate() {
                let next = if i + 1 == rest.len() {
                    to.clone()
                } else {
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
