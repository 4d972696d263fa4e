//! The Fx hash (rustc's) for the workbench's hash maps and sets: a word at
//! a time, so several times faster than SipHash on node names, labels and
//! the integer keys of the grounder and the searches. Not DoS-resistant,
//! which none of its uses needs; iteration order must not matter where it
//! is used (as with any hash map).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub type FxBuild = BuildHasherDefault<FxHasher>;
/// Hash maps and sets with [`FxHasher`].
pub type FxMap<K, V> = HashMap<K, V, FxBuild>;
pub type FxSet<T> = HashSet<T, FxBuild>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn strings_differing_in_the_last_partial_word_hash_differently() {
        let build = FxBuild::default();
        assert_ne!(
            build.hash_one("node_12345678a"),
            build.hash_one("node_12345678b")
        );
        assert_eq!(build.hash_one("same"), build.hash_one("same"));
    }

    #[test]
    fn maps_work_as_maps() {
        let mut map: FxMap<&str, u32> = FxMap::default();
        map.insert("a", 1);
        map.insert("b", 2);
        *map.entry("a").or_default() += 10;
        assert_eq!(map.get("a"), Some(&11));
        assert_eq!(map.len(), 2);
    }
}
