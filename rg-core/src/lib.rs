//! `rg_core` — the Regular Games (RG) hub: AST, parser, canonical printer,
//! checker, builder for translators, the compiled engine and the generic
//! tools over [`model::ForwardModel`].

pub mod ast;
pub mod build;
pub mod builtins;
pub mod check;
pub mod diag;
pub mod dot;
pub mod engine;
pub mod fx_hash;
pub mod joint;
pub mod model;
pub mod opt;
pub mod parallel;
pub mod parse;
pub mod print;
pub mod syntax;
pub mod types;
pub mod verify;
