//! High-level Regular Games (HRG): parser, checker and lowering to RG
//! (hrg.md).
//!
//! [`translate`] is the whole pipeline: parse, evaluate the declarations,
//! translate the graphs reachable from `rules`, and check the RG output
//! (its diagnostics point at the HRG source, since every generated
//! declaration and edge carries the span it came from).

pub mod ast;
pub mod display;
pub mod eval;
pub mod interpreter;
pub mod limits;
pub mod lower;
pub mod parse;
pub mod value;

pub use interpreter::Interpreter;
pub use lower::Translation;

use rg_core::diag::Diagnostic;

/// Parses and translates HRG source text into a checked RG game.
pub fn translate(source: &str) -> Result<Translation, Vec<Diagnostic>> {
    let program = parse::parse_program(source)?;
    lower::translate(&program)
}
