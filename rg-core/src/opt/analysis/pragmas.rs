//! The nodes pragmas name, which passes must keep, and the pragmas a
//! change of moves invalidates.

use crate::ast::{Game, PragmaKind};
use crate::fx_hash::FxSet;

/// The nodes a pragma names.
pub fn nodes_of(kind: &PragmaKind) -> Vec<&str> {
    match kind {
        PragmaKind::Disjoint { node, targets, .. } => std::iter::once(node)
            .chain(targets)
            .map(String::as_str)
            .collect(),
        PragmaKind::Repeat { nodes, .. }
        | PragmaKind::Unique(nodes)
        | PragmaKind::TagIndex { nodes, .. } => nodes.iter().map(String::as_str).collect(),
        PragmaKind::Iterator { nodes, .. } => nodes.iter().map(String::as_str).collect(),
        PragmaKind::SimpleApply(sa) => vec![sa.from.as_str(), sa.to.as_str()],
        _ => Vec::new(),
    }
}

/// Nodes named by the game's pragmas.
pub fn pragma_nodes(game: &Game) -> FxSet<String> {
    let mut nodes = FxSet::default();
    for p in &game.pragmas {
        match &p.kind {
            PragmaKind::Disjoint { node, targets, .. } => {
                nodes.insert(node.clone());
                nodes.extend(targets.iter().cloned());
            }
            PragmaKind::Repeat { nodes: n, .. }
            | PragmaKind::Unique(n)
            | PragmaKind::TagIndex { nodes: n, .. } => nodes.extend(n.iter().cloned()),
            PragmaKind::Iterator { nodes: n, .. } => nodes.extend(n.iter().cloned()),
            PragmaKind::SimpleApply(sa) => {
                nodes.insert(sa.from.clone());
                nodes.insert(sa.to.clone());
            }
            _ => {}
        }
    }
    nodes
}

/// Removes the pragmas that speak about tag positions and patterns
/// (`@tagIndex`, `@tagMaxIndex`, `@simpleApply`), for passes that remove
/// tags from moves.
pub fn drop_tag_pragmas(game: &mut Game) {
    game.pragmas.retain(|p| {
        !matches!(
            p.kind,
            PragmaKind::TagIndex { .. } | PragmaKind::SimpleApply(_)
        )
    });
}
