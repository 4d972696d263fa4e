//! GDL (KIF) front end: parser, validation, the native top-down
//! [`Prover`], the conversion to the Datalog of `propnet` and the lowering
//! to RG.

pub use gdl_ast as ast;
pub mod lower;
pub mod parse;
pub use gdl_prover as prover;

pub use parse::{parse, Parsed};
pub mod deps;
pub mod display;
pub mod normalize;
pub mod strata;
pub mod to_datalog;
pub mod validate;

pub use gdl_prover::{Prover, ProverLimits, ProverState};
pub use lower::{lower, translate, Translation, TranslationStats};
pub use to_datalog::to_datalog;
pub use validate::{load, validate, Game};
