//! Grounding and propositional networks for GDL.

pub mod datalog;
pub mod ground;
pub mod naming;
#[cfg(feature = "planted-bugs")]
pub mod planted;

pub use ground::{ground, GroundProgram, GroundingError, GroundingLimits};
pub mod model;
pub mod net;

pub use model::{PropnetModel, PropnetMove, PropnetState};
