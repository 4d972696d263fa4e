//! Analyses and helpers the passes share: the automaton as a graph, data
//! flow, expression types, expression rewriting, fresh names, pragmas and
//! whole-game facts.

pub mod dataflow;
pub mod exprs;
pub mod features;
pub mod graph;
pub mod names;
pub mod pragmas;
pub mod typing;
pub mod worklist;
