//! Runtime data of the native model: interned symbols, types with their
//! dense layout, and the semistate (one `u32` per slot, with an
//! incrementally maintained 128-bit hash for visited sets and state
//! equality, rg.md §5.1: dense maps compare extensionally for free).

use std::collections::HashMap;

use crate::limits::{LIMITS_FILE, MAX_TABLE_ENTRIES};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Interned symbol names (RG symbols: serialized HRG values, §3.4).
#[derive(Clone, Debug, Default)]
pub(super) struct Symbols {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Symbols {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("?", String::as_str)
    }
}

/// The symbols of a set type, in order, with each one's position.
#[derive(Debug)]
pub(super) struct KeyTable {
    pub symbols: Vec<u32>,
    index: HashMap<u32, u32>,
}

impl KeyTable {
    /// A repeated symbol keeps its first position (a union domain may
    /// splice a symbol twice; RG set types are sets).
    pub fn new(symbols: Vec<u32>) -> KeyTable {
        let mut index = HashMap::new();
        let mut unique = Vec::new();
        for s in symbols {
            if let std::collections::hash_map::Entry::Vacant(e) = index.entry(s) {
                e.insert(unique.len() as u32);
                unique.push(s);
            }
        }
        KeyTable {
            symbols: unique,
            index,
        }
    }

    pub fn slot(&self, symbol: u32) -> Option<u32> {
        self.index.get(&symbol).copied()
    }

    pub fn len(&self) -> u32 {
        self.symbols.len() as u32
    }
}

/// A resolved type. A map of type `K -> V` occupies `|K| * size(V)`
/// consecutive slots, key by key in the order of `K`.
#[derive(Debug)]
pub(super) enum Ty {
    Set(Rc<KeyTable>),
    Map {
        keys: Rc<KeyTable>,
        value: Rc<Ty>,
        value_size: u32,
    },
}

impl Ty {
    /// The map type `keys -> value`; refused (with the message) when a value
    /// of it would take more than [`MAX_TABLE_ENTRIES`] slots.
    pub fn map(keys: Rc<KeyTable>, value: Rc<Ty>) -> Result<Ty, String> {
        let value_size = value.size();
        let size = u64::from(keys.len()) * u64::from(value_size);
        if size > MAX_TABLE_ENTRIES {
            return Err(format!(
                "A value of this map type would have {size} entries, more than the limit of \
                 {MAX_TABLE_ENTRIES} entries per table (raise MAX_TABLE_ENTRIES in {LIMITS_FILE} \
                 to allow more)."
            ));
        }
        Ok(Ty::Map {
            keys,
            value,
            value_size,
        })
    }

    pub fn size(&self) -> u32 {
        match self {
            Ty::Set(_) => 1,
            Ty::Map {
                keys, value_size, ..
            } => keys.len() * value_size,
        }
    }
}

/// The semistate: every variable (built-ins, graph parameters and return
/// addresses of reusable graphs included), flattened into slots.
#[derive(Clone, Debug)]
pub struct Values {
    slots: Box<[u32]>,
    hash: u128,
}

impl Values {
    pub(super) fn new(slots: Vec<u32>) -> Values {
        let hash = slots
            .iter()
            .enumerate()
            .fold(0, |h, (k, &v)| h ^ contribution(k as u32, v));
        Values {
            slots: slots.into_boxed_slice(),
            hash,
        }
    }

    #[inline]
    pub(super) fn get(&self, slot: u32) -> u32 {
        self.slots[slot as usize]
    }

    #[inline]
    pub(super) fn set(&mut self, slot: u32, value: u32) {
        let old = self.slots[slot as usize];
        if old != value {
            self.hash ^= contribution(slot, old) ^ contribution(slot, value);
            self.slots[slot as usize] = value;
        }
    }

    pub(super) fn hash128(&self) -> u128 {
        self.hash
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.hash == other.hash && self.slots == other.slots
    }
}

impl Eq for Values {}

impl Hash for Values {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash as u64);
    }
}

#[inline]
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The hash contribution of `value` in `slot`; a semistate's hash is the
/// XOR of its slots' contributions, so a write updates it in O(1).
#[inline]
pub(super) fn contribution(slot: u32, value: u32) -> u128 {
    let x = (u64::from(slot) << 32) | u64::from(value);
    (u128::from(splitmix(x)) << 64) | u128::from(splitmix(x ^ 0xD1B5_4A32_D192_ED03))
}
