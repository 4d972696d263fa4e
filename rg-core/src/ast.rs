//! The RG abstract syntax tree: plain data, as written in the source.
//!
//! Declarations are kept grouped by kind, each group in source order, which
//! is exactly the order the canonical printer emits (rg.md §2.7); this makes
//! `parse(print(g)) == g` hold structurally.
//!
//! Every node carries an [`At`], the source span it was parsed from. `At`
//! compares equal to every other `At`, so that two games are equal when
//! their contents are, wherever they came from (a parsed game equals the
//! same game built by a translator or re-parsed from printed text).

use std::hash::{Hash, Hasher};

use crate::diag::Span;

/// A source location that never influences equality or hashing.
#[derive(Clone, Copy, Debug, Default)]
pub struct At(pub Option<Span>);

impl At {
    pub const NOWHERE: At = At(None);

    pub fn span(self) -> Option<Span> {
        self.0
    }
}

impl From<Span> for At {
    fn from(span: Span) -> Self {
        At(Some(span))
    }
}

impl PartialEq for At {
    fn eq(&self, _: &At) -> bool {
        true
    }
}

impl Eq for At {}

impl Hash for At {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

/// An identifier: a symbol, a type, constant, variable or node name.
pub type Ident = String;

/// A whole RG description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    pub pragmas: Vec<Pragma>,
    pub typedefs: Vec<TypeDef>,
    pub constants: Vec<Constant>,
    pub variables: Vec<Variable>,
    pub edges: Vec<Edge>,
}

/// `type Name = T;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeDef {
    pub name: Ident,
    pub ty: Type,
    pub at: At,
}

/// A type expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `{ a, b, c }`
    Set(Vec<Ident>, At),
    /// An alias name.
    Name(Ident, At),
    /// `K -> V` (right-associative).
    Arrow(Box<Type>, Box<Type>),
}

impl Type {
    pub fn set<I: Into<Ident>>(symbols: impl IntoIterator<Item = I>) -> Type {
        Type::Set(symbols.into_iter().map(Into::into).collect(), At::NOWHERE)
    }

    pub fn name(name: impl Into<Ident>) -> Type {
        Type::Name(name.into(), At::NOWHERE)
    }

    pub fn arrow(key: Type, value: Type) -> Type {
        Type::Arrow(Box::new(key), Box::new(value))
    }

    pub fn at(&self) -> At {
        match self {
            Type::Set(_, at) | Type::Name(_, at) => *at,
            Type::Arrow(key, value) => match (key.at().0, value.at().0) {
                (Some(a), Some(b)) => At(Some(a.join(b))),
                (a, b) => At(a.or(b)),
            },
        }
    }
}

/// `const name: T = value;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constant {
    pub name: Ident,
    pub ty: Type,
    pub value: Value,
    pub at: At,
}

/// `var name: T = value;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    pub name: Ident,
    pub ty: Type,
    pub value: Value,
    pub at: At,
}

/// An initial or constant value: a symbol (or constant name) or a map literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Symbol(Ident, At),
    Map(Vec<MapEntry>, At),
}

impl Value {
    pub fn symbol(name: impl Into<Ident>) -> Value {
        Value::Symbol(name.into(), At::NOWHERE)
    }

    /// `{ :default, k1: v1, ... }`
    pub fn map(default: Value, entries: impl IntoIterator<Item = (Ident, Value)>) -> Value {
        let mut all = vec![MapEntry {
            key: None,
            value: default,
        }];
        all.extend(entries.into_iter().map(|(key, value)| MapEntry {
            key: Some(key),
            value,
        }));
        Value::Map(all, At::NOWHERE)
    }

    pub fn at(&self) -> At {
        match self {
            Value::Symbol(_, at) | Value::Map(_, at) => *at,
        }
    }
}

/// One entry of a map literal; `key: None` is the default entry `:v`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapEntry {
    pub key: Option<Ident>,
    pub value: Value,
}

/// An expression: reference, cast or access.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A constant, variable or symbol (resolved in that order).
    Ref(Ident, At),
    /// `T(e)`
    Cast(Ident, Box<Expr>, At),
    /// `e[k]`
    Access(Box<Expr>, Box<Expr>, At),
}

impl Expr {
    pub fn name(name: impl Into<Ident>) -> Expr {
        Expr::Ref(name.into(), At::NOWHERE)
    }

    pub fn cast(ty: impl Into<Ident>, e: Expr) -> Expr {
        Expr::Cast(ty.into(), Box::new(e), At::NOWHERE)
    }

    pub fn access(map: Expr, key: Expr) -> Expr {
        Expr::Access(Box::new(map), Box::new(key), At::NOWHERE)
    }

    /// `self[key]`
    pub fn at_key(self, key: Expr) -> Expr {
        Expr::access(self, key)
    }

    pub fn at(&self) -> At {
        match self {
            Expr::Ref(_, at) | Expr::Cast(_, _, at) | Expr::Access(_, _, at) => *at,
        }
    }

    /// The expression with every cast removed (casts only guide typing).
    pub fn without_casts(&self) -> &Expr {
        match self {
            Expr::Cast(_, inner, _) => inner.without_casts(),
            other => other,
        }
    }

    /// The variable at the root of an assignment target `x[k1]..[kn]`
    /// (casts on the way removed), if the target has that shape.
    pub fn target_root(&self) -> Option<&Ident> {
        match self.without_casts() {
            Expr::Ref(name, _) => Some(name),
            Expr::Access(map, _, _) => map.target_root(),
            Expr::Cast(..) => None,
        }
    }
}

/// An edge of the rules automaton: `from, to: label;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from: Ident,
    pub to: Ident,
    pub label: Label,
    pub at: At,
}

impl Edge {
    pub fn new(from: impl Into<Ident>, to: impl Into<Ident>, label: Label) -> Edge {
        Edge {
            from: from.into(),
            to: to.into(),
            label,
            at: At::NOWHERE,
        }
    }
}

/// The action on an edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// The empty action.
    Skip,
    /// `$ t`
    Tag(Ident),
    /// `$$ v`
    VarTag(Ident),
    /// `? a -> b` (`negated: false`) or `! a -> b`.
    Reach {
        negated: bool,
        from: Ident,
        to: Ident,
    },
    /// `l == r` (`negated: false`) or `l != r`.
    Compare { negated: bool, lhs: Expr, rhs: Expr },
    /// `l = r`
    Assign { lhs: Expr, rhs: Expr },
    /// `l = T(*)`
    AssignAny { lhs: Expr, ty: Type },
}

impl Label {
    /// Whether this action assigns the `player` variable, ending a move.
    pub fn is_player_assignment(&self) -> bool {
        match self {
            Label::Assign { lhs, .. } | Label::AssignAny { lhs, .. } => {
                matches!(lhs.without_casts(), Expr::Ref(name, _) if name == "player")
            }
            _ => false,
        }
    }

    pub fn is_tag(&self) -> bool {
        matches!(self, Label::Tag(_) | Label::VarTag(_))
    }
}

/// A bound tag in a `@simpleApply` pattern: a literal symbol, or
/// `name: Type` binding one tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PatternTag {
    Symbol(Ident),
    Bind(Ident, Type),
}

/// `@simpleApply` and `@simpleApplyExhaustive`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimpleApply {
    pub exhaustive: bool,
    pub from: Ident,
    pub to: Ident,
    pub tags: Vec<PatternTag>,
    pub assignments: Vec<(Expr, Expr)>,
}

/// A pragma: a hint that never changes the game (rg.md §2.6).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PragmaKind {
    Disjoint {
        exhaustive: bool,
        node: Ident,
        targets: Vec<Ident>,
    },
    ArtificialTag(Vec<Ident>),
    Repeat {
        nodes: Vec<Ident>,
        variables: Vec<Ident>,
    },
    Unique(Vec<Ident>),
    TagIndex {
        max: bool,
        nodes: Vec<Ident>,
        index: u64,
    },
    Integer {
        start: u64,
        symbols: Vec<Ident>,
    },
    Iterator {
        nodes: [Ident; 3],
        variable: Ident,
    },
    SimpleApply(SimpleApply),
    TranslatedFromRbg,
    /// An unknown pragma, kept verbatim: the text between `@` and `;`.
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pragma {
    pub kind: PragmaKind,
    pub at: At,
}

impl Pragma {
    pub fn new(kind: PragmaKind) -> Pragma {
        Pragma {
            kind,
            at: At::NOWHERE,
        }
    }
}

/// The reserved words of RG.
pub const KEYWORDS: [&str; 3] = ["const", "type", "var"];

/// Whether `c` may appear in an identifier.
pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
