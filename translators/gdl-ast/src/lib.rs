//! The GDL abstract syntax: plain data with byte spans into the source.
//!
//! Words are already case-folded (KIF) and keyed by name; whether a name is a
//! relation, a function or a constant follows from its position.

use std::fmt;

use rg_core::diag::Span;

/// A term: constant, variable or function application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub kind: TermKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermKind {
    Constant(String),
    /// A variable, spelled with its leading `?`.
    Variable(String),
    Function {
        name: String,
        args: Vec<Term>,
    },
}

impl Term {
    pub fn is_ground(&self) -> bool {
        match &self.kind {
            TermKind::Constant(_) => true,
            TermKind::Variable(_) => false,
            TermKind::Function { args, .. } => args.iter().all(Term::is_ground),
        }
    }

    /// Appends the variables of the term (with repetitions, source order).
    pub fn variables<'a>(&'a self, out: &mut Vec<&'a Term>) {
        match &self.kind {
            TermKind::Constant(_) => {}
            TermKind::Variable(_) => out.push(self),
            TermKind::Function { args, .. } => args.iter().for_each(|a| a.variables(out)),
        }
    }

    pub fn variable_name(&self) -> Option<&str> {
        match &self.kind {
            TermKind::Variable(name) => Some(name),
            _ => None,
        }
    }
}

/// `name` (zero arity) or `(name args…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub name: String,
    pub args: Vec<Term>,
    pub span: Span,
}

impl Atom {
    /// Relations are keyed by (name, arity).
    pub fn key(&self) -> (&str, usize) {
        (&self.name, self.args.len())
    }

    pub fn variables<'a>(&'a self, out: &mut Vec<&'a Term>) {
        self.args.iter().for_each(|a| a.variables(out));
    }

    pub fn is_ground(&self) -> bool {
        self.args.iter().all(Term::is_ground)
    }
}

/// A body literal before normalization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    Atom(Atom),
    /// `(not l)`: the inner literal is an atom or a `distinct`.
    Not(Box<Literal>, Span),
    Distinct(Term, Term, Span),
    /// `(or l…)`, possibly nested.
    Or(Vec<Literal>, Span),
    /// `(and l…)`, accepted inside `or` as a conjunction.
    And(Vec<Literal>, Span),
}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Atom(atom) => atom.span,
            Literal::Not(_, span)
            | Literal::Distinct(_, _, span)
            | Literal::Or(_, span)
            | Literal::And(_, span) => *span,
        }
    }

    /// Every atom inside, with whether it occurs under `not`.
    pub fn atoms<'a>(&'a self, negated: bool, out: &mut Vec<(&'a Atom, bool)>) {
        match self {
            Literal::Atom(atom) => out.push((atom, negated)),
            Literal::Not(inner, _) => inner.atoms(!negated, out),
            Literal::Distinct(..) => {}
            Literal::Or(items, _) | Literal::And(items, _) => {
                items.iter().for_each(|l| l.atoms(negated, out));
            }
        }
    }
}

/// A top-level sentence: `head :- body` (a fact when the body is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
    /// The whole sentence.
    pub span: Span,
}

/// A parsed game description: its sentences in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Description {
    pub rules: Vec<Rule>,
}

// KIF text of AST nodes, for messages.

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TermKind::Constant(name) | TermKind::Variable(name) => f.write_str(name),
            TermKind::Function { name, args } => {
                write!(f, "({name}")?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.args.is_empty() {
            return f.write_str(&self.name);
        }
        write!(f, "({}", self.name)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Atom(atom) => write!(f, "{atom}"),
            Literal::Not(inner, _) => write!(f, "(not {inner})"),
            Literal::Distinct(s, t, _) => write!(f, "(distinct {s} {t})"),
            Literal::Or(items, _) | Literal::And(items, _) => {
                f.write_str(if matches!(self, Literal::Or(..)) {
                    "(or"
                } else {
                    "(and"
                })?;
                for item in items {
                    write!(f, " {item}")?;
                }
                f.write_str(")")
            }
        }
    }
}
