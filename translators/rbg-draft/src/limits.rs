//! Size limits of the draft front end: inputs that would need more are
//! refused with a diagnostic naming the limit instead of exhausting memory,
//! time or the stack.

/// Deepest nesting of macro calls and arguments.
pub const MAX_MACRO_DEPTH: usize = 200;
/// Most tokens all macro expansions may produce together.
pub const MAX_MACRO_TOKENS: usize = 5_000_000;
/// Deepest nesting of parentheses in movement expressions and formulas
/// (the parser and every tree walk recurse on it).
pub const MAX_NESTING: usize = 200;
/// Most squares of a board.
pub const MAX_SQUARES: u64 = 100_000;
/// Most letters (steps and markers) an expression may have once its `^n`
/// powers are expanded (nested powers multiply); the interpreter and the
/// lowering both build that many transitions.
pub const MAX_LETTERS: u64 = 100_000;
/// Most semimoves in one turn and writes in one semimove before the
/// interpreter reports the description as improper (rbg-draft.md §5.5).
/// The searches recurse once per semimove and per write, so these also
/// bound the stack they use.
pub const MAX_SEMIMOVES: usize = 500;
pub const MAX_WRITES: usize = 500;
/// Most semimoves one turn's moves may hold together. Semimoves that end
/// without a marker chain, so a turn's moves can multiply with every link
/// (each of seven drops writing any of three pieces per row is 3^6 moves a
/// link); past this the interpreter reports the turn as too large instead of
/// exhausting memory.
pub const MAX_TURN_SEMIMOVES: usize = 1_000_000;
