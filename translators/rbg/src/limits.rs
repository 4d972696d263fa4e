//! Size limits of the RBG front end (docs/reliability.md): inputs that
//! would need more are refused with a diagnostic naming the limit, instead
//! of exhausting memory or time. Raise one by editing it and rebuilding.

use rg_core::diag::{Diagnostic, Span};

/// Most vertices of a board (the slots of a generator's lines, holes
/// included, or the vertices of an explicit graph). The corpus's largest
/// board, go's, has 361; a 1000×1000 board took 17 s and 4 GB to translate.
pub const MAX_BOARD_VERTICES: usize = 100_000;
/// Most tokens a macro expansion may produce (exponential macros).
pub const MAX_MACRO_TOKENS: usize = 5_000_000;
/// Deepest nesting of macro calls and arguments.
pub const MAX_MACRO_DEPTH: usize = 200;
/// Most rule nodes all `^n` powers of the rules may copy together (`x^n`
/// copies the nodes of `x` n − 1 times, so nested powers multiply).
pub const MAX_POWER_ITEMS: usize = 1_000_000;

/// Where the limits are set, for the messages naming them.
pub const LIMITS_FILE: &str = "translators/rbg/src/limits.rs";

/// The refusal of a board past [`MAX_BOARD_VERTICES`], at the first vertex
/// (or slot) past it.
pub fn too_many_vertices(span: Span) -> Diagnostic {
    Diagnostic::error(
        format!("the board has more than {MAX_BOARD_VERTICES} vertices"),
        span,
    )
    .with_note(format!(
        "{MAX_BOARD_VERTICES} vertices is the limit of a board (raise MAX_BOARD_VERTICES in \
         {LIMITS_FILE} to allow more)"
    ))
}
