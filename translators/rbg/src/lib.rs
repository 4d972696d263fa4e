//! Regular Boardgames (RBG) front end: the high-level preprocessor, the
//! low-level parser and checker, and the native interpreter (rbg.md).
//!
//! Pipeline: high-level text --[`preprocess`]--> low-level text + source map
//! --[`parse::parse_ll`]--> [`ast::Game`] --[`check::check`]--> checked game
//! --[`Interpreter::new`]--> [`rg_core::model::ForwardModel`];
//! checked game --[`lower()`]--> RG game ([`translate`] runs it all).
//! [`parse_and_check`] runs the whole pipeline and reports every diagnostic
//! in the coordinates of the original source.

pub mod ast;
pub mod check;
pub mod interpreter;
pub mod lexer;
pub mod limits;
pub mod lower;
pub mod parse;
pub mod preprocess;

pub use interpreter::{Interpreter, Move, State};
pub use lower::{lower, lower_with, translate, translate_with, LowerOptions, Translation};
pub use preprocess::{preprocess, Preprocessed};

use rg_core::diag::Diagnostic;

/// The whole front end: preprocesses high-level (or low-level) text, parses
/// the low-level result and checks it. Every diagnostic points into `source`.
pub fn parse_and_check(source: &str) -> Result<ast::Game, Vec<Diagnostic>> {
    let preprocessed = preprocess(source)?;
    let map = &preprocessed.source_map;
    let mut game = parse::parse_ll(&preprocessed.text).map_err(|errors| {
        errors
            .into_iter()
            .map(|d| map.diagnostic(d))
            .collect::<Vec<_>>()
    })?;
    map.remap_game(&mut game);
    let errors = check::check(&game);
    if errors.is_empty() {
        Ok(game)
    } else {
        Err(errors)
    }
}
