//! A small Datalog-with-negation rule language: the input of grounding.
//!
//! `gdl` converts its AST into these types (after expanding `or`), so this
//! crate never depends on the GDL front end. Symbols are interned; variables
//! are numbered per rule.

use std::collections::HashMap;
use std::fmt;

/// An interned name (relation, function or constant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(pub u32);

/// Interns names to [`Symbol`]s.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    names: Vec<String>,
    index: HashMap<String, Symbol>,
}

impl SymbolTable {
    pub fn new() -> Self {
        SymbolTable::default()
    }

    pub fn intern(&mut self, name: &str) -> Symbol {
        if let Some(&symbol) = self.index.get(name) {
            return symbol;
        }
        let symbol = Symbol(self.names.len() as u32);
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), symbol);
        symbol
    }

    pub fn lookup(&self, name: &str) -> Option<Symbol> {
        self.index.get(name).copied()
    }

    pub fn name(&self, symbol: Symbol) -> &str {
        self.names
            .get(symbol.0 as usize)
            .map_or("<unknown symbol>", String::as_str)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A (possibly non-ground) term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Constant(Symbol),
    /// A variable, by its index in [`Rule::variable_names`].
    Variable(u32),
    Function(Symbol, Vec<Term>),
}

impl Term {
    pub fn is_ground(&self) -> bool {
        match self {
            Term::Constant(_) => true,
            Term::Variable(_) => false,
            Term::Function(_, args) => args.iter().all(Term::is_ground),
        }
    }

    /// Appends the variables of the term (with repetitions) to `out`.
    pub fn collect_variables(&self, out: &mut Vec<u32>) {
        match self {
            Term::Constant(_) => {}
            Term::Variable(v) => out.push(*v),
            Term::Function(_, args) => args.iter().for_each(|a| a.collect_variables(out)),
        }
    }
}

/// `relation(args…)`; zero-arity relations have no arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub relation: Symbol,
    pub args: Vec<Term>,
}

impl Atom {
    pub fn key(&self) -> (Symbol, usize) {
        (self.relation, self.args.len())
    }

    pub fn collect_variables(&self, out: &mut Vec<u32>) {
        self.args.iter().for_each(|a| a.collect_variables(out));
    }
}

/// A body literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    Positive(Atom),
    Negative(Atom),
    /// Syntactic inequality of two terms.
    Distinct(Term, Term),
    /// Syntactic equality (`(not (distinct s t))`).
    Equal(Term, Term),
}

impl Literal {
    pub fn collect_variables(&self, out: &mut Vec<u32>) {
        match self {
            Literal::Positive(a) | Literal::Negative(a) => a.collect_variables(out),
            Literal::Distinct(s, t) | Literal::Equal(s, t) => {
                s.collect_variables(out);
                t.collect_variables(out);
            }
        }
    }
}

/// `head :- body` (a fact when the body is empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
    /// Source names of the variables, for messages.
    pub variable_names: Vec<String>,
}

/// A whole program: rules over one symbol table.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub symbols: SymbolTable,
    pub rules: Vec<Rule>,
}

impl Program {
    pub fn new() -> Self {
        Program::default()
    }

    pub fn display_term<'a>(&'a self, term: &'a Term, rule: &'a Rule) -> impl fmt::Display + 'a {
        TermDisplay {
            program: self,
            term,
            rule,
        }
    }

    pub fn display_atom(&self, atom: &Atom, rule: &Rule) -> String {
        if atom.args.is_empty() {
            return self.symbols.name(atom.relation).to_string();
        }
        let args: Vec<String> = atom
            .args
            .iter()
            .map(|t| self.display_term(t, rule).to_string())
            .collect();
        format!("({} {})", self.symbols.name(atom.relation), args.join(" "))
    }

    /// The rule in KIF syntax.
    pub fn display_rule(&self, rule: &Rule) -> String {
        let head = self.display_atom(&rule.head, rule);
        if rule.body.is_empty() {
            return head;
        }
        let body: Vec<String> = rule
            .body
            .iter()
            .map(|l| match l {
                Literal::Positive(a) => self.display_atom(a, rule),
                Literal::Negative(a) => format!("(not {})", self.display_atom(a, rule)),
                Literal::Distinct(s, t) => format!(
                    "(distinct {} {})",
                    self.display_term(s, rule),
                    self.display_term(t, rule)
                ),
                Literal::Equal(s, t) => format!(
                    "(not (distinct {} {}))",
                    self.display_term(s, rule),
                    self.display_term(t, rule)
                ),
            })
            .collect();
        format!("(<= {} {})", head, body.join(" "))
    }
}

struct TermDisplay<'a> {
    program: &'a Program,
    term: &'a Term,
    rule: &'a Rule,
}

impl fmt::Display for TermDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.term {
            Term::Constant(s) => f.write_str(self.program.symbols.name(*s)),
            Term::Variable(v) => match self.rule.variable_names.get(*v as usize) {
                Some(name) => f.write_str(name),
                None => write!(f, "?v{v}"),
            },
            Term::Function(s, args) => {
                write!(f, "({}", self.program.symbols.name(*s))?;
                for arg in args {
                    write!(f, " {}", self.program.display_term(arg, self.rule))?;
                }
                f.write_str(")")
            }
        }
    }
}

/// The GDL vocabulary, as symbols of one program.
#[derive(Clone, Copy, Debug)]
pub struct Vocabulary {
    pub role: Symbol,
    pub init: Symbol,
    pub true_: Symbol,
    pub does: Symbol,
    pub next: Symbol,
    pub legal: Symbol,
    pub goal: Symbol,
    pub terminal: Symbol,
    pub base: Symbol,
    pub input: Symbol,
}

impl Vocabulary {
    /// Interns the distinguished names (so they exist even if unused).
    pub fn intern(symbols: &mut SymbolTable) -> Self {
        Vocabulary {
            role: symbols.intern("role"),
            init: symbols.intern("init"),
            true_: symbols.intern("true"),
            does: symbols.intern("does"),
            next: symbols.intern("next"),
            legal: symbols.intern("legal"),
            goal: symbols.intern("goal"),
            terminal: symbols.intern("terminal"),
            base: symbols.intern("base"),
            input: symbols.intern("input"),
        }
    }
}
