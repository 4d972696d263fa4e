//! GDL (KIF) front end: parser, validation, the native top-down
//! [`Prover`], the conversion to the Datalog of `propnet` and the lowering
//! to RG.

pub mod ast;
pub mod lower;
pub mod parse;
pub mod prover;

pub use parse::{parse, Parsed};
pub mod deps;
pub mod display;
pub mod normalize;
pub mod strata;
pub mod to_datalog;
pub mod validate;

pub use lower::{lower, translate, Translation, TranslationStats};
pub use prover::{Prover, ProverLimits, ProverState};
pub use to_datalog::to_datalog;
pub use validate::{load, validate, Game};
