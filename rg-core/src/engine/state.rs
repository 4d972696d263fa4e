//! Game states and the hashing used for visited sets and deduplication.

use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A game state: the node of the rules automaton and the flat semistate.
/// The 128-bit hash of the semistate is cached; equality compares contents.
#[derive(Debug)]
pub struct State {
    pub node: u32,
    pub values: Box<[u32]>,
    pub(crate) hash: u128,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            node: self.node,
            values: self.values.clone(),
            hash: self.hash,
        }
    }

    /// Reuses `self`'s buffer when the sizes agree (they do within a game).
    fn clone_from(&mut self, source: &State) {
        self.node = source.node;
        self.hash = source.hash;
        if self.values.len() == source.values.len() {
            self.values.copy_from_slice(&source.values);
        } else {
            self.values = source.values.clone();
        }
    }
}

impl State {
    pub fn new(node: u32, values: Box<[u32]>) -> State {
        let hash = hash_values(&values);
        State { node, values, hash }
    }
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.node == other.node && self.hash == other.hash && self.values == other.values
    }
}

impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash as u64 ^ u64::from(self.node).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}

#[inline]
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The hash contribution of `value` stored in `slot`. A semistate's hash is
/// the XOR of the contributions of its slots, so a write updates it in O(1).
#[inline]
pub fn contribution(slot: u32, value: u32) -> u128 {
    let x = (u64::from(slot) << 32) | u64::from(value);
    let a = splitmix(x);
    let b = splitmix(x ^ 0xD1B5_4A32_D192_ED03);
    (u128::from(a) << 64) | u128::from(b)
}

/// Pseudo-slots outside the state's range, so that nodes and tag positions
/// hash independently of the values.
const NODE_SLOT: u32 = u32::MAX;

#[inline]
pub fn node_contribution(node: u32) -> u128 {
    contribution(NODE_SLOT, node)
}

#[inline]
pub fn tag_contribution(position: usize, tag: u32) -> u128 {
    contribution(u32::MAX - 1 - position as u32, tag)
}

pub fn hash_values(values: &[u32]) -> u128 {
    values
        .iter()
        .enumerate()
        .fold(0, |h, (slot, &v)| h ^ contribution(slot as u32, v))
}

/// A hasher for keys that already are uniformly distributed hashes.
#[derive(Default)]
pub struct PrehashedHasher(u64);

impl Hasher for PrehashedHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= n as u64;
    }
}

pub type Prehashed = BuildHasherDefault<PrehashedHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_hash_matches_recomputation() {
        let mut values = vec![3u32, 1, 4, 1, 5];
        let mut h = hash_values(&values);
        h ^= contribution(2, values[2]) ^ contribution(2, 9);
        values[2] = 9;
        assert_eq!(h, hash_values(&values));
    }

    #[test]
    fn equal_states_hash_alike() {
        let a = State::new(1, vec![1, 2].into());
        let b = State::new(1, vec![1, 2].into());
        let c = State::new(2, vec![1, 2].into());
        assert_eq!(a, b);
        assert_ne!(a, c);
        let set: std::collections::HashSet<State> = [a, b, c].into_iter().collect();
        assert_eq!(set.len(), 2);
    }
}
