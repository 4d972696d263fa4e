//! Where distinct move walks are sure to spell distinct tag sequences.
//!
//! Counting a state's moves means counting distinct tag sequences, which
//! takes a set of sequence hashes. Most games name every choice in a tag
//! right away: `pos = Square(*); $$ pos` names the square, and the
//! branches of `selectDir` each begin with their own `$ F`, `$ L`, `$ R`.
//! Then two walks that part at some choice emit different tags at the
//! same position right after it, so their sequences differ, and the
//! number of moves is the number of completed walks: no set is needed.
//!
//! A choice is a node with several edges or an any-assignment. It is
//! *named* when each option's first tag, met before any other choice or
//! the end of the move, tells the options apart: distinct constant tags
//! (at most one option may end the move instead), or, for `x = T(*)`
//! alone at its node, `$$ x` with `x` unchanged in between. A search may
//! count walks when no unnamed choice is reachable from its start.

use std::collections::VecDeque;

use super::program::{Action, CompiledEdge, NodeInfo, Scalar};

/// The longest run of single-edge nodes followed to an option's first tag.
const MAX_CHAIN: usize = 16;

/// How an option of a choice shows in the tag sequence.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FirstTag {
    /// It emits this tag first.
    Constant(u32),
    /// It ends the move without a tag.
    EndsMove,
    /// `x = T(*)` whose first tag is `$$ x`.
    AssignedSymbol,
}

/// Per node: whether a move search started there counts its moves by
/// completed walks (see the module documentation).
pub fn distinct_walks(
    edge_start: &[u32],
    edges: &[CompiledEdge],
    info: &[NodeInfo],
    end: u32,
) -> Vec<bool> {
    let n = info.len();
    let edges_of = |node: usize| &edges[edge_start[node] as usize..edge_start[node + 1] as usize];
    // Nodes that cannot finish a move are never entered by a move search.
    let entered = |node: usize| node != end as usize && info[node].can_finish_move;
    let mut predecessors: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut unnamed = VecDeque::new();
    let mut counts = vec![true; n];
    for node in (0..n).filter(|&m| entered(m)) {
        for e in edges_of(node) {
            if !matches!(e.action, Action::AssignPlayer(_)) {
                predecessors[e.target as usize].push(node as u32);
            }
        }
        if !choice_is_named(edge_start, edges, info, end, edges_of(node)) {
            counts[node] = false;
            unnamed.push_back(node);
        }
    }
    // Every node that can reach an unnamed choice counts sequences.
    while let Some(node) = unnamed.pop_front() {
        for &p in &predecessors[node] {
            if counts[p as usize] {
                counts[p as usize] = false;
                unnamed.push_back(p as usize);
            }
        }
    }
    counts
}

/// Whether a node's options (its edges, or its any-assignment's symbols)
/// are told apart by their first tags; true for a node with no choice.
fn choice_is_named(
    edge_start: &[u32],
    edges: &[CompiledEdge],
    info: &[NodeInfo],
    end: u32,
    options: &[CompiledEdge],
) -> bool {
    let first = |e: &CompiledEdge| first_tag(edge_start, edges, info, end, e);
    match options {
        [] => true,
        [only] if !matches!(only.action, Action::AssignAny { .. }) => true,
        // (A type may list a symbol twice: two walks would spell it.)
        [only] => {
            let Action::AssignAny { symbols, .. } = &only.action else {
                unreachable!("matched by the arm above")
            };
            let mut distinct = symbols.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            distinct.len() == symbols.len() && first(only) == Some(FirstTag::AssignedSymbol)
        }
        several => {
            let mut seen = Vec::with_capacity(several.len());
            for e in several {
                match first(e) {
                    Some(tag @ (FirstTag::Constant(_) | FirstTag::EndsMove))
                        if !seen.contains(&tag) =>
                    {
                        seen.push(tag);
                    }
                    _ => return false,
                }
            }
            true
        }
    }
}

/// The first tag of the walks that take edge `e`, when the same for all
/// of them and met within a run of single-edge nodes; `None` otherwise.
fn first_tag(
    edge_start: &[u32],
    edges: &[CompiledEdge],
    info: &[NodeInfo],
    end: u32,
    e: &CompiledEdge,
) -> Option<FirstTag> {
    // For an any-assignment, the variable whose value must be the tag;
    // the walk then goes on from the edge's target.
    let (assigned, mut action) = match &e.action {
        Action::AssignPlayer(_) => return Some(FirstTag::EndsMove),
        Action::AssignAny { target, .. } if target.steps.is_empty() => (Some(target.base), None),
        Action::AssignAny { .. } => return None,
        other => (None, Some(other)),
    };
    let mut target = e.target;
    for _ in 0..MAX_CHAIN {
        if let Some(action) = action {
            match (action, assigned) {
                (Action::Tag(t) | Action::VarTag(Scalar::Symbol(t)), None) => {
                    return Some(FirstTag::Constant(*t))
                }
                (Action::VarTag(Scalar::Slot(s)), Some(x)) if *s == x => {
                    return Some(FirstTag::AssignedSymbol)
                }
                (
                    Action::Skip
                    | Action::CompareScalars { .. }
                    | Action::Compare { .. }
                    | Action::Reach { .. },
                    _,
                ) => {}
                // A write could change the assigned variable; constant
                // tags do not mind it.
                (Action::Assign { .. }, None) => {}
                _ => return None,
            }
        }
        if target == end || !info[target as usize].single_step {
            return None;
        }
        let next = &edges[edge_start[target as usize] as usize];
        action = Some(&next.action);
        target = next.target;
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::engine::Engine;

    /// Whether the search from the node named `node` counts walks.
    fn counts_walks(source: &str, node: &str) -> bool {
        let engine = Engine::from_source(source, Default::default()).expect("game compiles");
        let p = engine.program();
        let id = p.nodes.iter().position(|n| n == node).expect("node exists");
        p.node_info[id].distinct_walks
    }

    const GAME: &str = "
        type Player = {one};
        type Score = {0, 1};
        type Square = {a, b, c};
        type Piece = {e, x};
        var board: Square -> Piece = {b: x, :e};
        var at: Square = a;
        begin, pick: player = PlayerOrSystem(one);
        pick, tagged: at = Square(*);
        tagged, dir: $$ at;
        dir, left: board[at] == Piece(x);
        left, done: $ L;
        dir, right: board[at] == Piece(e);
        right, done: $ R;
        done, end: player = PlayerOrSystem(keeper);
    ";

    #[test]
    fn named_choices_count_walks() {
        assert!(counts_walks(GAME, "pick"));
        assert!(counts_walks(GAME, "dir"));
    }

    #[test]
    fn options_with_the_same_first_tag_count_sequences() {
        let same = GAME.replace("right, done: $ R;", "right, done: $ L;");
        assert!(!counts_walks(&same, "dir"));
        assert!(!counts_walks(&same, "pick"), "pick reaches dir");
        assert!(counts_walks(&same, "done"));
    }

    #[test]
    fn a_symbol_changed_or_not_tagged_first_counts_sequences() {
        let changed = GAME.replace(
            "tagged, dir: $$ at;",
            "tagged, t2: at = Square(a);\nt2, dir: $$ at;",
        );
        assert!(!counts_walks(&changed, "pick"));
        let untagged = GAME.replace("tagged, dir: $$ at;", "tagged, dir: $ fixed;");
        assert!(!counts_walks(&untagged, "pick"));
    }

    #[test]
    fn a_symbol_listed_twice_counts_sequences() {
        let twice = GAME.replace("type Square = {a, b, c};", "type Square = {a, b, c, a};");
        assert!(!counts_walks(&twice, "pick"));
        let engine = Engine::from_source(&twice, Default::default()).expect("game compiles");
        let state = crate::model::ForwardModel::initial(&engine).expect("initial state");
        assert_eq!(
            crate::model::ForwardModel::count_moves(&engine, &state).unwrap(),
            3
        );
    }

    #[test]
    fn two_options_ending_the_move_count_sequences() {
        let both_end = GAME.replace(
            "dir, right: board[at] == Piece(e);",
            "dir, right: board[at] == Piece(e);\ndir, end2: player = PlayerOrSystem(keeper);\n\
             dir, end3: player = PlayerOrSystem(keeper);",
        ) + "end2, end: ;\nend3, end: ;\n";
        assert!(!counts_walks(&both_end, "dir"));
        let one_ends = GAME.replace(
            "dir, right: board[at] == Piece(e);",
            "dir, right: board[at] == Piece(e);\ndir, end2: player = PlayerOrSystem(keeper);",
        ) + "end2, end: ;\n";
        assert!(counts_walks(&one_ends, "dir"));
    }
}
