//! Move and role names as the RG translation spells them (gdl.md §7.2),
//! written here from the specification: a term's symbols in prefix order
//! joined by `_`, characters RG identifiers cannot hold spelled out
//! (`+` `add_`, `-` `sub_`, `<` `lt_`, `>` `gt_`, any other byte `_xHH_`),
//! and a reserved RG word followed by `_`.

use std::fmt::Write;

use super::terms::{Ground, Symbols};

pub fn rg_name(term: &Ground, symbols: &Symbols) -> String {
    let mut words = Vec::new();
    term.words(&mut words);
    let mut name = String::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            name.push('_');
        }
        for c in symbols.name(*word).chars() {
            match c {
                c if c.is_ascii_alphanumeric() || c == '_' => name.push(c),
                '+' => name.push_str("add_"),
                '-' => name.push_str("sub_"),
                '<' => name.push_str("lt_"),
                '>' => name.push_str("gt_"),
                other => {
                    let mut bytes = [0; 4];
                    for byte in other.encode_utf8(&mut bytes).bytes() {
                        let _ = write!(name, "_x{byte:02X}_");
                    }
                }
            }
        }
    }
    if rg_core::builtins::is_reserved_word(&name) {
        name.push('_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(words: &[&str]) -> String {
        let mut symbols = Symbols::default();
        let ids: Vec<_> = words.iter().map(|w| symbols.intern(w)).collect();
        let term = if ids.len() == 1 {
            Ground::Sym(ids[0])
        } else {
            Ground::App(ids[0], ids[1..].iter().map(|&s| Ground::Sym(s)).collect())
        };
        rg_name(&term, &symbols)
    }

    #[test]
    fn names_follow_the_specification() {
        assert_eq!(name(&["mark", "1", "2"]), "mark_1_2");
        assert_eq!(name(&["noop"]), "noop");
        assert_eq!(name(&["+", "a"]), "add__a");
        assert_eq!(name(&["<=", "x"]), "lt__x3D__x");
        assert_eq!(name(&["player"]), "player_");
        assert_eq!(name(&["é"]), "_xC3__xA9_");
    }
}
