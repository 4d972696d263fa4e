//! RG names for the entities of an RBG game (rbg.md §5.11).
//!
//! Vertex names become the `Coord` symbols and, through `$$ coord`, the
//! move tags, so they are kept verbatim (only an RG keyword is renamed).
//! Pieces and players are symbols used in expressions: a name with a fixed
//! meaning in RG (`keeper`, `player`, `Bool`, ...) is renamed. RBG
//! variables become RG variables, which would shadow a symbol of the same
//! name, so a variable is renamed when it coincides with any symbol.
//! Generated types, constants and variables avoid all of these names.

use std::collections::HashSet;

use rg_core::ast::KEYWORDS;
use rg_core::builtins::{is_reserved_word, reserved_words};

use crate::ast::Game;

pub(crate) struct Names {
    pub vertices: Vec<String>,
    pub pieces: Vec<String>,
    pub players: Vec<String>,
    /// RG variable per `#variables` entry.
    pub variables: Vec<String>,
    /// The "no vertex" (and "no piece") sentinel.
    pub null: String,
    /// The "undefined number" sentinel.
    pub nan: String,
    /// Every name above, for the builder to avoid.
    pub taken: HashSet<String>,
}

impl Names {
    pub(crate) fn new(game: &Game) -> Names {
        // Names an RBG piece or player must not keep.
        let mut taken: HashSet<String> = reserved_words().map(String::from).collect();
        for v in &game.board {
            taken.insert(v.name.name.clone());
        }
        for p in &game.pieces {
            taken.insert(p.name.clone());
        }
        for p in &game.players {
            taken.insert(p.name.clone());
        }
        let vertices = game
            .board
            .iter()
            .map(|v| {
                let name = &v.name.name;
                if KEYWORDS.contains(&name.as_str()) {
                    mangle(name, &mut taken)
                } else {
                    name.clone()
                }
            })
            .collect();
        let keep_or_mangle = |name: &str, taken: &mut HashSet<String>| {
            if is_reserved_word(name) {
                mangle(name, taken)
            } else {
                name.to_string()
            }
        };
        let pieces = game
            .pieces
            .iter()
            .map(|p| keep_or_mangle(&p.name, &mut taken))
            .collect();
        let players = game
            .players
            .iter()
            .map(|p| keep_or_mangle(&p.name, &mut taken))
            .collect();
        let null = fresh("null", &mut taken);
        let nan = fresh("nan", &mut taken);
        let variables = game
            .variables
            .iter()
            .map(|v| fresh(&v.name, &mut taken))
            .collect();
        Names {
            vertices,
            pieces,
            players,
            variables,
            null,
            nan,
            taken,
        }
    }
}

/// `base` if it is free, else `base_1`, `base_2`, ... (marked taken).
fn fresh(base: &str, taken: &mut HashSet<String>) -> String {
    if taken.insert(base.to_string()) {
        return base.to_string();
    }
    mangle(base, taken)
}

fn mangle(base: &str, taken: &mut HashSet<String>) -> String {
    let mut k = 1usize;
    loop {
        let candidate = format!("{base}_{k}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        k += 1;
    }
}

/// The RG symbol of an integer: decimal, `negK` for `-K`.
pub(crate) fn number(value: i128) -> String {
    if value >= 0 {
        value.to_string()
    } else {
        format!("neg{}", value.unsigned_abs())
    }
}

/// The tag of modifier `index` (rbg.md §5.7).
pub(crate) fn index_tag(index: u32) -> String {
    format!("index_{index}")
}
