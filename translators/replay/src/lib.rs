//! replay (seed 004; reference ../shared/docs/replay.md): a language for
//! strategies in repeated games. This crate is the front end of issue #22,
//! built bottom-up: the lexer and parser (with diagnostics) exist; static
//! evaluation, the native model and the lowering to RG are still to come
//! (see docs/replay.md).

pub mod ast;
pub mod lexer;
pub mod parse;
