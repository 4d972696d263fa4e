//! Fact tables: append-only tuples of ground terms with a membership set
//! and hash indexes. An index is keyed by the values at some paths into
//! the tuple (argument i, or argument j of the compound at argument i, …)
//! among the rows whose functors match the literal's pattern, so a literal
//! like `(true (cell ?x 3 b))` looks up exactly its candidates.

use std::sync::OnceLock;

use super::terms::{FxMap, FxSet, Sym, TermId, TermStore};

/// A path into a tuple: the argument position, then sub-argument positions.
pub type Path = Box<[u8]>;

/// What an index is keyed by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndexSpec {
    /// Rows are indexed only if the term at each path has this functor and arity.
    pub functors: Vec<(Path, Sym, usize)>,
    /// The key is the terms at these paths.
    pub keys: Vec<Path>,
}

/// The term at `path` of a row, if the functor constraints let it exist.
#[inline]
fn term_at(store: &TermStore, row: &[TermId], path: &[u8]) -> TermId {
    let mut t = row[path[0] as usize];
    for &i in &path[1..] {
        t = store.args(t)[i as usize];
    }
    t
}

fn row_qualifies(store: &TermStore, spec: &IndexSpec, row: &[TermId]) -> bool {
    spec.functors.iter().all(|(path, functor, arity)| {
        let t = term_at(store, row, path);
        store.functor(t) == *functor && store.args(t).len() == *arity
    })
}

/// Row numbers by key; `upto` rows of the table have been indexed.
#[derive(Default)]
pub struct Index {
    map: FxMap<Box<[TermId]>, Vec<u32>>,
    upto: usize,
}

impl Index {
    fn catch_up(&mut self, store: &TermStore, spec: &IndexSpec, table: &TableRows) {
        let mut key = Vec::with_capacity(spec.keys.len());
        for r in self.upto..table.len {
            let row = table.row(r);
            if !row_qualifies(store, spec, row) {
                continue;
            }
            key.clear();
            key.extend(spec.keys.iter().map(|p| term_at(store, row, p)));
            match self.map.get_mut(key.as_slice()) {
                Some(bucket) => bucket.push(r as u32),
                None => {
                    self.map
                        .insert(key.clone().into_boxed_slice(), vec![r as u32]);
                }
            }
        }
        self.upto = table.len;
    }

    #[inline]
    pub fn get(&self, key: &[TermId]) -> &[u32] {
        self.map.get(key).map_or(&[], Vec::as_slice)
    }
}

/// The tuples of a table, flat.
#[derive(Default, Clone)]
pub struct TableRows {
    pub arity: usize,
    pub len: usize,
    data: Vec<TermId>,
}

impl TableRows {
    #[inline]
    pub fn row(&self, r: usize) -> &[TermId] {
        &self.data[r * self.arity..(r + 1) * self.arity]
    }
}

/// One relation's facts in one state (or the static model).
pub struct Table {
    pub rows: TableRows,
    set: FxSet<Box<[TermId]>>,
    indexes: Vec<OnceLock<Index>>,
}

impl Table {
    pub fn new(arity: usize, index_count: usize) -> Self {
        Table {
            rows: TableRows {
                arity,
                len: 0,
                data: Vec::new(),
            },
            set: FxSet::default(),
            indexes: (0..index_count).map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len
    }

    pub fn is_empty(&self) -> bool {
        self.rows.len == 0
    }

    /// Adds a tuple; false if it was already there.
    pub fn insert(&mut self, tuple: &[TermId]) -> bool {
        if self.set.contains(tuple) {
            return false;
        }
        self.set.insert(tuple.into());
        self.rows.data.extend_from_slice(tuple);
        self.rows.len += 1;
        true
    }

    #[inline]
    pub fn contains(&self, tuple: &[TermId]) -> bool {
        self.set.contains(tuple)
    }

    /// Makes room for indexes registered after the table was created.
    pub fn ensure_index_slots(&mut self, count: usize) {
        while self.indexes.len() < count {
            self.indexes.push(OnceLock::new());
        }
    }

    /// Brings an index of a table under construction up to date.
    pub fn refresh_index(&mut self, store: &TermStore, id: usize, spec: &IndexSpec) {
        let Some(slot) = self.indexes.get_mut(id) else {
            return;
        };
        match slot.get_mut() {
            Some(index) => index.catch_up(store, spec, &self.rows),
            None => {
                let mut index = Index::default();
                index.catch_up(store, spec, &self.rows);
                let _ = slot.set(index);
            }
        }
    }

    /// Brings every index built so far up to date, so that the table can be
    /// read through shared references once its layer is finished.
    pub fn finish(&mut self, store: &TermStore, specs: &[IndexSpec]) {
        for (slot, spec) in self.indexes.iter_mut().zip(specs) {
            if let Some(index) = slot.get_mut() {
                index.catch_up(store, spec, &self.rows);
            }
        }
    }

    /// An index of a finished table, built on first use.
    pub fn index(&self, store: &TermStore, id: usize, spec: &IndexSpec) -> Option<&Index> {
        let slot = self.indexes.get(id)?;
        Some(slot.get_or_init(|| {
            let mut index = Index::default();
            index.catch_up(store, spec, &self.rows);
            index
        }))
    }
}
