//! Ground terms of the grounder, hash-consed to dense ids.

use crate::datalog::{Symbol, SymbolTable, Term};
use rg_core::fx_hash::FxMap;

/// A ground term, by its index in [`GroundTerms`].
pub type TermId = u32;

/// Interned ground terms over the program's symbols.
#[derive(Clone, Debug, Default)]
pub struct GroundTerms {
    /// Functor and argument range of each term.
    entries: Vec<(Symbol, u32, u32)>,
    arguments: Vec<TermId>,
    index: FxMap<Box<[u32]>, TermId>,
}

const STACK_KEY: usize = 12;

impl GroundTerms {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn intern(&mut self, functor: Symbol, args: &[TermId]) -> TermId {
        if let Some(t) = self.find(functor, args) {
            return t;
        }
        let id = self.entries.len() as TermId;
        self.entries
            .push((functor, self.arguments.len() as u32, args.len() as u32));
        self.arguments.extend_from_slice(args);
        let mut key = Vec::with_capacity(args.len() + 1);
        key.push(functor.0);
        key.extend_from_slice(args);
        self.index.insert(key.into_boxed_slice(), id);
        id
    }

    pub fn find(&self, functor: Symbol, args: &[TermId]) -> Option<TermId> {
        if args.len() < STACK_KEY {
            let mut key = [0u32; STACK_KEY];
            key[0] = functor.0;
            key[1..=args.len()].copy_from_slice(args);
            self.index.get(&key[..=args.len()]).copied()
        } else {
            let mut key = vec![functor.0];
            key.extend_from_slice(args);
            self.index.get(key.as_slice()).copied()
        }
    }

    #[inline]
    pub fn functor(&self, t: TermId) -> Symbol {
        self.entries[t as usize].0
    }

    #[inline]
    pub fn args(&self, t: TermId) -> &[TermId] {
        let (_, start, len) = self.entries[t as usize];
        &self.arguments[start as usize..(start + len) as usize]
    }

    /// Whether ground term `t` has the shape of `pattern`: functors and
    /// constants equal; each variable occurrence is passed to `variable`
    /// with the subterm it meets, which decides (bindings, repeats).
    pub fn matches(
        &self,
        pattern: &Term,
        t: TermId,
        variable: &mut impl FnMut(u32, TermId) -> bool,
    ) -> bool {
        match pattern {
            Term::Variable(v) => variable(*v, t),
            Term::Constant(s) => self.functor(t) == *s && self.args(t).is_empty(),
            Term::Function(f, args) => {
                self.functor(t) == *f
                    && self.args(t).len() == args.len()
                    && args
                        .iter()
                        .zip(self.args(t))
                        .all(|(p, &a)| self.matches(p, a, variable))
            }
        }
    }

    /// The symbols of a term in prefix order.
    pub fn words<'a>(&self, symbols: &'a SymbolTable, t: TermId, out: &mut Vec<&'a str>) {
        out.push(symbols.name(self.functor(t)));
        for &a in self.args(t) {
            self.words(symbols, a, out);
        }
    }

    /// The RG name of a term (gdl.md §7.2).
    pub fn rg_name(&self, symbols: &SymbolTable, t: TermId) -> String {
        let mut words = Vec::new();
        self.words(symbols, t, &mut words);
        crate::naming::rg_name(words)
    }

    /// KIF text of a term.
    pub fn display(&self, symbols: &SymbolTable, t: TermId) -> String {
        let name = symbols.name(self.functor(t));
        let args = self.args(t);
        if args.is_empty() {
            return name.to_string();
        }
        let inner: Vec<String> = args.iter().map(|&a| self.display(symbols, a)).collect();
        format!("({name} {})", inner.join(" "))
    }

    /// The constant's name parsed as an integer (goal values).
    pub fn as_integer(&self, symbols: &SymbolTable, t: TermId) -> Option<i64> {
        if !self.args(t).is_empty() {
            return None;
        }
        symbols.name(self.functor(t)).parse().ok()
    }
}
