//! Drops edges that no walk can use: those leaving nodes unreachable from
//! `begin` or from the start of a reachability check (rbg-draft.md §10.6;
//! e.g. the "semimove proper" exit of a level whose words all end with a
//! marker). The RG checker would warn about them.

use std::collections::{HashMap, HashSet};

use rg_core::ast::{Game, Label};

pub fn prune(game: &mut Game) {
    let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, edge) in game.edges.iter().enumerate() {
        out.entry(edge.from.as_str()).or_default().push(k);
    }
    let mut seen: HashSet<String> = HashSet::new();
    let mut stack = vec!["begin".to_string()];
    seen.insert("begin".to_string());
    while let Some(node) = stack.pop() {
        for &k in out.get(node.as_str()).map_or(&[][..], Vec::as_slice) {
            let edge = &game.edges[k];
            let mut next = vec![edge.to.clone()];
            if let Label::Reach { from, .. } = &edge.label {
                next.push(from.clone());
            }
            for n in next {
                if seen.insert(n.clone()) {
                    stack.push(n);
                }
            }
        }
    }
    game.edges.retain(|e| seen.contains(&e.from));
}
