//! The lowering of GDL to RG (gdl.md §7): ground the game, then emit the
//! propnet as an automaton — one subautomaton per needed ground atom,
//! checked by reachability, and the turn loop in which every role chooses
//! an action (hidden from the others), the keeper computes the next state,
//! tests `terminal` and finally sets the goals.
//!
//! ```ignore
//! let t = gdl::translate(&source, &propnet::GroundingLimits::default())?;
//! println!("{}", rg_core::print::print_game(&t.game));
//! ```

mod analysis;
mod emit;
mod trie;

use std::time::{Duration, Instant};

use propnet::{GroundProgram, GroundingLimits};
use rg_core::ast::Game;
use rg_core::check::check_game;
use rg_core::diag::{has_errors, Diagnostic};

use crate::validate::Game as GdlGame;

/// A translated game.
#[derive(Clone, Debug)]
pub struct Translation {
    pub game: Game,
    /// Warnings of validation, lowering and the RG checker.
    pub warnings: Vec<Diagnostic>,
    pub stats: TranslationStats,
}

/// Sizes and times of one translation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TranslationStats {
    /// Parsing and validation.
    pub validation_time: Duration,
    pub grounding_time: Duration,
    /// Emission of the RG game and its check.
    pub lowering_time: Duration,
    /// Ground atoms and rules after simplification.
    pub atoms: usize,
    pub ground_rules: usize,
    /// Base facts (state variables) and actions of all roles.
    pub facts: usize,
    pub actions: usize,
    /// Nodes and edges of the RG automaton.
    pub nodes: usize,
    pub edges: usize,
}

/// Parses, validates, grounds and lowers a KIF text; the result passes
/// the RG checker. Errors are diagnostics: the front end's, a grounding
/// limit (naming the relation that grew too large), or a game that cannot
/// be translated (e.g. a role with no possible action).
pub fn translate(source: &str, limits: &GroundingLimits) -> Result<Translation, Vec<Diagnostic>> {
    let start = Instant::now();
    let game = crate::validate::load(source)?;
    let validation_time = start.elapsed();
    let start = Instant::now();
    let ground = propnet::ground(&crate::to_datalog(&game), limits)
        .map_err(|e| vec![Diagnostic::error(e.to_string(), None)])?;
    let grounding_time = start.elapsed();
    let mut translation = lower(&game, &ground)?;
    translation.stats.validation_time = validation_time;
    translation.stats.grounding_time = grounding_time;
    Ok(translation)
}

/// Lowers a validated game from its ground program (of
/// `propnet::ground(&gdl::to_datalog(game), …)`), and checks the result.
pub fn lower(game: &GdlGame, ground: &GroundProgram) -> Result<Translation, Vec<Diagnostic>> {
    let start = Instant::now();
    let emitted = emit::emit(ground)?;
    let diagnostics = check_game(&emitted.game);
    if has_errors(&diagnostics) {
        let mut errors: Vec<Diagnostic> = diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .map(|mut d| {
                d.message = format!(
                    "internal error: the translation is not valid RG: {}",
                    d.message
                );
                d
            })
            .collect();
        errors.truncate(20);
        return Err(errors);
    }
    let mut warnings = game.warnings.clone();
    warnings.extend(emitted.warnings);
    warnings.extend(diagnostics);
    let mut nodes = std::collections::HashSet::new();
    for e in &emitted.game.edges {
        nodes.insert(e.from.as_str());
        nodes.insert(e.to.as_str());
    }
    let stats = TranslationStats {
        atoms: ground.atoms.len(),
        ground_rules: ground.rules.len(),
        facts: ground.base_facts.len(),
        actions: ground.actions.iter().map(Vec::len).sum(),
        nodes: nodes.len(),
        edges: emitted.game.edges.len(),
        lowering_time: start.elapsed(),
        ..TranslationStats::default()
    };
    Ok(Translation {
        game: emitted.game,
        warnings,
        stats,
    })
}
