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

mod analysis;
mod passes;

use crate::fx_hash::FxSet;
use std::fmt;
use std::time::{Duration, Instant};

use crate::ast::{Game, Label, PragmaKind};
use crate::check::{check_game, is_clean};
use crate::diag::Diagnostic;

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
        Box::new(passes::propagate_constants::PropagateConstants),
        Box::new(passes::inline_assignment::InlineAssignment),
        Box::new(passes::propagate_compared_values::PropagateComparedValues),
        Box::new(passes::skip_self_assignments::SkipSelfAssignments),
        Box::new(passes::prune_self_loops::PruneSelfLoops),
        Box::new(passes::join_exclusive_edges::JoinExclusiveEdges),
        Box::new(passes::prune_unreachable::PruneUnreachable),
        Box::new(passes::compact_skip_edges::CompactSkipEdges),
        Box::new(passes::join_fork_prefixes::JoinForkPrefixes),
        Box::new(passes::join_fork_suffixes::JoinForkSuffixes),
        Box::new(passes::skip_dead_assignments::SkipDeadAssignments),
        Box::new(passes::skip_unread_entries::SkipUnreadEntries),
        Box::new(passes::prune_unused::PruneUnused),
        Box::new(passes::prune_singleton_types::PruneSingletonTypes),
        Box::new(passes::skip_unused_tags::SkipUnusedTags),
        Box::new(passes::compact_comparisons::CompactComparisons),
        Box::new(passes::inline_check_assignments::InlineCheckAssignments),
        Box::new(passes::inline_reachability::InlineReachability),
        Box::new(passes::prune_subsumed_checks::PruneSubsumedChecks),
        Box::new(passes::merge_accesses::MergeAccesses),
        Box::new(passes::infer_disjoint::InferDisjoint),
    ]
}

/// Passes available by name only (`--passes`), never run by default.
fn by_name_only() -> Vec<Box<dyn Pass>> {
    vec![
        // E, structural.
        Box::new(passes::compact_reachability::CompactReachability),
        // E, normalizations and expansions (they grow the game).
        Box::new(passes::expand_any_assignment::ExpandAnyAssignment),
        Box::new(passes::expand_variable_tags::ExpandVariableTags),
        Box::new(passes::add_explicit_casts::AddExplicitCasts),
        Box::new(passes::normalize_constants::NormalizeConstants),
        Box::new(passes::normalize_types::NormalizeTypes),
        // E, pragma inference (final).
        Box::new(passes::infer_tag_index::InferTagIndex),
        // L, relabelings: moves lose or rename tags.
        Box::new(passes::mangle_symbols::MangleSymbols),
        Box::new(passes::skip_redundant_tags::SkipRedundantTags),
        Box::new(passes::skip_artificial_tags::SkipArtificialTags),
        // U: may change the game.
        Box::new(passes::reorder_conditions::ReorderConditions),
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

/// One run of one pass, as reported to [`optimize`]'s observer (the
/// observer sees the game before [`optimize_checked`] checks it).
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
/// builds the checker runs after every change, as in [`optimize_checked`],
/// and a pass whose output does not check panics.
pub fn optimize(game: &Game, passes: &[Box<dyn Pass>], observe: &mut dyn FnMut(&PassRun)) -> Game {
    run_to_fixpoint(game, passes, cfg!(debug_assertions), observe)
        .unwrap_or_else(|broke| panic!("{broke}"))
}

/// [`optimize`] with the checker run after every pass that changes the
/// game, in every build: the first pass whose output does not check is
/// the error. For tests and CI (checking costs about as much as the
/// passes). `game` must check; the function panics if it does not, since
/// no pass could be blamed.
pub fn optimize_checked(
    game: &Game,
    passes: &[Box<dyn Pass>],
    observe: &mut dyn FnMut(&PassRun),
) -> Result<Game, PassBrokeGame> {
    let diagnostics = check_game(game);
    if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
        panic!(
            "optimize_checked: the input game does not check: {}",
            error.message
        );
    }
    run_to_fixpoint(game, passes, true, observe)
}

/// A pass whose output does not check, as found by [`optimize_checked`].
#[derive(Clone, Debug)]
pub struct PassBrokeGame {
    /// The pass's name.
    pub pass: &'static str,
    /// The checker's diagnostics on the pass's output (some are errors).
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for PassBrokeGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pass `{}` produced an ill-formed game", self.pass)?;
        if let Some(error) = self.diagnostics.iter().find(|d| d.is_error()) {
            write!(f, ": {}", error.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for PassBrokeGame {}

/// The fixpoint loop of [`optimize`]; with `check_each_pass`, the checker
/// runs after every change.
fn run_to_fixpoint(
    game: &Game,
    passes: &[Box<dyn Pass>],
    check_each_pass: bool,
    observe: &mut dyn FnMut(&PassRun),
) -> Result<Game, PassBrokeGame> {
    let mut g = game.clone();
    drop_location_pragmas(&mut g);
    let fixpoint: Vec<&dyn Pass> = passes
        .iter()
        .map(std::convert::AsRef::as_ref)
        .filter(|p| !p.is_final())
        .collect();
    let last: Vec<&dyn Pass> = passes
        .iter()
        .map(std::convert::AsRef::as_ref)
        .filter(|p| p.is_final())
        .collect();
    let checked = |pass: &dyn Pass, g: &Game| -> Result<(), PassBrokeGame> {
        if !check_each_pass {
            return Ok(());
        }
        let diagnostics = check_game(g);
        if is_clean(&diagnostics) {
            Ok(())
        } else {
            Err(PassBrokeGame {
                pass: pass.name(),
                diagnostics,
            })
        }
    };
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
            checked(*pass, &g)?;
        } else {
            idle_in_a_row += 1;
        }
    }
    for pass in last {
        if run_observed(pass, &mut g, observe) {
            checked(pass, &g)?;
        }
    }
    Ok(g)
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

    /// Removes the first variable declaration, although the rules use it.
    struct DropUsedVariable;

    impl Pass for DropUsedVariable {
        fn name(&self) -> &'static str {
            "drop-used-variable"
        }

        fn description(&self) -> &'static str {
            "test only: breaks the game"
        }

        fn run(&self, game: &mut Game) -> bool {
            !game.variables.is_empty() && {
                game.variables.remove(0);
                true
            }
        }
    }

    const USES_A_VARIABLE: &str = "type Player = { x };\ntype Score = { 0 };\nvar v: Bool = 0;\nbegin, a: v = 1;\na, end: player = keeper;\n";

    #[test]
    fn the_checked_mode_names_the_pass_that_broke_the_game() {
        let game = crate::parse::parse_game(USES_A_VARIABLE).unwrap();
        let passes: Vec<Box<dyn Pass>> = vec![
            Box::new(passes::skip_self_assignments::SkipSelfAssignments),
            Box::new(DropUsedVariable),
        ];
        let mut ran = Vec::new();
        let broke = optimize_checked(&game, &passes, &mut |run| ran.push(run.pass)).unwrap_err();
        assert_eq!(broke.pass, "drop-used-variable");
        assert!(crate::diag::has_errors(&broke.diagnostics));
        let message = broke.to_string();
        assert!(
            message.starts_with("pass `drop-used-variable` produced an ill-formed game: "),
            "{message}"
        );
        assert!(message.len() > "pass `drop-used-variable` produced an ill-formed game: ".len());
        // The loop stops at the broken game.
        assert_eq!(ran, ["skip-self-assignments", "drop-used-variable"]);
    }

    #[test]
    fn the_checked_mode_returns_what_optimize_returns() {
        let game = crate::parse::parse_game(USES_A_VARIABLE).unwrap();
        let passes = default_pipeline();
        let checked = optimize_checked(&game, &passes, &mut |_| {}).unwrap();
        assert_eq!(checked, optimize(&game, &passes, &mut |_| {}));
    }
}
