//! Reading GDL text into the AST: prefix KIF (gdl.md §1.1–1.3) or the
//! infix syntax (§1.6), chosen by looking at the text.

#![warn(clippy::cast_possible_truncation)] // user data is read here

mod infix;
mod parsed;
mod prefix;

use rg_core::diag::Diagnostic;

pub use infix::parse_infix;
pub use parsed::{Parsed, MAX_NESTING, MAX_SENTENCE_BYTES};
pub use prefix::parse_prefix;

/// Parses a KIF (or infix GDL) text. On failure, returns every syntax error
/// found (and the warnings so far).
pub fn parse(source: &str) -> Result<Parsed, Vec<Diagnostic>> {
    if infix::looks_infix(source) {
        infix::parse_infix(source)
    } else {
        prefix::parse_prefix(source)
    }
}
