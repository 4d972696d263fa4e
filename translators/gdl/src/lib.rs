//! GDL (KIF) front end: parser, validation, the native non-ground
//! [`Reasoner`] and the conversion to the Datalog of `propnet`.

pub mod ast;
pub mod infix;
pub mod parse;

pub use parse::{parse, Parsed};
