//! Grounding and propositional networks for GDL.

pub mod datalog;
pub mod naming;
