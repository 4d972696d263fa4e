//! Types of expressions for the passes that need them (checked games only,
//! so every lookup succeeds on well-typed input).

use crate::fx_hash::FxMap;

use crate::ast::{Expr, Game};
use crate::builtins::with_builtins;
use crate::types::{RType, TypeEnv};

/// Declared types of a game's constants and variables (built-ins included).
pub struct Typing {
    pub constants: FxMap<String, RType>,
    pub variables: FxMap<String, RType>,
    aliases: FxMap<String, RType>,
}

/// The game's types and variables, built-in ones added. Constants and
/// edges are left out: the built-ins do not depend on them, and on big
/// games copying them cost more than the rest.
pub fn types_with_builtins(game: &Game) -> Game {
    with_builtins(&Game {
        pragmas: Vec::new(),
        typedefs: game.typedefs.clone(),
        constants: Vec::new(),
        variables: game.variables.clone(),
        edges: Vec::new(),
    })
}

impl Typing {
    pub fn new(game: &Game) -> Typing {
        let full = types_with_builtins(game);
        let env = TypeEnv::new(&full);
        let resolve = |t: &crate::ast::Type| env.resolve(t).ok();
        Typing {
            constants: game
                .constants
                .iter()
                .filter_map(|c| Some((c.name.clone(), resolve(&c.ty)?)))
                .collect(),
            variables: full
                .variables
                .iter()
                .filter_map(|v| Some((v.name.clone(), resolve(&v.ty)?)))
                .collect(),
            aliases: full
                .typedefs
                .iter()
                .filter_map(|t| Some((t.name.clone(), env.resolve_name(&t.name).ok()?)))
                .collect(),
        }
    }

    /// The type of an expression (a symbol's is its singleton set).
    pub fn of(&self, e: &Expr) -> Option<RType> {
        match e {
            Expr::Ref(name, _) => Some(
                self.constants
                    .get(name)
                    .or_else(|| self.variables.get(name))
                    .cloned()
                    .unwrap_or_else(|| RType::singleton(name)),
            ),
            Expr::Cast(ty, _, _) => self.aliases.get(ty).cloned(),
            Expr::Access(map, _, _) => self.of(map)?.arrow().map(|(_, v)| v.clone()),
        }
    }
}
