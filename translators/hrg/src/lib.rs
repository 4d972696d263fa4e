//! High-level Regular Games (HRG): parser, checker and lowering to RG
//! (hrg.md).

pub mod ast;
pub mod display;
pub mod eval;
pub mod parse;
pub mod value;
