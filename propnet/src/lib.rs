//! Grounding and propositional networks for GDL.

pub mod datalog;
pub mod ground;
pub mod naming;

pub use ground::{ground, GroundProgram, GroundingError, GroundingLimits};
pub mod model;
pub mod net;

pub use model::{PropnetModel, PropnetMove, PropnetState};
