//! Conversion of a validated game into `propnet`'s Datalog (the input of
//! grounding). Rules are already in normal form (`or` expanded, `sees`
//! dropped); variables are numbered per rule.

use std::collections::HashMap;

use propnet::datalog::{
    Atom as DAtom, Literal as DLiteral, Program, Rule as DRule, SymbolTable, Term as DTerm,
};

use crate::ast::{Atom, Term, TermKind};
use crate::normalize::NormalLiteral;
use crate::validate::Game;

/// The game's rules as a Datalog program.
pub fn to_datalog(game: &Game) -> Program {
    let mut program = Program::new();
    for rule in &game.rules {
        let mut variables: HashMap<String, u32> = HashMap::new();
        let mut names = Vec::new();
        let head = atom(&rule.head, &mut program.symbols, &mut variables, &mut names);
        let body = rule
            .body
            .iter()
            .map(|literal| match literal {
                NormalLiteral::Positive(a) => {
                    DLiteral::Positive(atom(a, &mut program.symbols, &mut variables, &mut names))
                }
                NormalLiteral::Negative(a) => {
                    DLiteral::Negative(atom(a, &mut program.symbols, &mut variables, &mut names))
                }
                NormalLiteral::Distinct(s, t, _) => DLiteral::Distinct(
                    term(s, &mut program.symbols, &mut variables, &mut names),
                    term(t, &mut program.symbols, &mut variables, &mut names),
                ),
                NormalLiteral::Equal(s, t, _) => DLiteral::Equal(
                    term(s, &mut program.symbols, &mut variables, &mut names),
                    term(t, &mut program.symbols, &mut variables, &mut names),
                ),
            })
            .collect();
        program.rules.push(DRule {
            head,
            body,
            variable_names: names,
        });
    }
    program
}

fn atom(
    a: &Atom,
    symbols: &mut SymbolTable,
    vars: &mut HashMap<String, u32>,
    names: &mut Vec<String>,
) -> DAtom {
    DAtom {
        relation: symbols.intern(&a.name),
        args: a
            .args
            .iter()
            .map(|t| term(t, symbols, vars, names))
            .collect(),
    }
}

fn term(
    t: &Term,
    symbols: &mut SymbolTable,
    vars: &mut HashMap<String, u32>,
    names: &mut Vec<String>,
) -> DTerm {
    match &t.kind {
        TermKind::Constant(name) => DTerm::Constant(symbols.intern(name)),
        TermKind::Variable(name) => {
            let next = vars.len() as u32;
            let id = *vars.entry(name.clone()).or_insert_with(|| {
                names.push(name.clone());
                next
            });
            DTerm::Variable(id)
        }
        TermKind::Function { name, args } => DTerm::Function(
            symbols.intern(name),
            args.iter().map(|a| term(a, symbols, vars, names)).collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_keep_structure_and_number_variables() {
        let game =
            crate::load("(role a) (<= (p ?x (f ?y)) (q ?x) (q ?y) (not (r ?x)) (distinct ?x ?y))")
                .unwrap();
        let program = to_datalog(&game);
        assert_eq!(program.rules.len(), 2);
        let rule = &program.rules[1];
        assert_eq!(rule.variable_names, vec!["?x", "?y"]);
        assert_eq!(
            program.display_rule(rule),
            "(<= (p ?x (f ?y)) (q ?x) (q ?y) (not (r ?x)) (distinct ?x ?y))"
        );
    }
}
