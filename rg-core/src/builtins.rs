//! The built-in definitions of rg.md §3.2, which a description may omit.
//!
//! [`with_builtins`] appends the missing ones after the user's declarations
//! (types `Bool`, `Goals`, `Visibility`, `PlayerOrSystem`, then variables
//! `goals`, `player`, `visible`). The printer never calls it: printing shows
//! the parsed text only.

use crate::ast::{Game, Type, TypeDef, Value, Variable, KEYWORDS};
use crate::types::TypeEnv;

pub const PLAYER: &str = "Player";
pub const SCORE: &str = "Score";
pub const BOOL: &str = "Bool";
pub const GOALS: &str = "Goals";
pub const VISIBILITY: &str = "Visibility";
pub const PLAYER_OR_SYSTEM: &str = "PlayerOrSystem";
pub const KEEPER: &str = "keeper";
pub const RANDOM: &str = "random";
pub const BEGIN: &str = "begin";
pub const END: &str = "end";
pub const PLAYER_VAR: &str = "player";
pub const GOALS_VAR: &str = "goals";
pub const VISIBLE_VAR: &str = "visible";

/// The built-in types (rg.md §3.2); `Player` and `Score` are the game's own.
pub const BUILTIN_TYPES: [&str; 6] = [PLAYER, SCORE, BOOL, GOALS, VISIBILITY, PLAYER_OR_SYSTEM];
/// The built-in variables.
pub const BUILTIN_VARIABLES: [&str; 3] = [PLAYER_VAR, GOALS_VAR, VISIBLE_VAR];
/// The players besides the game's own: the symbols `PlayerOrSystem` adds.
pub const SYSTEM_PLAYERS: [&str; 2] = [KEEPER, RANDOM];
/// The nodes every game has.
pub const RESERVED_NODES: [&str; 2] = [BEGIN, END];

/// Every built-in name, of every namespace: types, system players, nodes,
/// variables.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN_TYPES
        .into_iter()
        .chain(SYSTEM_PLAYERS)
        .chain(RESERVED_NODES)
        .chain(BUILTIN_VARIABLES)
}

/// The words a translator must not give to anything of its own: the
/// keywords and every built-in name.
pub fn reserved_words() -> impl Iterator<Item = &'static str> {
    KEYWORDS.into_iter().chain(builtin_names())
}

pub fn is_builtin_type(name: &str) -> bool {
    BUILTIN_TYPES.contains(&name)
}

pub fn is_builtin_variable(name: &str) -> bool {
    BUILTIN_VARIABLES.contains(&name)
}

pub fn is_reserved_word(name: &str) -> bool {
    reserved_words().any(|word| word == name)
}

/// The definition a built-in type must agree with, given the game's
/// `Player` symbols.
pub fn builtin_type(name: &str, players: &[String]) -> Option<Type> {
    match name {
        BOOL => Some(Type::set(["0", "1"])),
        GOALS => Some(Type::arrow(Type::name(PLAYER), Type::name(SCORE))),
        VISIBILITY => Some(Type::arrow(Type::name(PLAYER), Type::name(BOOL))),
        PLAYER_OR_SYSTEM => {
            let mut symbols = players.to_vec();
            symbols.extend([KEEPER.to_string(), RANDOM.to_string()]);
            Some(Type::set(symbols))
        }
        _ => None,
    }
}

/// The type name a built-in variable must have.
pub fn builtin_variable_type(name: &str) -> Option<&'static str> {
    match name {
        GOALS_VAR => Some(GOALS),
        PLAYER_VAR => Some(PLAYER_OR_SYSTEM),
        VISIBLE_VAR => Some(VISIBILITY),
        _ => None,
    }
}

/// The game with every omitted built-in appended. When `Player` does not
/// resolve to a set type, `PlayerOrSystem` holds only the system players;
/// when `Score` does not, `goals` is left out (the checker reports the
/// cause).
pub fn with_builtins(game: &Game) -> Game {
    let mut full = game.clone();
    let env = TypeEnv::new(game);
    let players: Option<Vec<String>> = env
        .resolve_name(PLAYER)
        .ok()
        .and_then(|t| t.symbols().map(<[String]>::to_vec));
    let first_score: Option<String> = env
        .resolve_name(SCORE)
        .ok()
        .and_then(|t| t.symbols().and_then(|s| s.first().cloned()));
    let has_type = |name: &str| game.typedefs.iter().any(|t| t.name == name);
    for name in [BOOL, GOALS, VISIBILITY, PLAYER_OR_SYSTEM] {
        if has_type(name) {
            continue;
        }
        if let Some(ty) = builtin_type(name, players.as_deref().unwrap_or(&[])) {
            full.typedefs.push(TypeDef {
                name: name.to_string(),
                ty,
                at: Default::default(),
            });
        }
    }
    let has_variable = |name: &str| game.variables.iter().any(|v| v.name == name);
    let defaults = [
        (
            GOALS_VAR,
            GOALS,
            first_score.map(|s| Value::map(Value::symbol(s), [])),
        ),
        (PLAYER_VAR, PLAYER_OR_SYSTEM, Some(Value::symbol(KEEPER))),
        (
            VISIBLE_VAR,
            VISIBILITY,
            Some(Value::map(Value::symbol("1"), [])),
        ),
    ];
    for (name, ty, value) in defaults {
        if let (false, Some(value)) = (has_variable(name), value) {
            full.variables.push(Variable {
                name: name.to_string(),
                ty: Type::name(ty),
                value,
                at: Default::default(),
            });
        }
    }
    full
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;
    use crate::print::print_game;

    #[test]
    fn reserved_words_are_the_keywords_and_every_builtin_once() {
        let mut words: Vec<&str> = reserved_words().collect();
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), 3 + 6 + 2 + 2 + 3);
        assert!(is_reserved_word("var") && is_reserved_word("PlayerOrSystem"));
        assert!(!is_reserved_word("x"));
    }

    #[test]
    fn missing_builtins_are_appended_in_order() {
        let game =
            parse_game("type Player = { x };\ntype Score = { 0 };\nbegin, end: player = keeper;\n")
                .unwrap();
        let printed = print_game(&with_builtins(&game));
        assert_eq!(
            printed,
            "type Player = { x };\ntype Score = { 0 };\ntype Bool = { 0, 1 };\ntype Goals = Player -> Score;\n\
             type Visibility = Player -> Bool;\ntype PlayerOrSystem = { x, keeper, random };\n\
             var goals: Goals = { :0 };\nvar player: PlayerOrSystem = keeper;\nvar visible: Visibility = { :1 };\n\
             begin, end: player = keeper;\n"
        );
    }

    #[test]
    fn user_definitions_are_kept() {
        let game = parse_game(
            "type Player = { a, b };\ntype Score = { 0, 50, 100 };\nvar goals: Goals = { :50 };\n",
        )
        .unwrap();
        let full = with_builtins(&game);
        let goals: Vec<_> = full
            .variables
            .iter()
            .filter(|v| v.name == "goals")
            .collect();
        assert_eq!(goals.len(), 1);
        assert_eq!(goals[0].value.to_string(), "{ :50 }");
    }
}
