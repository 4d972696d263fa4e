//! The checked graph bodies in the form the interpreter executes: the
//! statement tree of hrg.md §4 with numbered statements and blocks (so
//! that a control position is a small tuple), names resolved to
//! variables, constant functions, parameters, `branch`/`repeat`
//! variables or symbols (§3.3), and conditions restricted to §4.13.
//!
//! This is still the source's structure — no nodes, edges or generated
//! names: loops stay loops, calls stay calls.

use std::rc::Rc;

use crate::ast;

use super::values::Ty;

pub(super) type BlockId = u32;
pub(super) type StmtId = u32;
pub(super) type GraphId = u32;

/// A graph declaration reachable from `rules`.
pub(super) struct Graph {
    pub reusable: bool,
    /// One slot region per parameter (a global variable, §2.6).
    pub params: Vec<Param>,
    pub body: BlockId,
    /// The return-address slot of a reusable graph (§5.7): which call
    /// site last entered it. It is part of the state in RG too.
    pub return_slot: Option<u32>,
}

pub(super) struct Param {
    pub slot: u32,
    pub ty: Rc<Ty>,
}

/// A global name in an expression, resolved as RG does (§3.1 of rg.md):
/// a constant function, else a variable, else the symbol itself.
#[derive(Clone, Copy, Debug)]
pub(super) enum Global {
    Func(u32),
    Var(u32),
    Sym(u32),
}

/// A runtime expression (§3.3).
pub(super) enum RExpr {
    Global(Global),
    /// A parameter of the current graph: its slot region.
    Param(u32, Rc<Ty>),
    /// A `branch x in` / `repeat x in` variable, replaced by the value of
    /// the current copy (then resolved like a global name).
    Sub(String),
    /// `e[k]`, and `f(a, b)` as `f[a][b]`.
    Access(Box<RExpr>, Box<RExpr>),
    /// A constructor, evaluated statically with the `branch`/`repeat`
    /// variables of the current copy bound (`id` keys a cache).
    Ctor {
        id: u32,
        expr: ast::Expr,
    },
}

/// A condition (§4.13).
pub(super) enum Cond {
    Eq {
        left: RExpr,
        right: RExpr,
        negated: bool,
    },
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
    True,
    False,
    /// `reachable(g(args))`; `id` identifies the test (a copy of `g` per
    /// test for non-reusable graphs).
    Reach {
        graph: GraphId,
        args: Vec<RExpr>,
        id: u32,
    },
}

/// An assignment target: a variable and its accessors.
pub(super) struct Target {
    pub var: u32,
    pub accessors: Vec<RExpr>,
}

/// A tag `$ s` / `$(a b)` / `$_ s`: its symbols, each possibly a
/// `branch`/`repeat` variable; `fixed` when none is.
pub(super) struct TagParts {
    pub parts: Vec<String>,
    pub fixed: Option<u32>,
}

pub(super) enum Stmt {
    Assign {
        target: Target,
        value: RExpr,
    },
    /// `player = e`: ends the move (rg.md §5.4).
    AssignPlayer(RExpr),
    AssignAny {
        target: Target,
        symbols: Vec<u32>,
    },
    Branch(Vec<BlockId>),
    BranchIn {
        var: String,
        symbols: Vec<u32>,
        body: BlockId,
    },
    RepeatIn {
        var: String,
        symbols: Vec<u32>,
        body: BlockId,
    },
    Repeat {
        count: u32,
        body: BlockId,
    },
    Call {
        graph: GraphId,
        args: Vec<RExpr>,
    },
    Check(Cond),
    If {
        cond: Cond,
        then: BlockId,
        otherwise: Option<BlockId>,
    },
    Loop(BlockId),
    While {
        cond: Cond,
        body: BlockId,
    },
    End,
    Return,
    Break,
    Continue,
    VarTag(u32),
    Tag(TagParts),
}

/// All reachable graphs' statements.
#[derive(Default)]
pub(super) struct Ir {
    pub stmts: Vec<Stmt>,
    pub blocks: Vec<Vec<StmtId>>,
    pub graphs: Vec<Graph>,
    pub rules: GraphId,
}
