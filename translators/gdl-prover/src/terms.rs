//! The prover's terms: symbols interned to small integers, ground terms as
//! shared trees, and rule terms (patterns) whose variables are slots of a
//! clause's environment, with one-way unification of a pattern against a
//! ground term.

use std::collections::HashMap;
use std::rc::Rc;

/// An interned symbol (constant or function name).
pub type Sym = u32;

/// The symbol table.
#[derive(Debug, Default)]
pub struct Symbols {
    names: Vec<String>,
    ids: HashMap<String, Sym>,
}

impl Symbols {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = Sym::try_from(self.names.len()).expect("fewer than 2^32 symbols");
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    pub fn lookup(&self, name: &str) -> Option<Sym> {
        self.ids.get(name).copied()
    }

    pub fn name(&self, id: Sym) -> &str {
        &self.names[id as usize]
    }
}

/// A ground term. Compound arguments are shared, so cloning is cheap.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ground {
    Sym(Sym),
    App(Sym, Rc<[Ground]>),
}

impl Ground {
    /// The constant or the function name.
    pub fn functor(&self) -> Sym {
        match self {
            Ground::Sym(s) | Ground::App(s, _) => *s,
        }
    }

    /// The symbols in prefix order (`(mark 1 2)` → mark, 1, 2).
    pub fn words(&self, out: &mut Vec<Sym>) {
        match self {
            Ground::Sym(s) => out.push(*s),
            Ground::App(s, args) => {
                out.push(*s);
                args.iter().for_each(|a| a.words(out));
            }
        }
    }

    /// KIF text: `(mark 1 2)`.
    pub fn display(&self, symbols: &Symbols) -> String {
        match self {
            Ground::Sym(s) => symbols.name(*s).to_string(),
            Ground::App(s, args) => {
                let mut text = format!("({}", symbols.name(*s));
                for a in args.iter() {
                    text.push(' ');
                    text.push_str(&a.display(symbols));
                }
                text.push(')');
                text
            }
        }
    }
}

/// A variable: its slot in the clause's environment.
pub type Slot = usize;

/// A term of a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Sym(Sym),
    Var(Slot),
    App(Sym, Box<[Pat]>),
}

impl Pat {
    pub fn slots(&self, out: &mut Vec<Slot>) {
        match self {
            Pat::Sym(_) => {}
            Pat::Var(v) => out.push(*v),
            Pat::App(_, args) => args.iter().for_each(|a| a.slots(out)),
        }
    }
}

/// The bindings of one clause activation, with a trail to undo them.
#[derive(Debug, Default)]
pub struct Env {
    slots: Vec<Option<Ground>>,
    trail: Vec<Slot>,
}

impl Env {
    pub fn new(size: usize) -> Self {
        Env {
            slots: vec![None; size],
            trail: Vec::new(),
        }
    }

    /// A point to undo to.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    pub fn undo(&mut self, mark: usize) {
        for slot in self.trail.drain(mark..) {
            self.slots[slot] = None;
        }
    }

    /// Matches `pat` against `ground`, binding free slots. On failure some
    /// slots may be bound: the caller undoes to its mark.
    pub fn unify(&mut self, pat: &Pat, ground: &Ground) -> bool {
        match (pat, ground) {
            (Pat::Sym(a), Ground::Sym(b)) => a == b,
            (Pat::Var(v), _) => match &self.slots[*v] {
                Some(bound) => bound == ground,
                None => {
                    self.slots[*v] = Some(ground.clone());
                    self.trail.push(*v);
                    true
                }
            },
            (Pat::App(f, pats), Ground::App(g, args)) => {
                f == g
                    && pats.len() == args.len()
                    && pats.iter().zip(args.iter()).all(|(p, a)| self.unify(p, a))
            }
            _ => false,
        }
    }

    /// The ground value of `pat`, or `None` if a slot in it is free.
    pub fn ground(&self, pat: &Pat) -> Option<Ground> {
        match pat {
            Pat::Sym(s) => Some(Ground::Sym(*s)),
            Pat::Var(v) => self.slots[*v].clone(),
            Pat::App(f, pats) => {
                let args: Option<Vec<Ground>> = pats.iter().map(|p| self.ground(p)).collect();
                Some(Ground::App(*f, args?.into()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unification_binds_and_checks_repeated_variables() {
        let mut symbols = Symbols::default();
        let (f, a, b) = (
            symbols.intern("f"),
            symbols.intern("a"),
            symbols.intern("b"),
        );
        let pat = Pat::App(f, vec![Pat::Var(0), Pat::Var(0)].into());
        let same = Ground::App(f, vec![Ground::Sym(a), Ground::Sym(a)].into());
        let different = Ground::App(f, vec![Ground::Sym(a), Ground::Sym(b)].into());
        let mut env = Env::new(1);
        assert!(env.unify(&pat, &same));
        assert_eq!(env.ground(&Pat::Var(0)), Some(Ground::Sym(a)));
        env.undo(0);
        assert_eq!(env.ground(&Pat::Var(0)), None);
        assert!(!env.unify(&pat, &different));
        env.undo(0);
        assert_eq!(env.ground(&pat), None);
        assert_eq!(same.display(&symbols), "(f a a)");
    }
}
