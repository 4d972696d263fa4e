//! Building Datalog programs by hand in the propnet tests.

use propnet::datalog::{Atom, Literal, Program, Rule, Term};

pub struct Builder {
    pub program: Program,
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            program: Program::new(),
        }
    }
    pub fn c(&mut self, name: &str) -> Term {
        Term::Constant(self.program.symbols.intern(name))
    }
    pub fn f(&mut self, name: &str, args: Vec<Term>) -> Term {
        Term::Function(self.program.symbols.intern(name), args)
    }
    pub fn atom(&mut self, name: &str, args: Vec<Term>) -> Atom {
        Atom {
            relation: self.program.symbols.intern(name),
            args,
        }
    }
    pub fn rule(&mut self, head: Atom, body: Vec<Literal>, vars: &[&str]) {
        self.program.rules.push(Rule {
            head,
            body,
            variable_names: vars.iter().map(std::string::ToString::to_string).collect(),
        });
    }
}
