//! RG names of ground GDL terms (gdl.md §7.2), shared by every model and by
//! the RG lowering so that moves print identically everywhere.
//!
//! A term's name is its words in prefix order joined by `_`; characters that
//! RG identifiers cannot hold are spelled out (`+` → `add_`, `-` → `sub_`,
//! `<` → `lt_`, `>` → `gt_`, anything else `_xHH_`). Reserved RG words get a
//! trailing `_`. The join is not injective, so [`NameTable`] adds suffixes
//! when two different terms of one namespace get the same name.

use std::collections::HashMap;
use std::fmt::Write;

/// One word (symbol) with its characters mapped to RG identifier characters.
pub fn mangle_word(word: &str, out: &mut String) {
    for c in word.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => out.push(c),
            '+' => out.push_str("add_"),
            '-' => out.push_str("sub_"),
            '<' => out.push_str("lt_"),
            '>' => out.push_str("gt_"),
            other => {
                let mut buffer = [0u8; 4];
                for byte in other.encode_utf8(&mut buffer).bytes() {
                    let _ = write!(out, "_x{byte:02X}_");
                }
            }
        }
    }
}

/// The RG name of a term given by its words in prefix order, e.g.
/// `["mark", "1", "2", "x"]` for `(mark 1 2 x)` → `mark_1_2_x`.
pub fn rg_name<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let mut name = String::new();
    for (i, word) in words.into_iter().enumerate() {
        if i > 0 {
            name.push('_');
        }
        mangle_word(word, &mut name);
    }
    if name.is_empty() {
        name.push('_');
    }
    if rg_core::builtins::is_reserved_word(&name) {
        name.push('_');
    }
    name
}

/// Sorts role indices into the RG turn order: by RG name, ties by file order.
pub fn turn_order(role_names: &[String]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..role_names.len()).collect();
    order.sort_by(|&a, &b| role_names[a].cmp(&role_names[b]).then(a.cmp(&b)));
    order
}

/// Injective naming within one namespace: the first term to claim a name
/// keeps it, later distinct terms with the same name get `_2`, `_3`, …
#[derive(Clone, Debug, Default)]
pub struct NameTable<K: std::hash::Hash + Eq + Clone> {
    by_key: HashMap<K, String>,
    taken: HashMap<String, K>,
}

impl<K: std::hash::Hash + Eq + Clone> NameTable<K> {
    pub fn new() -> Self {
        NameTable {
            by_key: HashMap::new(),
            taken: HashMap::new(),
        }
    }

    /// The unique name of `key`, derived from `plain` on first use.
    pub fn name(&mut self, key: K, plain: &str) -> String {
        if let Some(name) = self.by_key.get(&key) {
            return name.clone();
        }
        let mut candidate = plain.to_string();
        let mut suffix = 2;
        while self.taken.contains_key(&candidate) {
            candidate = format!("{plain}_{suffix}");
            suffix += 1;
        }
        self.taken.insert(candidate.clone(), key.clone());
        self.by_key.insert(key, candidate.clone());
        candidate
    }

    pub fn get(&self, key: &K) -> Option<&str> {
        self.by_key.get(key).map(String::as_str)
    }

    /// The key that owns a name.
    pub fn owner(&self, name: &str) -> Option<&K> {
        self.taken.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_join_words_in_prefix_order() {
        assert_eq!(rg_name(["mark", "1", "2", "x"]), "mark_1_2_x");
        assert_eq!(rg_name(["noop"]), "noop");
        assert_eq!(rg_name(["f", "g", "a", "b"]), "f_g_a_b");
    }

    #[test]
    fn special_characters_are_spelled_out() {
        assert_eq!(rg_name(["map+"]), "mapadd_");
        assert_eq!(rg_name(["-1"]), "sub_1");
        assert_eq!(rg_name(["<", ">"]), "lt__gt_");
        assert_eq!(rg_name(["a.b"]), "a_x2E_b");
    }

    #[test]
    fn reserved_names_get_a_suffix() {
        assert_eq!(rg_name(["player"]), "player_");
        assert_eq!(rg_name(["random"]), "random_");
        assert_eq!(rg_name(["player", "x"]), "player_x");
    }

    #[test]
    fn turn_order_sorts_by_name_then_file_order() {
        let names = vec!["xplayer".to_string(), "oplayer".to_string()];
        assert_eq!(turn_order(&names), vec![1, 0]);
    }

    #[test]
    fn name_table_disambiguates_collisions() {
        let mut table = NameTable::new();
        assert_eq!(table.name(1, "a_b_c"), "a_b_c");
        assert_eq!(table.name(2, "a_b_c"), "a_b_c_2");
        assert_eq!(table.name(1, "a_b_c"), "a_b_c");
        assert_eq!(table.owner("a_b_c_2"), Some(&2));
    }
}
