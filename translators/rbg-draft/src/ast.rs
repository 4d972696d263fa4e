//! The checked description (rbg-draft.md §3–§6), plain data shared by the
//! interpreter and the lowering. Names are resolved to indices: pieces into
//! [`Game::pieces`], players into [`Game::players`] (the `#order` order).

use rg_core::diag::Span;

pub type PieceId = usize;
pub type PlayerId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// The initial piece of every square, indexed by `y * width + x`
    /// (`y = 0` is the bottom row).
    pub board: Vec<PieceId>,
    /// Every piece name (§4.2), in order of first appearance.
    pub pieces: Vec<String>,
    /// The players in `#order` order.
    pub players: Vec<String>,
    /// Per player, its priority levels, highest first.
    pub levels: Vec<Vec<Expr>>,
    /// Per player, its goal.
    pub goals: Vec<Goal>,
}

impl Game {
    pub fn square(&self, x: i64, y: i64) -> Option<usize> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        if (0..w).contains(&x) && (0..h).contains(&y) {
            usize::try_from(y * w + x).ok()
        } else {
            None
        }
    }

    /// `x<X>y<Y>`, the printed name of a square (§5.6).
    pub fn square_name(&self, square: usize) -> String {
        let w = self.width as usize;
        format!("x{}y{}", square % w, square / w)
    }
}

/// A movement expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Step(Step),
    Marker(Target, Span),
    Concat(Vec<Expr>),
    Alt(Vec<Expr>),
    /// `(E)^n`, `n >= 1`.
    Power(Box<Expr>, u32, Span),
    /// `(E)^*`.
    Star(Box<Expr>, Span),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub dx: i64,
    pub dy: i64,
    /// `None`: any piece.
    pub on: Option<Vec<PieceId>>,
    /// `None`: no write; several pieces: a choice.
    pub off: Option<Vec<PieceId>>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Player(PlayerId),
    /// Cyclic offset from the current player in `#order`.
    Offset(i64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub score: u32,
    pub formula: Formula,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    Or(Vec<Formula>),
    And(Vec<Formula>),
    Not(Box<Formula>),
    /// `move(M)`: some word of `M` applies from some square.
    Move(Expr, Span),
    /// `@ P x y`.
    At(PieceId, i64, i64, Span),
    Compare(Value, Relation, Value, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Turn,
    Count(PieceId),
    Int(i64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Relation {
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Relation::Lt => a < b,
            Relation::Le => a <= b,
            Relation::Gt => a > b,
            Relation::Ge => a >= b,
            Relation::Eq => a == b,
            Relation::Ne => a != b,
        }
    }
}

impl Expr {
    /// Whether the expression contains a next-player marker.
    pub fn has_marker(&self) -> bool {
        match self {
            Expr::Step(_) => false,
            Expr::Marker(..) => true,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(Expr::has_marker),
            Expr::Power(e, _, _) | Expr::Star(e, _) => e.has_marker(),
        }
    }

    /// Whether the expression accepts the empty word (R23).
    pub fn nullable(&self) -> bool {
        match self {
            Expr::Step(_) | Expr::Marker(..) => false,
            Expr::Concat(parts) => parts.iter().all(Expr::nullable),
            Expr::Alt(parts) => parts.iter().any(Expr::nullable),
            Expr::Power(e, _, _) => e.nullable(),
            Expr::Star(..) => true,
        }
    }

    /// Calls `f` on every step.
    pub fn for_each_step(&self, f: &mut impl FnMut(&Step)) {
        match self {
            Expr::Step(step) => f(step),
            Expr::Marker(..) => {}
            Expr::Concat(parts) | Expr::Alt(parts) => {
                for part in parts {
                    part.for_each_step(f);
                }
            }
            Expr::Power(e, _, _) | Expr::Star(e, _) => e.for_each_step(f),
        }
    }
}

impl Formula {
    pub fn for_each_atom(&self, f: &mut impl FnMut(&Formula)) {
        match self {
            Formula::Or(parts) | Formula::And(parts) => {
                for part in parts {
                    part.for_each_atom(f);
                }
            }
            Formula::Not(inner) => inner.for_each_atom(f),
            atom => f(atom),
        }
    }
}
