//! The static checks of rg.md §4: names, duplicates, built-ins, types,
//! values and map validity, expressions, labels and the graph.
//!
//! [`check_game`] runs every check and returns all diagnostics (errors and
//! warnings) at once. A game is *checked* when no error is reported; the
//! engine and the optimizer rely on that.

use crate::fx_hash::{FxMap, FxSet};
use std::collections::VecDeque;

use crate::ast::{
    At, Constant, Edge, Expr, Game, Ident, Label, MapEntry, PragmaKind, Type, Value, Variable,
};
use crate::builtins::{self, with_builtins};
use crate::diag::Diagnostic;
use crate::types::{RType, TypeEnv, TypeError};

/// Runs every static check on `game` (built-ins are added when omitted).
pub fn check_game(game: &Game) -> Vec<Diagnostic> {
    let full = with_builtins(game);
    let mut checker = Checker::new(&full);
    checker.user_typedefs = game.typedefs.len();
    checker.user_variables = game.variables.len();
    checker.run();
    checker.diagnostics
}

/// Whether the diagnostics contain an error.
pub fn is_clean(diagnostics: &[Diagnostic]) -> bool {
    !crate::diag::has_errors(diagnostics)
}

struct Checker<'g> {
    game: &'g Game,
    env: TypeEnv<'g>,
    /// Constant name → index of its first declaration.
    constants: FxMap<&'g str, usize>,
    variables: FxMap<&'g str, &'g Variable>,
    constant_types: FxMap<&'g str, RType>,
    variable_types: FxMap<&'g str, RType>,
    /// A constant's value with constant references replaced (for the
    /// "stored symbols belong to the type" check).
    constant_values: FxMap<&'g str, Value>,
    diagnostics: Vec<Diagnostic>,
    /// Declarations at these positions and beyond were added by
    /// `with_builtins`; problems in them stem from a missing or wrong
    /// `Player`/`Score`, which is reported once, there.
    user_typedefs: usize,
    user_variables: usize,
    /// Location of the label being checked: errors inside expressions that
    /// have no span of their own (built by a translator) point there.
    label_at: At,
}

fn error_at(message: impl Into<String>, at: At) -> Diagnostic {
    Diagnostic::error(message, at.span())
}

fn warning_at(message: impl Into<String>, at: At) -> Diagnostic {
    Diagnostic::warning(message, at.span())
}

impl<'g> Checker<'g> {
    fn new(game: &'g Game) -> Self {
        let mut constants = FxMap::default();
        for (k, c) in game.constants.iter().enumerate() {
            constants.entry(c.name.as_str()).or_insert(k);
        }
        let mut variables = FxMap::default();
        for v in &game.variables {
            variables.entry(v.name.as_str()).or_insert(v);
        }
        Checker {
            game,
            env: TypeEnv::new(game),
            constants,
            variables,
            constant_types: FxMap::default(),
            variable_types: FxMap::default(),
            constant_values: FxMap::default(),
            diagnostics: Vec::new(),
            user_typedefs: usize::MAX,
            user_variables: usize::MAX,
            label_at: At::NOWHERE,
        }
    }

    fn report(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    fn run(&mut self) {
        self.check_duplicates();
        self.check_typedefs();
        self.check_required_types();
        self.check_constants();
        self.check_variables();
        for edge in &self.game.edges {
            self.check_edge(edge);
        }
        self.check_pragmas();
        self.check_graph();
        self.check_unused();
    }

    // ---- names -----------------------------------------------------------

    fn check_duplicates(&mut self) {
        let game = self.game;
        let mut seen = FxSet::default();
        for t in &game.typedefs {
            if !seen.insert(t.name.as_str()) {
                self.report(error_at(
                    format!("Multiple typedefs named {}.", t.name),
                    t.at,
                ));
            }
        }
        let mut seen = FxSet::default();
        for c in &game.constants {
            if !seen.insert(c.name.as_str()) {
                self.report(error_at(
                    format!("Multiple constants named {}.", c.name),
                    c.at,
                ));
            }
        }
        let mut seen = FxSet::default();
        for v in &game.variables {
            if !seen.insert(v.name.as_str()) {
                self.report(error_at(
                    format!("Multiple variables named {}.", v.name),
                    v.at,
                ));
            }
            if self.constants.contains_key(v.name.as_str()) {
                self.report(error_at(
                    format!(
                        "{} is declared both as a constant and as a variable.",
                        v.name
                    ),
                    v.at,
                ));
            }
        }
    }

    // ---- types -------------------------------------------------------------

    /// Reports the problems written directly in a type expression (unknown
    /// names, arrow sources that are not sets, repeated symbols) and returns
    /// its resolution when there is one.
    fn check_type(&mut self, ty: &Type) -> Option<RType> {
        self.check_type_parts(ty);
        self.env.resolve(ty).ok()
    }

    fn check_type_parts(&mut self, ty: &Type) {
        match ty {
            Type::Set(symbols, at) => {
                let mut seen = FxSet::default();
                for s in symbols {
                    if !seen.insert(s) {
                        self.report(warning_at(
                            format!("Symbol {s} is repeated in the set type {ty}."),
                            *at,
                        ));
                    }
                }
            }
            Type::Name(name, at) => {
                if !self.env.is_defined(name) {
                    self.report(error_at(format!("Unresolved type {name}."), *at));
                }
            }
            Type::Arrow(key, value) => {
                self.check_type_parts(key);
                self.check_type_parts(value);
                if let Ok(k) = self.env.resolve(key) {
                    if k.symbols().is_none() {
                        self.report(error_at(
                            TypeError::ArrowSourceNotSet(key.to_string()).to_string(),
                            key.at(),
                        ));
                    }
                }
            }
        }
    }

    fn check_typedefs(&mut self) {
        let game = self.game;
        let mut recursive_reported = FxSet::default();
        for t in game.typedefs.iter().take(self.user_typedefs) {
            if self.env.recursive_aliases().contains(t.name.as_str()) {
                if recursive_reported.insert(t.name.as_str()) {
                    self.report(error_at(
                        TypeError::Recursive(t.name.clone()).to_string(),
                        t.at,
                    ));
                }
                continue;
            }
            self.check_type_parts(&t.ty);
        }
        // Built-in types the user defined must agree with the built-ins.
        let players = self.player_symbols();
        for t in &game.typedefs {
            let Some(expected) = builtins::builtin_type(&t.name, &players) else {
                continue;
            };
            let (Ok(expected_resolved), Ok(actual)) =
                (self.env.resolve(&expected), self.env.resolve_name(&t.name))
            else {
                continue;
            };
            if !expected_resolved.equals(&actual) {
                self.report(error_at(
                    format!(
                        "Type {} is incorrect. Expected: {} Resolved: {}",
                        t.name,
                        expected_resolved.structure(),
                        actual.structure()
                    ),
                    t.at,
                ));
            }
        }
    }

    fn player_symbols(&self) -> Vec<String> {
        self.env
            .resolve_name(builtins::PLAYER)
            .ok()
            .and_then(|t| t.symbols().map(<[String]>::to_vec))
            .unwrap_or_default()
    }

    fn check_required_types(&mut self) {
        let game = self.game;
        for name in [builtins::PLAYER, builtins::SCORE] {
            let Some(def) = game.typedefs.iter().find(|t| t.name == name) else {
                self.report(
                    Diagnostic::error(format!("Unresolved type {name}."), None)
                        .with_note(format!("every game must define `type {name} = {{ ... }};`")),
                );
                continue;
            };
            if let Ok(t) = self.env.resolve_name(name) {
                if t.symbols().is_none() {
                    self.report(error_at(
                        format!("Expected Set type, got {}.", def.ty),
                        def.at,
                    ));
                }
            }
        }
        if let Ok(players) = self.env.resolve_name(builtins::PLAYER) {
            for system in builtins::SYSTEM_PLAYERS {
                if players.contains(system) {
                    let at = self
                        .game
                        .typedefs
                        .iter()
                        .find(|t| t.name == builtins::PLAYER)
                        .map_or(At::NOWHERE, |t| t.at);
                    self.report(error_at(
                        format!("Player must not contain the system player {system}."),
                        at,
                    ));
                }
            }
        }
    }

    // ---- values ------------------------------------------------------------

    fn check_constants(&mut self) {
        let game = self.game;
        for (index, c) in game.constants.iter().enumerate() {
            if self.constants[c.name.as_str()] != index {
                continue; // duplicate, already reported
            }
            let Some(ty) = self.check_type(&c.ty) else {
                continue;
            };
            // Only constants declared earlier are visible in a constant's value.
            let reported = self.diagnostics.len();
            self.check_value(&c.value, &ty, index);
            self.constant_types.insert(&c.name, ty);
            if self.diagnostics.len() == reported {
                let resolved = self.substitute_constants(&c.value, index);
                self.constant_values.insert(&c.name, resolved);
            }
        }
    }

    fn check_variables(&mut self) {
        let game = self.game;
        for (k, v) in game.variables.iter().enumerate() {
            if !std::ptr::eq(self.variables[v.name.as_str()], v) {
                continue;
            }
            let ty = if k < self.user_variables {
                self.check_type(&v.ty)
            } else {
                self.env.resolve(&v.ty).ok()
            };
            let Some(ty) = ty else {
                continue;
            };
            if let Some(expected) = builtins::builtin_variable_type(&v.name) {
                if let Ok(expected_type) = self.env.resolve_name(expected) {
                    if !expected_type.equals(&ty) {
                        self.report(error_at(
                            format!(
                                "Variable {} has incorrect type. Expected: {expected} Resolved: {ty}",
                                v.name
                            ),
                            v.ty.at(),
                        ));
                    }
                }
            }
            if k < self.user_variables {
                self.check_value(&v.value, &ty, usize::MAX);
            }
            self.variable_types.insert(&v.name, ty);
        }
    }

    /// The constant a value identifier refers to: constants declared before
    /// position `visible` (all of them for variables).
    fn constant_in_scope(&self, name: &str, visible: usize) -> Option<&'g Constant> {
        let &index = self.constants.get(name)?;
        (index < visible).then(|| &self.game.constants[index])
    }

    fn check_value(&mut self, value: &Value, expected: &RType, visible: usize) {
        match (value, expected.arrow()) {
            (Value::Symbol(name, at), _) => {
                if let Some(constant) = self.constant_in_scope(name, visible) {
                    let Some(ctype) = self.constant_types.get(constant.name.as_str()).cloned()
                    else {
                        return;
                    };
                    if !ctype.assignable(expected) {
                        self.report(error_at(
                            format!("{ctype} is not assignable to {expected}"),
                            *at,
                        ));
                    } else if let Some(stored) = self.constant_values.get(name.as_str()).cloned() {
                        // Assignability alone allows `const c: {a, b} = b; var v: {a} = c;`.
                        self.check_stored_symbols(&stored, expected, *at);
                    }
                    return;
                }
                if expected.contains(name) {
                    return;
                }
                let mut d = error_at(format!("{{ {name} }} is not assignable to {expected}"), *at);
                if self.constants.contains_key(name.as_str()) {
                    d = d.with_note(format!(
                        "{name} is a constant declared later; a constant's value may only refer to constants declared before it"
                    ));
                }
                self.report(d);
            }
            (Value::Map(_, at), None) => {
                self.report(error_at(
                    format!("Expected Arrow type, got {expected}."),
                    *at,
                ));
            }
            (Value::Map(entries, at), Some((key_type, value_type))) => {
                self.check_map_validity(value, entries, *at);
                for entry in entries {
                    if let Some(key) = &entry.key {
                        if !key_type.contains(key) {
                            self.report(error_at(
                                format!("{{ {key} }} is not assignable to {key_type}"),
                                entry.value.at(),
                            ));
                        }
                    }
                    self.check_value(&entry.value, value_type, visible);
                }
            }
        }
    }

    fn check_map_validity(&mut self, map: &Value, entries: &[MapEntry], at: At) {
        let defaults = entries.iter().filter(|e| e.key.is_none()).count();
        if defaults == 0 {
            self.report(error_at(format!("Missing default value in {map}."), at));
        } else if defaults > 1 {
            self.report(error_at(
                format!("Duplicated default value in map {map}."),
                at,
            ));
        }
        let mut keys = FxSet::default();
        let mut reported = FxSet::default();
        for key in entries.iter().filter_map(|e| e.key.as_ref()) {
            if !keys.insert(key) && reported.insert(key) {
                self.report(error_at(format!("Duplicated key {key} in map {map}."), at));
            }
        }
    }

    /// Every symbol stored in `value` must belong to the set types of `ty`.
    fn check_stored_symbols(&mut self, value: &Value, ty: &RType, at: At) {
        match (value, ty.arrow()) {
            (Value::Symbol(s, _), None) if !ty.contains(s) => {
                self.report(error_at(
                    format!(
                        "{{ {s} }} is not assignable to {ty} (stored in the referenced constant)"
                    ),
                    at,
                ));
            }
            (Value::Map(entries, _), Some((_, value_type))) => {
                for entry in entries {
                    self.check_stored_symbols(&entry.value, value_type, at);
                }
            }
            _ => {}
        }
    }

    fn substitute_constants(&self, value: &Value, visible: usize) -> Value {
        match value {
            Value::Symbol(name, at) => match self.constant_in_scope(name, visible) {
                Some(c) => self
                    .constant_values
                    .get(c.name.as_str())
                    .cloned()
                    .unwrap_or_else(|| Value::Symbol(name.clone(), *at)),
                None => value.clone(),
            },
            Value::Map(entries, at) => Value::Map(
                entries
                    .iter()
                    .map(|e| MapEntry {
                        key: e.key.clone(),
                        value: self.substitute_constants(&e.value, visible),
                    })
                    .collect(),
                *at,
            ),
        }
    }

    // ---- expressions and labels ---------------------------------------------

    /// The type of an expression, or `None` after reporting why it has none.
    fn type_of(&mut self, e: &Expr) -> Option<RType> {
        match e {
            Expr::Ref(name, _) => {
                if self.constants.contains_key(name.as_str()) {
                    self.constant_types.get(name.as_str()).cloned()
                } else if self.variables.contains_key(name.as_str()) {
                    self.variable_types.get(name.as_str()).cloned()
                } else {
                    Some(RType::singleton(name))
                }
            }
            Expr::Access(map, key, at) => {
                let map_type = self.type_of(map)?;
                let key_type = self.type_of(key)?;
                let Some((domain, range)) = map_type.arrow() else {
                    self.report(error_at(
                        format!("Expected Arrow type, got {map_type}."),
                        map.at().or(*at).or(self.label_at),
                    ));
                    return None;
                };
                if key_type.symbols().is_none() {
                    self.report(error_at(
                        format!("Expected Set type, got {key_type}."),
                        key.at().or(*at).or(self.label_at),
                    ));
                    return None;
                }
                if !key_type.assignable(domain) {
                    let d = error_at(
                        format!("{key_type} is not assignable to {domain}"),
                        key.at().or(*at).or(self.label_at),
                    );
                    let d = self.symbol_hint(d, key);
                    self.report(d);
                    return None;
                }
                Some(range.clone())
            }
            Expr::Cast(ty, inner, at) => {
                let inner_type = self.type_of(inner)?;
                let target = match self.env.resolve_name(ty) {
                    Ok(t) => t,
                    Err(TypeError::Unresolved(_)) => {
                        self.report(error_at(format!("Unresolved type {ty}."), *at));
                        return None;
                    }
                    Err(_) => return None,
                };
                if !inner_type.assignable(&target) {
                    let d = error_at(format!("{inner_type} is not assignable to {target}"), *at);
                    let d = self.symbol_hint(d, inner);
                    self.report(d);
                    return None;
                }
                Some(target)
            }
        }
    }

    /// Adds a hint when an undeclared name that is no symbol of any declared
    /// set type (so probably a misspelled variable) is read as a symbol.
    fn symbol_hint(&self, d: Diagnostic, e: &Expr) -> Diagnostic {
        if let Expr::Ref(name, _) = e.without_casts() {
            let declared_symbol = self.game.typedefs.iter().any(|t| match &t.ty {
                Type::Set(symbols, _) => symbols.contains(name),
                _ => false,
            });
            if !declared_symbol
                && !self.constants.contains_key(name.as_str())
                && !self.variables.contains_key(name.as_str())
            {
                return d.with_note(format!(
                    "{name} is not a declared variable or constant, so it denotes the symbol {name}"
                ));
            }
        }
        d
    }

    fn check_edge(&mut self, edge: &'g Edge) {
        let at = label_at(edge);
        self.label_at = at;
        match &edge.label {
            Label::Skip | Label::Reach { .. } => {}
            Label::Tag(_) => {}
            Label::VarTag(name) => match self.variables.get(name.as_str()) {
                None => self.report(error_at(format!("Unresolved variable {name}."), at)),
                Some(_) => {
                    if let Some(t) = self.variable_types.get(name.as_str()) {
                        if t.symbols().is_none() {
                            self.report(error_at(format!("Expected Set type, got {t}."), at));
                        }
                    }
                }
            },
            Label::Compare { lhs, rhs, .. } => {
                let (Some(l), Some(r)) = (self.type_of(lhs), self.type_of(rhs)) else {
                    return;
                };
                if !l.assignable(&r) {
                    let d = error_at(format!("{l} is not comparable to {r}"), at);
                    let d = self.symbol_hint(d, lhs);
                    let d = self.symbol_hint(d, rhs);
                    self.report(d);
                }
            }
            Label::Assign { lhs, rhs } => {
                if !self.check_target(lhs, &edge.label, at) {
                    return;
                }
                let (Some(l), Some(r)) = (self.type_of(lhs), self.type_of(rhs)) else {
                    return;
                };
                if !r.assignable(&l) {
                    let d = error_at(format!("{r} is not assignable to {l}"), at);
                    let d = self.symbol_hint(d, rhs);
                    self.report(d);
                }
            }
            Label::AssignAny { lhs, ty } => {
                if !self.check_target(lhs, &edge.label, at) {
                    return;
                }
                if lhs.is_player_target() {
                    self.report(error_at(
                        format!(
                            "AssignAny is not allowed for the player variable in {}.",
                            edge.label
                        ),
                        at,
                    ));
                    return;
                }
                let Some(target) = self.type_of(lhs) else {
                    return;
                };
                let Some(source) = self.check_type(ty) else {
                    return;
                };
                if source.symbols().is_none() {
                    self.report(error_at(format!("Expected Set type, got {source}."), at));
                } else if !source.included_in(&target) {
                    self.report(error_at(
                        format!("{source} is not assignable to {target}"),
                        at,
                    ));
                }
            }
        }
        if edge.from == edge.to && edge.label.is_tag() {
            self.report(error_at(
                format!("Edge {edge} causes a tag generating loop."),
                edge.at,
            ));
        }
    }

    /// An assignment target is `x` or `x[k1]..[kn]` (casts removed) with
    /// `x` a variable.
    fn check_target(&mut self, lhs: &Expr, label: &Label, at: At) -> bool {
        match lhs.target_root() {
            Some(root) if self.variables.contains_key(root.as_str()) => true,
            Some(root) => {
                self.report(error_at(format!("{root} is constant in {label}"), at));
                false
            }
            None => {
                self.report(error_at(
                    format!("Invalid assignment target in {label}"),
                    at,
                ));
                false
            }
        }
    }

    // ---- pragmas -----------------------------------------------------------

    fn check_pragmas(&mut self) {
        let nodes: FxSet<&str> = self.node_names().into_iter().collect();
        let game = self.game;
        for p in &game.pragmas {
            let (mentioned_nodes, mentioned_variables): (Vec<&Ident>, Vec<&Ident>) = match &p.kind {
                PragmaKind::Disjoint { node, targets, .. } => {
                    (std::iter::once(node).chain(targets).collect(), vec![])
                }
                PragmaKind::Repeat { nodes, variables } => {
                    (nodes.iter().collect(), variables.iter().collect())
                }
                PragmaKind::Unique(nodes) | PragmaKind::TagIndex { nodes, .. } => {
                    (nodes.iter().collect(), vec![])
                }
                PragmaKind::Iterator { nodes, variable } => {
                    (nodes.iter().collect(), vec![variable])
                }
                PragmaKind::SimpleApply(sa) => (vec![&sa.from, &sa.to], vec![]),
                _ => (vec![], vec![]),
            };
            for node in mentioned_nodes {
                if !nodes.contains(node.as_str()) {
                    self.report(warning_at(
                        format!("Pragma {p} mentions node {node}, which has no edge."),
                        p.at,
                    ));
                }
            }
            for variable in mentioned_variables {
                if !self.variables.contains_key(variable.as_str()) {
                    self.report(warning_at(
                        format!("Pragma {p} mentions {variable}, which is not a variable."),
                        p.at,
                    ));
                }
            }
        }
    }

    // ---- graph -------------------------------------------------------------

    fn node_names(&self) -> Vec<&'g str> {
        let mut names = Vec::new();
        let mut seen = FxSet::default();
        let mut add = |n: &'g str| {
            if seen.insert(n) {
                names.push(n);
            }
        };
        add(builtins::BEGIN);
        add(builtins::END);
        for e in &self.game.edges {
            add(&e.from);
            add(&e.to);
            if let Label::Reach { from, to, .. } = &e.label {
                add(from);
                add(to);
            }
        }
        names
    }

    fn check_graph(&mut self) {
        let graph = Graph::new(self.game);
        let begin = graph.index[builtins::BEGIN];
        let end = graph.index[builtins::END];
        let from_begin = graph.reachable(&[begin], false);
        if !from_begin[end] {
            self.report(
                Diagnostic::error("end is not reachable from begin.", None)
                    .with_note("every game needs a path of edges from node `begin` to node `end`"),
            );
        }
        // Reachability targets and recursion (warnings: conservative).
        let components = graph.components_with_calls();
        let unreachable = graph.unreachable_check_targets(self.game);
        let mut reported = FxSet::default();
        for edge in &self.game.edges {
            let Label::Reach { from, to, .. } = &edge.label else {
                continue;
            };
            let (a, b, p) = (
                graph.index[from.as_str()],
                graph.index[to.as_str()],
                graph.index[edge.from.as_str()],
            );
            if unreachable.contains(&(a, b)) && reported.insert((a, b, 0)) {
                self.report(warning_at(
                    format!("{to} is not reachable from {from}."),
                    edge.at,
                ));
            }
            if components[p] == components[a] && reported.insert((a, b, p + 1)) {
                self.report(warning_at(
                    format!("Calculating reachability of {to} from {from} can cause a loop."),
                    edge.at,
                ));
            }
        }
        for edge in &self.game.edges {
            if edge.from == builtins::END {
                self.report(warning_at(
                    "Edge leaves end; it is never executed in play.",
                    edge.at,
                ));
            }
        }
        // Nodes unreachable from begin, also through reachability checks.
        let connected = graph.reachable(&[begin], true);
        for edge in &self.game.edges {
            if !connected[graph.index[edge.from.as_str()]] {
                self.report(warning_at(
                    format!("Node {} is not connected to begin.", edge.from),
                    edge.at,
                ));
                break; // one is enough to point at the dead part
            }
        }
        for edge in &self.game.edges {
            for node in [&edge.from, &edge.to] {
                if ["const", "type", "var"].iter().any(|k| node.starts_with(k)) {
                    self.report(warning_at(
                        format!(
                            "Node name {node} begins with a keyword; some RG parsers reject it."
                        ),
                        edge.at,
                    ));
                }
            }
        }
    }

    fn check_unused(&mut self) {
        let mut used: FxSet<&str> = FxSet::default();
        fn expr_names<'a>(e: &'a Expr, used: &mut FxSet<&'a str>) {
            match e {
                Expr::Ref(n, _) => {
                    used.insert(n);
                }
                Expr::Cast(_, inner, _) => expr_names(inner, used),
                Expr::Access(m, k, _) => {
                    expr_names(m, used);
                    expr_names(k, used);
                }
            }
        }
        fn value_names<'a>(v: &'a Value, used: &mut FxSet<&'a str>) {
            match v {
                Value::Symbol(n, _) => {
                    used.insert(n);
                }
                Value::Map(entries, _) => entries.iter().for_each(|e| value_names(&e.value, used)),
            }
        }
        let game = self.game;
        for e in &game.edges {
            match &e.label {
                Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => {
                    expr_names(lhs, &mut used);
                    expr_names(rhs, &mut used);
                }
                Label::AssignAny { lhs, .. } => expr_names(lhs, &mut used),
                Label::VarTag(v) => {
                    used.insert(v);
                }
                _ => {}
            }
        }
        for c in &game.constants {
            value_names(&c.value, &mut used);
        }
        for v in &game.variables {
            value_names(&v.value, &mut used);
        }
        for p in &game.pragmas {
            match &p.kind {
                PragmaKind::SimpleApply(sa) => {
                    for (l, r) in &sa.assignments {
                        expr_names(l, &mut used);
                        expr_names(r, &mut used);
                    }
                }
                PragmaKind::Repeat { variables, .. } => {
                    used.extend(variables.iter().map(String::as_str));
                }
                PragmaKind::Iterator { variable, .. } => {
                    used.insert(variable);
                }
                _ => {}
            }
        }
        let builtin_vars = builtins::BUILTIN_VARIABLES;
        for c in &game.constants {
            if !used.contains(c.name.as_str()) {
                self.report(warning_at(
                    format!("Constant {} is never used.", c.name),
                    c.at,
                ));
            }
        }
        for v in &game.variables {
            if !used.contains(v.name.as_str()) && !builtin_vars.contains(&v.name.as_str()) {
                self.report(warning_at(
                    format!("Variable {} is never used.", v.name),
                    v.at,
                ));
            }
        }
    }
}

impl Expr {
    /// Whether this assignment target is the `player` variable itself.
    pub fn is_player_target(&self) -> bool {
        matches!(self.without_casts(), Expr::Ref(n, _) if n == builtins::PLAYER_VAR)
    }
}

/// The span of an edge's label expressions (both sides of a comparison or
/// assignment), or of the whole edge when the label has none.
fn label_at(edge: &Edge) -> At {
    let sides = match &edge.label {
        Label::Compare { lhs, rhs, .. } | Label::Assign { lhs, rhs } => (lhs.at(), rhs.at()),
        Label::AssignAny { lhs, ty } => (lhs.at(), ty.at()),
        _ => return edge.at,
    };
    match sides {
        (At(Some(a)), At(Some(b))) => At(Some(a.join(b))),
        _ => edge.at,
    }
}

/// The rules automaton as adjacency lists over node indices, with the
/// "call" edges of reachability checks kept apart.
pub(crate) struct Graph<'g> {
    pub index: FxMap<&'g str, usize>,
    pub successors: Vec<Vec<usize>>,
    /// Node → start nodes of reachability checks on edges leaving it.
    pub calls: Vec<Vec<usize>>,
}

impl<'g> Graph<'g> {
    pub fn new(game: &'g Game) -> Self {
        let mut index: FxMap<&'g str, usize> = FxMap::default();
        let intern = |name: &'g str, index: &mut FxMap<&'g str, usize>| {
            let next = index.len();
            *index.entry(name).or_insert(next)
        };
        intern(builtins::BEGIN, &mut index);
        intern(builtins::END, &mut index);
        let mut edges = Vec::new();
        let mut calls = Vec::new();
        for e in &game.edges {
            let from = intern(&e.from, &mut index);
            let to = intern(&e.to, &mut index);
            edges.push((from, to));
            if let Label::Reach { from: a, to: b, .. } = &e.label {
                let a = intern(a, &mut index);
                intern(b, &mut index);
                calls.push((from, a));
            }
        }
        let mut successors = vec![Vec::new(); index.len()];
        for (from, to) in edges {
            successors[from].push(to);
        }
        let mut call_lists = vec![Vec::new(); index.len()];
        for (from, a) in calls {
            call_lists[from].push(a);
        }
        Graph {
            index,
            successors,
            calls: call_lists,
        }
    }

    /// Nodes reachable from `starts` by edges (and, with `through_calls`,
    /// by entering reachability sub-automata).
    pub fn reachable(&self, starts: &[usize], through_calls: bool) -> Vec<bool> {
        let mut seen = vec![false; self.successors.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for &s in starts {
            if !seen[s] {
                seen[s] = true;
                queue.push_back(s);
            }
        }
        while let Some(n) = queue.pop_front() {
            let calls: &[usize] = if through_calls { &self.calls[n] } else { &[] };
            for &m in self.successors[n].iter().chain(calls) {
                if !seen[m] {
                    seen[m] = true;
                    queue.push_back(m);
                }
            }
        }
        seen
    }

    /// The (start, target) pairs of reachability checks whose target cannot
    /// be reached from the start. One search per distinct start, over a
    /// shared visit stamp: a translation with tens of thousands of check
    /// sub-automata over millions of nodes needs memory for one node set,
    /// and time for the sub-automata actually walked.
    pub fn unreachable_check_targets(&self, game: &Game) -> FxSet<(usize, usize)> {
        let mut targets: FxMap<usize, Vec<usize>> = FxMap::default();
        for edge in &game.edges {
            if let Label::Reach { from, to, .. } = &edge.label {
                targets
                    .entry(self.index[from.as_str()])
                    .or_default()
                    .push(self.index[to.as_str()]);
            }
        }
        let mut stamps = vec![0u32; self.successors.len()];
        let mut stack = Vec::new();
        let mut unreachable = FxSet::default();
        for (stamp, (&start, ends)) in (1u32..).zip(&targets) {
            stamps[start] = stamp;
            stack.push(start);
            while let Some(n) = stack.pop() {
                for &m in &self.successors[n] {
                    if stamps[m] != stamp {
                        stamps[m] = stamp;
                        stack.push(m);
                    }
                }
            }
            unreachable.extend(
                ends.iter()
                    .filter(|&&b| stamps[b] != stamp)
                    .map(|&b| (start, b)),
            );
        }
        unreachable
    }

    /// Strongly connected component of every node in the graph whose edges
    /// are the automaton edges plus call edges. A check `? a -> b` on an
    /// edge leaving `p` can recurse iff `p` and `a` share a component.
    pub fn components_with_calls(&self) -> Vec<usize> {
        let mut graph = petgraph::Graph::<(), ()>::with_capacity(self.successors.len(), 0);
        let nodes: Vec<_> = (0..self.successors.len())
            .map(|_| graph.add_node(()))
            .collect();
        for (n, succ) in self.successors.iter().enumerate() {
            for &m in succ.iter().chain(&self.calls[n]) {
                graph.add_edge(nodes[n], nodes[m], ());
            }
        }
        let mut component = vec![0; nodes.len()];
        for (k, scc) in petgraph::algo::kosaraju_scc(&graph).into_iter().enumerate() {
            for n in scc {
                component[n.index()] = k;
            }
        }
        component
    }
}

trait AtOr {
    fn or(self, other: At) -> At;
}

impl AtOr for At {
    fn or(self, other: At) -> At {
        if self.span().is_some() {
            self
        } else {
            other
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;

    const HEADER: &str =
        "type Player = { x };\ntype Score = { 0 };\nbegin, end: player = keeper;\n";

    fn errors(text: &str) -> Vec<String> {
        let game = parse_game(text).unwrap();
        check_game(&game)
            .into_iter()
            .filter(Diagnostic::is_error)
            .map(|d| d.message)
            .collect()
    }

    fn errors_with_header(text: &str) -> Vec<String> {
        errors(&format!("{HEADER}{text}"))
    }

    #[test]
    fn minimal_game_is_clean() {
        assert!(check_game(&parse_game(HEADER).unwrap()).is_empty());
    }

    #[test]
    fn catalogue_messages() {
        assert_eq!(
            errors("type Score = {0};\nbegin, end: ;"),
            ["Unresolved type Player."]
        );
        assert_eq!(
            errors("type Player = Bool -> Bool;\ntype Score = {0};\nbegin, end: ;"),
            ["Expected Set type, got Bool -> Bool."]
        );
        assert_eq!(
            errors_with_header("type Bool = {2, 3};"),
            ["Type Bool is incorrect. Expected: { 0, 1 } Resolved: { 2, 3 }"]
        );
        assert_eq!(
            errors_with_header("var goals: Score = 0;"),
            ["Variable goals has incorrect type. Expected: Goals Resolved: Score"]
        );
        assert_eq!(
            errors_with_header("type A = {a}; type A = {b};"),
            ["Multiple typedefs named A."]
        );
        assert_eq!(
            errors_with_header("const c: Bool = 0; const c: Bool = 1; a, b: c == 0;"),
            ["Multiple constants named c."]
        );
        assert_eq!(
            errors_with_header("var v: Bool = 0; var v: Bool = 1;"),
            ["Multiple variables named v."]
        );
        assert_eq!(
            errors_with_header("var v: Bool = 0; const v: Bool = 1;"),
            ["v is declared both as a constant and as a variable."]
        );
        assert_eq!(errors_with_header("var v: T = 0;"), ["Unresolved type T."]);
        assert_eq!(
            errors_with_header("type A = B; type B = A;"),
            [
                "Type A is defined recursively.",
                "Type B is defined recursively."
            ]
        );
        assert_eq!(
            errors_with_header("type X = Bool -> Bool; type A = X -> Bool;"),
            ["Expected Set type, got X."]
        );
        assert_eq!(
            errors_with_header("var v: Bool = 2;"),
            ["{ 2 } is not assignable to Bool"]
        );
        assert_eq!(
            errors_with_header("var v: Bool = { :0 };"),
            ["Expected Arrow type, got Bool."]
        );
        assert_eq!(
            errors_with_header("var v: Bool -> Bool = 0;"),
            ["{ 0 } is not assignable to Bool -> Bool"]
        );
        assert_eq!(
            errors_with_header("var v: Bool -> Bool = { :0, 2: 1 };"),
            ["{ 2 } is not assignable to Bool"]
        );
        assert_eq!(
            errors_with_header("var v: Bool -> Bool = { 0: 1 };"),
            ["Missing default value in { 0: 1 }."]
        );
        assert_eq!(
            errors_with_header("var v: Bool -> Bool = { :0, 0: 1, 0: 0 };"),
            ["Duplicated key 0 in map { :0, 0: 1, 0: 0 }."]
        );
        assert_eq!(
            errors_with_header("var v: Bool -> Bool = { :0, :1 };"),
            ["Duplicated default value in map { :0, :1 }."]
        );
        assert_eq!(
            errors_with_header("const c: Bool = d; const d: Bool = c;"),
            ["{ d } is not assignable to Bool"]
        );
    }

    #[test]
    fn expression_and_label_messages() {
        let decls = "var v: Bool = 0; var m: Bool -> Bool = { :0 }; const q: Bool = 1; type T = {0, 1, 2};\n";
        let e = |label: &str| errors_with_header(&format!("{decls}a, b: {label};"));
        assert_eq!(e("v[0] == 0"), ["Expected Arrow type, got Bool."]);
        assert_eq!(e("m[m] == 0"), ["Expected Set type, got Bool -> Bool."]);
        assert_eq!(e("m[x] == 0"), ["{ x } is not assignable to Bool"]);
        assert_eq!(e("Player(v) == x"), ["Bool is not assignable to Player"]);
        assert_eq!(e("Foo(v) == 0"), ["Unresolved type Foo."]);
        assert_eq!(e("v = x"), ["{ x } is not assignable to Bool"]);
        assert_eq!(e("v == x"), ["Bool is not comparable to { x }"]);
        assert_eq!(e("v = T(*)"), ["T is not assignable to Bool"]);
        assert_eq!(e("q = 1"), ["q is constant in q = 1"]);
        assert_eq!(e("zz = 1"), ["zz is constant in zz = 1"]);
        assert_eq!(
            e("player = PlayerOrSystem(*)"),
            ["AssignAny is not allowed for the player variable in player = PlayerOrSystem(*)."]
        );
        assert_eq!(e("$$ q"), ["Unresolved variable q."]);
        assert_eq!(e("$$ m"), ["Expected Set type, got Bool -> Bool."]);
        assert!(e("m[v] = v").is_empty());
        assert!(e("Bool(m[Bool(v)]) = Bool(1)").is_empty());
        assert_eq!(
            e("Bool(m)[v] = 1"),
            ["Bool -> Bool is not assignable to Bool"]
        );
        assert_eq!(
            errors_with_header("a, a: $ t;"),
            ["Edge a, a: $ t; causes a tag generating loop."]
        );
    }

    #[test]
    fn graph_checks() {
        assert_eq!(
            errors("type Player = { x };\ntype Score = { 0 };\nbegin, a: ;\nb, end: ;"),
            ["end is not reachable from begin."]
        );
        let game = parse_game(&format!(
            "{HEADER}begin, b: ? x -> y;\nb, end: ;\ns, t: ? s -> t;\nbegin, s: ;"
        ))
        .unwrap();
        let warnings: Vec<String> = check_game(&game).into_iter().map(|d| d.message).collect();
        assert!(
            warnings.contains(&"y is not reachable from x.".to_string()),
            "{warnings:?}"
        );
        assert!(
            warnings
                .contains(&"Calculating reachability of t from s can cause a loop.".to_string()),
            "{warnings:?}"
        );
    }

    #[test]
    fn value_scopes_follow_declaration_order() {
        // A later constant is a symbol in an earlier constant's value...
        assert!(
            !errors_with_header("const d: Bool = 1; const c: Bool = d; a, b: c == d;")
                .iter()
                .any(|m| m.contains("assignable"))
        );
        // ...but variables see every constant.
        assert!(errors_with_header("var v: Bool = c; const c: Bool = 1; a, b: v == c;").is_empty());
        // Stored symbols must belong to the target type.
        assert_eq!(
            errors_with_header("const c: {a, b} = b; var v: {a} = c; e, f: v == c;"),
            ["{ b } is not assignable to { a } (stored in the referenced constant)"]
        );
    }

    #[test]
    fn player_may_not_contain_system_players() {
        assert_eq!(
            errors(
                "type Player = { x, keeper };\ntype Score = { 0 };\nbegin, end: player = keeper;"
            ),
            ["Player must not contain the system player keeper."]
        );
    }
}
