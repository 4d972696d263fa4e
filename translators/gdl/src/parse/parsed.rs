//! What both syntaxes' parsers produce, and the limit they share.

use rg_core::diag::Diagnostic;

use crate::ast::Description;

/// A successfully parsed description plus the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub description: Description,
    pub warnings: Vec<Diagnostic>,
}

/// Deepest accepted nesting of parentheses (the corpus needs about 30).
pub const MAX_NESTING: usize = 500;

/// Longest top-level sentence of prefix KIF, in bytes, from its `(` to its
/// `)` (the corpus's longest is a few kilobytes). The reader's cost grows
/// with the square of a sentence's length.
pub const MAX_SENTENCE_BYTES: usize = 65_536;
