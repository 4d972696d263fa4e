//! The RG optimization pipeline (rg.md §9): passes that rewrite a game
//! without changing its game tree, run to a fixpoint.
//!
//! Each pass lives in its own module and implements [`Pass`]. Safety
//! classes (rg.md §9): **E** exact, **L** relabeling (same tree shape,
//! tags removed or renamed), **U** unsafe. The default pipeline
//! ([`default_pipeline`]) holds exact passes that shrink the game; the
//! size-increasing normalizations and expansions, the relabelings, the
//! extra pragma inference and the unsafe `reorder-conditions` are
//! available by name only ([`passes_by_name`]; [`all_passes`] lists them
//! all). Before the first pass, pragmas that name nodes or variables are
//! dropped: passes rename and merge nodes, which would make such hints
//! false (pragmas are hints; the engine does not need them).

mod add_casts;
mod compact_comparisons;
mod compact_reachability;
mod compact_skips;
mod dataflow;
mod expand_any;
mod expand_var_tags;
mod exprs;
mod graph;
mod infer_disjoint;
mod infer_tag_index;
mod inline_assignment;
mod inline_check_assignments;
mod inline_reachability;
mod join_exclusive;
mod join_prefixes;
mod join_suffixes;
mod mangle;
mod merge_accesses;
mod names;
mod normalize_constants;
mod normalize_types;
mod propagate_compared_values;
mod propagate_constants;
mod prune_self_loops;
mod prune_singleton_types;
mod prune_subsumed_checks;
mod prune_unreachable;
mod prune_unused;
mod reorder_conditions;
mod skip_artificial;
mod skip_dead_assignments;
mod skip_redundant;
mod skip_self;
mod skip_unread_entries;
mod skip_unused_tags;
mod typing;
mod worklist;

use crate::fx_hash::FxSet;
use std::time::{Duration, Instant};

use crate::ast::{Expr, Game, Label, PragmaKind};

/// A transformation of a checked game that preserves its game tree.
pub trait Pass {
    /// The name used by `--passes` and in traces.
    fn name(&self) -> &'static str;
    /// One-line description for `rgw translate --passes help`.
    fn description(&self) -> &'static str;
    /// Rewrites the game; returns whether anything changed.
    fn run(&self, game: &mut Game) -> bool;
    /// Final passes (analyses that add pragmas naming nodes) run once,
    /// after the fixpoint, so that no later rewriting invalidates them.
    fn is_final(&self) -> bool {
        false
    }
}

/// The passes run by `--optimize`, in order: exact passes that do not
/// grow the game.
pub fn default_pipeline() -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(propagate_constants::PropagateConstants),
        Box::new(inline_assignment::InlineAssignment),
        Box::new(propagate_compared_values::PropagateComparedValues),
        Box::new(skip_self::SkipSelfAssignments),
        Box::new(prune_self_loops::PruneSelfLoops),
        Box::new(join_exclusive::JoinExclusiveEdges),
        Box::new(prune_unreachable::PruneUnreachable),
        Box::new(compact_skips::CompactSkipEdges),
        Box::new(join_prefixes::JoinForkPrefixes),
        Box::new(join_suffixes::JoinForkSuffixes),
        Box::new(skip_dead_assignments::SkipDeadAssignments),
        Box::new(skip_unread_entries::SkipUnreadEntries),
        Box::new(prune_unused::PruneUnused),
        Box::new(prune_singleton_types::PruneSingletonTypes),
        Box::new(skip_unused_tags::SkipUnusedTags),
        Box::new(compact_comparisons::CompactComparisons),
        Box::new(inline_check_assignments::InlineCheckAssignments),
        Box::new(inline_reachability::InlineReachability),
        Box::new(prune_subsumed_checks::PruneSubsumedChecks),
        Box::new(merge_accesses::MergeAccesses),
        Box::new(infer_disjoint::InferDisjoint),
    ]
}

/// Passes available by name only (`--passes`), never run by default.
fn by_name_only() -> Vec<Box<dyn Pass>> {
    vec![
        // E, structural.
        Box::new(compact_reachability::CompactReachability),
        // E, normalizations and expansions (they grow the game).
        Box::new(expand_any::ExpandAnyAssignment),
        Box::new(expand_var_tags::ExpandVariableTags),
        Box::new(add_casts::AddExplicitCasts),
        Box::new(normalize_constants::NormalizeConstants),
        Box::new(normalize_types::NormalizeTypes),
        // E, pragma inference (final).
        Box::new(infer_tag_index::InferTagIndex),
        // L, relabelings: moves lose or rename tags.
        Box::new(mangle::MangleSymbols),
        Box::new(skip_redundant::SkipRedundantTags),
        Box::new(skip_artificial::SkipArtificialTags),
        // U: may change the game.
        Box::new(reorder_conditions::ReorderConditions),
    ]
}

/// Every pass: the default pipeline in its order, then the passes
/// available by name only.
pub fn all_passes() -> Vec<Box<dyn Pass>> {
    let mut passes = default_pipeline();
    passes.extend(by_name_only());
    passes
}

/// Looks passes up by name; unknown names are returned as the error.
pub fn passes_by_name(names: &[&str]) -> Result<Vec<Box<dyn Pass>>, String> {
    names
        .iter()
        .map(|name| {
            all_passes()
                .into_iter()
                .find(|p| p.name() == *name)
                .ok_or_else(|| name.to_string())
        })
        .collect()
}

/// Rounds of the fixpoint loop before giving up (each round runs every
/// pass once; real games settle in a handful).
const MAX_ROUNDS: usize = 100;

/// One run of one pass, as reported to [`optimize`]'s observer.
pub struct PassRun<'a> {
    pub pass: &'static str,
    /// Whether the pass changed the game.
    pub changed: bool,
    /// Wall-clock time the pass took.
    pub elapsed: Duration,
    /// The game after the pass.
    pub game: &'a Game,
}

/// Runs `passes` to a fixpoint on a copy of `game`. `observe` is called
/// after every run of every pass (for traces and timings). In debug
/// builds the checker runs after every change.
pub fn optimize(game: &Game, passes: &[Box<dyn Pass>], observe: &mut dyn FnMut(&PassRun)) -> Game {
    let mut g = game.clone();
    drop_location_pragmas(&mut g);
    let fixpoint: Vec<&dyn Pass> = passes
        .iter()
        .map(|p| p.as_ref())
        .filter(|p| !p.is_final())
        .collect();
    let last: Vec<&dyn Pass> = passes
        .iter()
        .map(|p| p.as_ref())
        .filter(|p| p.is_final())
        .collect();
    // Cycle through the passes until every one of them has run once on the
    // current game without changing it: a pass that already saw the final
    // game need not run again, which saves most of a last, idle round.
    let mut idle_in_a_row = 0;
    for pass in fixpoint.iter().cycle().take(MAX_ROUNDS * fixpoint.len()) {
        if idle_in_a_row == fixpoint.len() {
            break;
        }
        if run_observed(*pass, &mut g, observe) {
            idle_in_a_row = 0;
            debug_assert!(
                crate::check::is_clean(&crate::check::check_game(&g)),
                "pass {} produced an invalid game: {:?}",
                pass.name(),
                crate::check::check_game(&g)
            );
        } else {
            idle_in_a_row += 1;
        }
    }
    for pass in last {
        run_observed(pass, &mut g, observe);
    }
    g
}

/// Runs one pass, timing it and reporting the run.
fn run_observed(pass: &dyn Pass, game: &mut Game, observe: &mut dyn FnMut(&PassRun)) -> bool {
    let start = Instant::now();
    let changed = pass.run(game);
    observe(&PassRun {
        pass: pass.name(),
        changed,
        elapsed: start.elapsed(),
        game,
    });
    changed
}

/// Removes pragmas that name nodes or variables (see the module docs).
fn drop_location_pragmas(game: &mut Game) {
    game.pragmas.retain(|p| {
        matches!(
            p.kind,
            PragmaKind::ArtificialTag(_)
                | PragmaKind::Integer { .. }
                | PragmaKind::TranslatedFromRbg
                | PragmaKind::Unknown(_)
        )
    });
}

/// Nodes named by the game's pragmas.
pub(crate) fn pragma_nodes(game: &Game) -> FxSet<String> {
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

/// Whether some edge is a reachability check.
pub(crate) fn has_checks(game: &Game) -> bool {
    game.edges
        .iter()
        .any(|e| matches!(e.label, Label::Reach { .. }))
}

/// Whether the random player can be on move: some expression mentions the
/// symbol `random`. Passes that change which node a move ends at, or which
/// variables exist, avoid doing so in such games, because perft merges
/// random outcomes by state (rg.md §6).
pub(crate) fn has_random(game: &Game) -> bool {
    fn mentions(e: &Expr) -> bool {
        match e {
            Expr::Ref(name, _) => name == crate::builtins::RANDOM,
            Expr::Cast(_, inner, _) => mentions(inner),
            Expr::Access(m, k, _) => mentions(m) || mentions(k),
        }
    }
    game.edges.iter().any(|e| match &e.label {
        Label::Assign { rhs, .. } => mentions(rhs),
        Label::Compare { lhs, rhs, .. } => mentions(lhs) || mentions(rhs),
        _ => false,
    }) || game.constants.iter().any(|c| value_mentions(&c.value))
        || game.variables.iter().any(|v| value_mentions(&v.value))
}

/// Whether a constant's value mentions `random` (as `has_random` always
/// did, by substring), without printing the value.
fn value_mentions(value: &crate::ast::Value) -> bool {
    let random = |s: &str| s.contains(crate::builtins::RANDOM);
    match value {
        crate::ast::Value::Symbol(s, _) => random(s),
        crate::ast::Value::Map(entries, _) => entries
            .iter()
            .any(|e| e.key.as_deref().is_some_and(random) || value_mentions(&e.value)),
    }
}

/// Sizes of a game, for traces and `rgw stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    pub nodes: usize,
    pub edges: usize,
    pub variables: usize,
    pub constants: usize,
    pub state_bits: u64,
}

impl Size {
    pub fn of(game: &Game) -> Size {
        let mut nodes = FxSet::default();
        for e in &game.edges {
            nodes.insert(e.from.as_str());
            nodes.insert(e.to.as_str());
            if let Label::Reach { from, to, .. } = &e.label {
                nodes.insert(from.as_str());
                nodes.insert(to.as_str());
            }
        }
        let full = crate::builtins::with_builtins(game);
        let env = crate::types::TypeEnv::new(&full);
        let state_bits = full
            .variables
            .iter()
            .filter_map(|v| env.resolve(&v.ty).ok())
            .map(|t| bits(&t))
            .sum();
        Size {
            nodes: nodes.len(),
            edges: game.edges.len(),
            variables: game.variables.len(),
            constants: game.constants.len(),
            state_bits,
        }
    }
}

/// Bits needed to store a value of a resolved type.
fn bits(t: &crate::types::RType) -> u64 {
    match t.arrow() {
        None => {
            let n = t.symbols().map_or(1, <[String]>::len) as u64;
            u64::from(64 - n.saturating_sub(1).leading_zeros())
        }
        Some((key, value)) => key.symbols().map_or(0, <[String]>::len) as u64 * bits(value),
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use crate::ast::Game;
    use crate::parse::parse_game;
    use crate::print::print_game;

    pub const HEADER: &str = "type Player = { x };\ntype Score = { 0 };\n";

    /// Runs one pass once and prints the result.
    pub fn after(pass: &dyn super::Pass, source: &str) -> (bool, String) {
        let mut game: Game = parse_game(&format!("{HEADER}{source}")).unwrap();
        let changed = pass.run(&mut game);
        let printed = print_game(&game);
        (
            changed,
            printed.strip_prefix(HEADER).unwrap_or(&printed).to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_bits_count_every_slot() {
        let game = crate::parse::parse_game(
            "type Player = { x, o };\ntype Score = { 0 };\ntype Cell = { a, b, c, d, e };\nvar board: Cell -> { e, x, o } = { :e };\nvar flag: Bool = 0;\n",
        )
        .unwrap();
        let size = Size::of(&game);
        // board 5 × 2 bits, flag 1, goals 2 × 0, player 2 bits (4 values), visible 2 × 1.
        assert_eq!(size.state_bits, 10 + 1 + 2 + 2);
        assert_eq!(size.variables, 2);
    }

    #[test]
    fn random_moves_are_seen_in_initial_values_too() {
        let game = |value: &str| {
            crate::parse::parse_game(&format!(
                "type Player = {{ x }};\ntype Score = {{ 0 }};\nvar m: Bool -> PlayerOrSystem = {value};\nvar v: Bool = 0;\nbegin, end: player = m[v];\n"
            ))
            .unwrap()
        };
        assert!(has_random(&game("{ :random, 1: x }")));
        assert!(!has_random(&game("{ :keeper, 1: x }")));
    }
}
