//! The HRG abstract syntax tree (hrg.md §2–4, appendix A): plain data with
//! the source span of every construct.

use rg_core::diag::Span;

/// An identifier occurrence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

impl Name {
    /// Upper-case first letter: a variable (pattern, `where`, binding) or
    /// a constructor (hrg.md §1.3).
    pub fn is_upper(&self) -> bool {
        is_upper(&self.text)
    }
}

pub fn is_upper(text: &str) -> bool {
    text.chars().next().is_some_and(char::is_uppercase)
}

/// A whole program: declarations in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub declarations: Vec<Declaration>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Declaration {
    Domain(DomainDecl),
    Function(FunctionDecl),
    Variable(VariableDecl),
    Graph(GraphDecl),
}

/// `domain D = e1 | e2 | ...`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainDecl {
    pub name: Name,
    pub elements: Vec<Element>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A literal symbol, or the name of a domain whose elements are spliced.
    Name(Name),
    /// `C(a1, ..., an) where X in ..., ...`
    Generator {
        constructor: Name,
        arguments: Vec<Name>,
        bindings: Vec<Binding>,
        span: Span,
    },
}

/// `X in lo..hi` or `X in { a, b }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub variable: Name,
    pub values: BindingValues,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindingValues {
    Range(i64, i64),
    List(Vec<Name>),
}

/// A type: a set literal, or a name optionally followed by `-> type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeExpr {
    Set(Vec<Name>, Span),
    Named(Name, Option<Box<TypeExpr>>),
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Set(_, span) => *span,
            TypeExpr::Named(name, None) => name.span,
            TypeExpr::Named(name, Some(target)) => name.span.join(target.span()),
        }
    }

    /// The argument types of an arrow chain and its final value type.
    pub fn arrows(&self) -> (Vec<&Name>, &TypeExpr) {
        let mut keys = Vec::new();
        let mut current = self;
        while let TypeExpr::Named(name, Some(target)) = current {
            keys.push(name);
            current = target;
        }
        (keys, current)
    }
}

/// `name : type [= init]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableDecl {
    pub name: Name,
    pub ty: TypeExpr,
    pub init: Option<Expr>,
    pub span: Span,
}

/// `name : type` followed by its cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionDecl {
    pub name: Name,
    pub ty: TypeExpr,
    pub cases: Vec<Case>,
    pub span: Span,
}

/// `name(p1, ..., pk) = body`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub patterns: Vec<Pattern>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    Wildcard(Span),
    /// A lower-case identifier matches itself; an upper-case one binds.
    Name(Name),
    Constructor(Name, Vec<Pattern>, Span),
}

impl Pattern {
    pub fn span(&self) -> Span {
        match self {
            Pattern::Wildcard(span) | Pattern::Constructor(_, _, span) => *span,
            Pattern::Name(name) => name.span,
        }
    }
}

/// `[reusable] graph name(params) { body }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphDecl {
    pub reusable: bool,
    pub name: Name,
    pub params: Vec<Param>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: Name,
    pub ty: TypeExpr,
}

pub type Block = Vec<Stmt>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `target[a1]...[an] = value`
    Assign {
        target: Name,
        accessors: Vec<Expr>,
        value: Expr,
    },
    /// `target[a1]...[an] = T(*)`
    AssignAny {
        target: Name,
        accessors: Vec<Expr>,
        ty: TypeExpr,
    },
    /// `branch x in T { ... }`
    BranchIn {
        variable: Name,
        ty: TypeExpr,
        body: Block,
    },
    /// `branch { ... } or { ... }`
    Branch(Vec<Block>),
    /// `g(args)`, also `check(c)`, `end()`, `return()`, `break()`, `continue()`.
    Call {
        callee: Name,
        args: Vec<Expr>,
    },
    If {
        condition: Expr,
        then_block: Block,
        else_block: Option<Block>,
    },
    Loop(Block),
    /// `repeat x in T { ... }`
    RepeatIn {
        variable: Name,
        ty: TypeExpr,
        body: Block,
    },
    /// `repeat n { ... }`
    Repeat {
        count: u32,
        body: Block,
    },
    While {
        condition: Expr,
        body: Block,
    },
    /// `$$ v`
    VarTag(Name),
    /// `$ s`, `$(a b)`, `$_ s`, `$_(a b)`.
    Tag {
        artificial: bool,
        symbols: Vec<Name>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mod,
    In,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinaryOp {
    pub fn text(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mod => "%",
            BinaryOp::In => "in",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A reference: variable, constant, parameter, graph name or symbol.
    Name(Name),
    /// `C(a1, ..., an)` with an upper-case `C`.
    Constructor(Name, Vec<Expr>),
    /// `callee(a1, ..., an)`
    Call(Box<Expr>, Vec<Expr>),
    /// `map[key]`
    Access(Box<Expr>, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Map(MapLiteral),
    /// `( e )`
    Paren(Box<Expr>),
}

/// `{ :default; part; ... }` or `{ part; ... }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapLiteral {
    pub default: Option<Box<Expr>>,
    pub parts: Vec<MapPart>,
}

/// `pattern = value [where bindings]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapPart {
    pub key: Pattern,
    pub value: Expr,
    pub bindings: Vec<Binding>,
    pub span: Span,
}

impl Program {
    pub fn domains(&self) -> impl Iterator<Item = &DomainDecl> {
        self.declarations.iter().filter_map(|d| match d {
            Declaration::Domain(d) => Some(d),
            _ => None,
        })
    }

    pub fn functions(&self) -> impl Iterator<Item = &FunctionDecl> {
        self.declarations.iter().filter_map(|d| match d {
            Declaration::Function(f) => Some(f),
            _ => None,
        })
    }

    pub fn variables(&self) -> impl Iterator<Item = &VariableDecl> {
        self.declarations.iter().filter_map(|d| match d {
            Declaration::Variable(v) => Some(v),
            _ => None,
        })
    }

    pub fn graphs(&self) -> impl Iterator<Item = &GraphDecl> {
        self.declarations.iter().filter_map(|d| match d {
            Declaration::Graph(g) => Some(g),
            _ => None,
        })
    }
}
