//! Type resolution and the type relations of rg.md §4.1: equality,
//! assignability (`≺`, symmetric) and inclusion.
//!
//! Aliases are checked for cycles before anything is resolved, so resolution
//! always terminates.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Display};
use std::ops::Deref;
use std::rc::Rc;

use crate::ast::{Game, Ident, Type};
use crate::fx_hash::FxSet;

/// A resolved type. `name` remembers the alias it was reached through, for
/// messages ("`{ 2 }` is not assignable to Bool").
#[derive(Clone, Debug)]
pub struct RType {
    pub name: Option<Ident>,
    pub kind: RKind,
}

#[derive(Clone, Debug)]
pub enum RKind {
    /// Symbols in declaration order (order only matters for `T(*)` and the
    /// default score).
    Set(Rc<SymbolSet>),
    Arrow(Rc<RType>, Rc<RType>),
}

/// A set type's symbols, with a hash index for membership in large sets
/// (built on first use and shared by every clone of the resolved alias):
/// translated games compare against sets of hundreds of symbols on every
/// edge.
#[derive(Debug)]
pub struct SymbolSet {
    symbols: Vec<Ident>,
    index: OnceCell<FxSet<Ident>>,
}

impl SymbolSet {
    /// Sets up to this size are searched linearly.
    const LINEAR: usize = 16;

    pub fn new(symbols: Vec<Ident>) -> Self {
        SymbolSet {
            symbols,
            index: OnceCell::new(),
        }
    }

    pub fn contains(&self, symbol: &str) -> bool {
        if self.symbols.len() <= Self::LINEAR {
            self.symbols.iter().any(|s| s == symbol)
        } else {
            self.index
                .get_or_init(|| self.symbols.iter().cloned().collect())
                .contains(symbol)
        }
    }
}

impl Deref for SymbolSet {
    type Target = [Ident];

    fn deref(&self) -> &[Ident] {
        &self.symbols
    }
}

impl RType {
    pub fn singleton(symbol: &str) -> RType {
        RType::set(vec![symbol.to_string()])
    }

    pub fn set(symbols: Vec<Ident>) -> RType {
        RType {
            name: None,
            kind: RKind::Set(Rc::new(SymbolSet::new(symbols))),
        }
    }

    pub fn symbols(&self) -> Option<&[Ident]> {
        match &self.kind {
            RKind::Set(symbols) => Some(symbols),
            RKind::Arrow(..) => None,
        }
    }

    pub fn arrow(&self) -> Option<(&RType, &RType)> {
        match &self.kind {
            RKind::Arrow(key, value) => Some((key, value)),
            RKind::Set(_) => None,
        }
    }

    pub fn contains(&self, symbol: &str) -> bool {
        match &self.kind {
            RKind::Set(symbols) => symbols.contains(symbol),
            RKind::Arrow(..) => false,
        }
    }

    /// Type equality: same symbols (order irrelevant), or arrows with equal
    /// sources and targets.
    pub fn equals(&self, other: &RType) -> bool {
        match (&self.kind, &other.kind) {
            (RKind::Set(a), RKind::Set(b)) => {
                a.iter().all(|s| b.contains(s)) && b.iter().all(|s| a.contains(s))
            }
            (RKind::Arrow(k1, v1), RKind::Arrow(k2, v2)) => k1.equals(k2) && v1.equals(v2),
            _ => false,
        }
    }

    /// Assignability `≺`: sets sharing a symbol; arrows with assignable
    /// sources and targets.
    pub fn assignable(&self, other: &RType) -> bool {
        match (&self.kind, &other.kind) {
            (RKind::Set(a), RKind::Set(b)) => {
                let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                small.iter().any(|s| large.contains(s))
            }
            (RKind::Arrow(k1, v1), RKind::Arrow(k2, v2)) => k1.assignable(k2) && v1.assignable(v2),
            _ => false,
        }
    }

    /// Inclusion `⊆` of set types.
    pub fn included_in(&self, other: &RType) -> bool {
        match (&self.kind, &other.kind) {
            (RKind::Set(a), RKind::Set(b)) => a.iter().all(|s| b.contains(s)),
            _ => false,
        }
    }

    /// The structure without alias names, e.g. `{ 0, 1 } -> { a }`.
    pub fn structure(&self) -> String {
        match &self.kind {
            RKind::Set(symbols) => format!("{{ {} }}", symbols.join(", ")),
            RKind::Arrow(key, value) => format!("{} -> {}", key, value.structure()),
        }
    }

    fn named(mut self, name: &str) -> RType {
        self.name = Some(name.to_string());
        self
    }
}

impl Display for RType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.name, &self.kind) {
            (Some(name), _) => f.write_str(name),
            (None, RKind::Set(symbols)) => write!(f, "{{ {} }}", symbols.join(", ")),
            (None, RKind::Arrow(key, value)) => write!(f, "{key} -> {value}"),
        }
    }
}

/// Why a type could not be resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeError {
    /// `Unresolved type T.`
    Unresolved(Ident),
    /// `Type A is defined recursively.`
    Recursive(Ident),
    /// The source of an arrow is not a set type: `Expected Set type, got X.`
    ArrowSourceNotSet(String),
}

impl Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeError::Unresolved(name) => write!(f, "Unresolved type {name}."),
            TypeError::Recursive(name) => write!(f, "Type {name} is defined recursively."),
            TypeError::ArrowSourceNotSet(ty) => write!(f, "Expected Set type, got {ty}."),
        }
    }
}

/// The type aliases of a game, resolved lazily with memoization.
pub struct TypeEnv<'g> {
    aliases: HashMap<&'g str, &'g Type>,
    recursive: HashSet<&'g str>,
    cache: std::cell::RefCell<HashMap<&'g str, Result<RType, TypeError>>>,
}

impl<'g> TypeEnv<'g> {
    /// Builds the environment from the game's aliases (the first definition
    /// of a name wins; duplicates are the checker's business).
    pub fn new(game: &'g Game) -> Self {
        let mut aliases = HashMap::new();
        for def in &game.typedefs {
            aliases.entry(def.name.as_str()).or_insert(&def.ty);
        }
        let recursive = recursive_aliases(&aliases);
        TypeEnv {
            aliases,
            recursive,
            cache: Default::default(),
        }
    }

    pub fn is_defined(&self, name: &str) -> bool {
        self.aliases.contains_key(name)
    }

    /// Aliases that are part of a definition cycle.
    pub fn recursive_aliases(&self) -> &HashSet<&'g str> {
        &self.recursive
    }

    pub fn resolve_name(&self, name: &str) -> Result<RType, TypeError> {
        if let Some(result) = self.cache.borrow().get(name) {
            return result.clone();
        }
        let Some((&key, &ty)) = self.aliases.get_key_value(name) else {
            return Err(TypeError::Unresolved(name.to_string()));
        };
        if self.recursive.contains(name) {
            return Err(TypeError::Recursive(name.to_string()));
        }
        let result = self.resolve(ty).map(|t| t.named(name));
        self.cache.borrow_mut().insert(key, result.clone());
        result
    }

    pub fn resolve(&self, ty: &Type) -> Result<RType, TypeError> {
        match ty {
            Type::Set(symbols, _) => Ok(RType::set(symbols.clone())),
            Type::Name(name, _) => self.resolve_name(name),
            Type::Arrow(key, value) => {
                let key_type = self.resolve(key)?;
                if key_type.symbols().is_none() {
                    return Err(TypeError::ArrowSourceNotSet(key.to_string()));
                }
                let value_type = self.resolve(value)?;
                Ok(RType {
                    name: None,
                    kind: RKind::Arrow(Rc::new(key_type), Rc::new(value_type)),
                })
            }
        }
    }
}

/// Aliases on a definition cycle (`type A = B; type B = A;`,
/// `type A = A -> Bool;`), found by a depth-first search over the names
/// each definition mentions.
fn recursive_aliases<'g>(aliases: &HashMap<&'g str, &'g Type>) -> HashSet<&'g str> {
    fn mentioned<'t>(ty: &'t Type, out: &mut Vec<&'t str>) {
        match ty {
            Type::Set(..) => {}
            Type::Name(name, _) => out.push(name),
            Type::Arrow(key, value) => {
                mentioned(key, out);
                mentioned(value, out);
            }
        }
    }
    let mut graph = petgraph::graphmap::DiGraphMap::<&str, ()>::new();
    for (&name, &ty) in aliases {
        graph.add_node(name);
        let mut names = Vec::new();
        mentioned(ty, &mut names);
        for target in names {
            if let Some((&target, _)) = aliases.get_key_value(target) {
                graph.add_edge(name, target, ());
            }
        }
    }
    let mut recursive = HashSet::new();
    for component in petgraph::algo::kosaraju_scc(&graph) {
        let cyclic = component.len() > 1 || graph.contains_edge(component[0], component[0]);
        if cyclic {
            recursive.extend(component);
        }
    }
    recursive
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;

    #[test]
    fn resolution_equality_and_assignability() {
        let game = parse_game(
            "type A = {a, b}; type B = {b, a}; type C = {c}; type M = A -> C; type N = B -> {c, d};",
        )
        .unwrap();
        let env = TypeEnv::new(&game);
        let a = env.resolve_name("A").unwrap();
        let b = env.resolve_name("B").unwrap();
        let c = env.resolve_name("C").unwrap();
        assert!(a.equals(&b));
        assert!(!a.equals(&c));
        assert!(a.assignable(&b) && !a.assignable(&c));
        let m = env.resolve_name("M").unwrap();
        let n = env.resolve_name("N").unwrap();
        assert!(m.assignable(&n) && !m.equals(&n));
        assert!(!m.assignable(&a));
        assert!(c.included_in(&env.resolve(&Type::set(["c", "d"])).unwrap()));
        assert_eq!(a.to_string(), "A");
        assert_eq!(m.structure(), "A -> { c }");
    }

    #[test]
    fn cycles_are_detected_before_resolution() {
        let game =
            parse_game("type A = B; type B = A; type R = R -> {x}; type OK = {x} -> {y};").unwrap();
        let env = TypeEnv::new(&game);
        assert_eq!(
            env.resolve_name("A").unwrap_err(),
            TypeError::Recursive("A".into())
        );
        assert_eq!(
            env.resolve_name("R").unwrap_err(),
            TypeError::Recursive("R".into())
        );
        assert!(env.resolve_name("OK").is_ok());
        assert_eq!(
            env.resolve_name("Z").unwrap_err(),
            TypeError::Unresolved("Z".into())
        );
    }

    #[test]
    fn arrow_sources_must_be_sets() {
        let game = parse_game("type X = {a} -> {b}; type A = X -> {c};").unwrap();
        let env = TypeEnv::new(&game);
        assert_eq!(
            env.resolve_name("A").unwrap_err(),
            TypeError::ArrowSourceNotSet("X".into())
        );
    }
}
