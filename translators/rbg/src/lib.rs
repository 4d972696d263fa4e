//! Regular Boardgames (RBG) front end: the high-level preprocessor, the
//! low-level parser and checker, and the native interpreter (rbg.md).
//!
//! Pipeline: high-level text --[`preprocess`]--> low-level text + source map
//! --[`parse::parse_ll`]--> [`ast::Game`] --[`check::check`]--> checked game
//! --[`Interpreter::new`]--> [`rg_core::model::ForwardModel`].
//! [`parse_and_check`] runs the whole pipeline and reports every diagnostic
//! in the coordinates of the original source.

pub mod ast;
pub mod check;
pub mod interpreter;
pub mod lexer;
pub mod parse;

pub use interpreter::{Interpreter, Move, State};

use rg_core::diag::Diagnostic;

/// Parses and checks low-level text (temporary until the preprocessor lands).
pub fn parse_and_check(source: &str) -> Result<ast::Game, Vec<Diagnostic>> {
    let game = parse::parse_ll(source)?;
    let errors = check::check(&game);
    if errors.is_empty() {
        Ok(game)
    } else {
        Err(errors)
    }
}
