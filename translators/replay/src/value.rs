//! Runtime values of the static evaluator (replay.md §3.1): numbers,
//! strings, and shared mutable objects (arrays, games, strategies,
//! players). Objects are `Rc<RefCell<…>>` because replay shares them by
//! assignment and argument passing (⟨A23⟩).

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use crate::ast::Base;

/// A replay type: a base type, an array of one, or `void`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Base(Base),
    Array(Base),
    Void,
}

impl Ty {
    pub fn of(ty: &crate::ast::Type) -> Ty {
        if ty.array {
            Ty::Array(ty.base)
        } else {
            Ty::Base(ty.base)
        }
    }
}

pub fn base_name(base: Base) -> &'static str {
    match base {
        Base::Int => "int",
        Base::Bool => "bool",
        Base::Float => "float",
        Base::String => "string",
        Base::Game => "Game",
        Base::Strategy => "Strategy",
        Base::Player => "Player",
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Base(b) => f.write_str(base_name(*b)),
            Ty::Array(b) => write!(f, "{}[]", base_name(*b)),
            Ty::Void => f.write_str("void"),
        }
    }
}

pub type Shared<T> = Rc<RefCell<T>>;

#[derive(Clone, Debug)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(Rc<str>),
    Array(Shared<Array>),
    /// `None` is the null object (⟨A32⟩).
    Game(Option<Shared<GameVal>>),
    Strategy(Option<Shared<StrategyVal>>),
    Player(Option<Shared<PlayerVal>>),
    Void,
}

#[derive(Clone, Debug)]
pub struct Array {
    pub elem: Base,
    pub items: Vec<Value>,
}

/// A stage game: `payoffs[profile][seat]`, profiles numbered
/// lexicographically with seat 0 most significant.
#[derive(Clone, Debug)]
pub struct GameVal {
    pub moves: usize,
    pub players: usize,
    pub payoffs: Vec<Vec<i64>>,
}

/// A Moore machine (replay.md §3.4).
#[derive(Clone, Debug)]
pub struct StrategyVal {
    pub moves: usize,
    /// `None`: no transitions yet, fits any game, every state stays.
    pub arity: Option<usize>,
    pub outputs: Vec<usize>,
    /// `next[state][tuple]` when there is an arity (tuples numbered like
    /// game profiles); empty otherwise.
    pub next: Vec<Vec<usize>>,
    /// State names (`None` for unlisted states).
    pub names: Vec<Option<String>>,
}

impl StrategyVal {
    pub fn size(&self) -> usize {
        self.outputs.len()
    }

    /// The successor of `state` on `tuple` (stays without an arity).
    pub fn successor(&self, state: usize, tuple: usize) -> usize {
        match self.arity {
            Some(_) => self.next[state][tuple],
            None => state,
        }
    }

    pub fn tuples(&self) -> usize {
        self.arity.map_or(1, |n| pow(self.moves, n).unwrap_or(1))
    }
}

#[derive(Clone, Debug)]
pub struct PlayerVal {
    /// The player's own copy (⟨A23⟩).
    pub strategy: Shared<StrategyVal>,
    pub delta: f64,
    pub output: f64,
    pub input: f64,
}

/// `base^exp`, `None` on overflow.
pub fn pow(base: usize, exp: usize) -> Option<usize> {
    let mut r: usize = 1;
    for _ in 0..exp {
        r = r.checked_mul(base)?;
    }
    Some(r)
}

/// The moves of profile number `index` (seat 0 most significant).
pub fn profile(index: usize, moves: usize, players: usize) -> Vec<usize> {
    let mut out = vec![0; players];
    let mut rest = index;
    for slot in out.iter_mut().rev() {
        *slot = rest % moves;
        rest /= moves;
    }
    out
}

impl Value {
    pub fn ty(&self) -> Ty {
        match self {
            Value::Int(_) => Ty::Base(Base::Int),
            Value::Float(_) => Ty::Base(Base::Float),
            Value::Bool(_) => Ty::Base(Base::Bool),
            Value::Str(_) => Ty::Base(Base::String),
            Value::Array(a) => Ty::Array(a.borrow().elem),
            Value::Game(_) => Ty::Base(Base::Game),
            Value::Strategy(_) => Ty::Base(Base::Strategy),
            Value::Player(_) => Ty::Base(Base::Player),
            Value::Void => Ty::Void,
        }
    }

    /// The default value of a declaration without initializer (§3.1).
    pub fn default_of(ty: Ty) -> Value {
        match ty {
            Ty::Base(Base::Int) => Value::Int(0),
            Ty::Base(Base::Float) => Value::Float(0.0),
            Ty::Base(Base::Bool) => Value::Bool(false),
            Ty::Base(Base::String) => Value::Str("".into()),
            Ty::Base(Base::Game) => Value::Game(None),
            Ty::Base(Base::Strategy) => Value::Strategy(None),
            Ty::Base(Base::Player) => Value::Player(None),
            Ty::Array(elem) => Value::Array(Rc::new(RefCell::new(Array {
                elem,
                items: Vec::new(),
            }))),
            Ty::Void => Value::Void,
        }
    }

    /// The text `print` shows (its format is not part of the spec).
    pub fn show(&self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::Float(v) => format!("{v}"),
            Value::Bool(v) => v.to_string(),
            Value::Str(s) => s.to_string(),
            Value::Array(a) => {
                let items: Vec<String> = a.borrow().items.iter().map(Value::show).collect();
                format!("[{}]", items.join(", "))
            }
            Value::Game(None) | Value::Strategy(None) | Value::Player(None) => "null".into(),
            Value::Game(Some(g)) => {
                let g = g.borrow();
                format!("Game[{} moves, {} players]", g.moves, g.players)
            }
            Value::Strategy(Some(s)) => {
                let s = s.borrow();
                format!("Strategy[{} states, {} moves]", s.size(), s.moves)
            }
            Value::Player(Some(p)) => {
                let p = p.borrow();
                format!(
                    "Player[{} states | {} | {} | {}]",
                    p.strategy.borrow().size(),
                    p.delta,
                    p.output,
                    p.input
                )
            }
            Value::Void => "void".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_numbered_with_seat_zero_most_significant() {
        assert_eq!(profile(0, 2, 2), vec![0, 0]);
        assert_eq!(profile(1, 2, 2), vec![0, 1]);
        assert_eq!(profile(2, 2, 2), vec![1, 0]);
        assert_eq!(profile(5, 3, 2), vec![1, 2]);
        assert_eq!(pow(3, 2), Some(9));
        assert_eq!(pow(usize::MAX, 2), None);
    }
}
