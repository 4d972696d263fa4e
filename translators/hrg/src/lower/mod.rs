//! Translation of an HRG program to RG (hrg.md §5), through
//! [`rg_core::build::GameBuilder`].
//!
//! Declarations are evaluated first (domains → types and `@integer`,
//! constant functions → tabulated constants, variables → initial values);
//! then `rules` is instantiated, which translates, recursively, every graph
//! reachable from it. Node names follow §5.3–5.8 exactly (one counter per
//! prefix), so the output is deterministic and readable: a node name says
//! which graph instance and statement made it.

#![warn(clippy::cast_possible_truncation)] // user data is read here

mod counts;
mod statements;

use std::collections::{BTreeSet, HashMap, HashSet};

use indexmap::IndexMap;
use rg_core::ast as rg;
use rg_core::build::GameBuilder;
use rg_core::diag::{Diagnostic, Span};

use crate::ast::{GraphDecl, Program, TypeExpr};
use crate::eval::{Domains, Evaluator};

/// A translated game with the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Translation {
    pub game: rg::Game,
    pub warnings: Vec<Diagnostic>,
}

/// Translates a parsed program; every error found is returned.
pub fn translate(program: &Program) -> Result<Translation, Vec<Diagnostic>> {
    let domains = Domains::evaluate(program)?;
    let evaluator = Evaluator::new(program, &domains);
    let mut graphs: HashMap<&str, &GraphDecl> = HashMap::new();
    let mut errors = Vec::new();
    for g in program.graphs() {
        if graphs.insert(&g.name.text, g).is_some() {
            errors.push(Diagnostic::error(
                format!("Duplicated graph \"{}\".", g.name.text),
                g.name.span,
            ));
        }
    }
    let Some(rules) = graphs.get("rules").copied() else {
        errors.push(
            Diagnostic::error("Unknown automaton function \"rules\".", None).with_note(
                "every game needs `graph rules() { ... }`, the entry point of the automaton",
            ),
        );
        return Err(errors);
    };
    let counts = counts::call_counts(&graphs).map_err(|e| vec![e])?;
    let mut lowering = Lowering {
        eval: evaluator,
        graphs,
        counts,
        builder: GameBuilder::new(),
        counters: HashMap::new(),
        parameter_variables: HashSet::new(),
        late_variables: Vec::new(),
        return_types: IndexMap::new(),
        instantiated: HashSet::new(),
        artificial_tags: BTreeSet::new(),
        errors,
        warnings: Vec::new(),
        variables: program.variables().map(|v| v.name.text.clone()).collect(),
        expanded: 0,
        expansion_refused: false,
    };
    lowering.declarations(program, &domains);
    lowering.builder.set_origin(Some(rules.name.span));
    lowering.builder.skip("begin", "rules_begin");
    if !rules.params.is_empty() {
        lowering.errors.push(Diagnostic::error(
            "The entry graph \"rules\" must not have parameters.",
            rules.name.span,
        ));
    }
    lowering.instantiate(rules, "", "end", Some("end"));
    lowering.finish()
}

/// The state of one translation.
pub(crate) struct Lowering<'p> {
    eval: Evaluator<'p>,
    graphs: HashMap<&'p str, &'p GraphDecl>,
    counts: HashMap<&'p str, u64>,
    builder: GameBuilder,
    /// `fresh(p)`: one counter per prefix (§5.3).
    counters: HashMap<String, u32>,
    parameter_variables: HashSet<String>,
    /// Parameter and return-address variables, in the order first needed.
    late_variables: Vec<(String, rg::Type, rg::Value, Span)>,
    /// `<g>_return_type` sets of reusable graphs, in the order first needed.
    return_types: IndexMap<String, (Vec<String>, Span)>,
    /// Reusable graphs already instantiated (their single copy exists).
    instantiated: HashSet<&'p str>,
    artificial_tags: BTreeSet<String>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    /// Declared global variables (assignment targets).
    variables: HashSet<String>,
    /// Statements translated so far, copies included (bounded by
    /// [`crate::limits::MAX_EXPANDED_STATEMENTS`]).
    expanded: u64,
    /// The expansion limit was reported: translate nothing more.
    expansion_refused: bool,
}

/// Where the statements of one graph instance go.
#[derive(Clone)]
pub(crate) struct Instance<'p> {
    graph: &'p GraphDecl,
    /// Statement prefix: fresh nodes are `fresh(sp)`.
    sp: String,
    /// Target of `end()`.
    end_target: String,
    /// The instance's end node, target of `return()`.
    exit: String,
    /// (break, continue) targets of the innermost loop of this graph.
    loop_targets: Option<(String, String)>,
    /// `branch`/`repeat` variables replaced by symbols, innermost last.
    substitutions: Vec<(String, String)>,
}

impl<'p> Lowering<'p> {
    pub(crate) fn fresh(&mut self, prefix: &str) -> String {
        let n = self.counters.entry(prefix.to_string()).or_insert(0);
        *n += 1;
        format!("{prefix}_{n}")
    }

    fn uses_short_names(&self, g: &GraphDecl) -> bool {
        g.reusable || self.counts.get(g.name.text.as_str()).copied().unwrap_or(0) <= 1
    }

    /// Domains, constant functions and variables, in declaration order (§5.1).
    fn declarations(&mut self, program: &'p Program, domains: &Domains) {
        for d in program.domains() {
            self.builder.set_origin(Some(d.name.span));
            if let Some(values) = domains.get(&d.name.text) {
                let symbols: Vec<String> =
                    values.iter().map(crate::value::Value::serialize).collect();
                self.builder
                    .define_type(&d.name.text, rg::Type::set(symbols));
            }
        }
        for (start, symbols) in &domains.integer_pragmas {
            self.builder.pragma(rg::PragmaKind::Integer {
                start: *start,
                symbols: symbols.clone(),
            });
        }
        for f in program.functions() {
            self.builder.set_origin(Some(f.name.span));
            match self.eval.tabulate(f) {
                Ok((table, unused)) => {
                    let ty = rg_type(&f.ty);
                    self.builder.named_constant(&f.name.text, ty, table);
                    for k in unused {
                        self.warnings.push(
                            Diagnostic::warning(
                                format!("This case of \"{}\" is never used: earlier cases match every value it matches.", f.name.text),
                                f.cases[k].span,
                            )
                            .with_label("overlapped by earlier cases"),
                        );
                    }
                }
                Err(e) => self.errors.push(e),
            }
        }
        for v in program.variables() {
            self.builder.set_origin(Some(v.name.span));
            match self.eval.initial_value(v) {
                Ok(value) => {
                    self.builder.variable(&v.name.text, rg_type(&v.ty), value);
                }
                Err(e) => self.errors.push(e),
            }
        }
    }

    /// Instantiates graph `g` (§5.5) with instance prefix `ip`, end target
    /// `end_target` and optional return target.
    pub(crate) fn instantiate(
        &mut self,
        g: &'p GraphDecl,
        ip: &str,
        end_target: &str,
        return_target: Option<&str>,
    ) {
        self.declare_parameters(g);
        let short = self.uses_short_names(g);
        let name = &g.name.text;
        let begin = if short {
            format!("{name}_begin")
        } else {
            format!("{ip}{name}_begin")
        };
        let exit = if short {
            format!("{name}_end")
        } else {
            format!("{ip}{name}_end")
        };
        let instance = Instance {
            graph: g,
            sp: format!("{ip}{name}"),
            end_target: end_target.to_string(),
            exit: exit.clone(),
            loop_targets: None,
            substitutions: Vec::new(),
        };
        self.block(&instance, &g.body, &begin, &exit);
        if let Some(r) = return_target {
            self.builder.set_origin(Some(g.name.span));
            self.builder.skip(&exit, r);
        }
    }

    /// Declares `<g>_arg<i>_<p>` for every parameter, once.
    fn declare_parameters(&mut self, g: &'p GraphDecl) {
        for (i, param) in g.params.iter().enumerate() {
            let variable = parameter_variable(g, i);
            if !self.parameter_variables.insert(variable.clone()) {
                continue;
            }
            if let TypeExpr::Set(_, span) = &param.ty {
                self.errors.push(Diagnostic::error(
                    "A graph parameter cannot have a set-literal type; use a domain.",
                    *span,
                ));
                continue;
            }
            match self.eval.default_value(&param.ty) {
                Ok(value) => {
                    self.variables.insert(variable.clone());
                    self.late_variables.push((
                        variable,
                        rg_type(&param.ty),
                        value,
                        param.name.span,
                    ));
                }
                Err(e) => self.errors.push(e),
            }
        }
    }

    fn finish(mut self) -> Result<Translation, Vec<Diagnostic>> {
        for (name, (symbols, span)) in std::mem::take(&mut self.return_types) {
            self.builder.set_origin(Some(span));
            self.builder.define_type(&name, rg::Type::set(symbols));
        }
        for (name, ty, value, span) in std::mem::take(&mut self.late_variables) {
            self.builder.set_origin(Some(span));
            self.builder.variable(&name, ty, value);
        }
        if !self.artificial_tags.is_empty() {
            self.builder.set_origin(None);
            self.builder.pragma(rg::PragmaKind::ArtificialTag(
                self.artificial_tags.iter().cloned().collect(),
            ));
        }
        if !self.errors.is_empty() {
            return Err(deduplicated(self.errors));
        }
        let game = self.builder.finish();
        // Typing and the other RG checks, reported at the HRG source
        // locations the generated declarations and edges came from.
        let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) =
            rg_core::check::check_game(&game)
                .into_iter()
                .partition(Diagnostic::is_error);
        if !errors.is_empty() {
            return Err(deduplicated(errors));
        }
        // Loop exits and graph ends without incoming edges are part of the
        // translation scheme (§4.6), not mistakes in the program.
        self.warnings.extend(
            warnings
                .into_iter()
                .filter(|w| !w.message.ends_with("is not connected to begin.")),
        );
        Ok(Translation {
            game,
            warnings: self.warnings,
        })
    }
}

/// The same problem found in several copies of a statement (a `branch x in`
/// body, an inlined graph) is reported once.
fn deduplicated(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = HashSet::new();
    diagnostics
        .into_iter()
        .filter(|d| seen.insert((d.message.clone(), d.span)))
        .collect()
}

pub(crate) fn parameter_variable(g: &GraphDecl, index: usize) -> String {
    format!("{}_arg{index}_{}", g.name.text, g.params[index].name.text)
}

/// The RG type of an HRG type (names are kept: domains become RG set types
/// of the same name).
pub(crate) fn rg_type(t: &TypeExpr) -> rg::Type {
    match t {
        TypeExpr::Set(names, _) => rg::Type::set(names.iter().map(|n| n.text.clone())),
        TypeExpr::Named(name, None) => rg::Type::name(&name.text),
        TypeExpr::Named(name, Some(target)) => {
            rg::Type::arrow(rg::Type::name(&name.text), rg_type(target))
        }
    }
}
