//! The early Regular Boardgames draft (2017, `.rbgd`; rbg-draft.md).
//!
//! Pipeline: text --[`macros::preprocess`]--> expanded sections
//! --[`parse::parse`]--> [`ast::Game`] --[`check::check`]--> checked game;
//! then either --[`Interpreter::new`]--> native
//! [`rg_core::model::ForwardModel`] or --[`lower()`]--> RG game
//! ([`translate`] runs it all and checks the RG output).
//!
//! The interpreter and the lowering share only [`ast`]: they are separate
//! modules that never call each other (see `tests/independence.rs`), so the
//! differential perft check compares two independent readings of the
//! semantics.

pub mod ast;
pub mod check;
pub mod interpreter;
pub mod lexer;
pub mod limits;
pub mod lower;
pub mod macros;
pub mod parse;

pub use interpreter::{Interpreter, Move, State};
pub use lower::lower;

use rg_core::diag::{has_errors, Diagnostic};

/// A checked description and the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Checked {
    pub game: ast::Game,
    pub warnings: Vec<Diagnostic>,
}

/// Preprocesses, parses and checks draft source text. Every diagnostic
/// points into `source`; on failure the warnings come along with the errors.
pub fn parse_and_check(source: &str) -> Result<Checked, Vec<Diagnostic>> {
    let sections = macros::preprocess(source)?;
    let parsed = parse::parse(source, sections)?;
    let mut diagnostics = parsed.warnings.clone();
    diagnostics.extend(check::check(&parsed, source));
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(diagnostics);
    }
    Ok(Checked {
        game: parsed.game,
        warnings: diagnostics,
    })
}

/// A translated game and the RG checker's warnings about it.
#[derive(Clone, Debug)]
pub struct Translation {
    pub game: rg_core::ast::Game,
    pub warnings: Vec<Diagnostic>,
}

/// Parses, checks and lowers draft source; the RG result must pass the RG
/// checker (its warnings come along).
pub fn translate(source: &str) -> Result<Translation, Vec<Diagnostic>> {
    let checked = parse_and_check(source)?;
    let game = lower(&checked.game)?;
    let diagnostics = rg_core::check::check_game(&game);
    if has_errors(&diagnostics) {
        return Err(diagnostics
            .into_iter()
            .filter(Diagnostic::is_error)
            .map(|d| d.with_note("in the RG translation (a translator bug; please report it)"))
            .collect());
    }
    Ok(Translation {
        game,
        warnings: diagnostics,
    })
}
