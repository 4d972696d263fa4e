//! Hash-consed ground terms: every ground term of a reasoner run gets a
//! dense `TermId`, so facts are tuples of integers and equality is `==`.

use std::collections::HashMap;

/// A ground term, by its index in the [`TermStore`].
pub type TermId = u32;
/// An interned symbol (constant, function or relation name).
pub type Sym = u32;

pub use rg_core::fx_hash::{FxBuild, FxHasher, FxMap, FxSet};

/// Interned symbols and ground terms.
#[derive(Default)]
pub struct TermStore {
    symbol_names: Vec<String>,
    symbol_index: HashMap<String, Sym>,
    /// Functor symbol and argument range of each term.
    terms: Vec<(Sym, u32, u32)>,
    arguments: Vec<TermId>,
    /// Key: functor followed by the arguments.
    index: FxMap<Box<[u32]>, TermId>,
    /// Symbol → the constant term of that name.
    constants: FxMap<Sym, TermId>,
}

/// Longest key built on the stack for lookups; longer keys allocate.
const STACK_KEY: usize = 12;

impl TermStore {
    pub fn symbol(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.symbol_index.get(name) {
            return s;
        }
        let s = self.symbol_names.len() as Sym;
        self.symbol_names.push(name.to_string());
        self.symbol_index.insert(name.to_string(), s);
        s
    }

    pub fn symbol_name(&self, s: Sym) -> &str {
        self.symbol_names
            .get(s as usize)
            .map_or("?", String::as_str)
    }

    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn constant(&mut self, s: Sym) -> TermId {
        if let Some(&t) = self.constants.get(&s) {
            return t;
        }
        let t = self.intern(s, &[]);
        self.constants.insert(s, t);
        t
    }

    pub fn intern(&mut self, functor: Sym, args: &[TermId]) -> TermId {
        if let Some(t) = self.find(functor, args) {
            return t;
        }
        let id = self.terms.len() as TermId;
        let start = self.arguments.len() as u32;
        self.arguments.extend_from_slice(args);
        self.terms.push((functor, start, args.len() as u32));
        let mut key = Vec::with_capacity(args.len() + 1);
        key.push(functor);
        key.extend_from_slice(args);
        self.index.insert(key.into_boxed_slice(), id);
        id
    }

    /// The term `functor(args)` if it was ever interned.
    pub fn find(&self, functor: Sym, args: &[TermId]) -> Option<TermId> {
        if args.len() < STACK_KEY {
            let mut key = [0u32; STACK_KEY];
            key[0] = functor;
            key[1..=args.len()].copy_from_slice(args);
            self.index.get(&key[..=args.len()]).copied()
        } else {
            let mut key = Vec::with_capacity(args.len() + 1);
            key.push(functor);
            key.extend_from_slice(args);
            self.index.get(key.as_slice()).copied()
        }
    }

    #[inline]
    pub fn functor(&self, t: TermId) -> Sym {
        self.terms[t as usize].0
    }

    #[inline]
    pub fn args(&self, t: TermId) -> &[TermId] {
        let (_, start, len) = self.terms[t as usize];
        &self.arguments[start as usize..(start + len) as usize]
    }

    /// The symbols of a term in prefix order.
    pub fn words<'a>(&'a self, t: TermId, out: &mut Vec<&'a str>) {
        out.push(self.symbol_name(self.functor(t)));
        for &a in self.args(t) {
            self.words(a, out);
        }
    }

    /// KIF text of a term.
    pub fn display(&self, t: TermId) -> String {
        let name = self.symbol_name(self.functor(t));
        let args = self.args(t);
        if args.is_empty() {
            return name.to_string();
        }
        let inner: Vec<String> = args.iter().map(|&a| self.display(a)).collect();
        format!("({name} {})", inner.join(" "))
    }

    /// The term's text if it is a constant.
    pub fn constant_name(&self, t: TermId) -> Option<&str> {
        self.args(t)
            .is_empty()
            .then(|| self.symbol_name(self.functor(t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_hash_consing() {
        let mut store = TermStore::default();
        let f = store.symbol("f");
        let a = store.symbol("a");
        let ca = store.constant(a);
        let t1 = store.intern(f, &[ca, ca]);
        let t2 = store.intern(f, &[ca, ca]);
        assert_eq!(t1, t2);
        assert_eq!(store.find(f, &[ca]), None);
        assert_eq!(store.display(t1), "(f a a)");
        let mut words = Vec::new();
        store.words(t1, &mut words);
        assert_eq!(words, ["f", "a", "a"]);
    }
}
