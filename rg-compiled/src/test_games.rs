//! Small games the analyses' tests share (tests only).

use rg_core::engine::program::Program;
use rg_core::engine::{Engine, EngineOptions};

pub fn program(source: &str) -> Program {
    match Engine::from_source(source, EngineOptions::default()) {
        Ok(e) => e.program().clone(),
        Err(d) => panic!("{d:?}"),
    }
}

pub fn node(p: &Program, name: &str) -> usize {
    p.nodes.iter().position(|n| n == name).expect("node")
}

pub fn slot(p: &Program, variable: &str) -> u32 {
    p.variables
        .iter()
        .find(|(n, _, _)| n == variable)
        .map(|(_, base, _)| *base)
        .expect("variable")
}

pub const HEADER: &str = "
    type Player = { one };
    type Score = { 0 };
    type Piece = { e, x, null };
    type Square = { a, b, c };
    type SquareOrNull = { null, a, b, c };
    const right: SquareOrNull -> SquareOrNull = { :null, a: b, b: c };
    const left: SquareOrNull -> SquareOrNull = { :null, b: a, c: b };
";
