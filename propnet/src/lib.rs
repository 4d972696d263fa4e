//! Grounding and propositional networks for GDL.

pub mod datalog;
pub mod ground;
pub mod naming;
#[cfg(feature = "planted-bugs")]
pub mod planted;

pub use ground::{
    ground, ground_with_runtime, ground_without_invariants, GroundProgram, GroundingError,
    GroundingLimits,
};
pub mod model;
pub mod net;
pub mod runtime;

pub use model::{PropnetModel, PropnetMove, PropnetState};
