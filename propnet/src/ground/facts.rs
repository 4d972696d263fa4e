//! Sets of ground atoms per relation, with hash indexes keyed by the terms
//! at chosen paths into the tuple (see [`IndexSpec`]), so that a literal
//! such as `(true (cell ?x 3 ?c))` with `?x` bound finds its candidates
//! directly.

use super::terms::{GroundTerms, TermId};
use crate::datalog::Symbol;
use rg_core::fx_hash::FxMap;

/// Argument position, then sub-argument positions.
pub type Path = Box<[u8]>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndexSpec {
    /// Only rows whose term at each path has this functor and arity.
    pub functors: Vec<(Path, Symbol, usize)>,
    /// The key: the terms at these paths.
    pub keys: Vec<Path>,
}

#[inline]
fn term_at(terms: &GroundTerms, row: &[TermId], path: &[u8]) -> TermId {
    let mut t = row[path[0] as usize];
    for &i in &path[1..] {
        t = terms.args(t)[i as usize];
    }
    t
}

#[derive(Default)]
struct Index {
    map: FxMap<Box<[TermId]>, Vec<u32>>,
    upto: usize,
}

/// The atoms of one relation, in insertion order (row numbers are stable).
pub struct FactTable {
    pub arity: usize,
    len: usize,
    data: Vec<TermId>,
    rows: FxMap<Box<[TermId]>, u32>,
    indexes: Vec<Option<Index>>,
}

impl FactTable {
    pub fn new(arity: usize) -> Self {
        FactTable {
            arity,
            len: 0,
            data: Vec::new(),
            rows: FxMap::default(),
            indexes: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn row(&self, r: usize) -> &[TermId] {
        &self.data[r * self.arity..(r + 1) * self.arity]
    }

    /// Adds a tuple; returns its row and whether it is new.
    pub fn insert(&mut self, tuple: &[TermId]) -> (u32, bool) {
        if let Some(&r) = self.rows.get(tuple) {
            return (r, false);
        }
        let r = self.len as u32;
        self.rows.insert(tuple.into(), r);
        self.data.extend_from_slice(tuple);
        self.len += 1;
        (r, true)
    }

    #[inline]
    pub fn find(&self, tuple: &[TermId]) -> Option<u32> {
        self.rows.get(tuple).copied()
    }

    /// Brings index `id` (of spec `spec`) up to date with the rows.
    pub fn refresh_index(&mut self, terms: &GroundTerms, id: usize, spec: &IndexSpec) {
        while self.indexes.len() <= id {
            self.indexes.push(None);
        }
        let mut index = self.indexes[id].take().unwrap_or_default();
        let mut key = Vec::with_capacity(spec.keys.len());
        for r in index.upto..self.len {
            let row = self.row(r);
            let qualifies = spec.functors.iter().all(|(path, f, arity)| {
                let t = term_at(terms, row, path);
                terms.functor(t) == *f && terms.args(t).len() == *arity
            });
            if !qualifies {
                continue;
            }
            key.clear();
            key.extend(spec.keys.iter().map(|p| term_at(terms, row, p)));
            match index.map.get_mut(key.as_slice()) {
                Some(bucket) => bucket.push(r as u32),
                None => {
                    index
                        .map
                        .insert(key.clone().into_boxed_slice(), vec![r as u32]);
                }
            }
        }
        index.upto = self.len;
        self.indexes[id] = Some(index);
    }

    /// Rows with the given key in index `id` (which must be refreshed).
    #[inline]
    pub fn lookup(&self, id: usize, key: &[TermId]) -> &[u32] {
        match self.indexes.get(id) {
            Some(Some(index)) => index.map.get(key).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }
}
