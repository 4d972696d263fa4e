//! The HRG native model (hrg.md §4.14): a [`ForwardModel`] that executes
//! an HRG program directly, statement by statement, without translating
//! it to RG. Its purpose is to be an *independent* semantics against which
//! the translation ([`crate::translate`] run by the RG engine) is checked
//! with `rg_core::verify::verify`.
//!
//! # What it shares with the translation, and why that is safe
//!
//! Only the front end and the definitions both sides must agree on:
//!
//! * [`crate::parse`] and [`crate::ast`]: the program text means the same
//!   tree to both (a parser bug would show in both, but the parser has its
//!   own tests; the point here is the lowering).
//! * [`crate::value`]: the value type, its RG serialization (§3.4), the
//!   natural order (§3.2) and the map-compression rule (§2.4). These *are*
//!   the specification of how HRG values become RG symbols; move texts
//!   must be identical on both sides for the comparison to be possible.
//! * [`crate::eval::Domains`]: the enumeration of domains (§2.1), which
//!   defines the element order (player order, enumeration order of
//!   `branch x in T`) — hrg.md §4.14 says domains are shared.
//! * [`crate::limits`]: the size limits (repeat counts, expanded
//!   statements), so that both refuse the same programs.
//!
//! Everything else is the interpreter's own: static evaluation of
//! initializers and function bodies ([`statics`]: each constant function
//! compiled once into a decision list of match instructions over numbered
//! slots, map literals enumerated by an odometer), constant functions
//! applied on demand at run time (no tables), name resolution and checks
//! ([`setup`]), control positions as continuations over the statement
//! tree ([`control`]) instead of automaton nodes, and the walk search
//! ([`search`]). It never uses the lowering module, its static evaluator
//! and pattern matcher (of the static evaluation module only `Domains`)
//! or the RG game builder; `tests/interpreter_independence.rs` enforces
//! that.
//!
//! # Semantics (rg.md §5 at the level of statements)
//!
//! A state is a control position (or the terminal position after `end()`)
//! and a semistate. The moves of a state are the distinct tag sequences
//! of the walks that run until the next `player = …` (or `end()`, which is
//! `player = keeper` into the terminal position); two walks with the same
//! tags must reach the same state. Keeper moves are applied automatically
//! (exactly one keeper move, else an error), like the RG engine with
//! default options. Graph parameters and the return addresses of reusable
//! graphs are part of the semistate, as they are variables in RG.
//!
//! Known limitation: hrg.md §5.7–5.8 give a reusable graph *one* body,
//! whose `end()` target is fixed by its first instantiation; the
//! interpreter treats `end()` uniformly (end of game in a move, success in
//! a reachability test), which differs only for a reusable graph that
//! contains `end()` and is both called and tested.

mod control;
mod expr;
mod ir;
mod model;
mod search;
mod setup;
mod statics;
mod values;

use std::cell::RefCell;

use rg_core::diag::Diagnostic;

use control::{Control, Frame, NONE};
use expr::Runtime;
use setup::Game;

pub use model::{Move, State};

/// Search steps allowed per move generation (the engine's default bound).
pub const DEFAULT_STEP_LIMIT: u64 = 200_000_000;

/// How the interpreter runs a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpreterOptions {
    /// Read keys outside a map's key type as the map's innermost default
    /// (like `EngineOptions::lenient`); writes to such keys still fail.
    pub lenient: bool,
    /// Search steps allowed in one move generation.
    pub step_limit: u64,
}

impl Default for InterpreterOptions {
    fn default() -> Self {
        InterpreterOptions {
            lenient: false,
            step_limit: DEFAULT_STEP_LIMIT,
        }
    }
}

/// The native HRG model.
pub struct Interpreter {
    game: Game,
    runtime: RefCell<Runtime>,
    options: InterpreterOptions,
    start: u32,
}

impl Interpreter {
    /// Parses and checks HRG source text (strict reads).
    pub fn new(source: &str) -> Result<Interpreter, Vec<Diagnostic>> {
        Interpreter::with_options(source, InterpreterOptions::default())
    }

    pub fn with_options(
        source: &str,
        options: InterpreterOptions,
    ) -> Result<Interpreter, Vec<Diagnostic>> {
        let program = crate::parse::parse_program(source)?;
        let (mut game, symbols) = setup::build(&program)?;
        let mut control = Control::new();
        let sites = control::first_call_sites(&game.ir, &mut control)
            .map_err(|message| vec![Diagnostic::error(message, None)])?;
        for (slot, site) in sites {
            game.initial.set(slot, site);
        }
        let root = control.root_env(&game.ir);
        let end = control.kont(Frame::Graph, NONE);
        let start = control.kont(
            Frame::Seq {
                block: game.ir.graphs[game.ir.rules as usize].body,
                index: 0,
                env: root,
            },
            end,
        );
        Ok(Interpreter {
            game,
            runtime: RefCell::new(Runtime::new(symbols, control)),
            options,
            start,
        })
    }

    pub fn options(&self) -> InterpreterOptions {
        self.options
    }
}
