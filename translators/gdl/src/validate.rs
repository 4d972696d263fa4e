//! Validation (gdl.md §2), in phases: structure, safety, stratification,
//! the recursion restriction and the GDL restrictions. Each phase reports
//! all its errors; a later phase runs only if the earlier ones passed.

#![warn(clippy::cast_possible_truncation)] // user data is read here

use std::collections::{BTreeMap, HashMap, HashSet};

use petgraph::visit::EdgeRef;
use rg_core::diag::{Diagnostic, Span};

use crate::ast::{Atom, Description, Literal, Rule, Term, TermKind};
use crate::deps::RelationGraph;
use crate::display::same_term;
use crate::normalize::{normalize_rules, NormalLiteral, NormalRule};
use crate::parse::Parsed;
use crate::strata::{atoms_unify, rule_strata};

/// A validated game: the description, its rules in normal form (`or`
/// expanded, GDL-II `sees` rules dropped), its roles and the warnings.
#[derive(Clone, Debug)]
pub struct Game {
    pub description: Description,
    pub rules: Vec<NormalRule>,
    /// Role names (RG-independent GDL spelling) in file order, without duplicates.
    pub roles: Vec<Term>,
    pub warnings: Vec<Diagnostic>,
}

/// Parses and validates a KIF (or infix GDL) text.
pub fn load(source: &str) -> Result<Game, Vec<Diagnostic>> {
    validate(crate::parse::parse(source)?)
}

/// Validates a parsed description.
pub fn validate(parsed: Parsed) -> Result<Game, Vec<Diagnostic>> {
    let Parsed {
        description,
        mut warnings,
    } = parsed;
    let fail = |mut errors: Vec<Diagnostic>, warnings: Vec<Diagnostic>| {
        errors.extend(warnings);
        Err(errors)
    };

    let mut errors = Vec::new();
    check_structure(&description, &mut errors, &mut warnings);
    if !errors.is_empty() {
        return fail(errors, warnings);
    }
    let kept: Vec<Rule> = description
        .rules
        .iter()
        .filter(|r| r.head.name != "sees")
        .cloned()
        .collect();
    let rules = match normalize_rules(&kept) {
        Ok(rules) => rules,
        Err(error) => return fail(vec![error], warnings),
    };
    // Normal rules point at the kept rules; point them at the description.
    let source_index: Vec<usize> = description
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.head.name != "sees")
        .map(|(i, _)| i)
        .collect();
    let rules: Vec<NormalRule> = rules
        .into_iter()
        .map(|mut r| {
            r.source = source_index[r.source];
            r
        })
        .collect();

    check_safety(&description, &rules, &mut errors);
    if !errors.is_empty() {
        return fail(errors, warnings);
    }
    let graph = RelationGraph::build(&rules);
    check_stratification(&description, &rules, &graph, &mut errors);
    if !errors.is_empty() {
        return fail(errors, warnings);
    }
    check_recursion_restriction(&description, &rules, &graph, &mut errors);
    if !errors.is_empty() {
        return fail(errors, warnings);
    }
    check_gdl_dependencies(&description, &rules, &graph, &mut errors);
    if !errors.is_empty() {
        return fail(errors, warnings);
    }
    let roles = collect_roles(&description, &mut errors, &mut warnings);
    if !errors.is_empty() {
        return fail(errors, warnings);
    }
    Ok(Game {
        description,
        rules,
        roles,
        warnings,
    })
}

fn rule_note(description: &Description, index: usize) -> String {
    let rule = &description.rules[index];
    if rule.body.is_empty() {
        format!("in the fact `{}` (sentence {})", rule.head, index + 1)
    } else {
        format!("in the rule for `{}` (sentence {})", rule.head, index + 1)
    }
}

/// Expected arities of the distinguished relations.
fn keyword_arity(name: &str) -> Option<usize> {
    Some(match name {
        "role" | "init" | "true" | "next" | "base" => 1,
        "does" | "legal" | "goal" | "input" => 2,
        "terminal" => 0,
        _ => return None,
    })
}

/// Most arguments of one atom or function term: the reasoner and the
/// grounder address argument positions with one byte.
pub const MAX_ARGUMENTS: usize = 255;

fn check_arity(atom: &Atom, errors: &mut Vec<Diagnostic>, note: &str) {
    check_argument_count(&atom.name, atom.args.len(), atom.span, errors);
    let mut stack: Vec<&Term> = atom.args.iter().collect();
    while let Some(term) = stack.pop() {
        if let TermKind::Function { name, args } = &term.kind {
            check_argument_count(name, args.len(), term.span, errors);
            stack.extend(args);
        }
    }
    if let Some(expected) = keyword_arity(&atom.name) {
        if atom.args.len() != expected {
            errors.push(
                Diagnostic::error(
                    format!(
                        "wrong number of arguments to {}: expected {expected}, got {}",
                        atom.name,
                        atom.args.len()
                    ),
                    atom.span,
                )
                .with_label(format!("{} argument(s)", atom.args.len()))
                .with_note(note.to_string()),
            );
        }
    }
}

fn check_argument_count(name: &str, count: usize, span: Span, errors: &mut Vec<Diagnostic>) {
    if count > MAX_ARGUMENTS {
        errors.push(
            Diagnostic::error(
                format!("{name} has {count} arguments; at most {MAX_ARGUMENTS} are supported"),
                span,
            )
            .with_label("too many arguments"),
        );
    }
}

fn check_structure(
    description: &Description,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    // First occurrence of each (relation, arity) as a head and in a body.
    let mut defined: HashSet<(&str, usize)> = HashSet::new();
    let mut arities: BTreeMap<&str, Vec<(usize, Span)>> = BTreeMap::new();
    let mut used: Vec<&Atom> = Vec::new();
    let mut sees: Option<(Span, usize)> = None;
    for (index, rule) in description.rules.iter().enumerate() {
        let note = rule_note(description, index);
        let head = &rule.head;
        let bad_head = match head.name.as_str() {
            "not" | "or" | "and" | "distinct" | "<=" => Some("invalid rule head".to_string()),
            "true" | "does" => Some(format!("{} cannot be defined", head.name)),
            _ => None,
        };
        if let Some(message) = bad_head {
            errors.push(
                Diagnostic::error(message, head.span)
                    .with_label(format!("`{}` as a head", head.name))
                    .with_note(note.clone()),
            );
            continue;
        }
        check_arity(head, errors, &note);
        if head.name == "role" && !rule.body.is_empty() {
            errors.push(
                Diagnostic::error("role must be a ground fact", rule.span)
                    .with_label("role defined by a rule")
                    .with_note(note.clone()),
            );
        }
        if head.name == "sees" {
            let entry = sees.get_or_insert((head.span, 0));
            entry.1 += 1;
        }
        defined.insert(head.key());
        arities
            .entry(&head.name)
            .or_default()
            .push((head.args.len(), head.span));
        let mut atoms = Vec::new();
        for literal in &rule.body {
            literal.atoms(false, &mut atoms);
        }
        for (atom, _) in atoms {
            check_arity(atom, errors, &note);
            let misplaced = match atom.name.as_str() {
                "next" => Some("next cannot be used in a body"),
                "init" => Some("init cannot be used in a body"),
                "base" => Some("base cannot be used in a body"),
                "input" => Some("input cannot be used in a body"),
                "sees" => Some("sees cannot be used in a body"),
                _ => None,
            };
            if let Some(message) = misplaced {
                errors.push(
                    Diagnostic::error(message, atom.span)
                        .with_label("only allowed as a rule head")
                        .with_note(note.clone()),
                );
            }
            arities
                .entry(&atom.name)
                .or_default()
                .push((atom.args.len(), atom.span));
            used.push(atom);
        }
    }
    if let Some((span, count)) = sees {
        warnings.push(
            Diagnostic::warning("sees ignored (GDL-II)", span)
                .with_label(format!("{count} `sees` rule(s) dropped"))
                .with_note(
                    "what roles see does not change legal moves, next states, goals or termination",
                ),
        );
    }
    for (name, uses) in &arities {
        let first = uses[0].0;
        if let Some(&(other, span)) = uses.iter().find(|(a, _)| *a != first) {
            warnings.push(
                Diagnostic::warning(
                    format!("relation {name} used with arities {first} and {other}"),
                    span,
                )
                .with_label(format!("arity {other} here"))
                .with_note("relations are keyed by name and arity; this is usually a typo"),
            );
        }
    }
    let mut reported = HashSet::new();
    for atom in used {
        let key = atom.key();
        if matches!(key.0, "true" | "does") || defined.contains(&key) || !reported.insert(key) {
            continue;
        }
        warnings.push(
            Diagnostic::warning(format!("relation {} is never defined", key.0), atom.span)
                .with_label("always false")
                .with_note("no rule or fact has this relation (and arity) as its head"),
        );
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum UnboundPlace {
    Head,
    Negation,
    Distinct,
}

fn check_safety(description: &Description, rules: &[NormalRule], errors: &mut Vec<Diagnostic>) {
    let mut reported: HashSet<(usize, String, UnboundPlace)> = HashSet::new();
    for rule in rules {
        let mut bound: HashSet<&str> = HashSet::new();
        for literal in &rule.body {
            if let NormalLiteral::Positive(atom) = literal {
                let mut vars = Vec::new();
                atom.variables(&mut vars);
                bound.extend(vars.iter().filter_map(|v| v.variable_name()));
            }
        }
        let mut check = |vars: Vec<&Term>, place: UnboundPlace| {
            for var in vars {
                let Some(name) = var.variable_name() else {
                    continue;
                };
                if bound.contains(name) || !reported.insert((rule.source, name.to_string(), place))
                {
                    continue;
                }
                let (where_, label) = match place {
                    UnboundPlace::Head => ("the head", "appears in the head"),
                    UnboundPlace::Negation => ("a negative literal", "appears under `not`"),
                    UnboundPlace::Distinct => ("distinct", "appears in `distinct`"),
                };
                let mut diagnostic = Diagnostic::error(
                    format!(
                        "unsafe rule: variable {name} in {where_} is not bound by a positive literal"
                    ),
                    var.span,
                )
                .with_label(label)
                .with_note(rule_note(description, rule.source));
                if rule.body.is_empty() {
                    diagnostic = diagnostic.with_note("a fact must be ground");
                } else if description.rules[rule.source]
                    .body
                    .iter()
                    .any(|l| matches!(l, Literal::Or(..)))
                {
                    diagnostic = diagnostic.with_note(
                        "a variable bound only inside one alternative of an `or` is unbound in the others",
                    );
                }
                errors.push(diagnostic);
            }
        };
        let mut head_vars = Vec::new();
        rule.head.variables(&mut head_vars);
        check(head_vars, UnboundPlace::Head);
        for literal in &rule.body {
            let mut vars = Vec::new();
            literal.variables(&mut vars);
            match literal {
                NormalLiteral::Positive(_) => {}
                NormalLiteral::Negative(_) => check(vars, UnboundPlace::Negation),
                NormalLiteral::Distinct(..) | NormalLiteral::Equal(..) => {
                    check(vars, UnboundPlace::Distinct);
                }
            }
        }
    }
}

fn check_stratification(
    description: &Description,
    rules: &[NormalRule],
    graph: &RelationGraph,
    errors: &mut Vec<Diagnostic>,
) {
    let (_, component) = graph.components();
    let relation_level_ok = graph
        .graph
        .edge_references()
        .all(|e| !e.weight().negative || component.get(&e.source()) != component.get(&e.target()));
    if relation_level_ok {
        return;
    }
    let Err(cycle) = rule_strata(rules) else {
        return;
    };
    // cycle = [t, …, s, t] where rule t negatively depends on rule s.
    let names: Vec<&str> = cycle.iter().map(|&r| rules[r].head.name.as_str()).collect();
    let target = cycle[0];
    let source = cycle[cycle.len().saturating_sub(2)];
    let span = rules[target]
        .body
        .iter()
        .find_map(|l| match l {
            NormalLiteral::Negative(a) if atoms_unify(a, &rules[source].head) => Some(a.span),
            _ => None,
        })
        .unwrap_or(rules[target].span);
    let head = names[0];
    errors.push(
        Diagnostic::error(
            format!(
                "rules are not stratified: {head} depends negatively on itself via {}",
                names.join(" → ")
            ),
            span,
        )
        .with_label("negation inside a recursive cycle")
        .with_note(rule_note(description, rules[target].source))
        .with_note("negation as failure needs the negated relation to be complete first"),
    );
}

fn check_recursion_restriction(
    description: &Description,
    rules: &[NormalRule],
    graph: &RelationGraph,
    errors: &mut Vec<Diagnostic>,
) {
    let (sccs, component) = graph.components();
    let mut reported = HashSet::new();
    for rule in rules {
        let Some(head_node) = graph.node(&rule.head.name, rule.head.args.len()) else {
            continue;
        };
        let c = component[&head_node];
        let recursive_scc =
            sccs[c].len() > 1 || graph.graph.find_edge(head_node, head_node).is_some();
        if !recursive_scc {
            continue;
        }
        let in_scc = |atom: &Atom| {
            graph
                .node(&atom.name, atom.args.len())
                .is_some_and(|n| component[&n] == c)
        };
        // Variables bound by positive literals outside the recursion: their
        // values come from finite relations, so terms built from them stay
        // finite. (The classic restriction asks for whole arguments; this
        // relaxation also accepts `(path ?x ?y) (true (edge ?y ?z))`.)
        let mut outside_vars: HashSet<&str> = HashSet::new();
        for literal in &rule.body {
            if let NormalLiteral::Positive(a) = literal {
                if !in_scc(a) {
                    let mut vars = Vec::new();
                    a.variables(&mut vars);
                    outside_vars.extend(vars.iter().filter_map(|v| v.variable_name()));
                }
            }
        }
        for literal in &rule.body {
            let Some(atom) = literal.atom() else { continue };
            if !in_scc(atom) {
                continue;
            }
            for arg in &atom.args {
                let mut vars = Vec::new();
                arg.variables(&mut vars);
                let ok = arg.is_ground()
                    || rule.head.args.iter().any(|h| same_term(h, arg))
                    || vars
                        .iter()
                        .all(|v| v.variable_name().is_some_and(|n| outside_vars.contains(n)));
                if !ok && reported.insert((rule.source, arg.span)) {
                    let cycle = graph
                        .path(head_node, head_node)
                        .filter(|p| p.len() > 1)
                        .map_or_else(|| rule.head.name.clone(), |p| graph.describe_path(&p));
                    errors.push(
                        Diagnostic::error(
                            format!(
                                "recursion restriction violated in rule for {}: argument {arg} of {}",
                                rule.head.name, atom.name
                            ),
                            arg.span,
                        )
                        .with_label("neither ground, nor a head argument, nor bound outside the recursion")
                        .with_note(rule_note(description, rule.source))
                        .with_note(format!("recursive relations: {}", scc_names(graph, &sccs[c], &cycle))),
                    );
                }
            }
        }
    }
}

fn scc_names(graph: &RelationGraph, scc: &[petgraph::graph::NodeIndex], _cycle: &str) -> String {
    let mut names: Vec<&str> = scc.iter().map(|&n| graph.key(n).0.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names.join(", ")
}

fn check_gdl_dependencies(
    description: &Description,
    rules: &[NormalRule],
    graph: &RelationGraph,
    errors: &mut Vec<Diagnostic>,
) {
    let mut report = |from: (&str, usize), to: (&str, usize), message: &dyn Fn(&str) -> String| {
        let (Some(from_node), Some(to_node)) = (graph.node(from.0, from.1), graph.node(to.0, to.1))
        else {
            return;
        };
        let Some(path) = graph.path(from_node, to_node) else {
            return;
        };
        let via = graph.describe_path(&path);
        // The last edge of the path locates the offending literal.
        let last = path[path.len() - 2];
        let edge = graph
            .graph
            .find_edge(last, to_node)
            .map(|e| graph.graph[e].rule);
        let (span, note) = match edge {
            Some(r) => {
                let previous = graph.key(last);
                let span = rules[r]
                    .body
                    .iter()
                    .filter_map(NormalLiteral::atom)
                    .find(|a| a.name == previous.0 && a.args.len() == previous.1)
                    .map_or(rules[r].span, |a| a.span);
                (span, rule_note(description, rules[r].source))
            }
            None => (Span::default(), String::new()),
        };
        errors.push(
            Diagnostic::error(message(&via), span)
                .with_label("dependency")
                .with_note(note),
        );
    };
    for state in ["true", "does", "next", "legal", "goal", "terminal"] {
        let arity = keyword_arity(state).unwrap_or(0);
        report((state, arity), ("init", 1), &|via| {
            format!("init depends on the state via {via}")
        });
    }
    for target in ["legal", "goal", "terminal"] {
        let arity = keyword_arity(target).unwrap_or(0);
        report(("does", 2), (target, arity), &|via| {
            format!("{target} must not depend on does (via {via})")
        });
    }
    for target in ["base", "input"] {
        let arity = keyword_arity(target).unwrap_or(0);
        for source in ["true", "does"] {
            let source_arity = keyword_arity(source).unwrap_or(0);
            report((source, source_arity), (target, arity), &|via| {
                format!("{target} must not depend on {source} (via {via})")
            });
        }
    }
}

fn collect_roles(
    description: &Description,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<Term> {
    let mut roles: Vec<Term> = Vec::new();
    let mut first_span: HashMap<String, Span> = HashMap::new();
    for rule in &description.rules {
        if rule.head.name != "role" || rule.head.args.len() != 1 {
            continue;
        }
        let role = &rule.head.args[0];
        let text = role.to_string();
        if first_span.contains_key(&text) {
            warnings.push(
                Diagnostic::warning(format!("duplicate role {text}"), rule.span)
                    .with_label("already declared")
                    .with_note("the duplicate is ignored"),
            );
            continue;
        }
        if let TermKind::Function { .. } = role.kind {
            warnings.push(
                Diagnostic::warning(format!("role {text} is a compound term"), role.span)
                    .with_label("roles are normally constants"),
            );
        }
        first_span.insert(text, rule.span);
        roles.push(role.clone());
    }
    if roles.is_empty() {
        errors.push(
            Diagnostic::error("no role is defined", None)
                .with_note("a game needs at least one `(role r)` fact"),
        );
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors_of(text: &str) -> Vec<String> {
        match load(text) {
            Ok(_) => Vec::new(),
            Err(diagnostics) => diagnostics
                .into_iter()
                .filter(Diagnostic::is_error)
                .map(|d| d.message)
                .collect(),
        }
    }

    const GOOD: &str = "(role a) (init p) (<= (legal a x) (true p)) (<= (next q) (does a x)) (<= terminal (true q)) (goal a 100)";

    #[test]
    fn refuses_more_arguments_than_positions_can_address() {
        let wide = |n: usize| {
            (0..n)
                .map(|k| format!("x{k}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let atom = format!("{GOOD} (p {})", wide(256));
        assert_eq!(
            errors_of(&atom),
            ["p has 256 arguments; at most 255 are supported"]
        );
        let nested = format!("{GOOD} (init (f {}))", wide(300));
        assert_eq!(
            errors_of(&nested),
            ["f has 300 arguments; at most 255 are supported"]
        );
        assert!(errors_of(&format!("{GOOD} (p {})", wide(255))).is_empty());
    }

    #[test]
    fn accepts_a_small_game() {
        let game = load(GOOD).unwrap();
        assert_eq!(game.roles.len(), 1);
        assert_eq!(game.rules.len(), 6);
    }

    #[test]
    fn reports_each_phase() {
        let cases = [
            ("(role a) (<= (true p) q)", "true cannot be defined"),
            ("(role a) (<= (not p) q)", "invalid rule head"),
            (
                "(role a) (legal a)",
                "wrong number of arguments to legal: expected 2, got 1",
            ),
            ("(role a) (<= p (next q))", "next cannot be used in a body"),
            (
                "(role a) (<= (role ?x) (q ?x)) (q b)",
                "role must be a ground fact",
            ),
            (
                "(role a) (<= (p ?x) (q ?y)) (q b)",
                "unsafe rule: variable ?x in the head is not bound by a positive literal",
            ),
            (
                "(role a) (<= (p ?x) (q ?x) (not (r ?y))) (q b)",
                "unsafe rule: variable ?y in a negative literal is not bound by a positive literal",
            ),
            (
                "(role a) (<= (p ?x) (q ?x) (distinct ?x ?z)) (q b)",
                "unsafe rule: variable ?z in distinct is not bound by a positive literal",
            ),
            (
                "(role a) (p ?x)",
                "unsafe rule: variable ?x in the head is not bound by a positive literal",
            ),
            (
                "(role a) (<= (p ?x) (q ?x) (not (p ?x))) (q b)",
                "rules are not stratified: p depends negatively on itself via p → p",
            ),
            (
                "(role a) (<= (p (f ?x)) (p ?x)) (p b)",
                "recursion restriction violated in rule for p: argument ?x of p",
            ),
            (
                "(role a) (init p) (<= (legal a x) (true p) (does a x))",
                "legal must not depend on does (via does → legal)",
            ),
            (
                "(role a) (<= (init p) (true q))",
                "init depends on the state via true → init",
            ),
            ("(<= p q) (q)", "no role is defined"),
        ];
        for (text, expected) in cases {
            let errors = errors_of(text);
            assert!(errors.iter().any(|e| e == expected), "{text}: {errors:?}");
        }
    }

    #[test]
    fn goal_on_goal_is_accepted() {
        let text = "(role r) (init s) (<= (legal r x) (true s)) (<= (next s) (true s)) (<= terminal (true s)) (<= (goal r 0) (true s)) (<= (goal r 100) (not (goal r 0)))";
        assert!(load(text).is_ok());
    }

    #[test]
    fn warnings_for_arity_undefined_and_sees() {
        let game = load("(role a) (<= (p ?x) (q ?x)) (<= r (p 1 2)) (q 1) (<= (sees a ?x) (q ?x))")
            .unwrap();
        let messages: Vec<&str> = game.warnings.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages.contains(&"relation p used with arities 1 and 2"),
            "{messages:?}"
        );
        assert!(
            messages.contains(&"relation p is never defined"),
            "{messages:?}"
        );
        assert!(messages.contains(&"sees ignored (GDL-II)"), "{messages:?}");
        assert!(game.rules.iter().all(|r| r.head.name != "sees"));
    }
}
