//! The ground program: the output of grounding and the input of the
//! propositional network and (later) of the RG lowering.

use crate::datalog::{Rule, Symbol, SymbolTable, Vocabulary};
use rg_core::fx_hash::FxMap;

use super::terms::{GroundTerms, TermId};

pub type AtomId = u32;

/// A ground atom of a dynamic relation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroundAtom {
    pub relation: Symbol,
    pub args: Vec<TermId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroundLiteral {
    pub atom: AtomId,
    pub positive: bool,
}

/// `head :- body`; an empty body makes the head constantly true.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroundRule {
    pub head: AtomId,
    pub body: Vec<GroundLiteral>,
}

/// Sizes along the way, for reports.
#[derive(Clone, Debug, Default)]
pub struct GroundingStats {
    /// Ground atoms of the static model M0.
    pub static_atoms: usize,
    /// Possibly-true dynamic atoms found by relaxed reachability.
    pub possible_atoms: usize,
    /// Rounds of the relaxed fixpoint.
    pub rounds: usize,
    /// Ground rule instances emitted (before simplification).
    pub instances: usize,
    /// Relations evaluated at run time instead of ground, with the reason.
    pub runtime_relations: Vec<(String, String)>,
    /// State invariants proven (docs/gdl.md, grounding step 4), e.g. `(cell k k _)`.
    pub invariants: Vec<String>,
    /// Instances among `instances` that the invariants refute (removed).
    pub pruned_instances: usize,
    /// The program had too many instances for the invariant analysis.
    pub invariants_skipped: bool,
}

/// Derived relations whose ground rules would be too many (sudoku's
/// `goodRow`: 9! instances per row), evaluated against the current state
/// instead (gdl.md §5.8). Their atoms are ordinary atoms of the program
/// with no ground rules; their value comes from `rules`.
#[derive(Clone, Debug, Default)]
pub struct RuntimeRelations {
    /// (relation, arity) of each run-time relation.
    pub relations: Vec<(Symbol, usize)>,
    /// The non-ground rules of the run-time relations and of the static
    /// relations they ask on demand. Their bodies read only `true`, static
    /// relations, `distinct` and equality (with negation).
    pub rules: Vec<Rule>,
    /// The rows of the materialized static relations those rules read.
    pub facts: FxMap<(Symbol, usize), Vec<Vec<TermId>>>,
    /// The ground atoms of the run-time relations (possibly true ones).
    pub atoms: Vec<AtomId>,
    /// The `true(f)` atoms their rules may read, so that simplification
    /// keeps them as base propositions.
    pub reads: Vec<AtomId>,
}

/// A ground GDL program (gdl.md §5.1), simplified (§5.7).
///
/// Atoms of static relations are folded away; `true(f)` and `does(r, a)`
/// atoms are the inputs, `legal`, `goal`, `terminal` and `next` atoms the
/// outputs. Role lists are in file order.
#[derive(Clone, Debug)]
pub struct GroundProgram {
    pub symbols: SymbolTable,
    pub vocabulary: Vocabulary,
    pub terms: GroundTerms,
    pub atoms: Vec<GroundAtom>,
    pub rules: Vec<GroundRule>,
    /// Role terms in file order.
    pub roles: Vec<TermId>,
    /// Facts of the initial state.
    pub initial: Vec<TermId>,
    /// Possible state facts f whose `true(f)` is still read.
    pub base_facts: Vec<TermId>,
    /// Per role: actions a with a `legal(r, a)` atom.
    pub actions: Vec<Vec<TermId>>,
    /// Per role: values v with a `goal(r, v)` atom.
    pub goal_values: Vec<Vec<TermId>>,
    /// Relations evaluated at run time (empty for most games).
    pub runtime: RuntimeRelations,
    pub stats: GroundingStats,
}

impl GroundProgram {
    /// Every atom by its content.
    pub fn atom_ids(&self) -> FxMap<&GroundAtom, AtomId> {
        self.atoms
            .iter()
            .enumerate()
            .map(|(i, a)| (a, i as AtomId))
            .collect()
    }

    pub fn display_atom(&self, atom: AtomId) -> String {
        let Some(a) = self.atoms.get(atom as usize) else {
            return format!("<atom {atom}>");
        };
        let name = self.symbols.name(a.relation);
        if a.args.is_empty() {
            return name.to_string();
        }
        let args: Vec<String> = a
            .args
            .iter()
            .map(|&t| self.terms.display(&self.symbols, t))
            .collect();
        format!("({name} {})", args.join(" "))
    }

    /// The rule in KIF.
    pub fn display_rule(&self, rule: &GroundRule) -> String {
        let head = self.display_atom(rule.head);
        if rule.body.is_empty() {
            return head;
        }
        let body: Vec<String> = rule
            .body
            .iter()
            .map(|l| {
                let a = self.display_atom(l.atom);
                if l.positive {
                    a
                } else {
                    format!("(not {a})")
                }
            })
            .collect();
        format!("(<= {head} {})", body.join(" "))
    }

    /// The RG name of a ground term (gdl.md §7.2).
    pub fn rg_name(&self, term: TermId) -> String {
        self.terms.rg_name(&self.symbols, term)
    }

    /// Role names (RG) in file order.
    pub fn role_names(&self) -> Vec<String> {
        self.roles.iter().map(|&r| self.rg_name(r)).collect()
    }
}
