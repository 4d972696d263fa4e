//! The replay abstract syntax (replay.md §2): plain data with byte spans.

use rg_core::diag::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Function(Function),
    Stmt(Stmt),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// `None` for `void`.
    pub returns: Option<Type>,
    pub name: Name,
    pub params: Vec<(Type, Name)>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Int,
    Bool,
    Float,
    String,
    Game,
    Strategy,
    Player,
}

impl Base {
    pub fn from_keyword(word: &str) -> Option<Base> {
        Some(match word {
            "int" => Base::Int,
            "bool" => Base::Bool,
            "float" => Base::Float,
            "string" => Base::String,
            "Game" => Base::Game,
            "Strategy" => Base::Strategy,
            "Player" => Base::Player,
            _ => return None,
        })
    }
}

/// `base` or `base[]` (one level only, ⟨A22⟩).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Type {
    pub base: Base,
    pub array: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Decl {
        ty: Type,
        name: Name,
        init: Option<Expr>,
    },
    /// `strat {a, b};`
    Strat(Vec<Name>),
    /// `p, q % g;`
    Play {
        players: Vec<Expr>,
        game: Expr,
    },
    /// `p ~ f;`
    Mutate {
        target: Expr,
        rate: Expr,
    },
    /// `p # f # q;`
    Crossover {
        left: Expr,
        fraction: Expr,
        right: Expr,
    },
    Assign {
        target: Expr,
        value: Expr,
    },
    /// A call (function or method) as a statement.
    Call(Expr),
    Return(Option<Expr>),
    If {
        condition: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    For {
        var: Name,
        iterable: Expr,
        body: Box<Stmt>,
    },
    Block(Vec<Stmt>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    Rand,
    Var(String),
    Call {
        name: Name,
        args: Vec<Param>,
    },
    Index(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, Name),
    Method {
        target: Box<Expr>,
        name: Name,
        args: Vec<Param>,
    },
    /// `[a:b]`
    Range(Box<Expr>, Box<Expr>),
    /// `Base[p | q | …]`
    Construct {
        base: Base,
        params: Vec<Param>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Whether the expression is a call (the only expression statements).
    pub fn is_call(&self) -> bool {
        matches!(self.kind, ExprKind::Call { .. } | ExprKind::Method { .. })
    }
}

/// A constructor parameter or call argument: an expression or a block.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Expr(Expr),
    States(Vec<StateDef>, Span),
    Outcomes(Vec<Outcome>, Span),
}

/// `label: output, (p, …) -> target | …`
#[derive(Clone, Debug, PartialEq)]
pub struct StateDef {
    pub label: Name,
    pub output: Expr,
    pub transitions: Vec<Transition>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Transition {
    pub patterns: Vec<Pattern>,
    pub target: Name,
    pub span: Span,
}

/// `(p, …) -> (e, …)`
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub patterns: Vec<Pattern>,
    pub payoffs: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    Wildcard(Span),
    Name(Name),
    Int(i64, Span),
}
