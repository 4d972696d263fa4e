//! Which graphs are translated, and their call counts (hrg.md §5.4).
//!
//! `count(rules) = 1`; `count(g) = Σ_f count(f) × occ(f, g)`, where
//! `occ(f, g)` counts the places in `f`'s body naming `g` (as a called graph
//! or an identifier in an expression), each doubled per enclosing
//! `branch x in` / `repeat` (their bodies are copied). A graph uses short
//! node names when it is reusable or its count is at most 1.

use std::collections::HashMap;

use indexmap::IndexMap;
use rg_core::diag::Diagnostic;

use crate::ast::{Expr, ExprKind, GraphDecl, Stmt, StmtKind};

/// Occurrences of each graph name in a block, weighted as in §5.4.
pub fn occurrences(block: &[Stmt], graphs: &HashMap<&str, &GraphDecl>) -> IndexMap<String, u64> {
    let mut out = IndexMap::new();
    block_occurrences(block, graphs, 1, &mut out);
    out
}

fn block_occurrences(
    block: &[Stmt],
    graphs: &HashMap<&str, &GraphDecl>,
    weight: u64,
    out: &mut IndexMap<String, u64>,
) {
    for s in block {
        match &s.kind {
            StmtKind::Assign {
                accessors, value, ..
            } => {
                accessors
                    .iter()
                    .for_each(|a| expr_occurrences(a, graphs, weight, out));
                expr_occurrences(value, graphs, weight, out);
            }
            StmtKind::AssignAny { accessors, .. } => {
                accessors
                    .iter()
                    .for_each(|a| expr_occurrences(a, graphs, weight, out));
            }
            StmtKind::BranchIn { body, .. }
            | StmtKind::RepeatIn { body, .. }
            | StmtKind::Repeat { body, .. } => {
                block_occurrences(body, graphs, weight.saturating_mul(2), out);
            }
            StmtKind::Branch(arms) => arms
                .iter()
                .for_each(|arm| block_occurrences(arm, graphs, weight, out)),
            StmtKind::Call { callee, args } => {
                if graphs.contains_key(callee.text.as_str()) {
                    *out.entry(callee.text.clone()).or_insert(0) += weight;
                }
                args.iter()
                    .for_each(|a| expr_occurrences(a, graphs, weight, out));
            }
            StmtKind::If {
                condition,
                then_block,
                else_block,
            } => {
                expr_occurrences(condition, graphs, weight, out);
                block_occurrences(then_block, graphs, weight, out);
                if let Some(b) = else_block {
                    block_occurrences(b, graphs, weight, out);
                }
            }
            StmtKind::Loop(body) => block_occurrences(body, graphs, weight, out),
            StmtKind::While { condition, body } => {
                expr_occurrences(condition, graphs, weight, out);
                block_occurrences(body, graphs, weight, out);
            }
            StmtKind::VarTag(_) | StmtKind::Tag { .. } => {}
        }
    }
}

fn expr_occurrences(
    e: &Expr,
    graphs: &HashMap<&str, &GraphDecl>,
    weight: u64,
    out: &mut IndexMap<String, u64>,
) {
    match &e.kind {
        ExprKind::Name(n) => {
            if graphs.contains_key(n.text.as_str()) {
                *out.entry(n.text.clone()).or_insert(0) += weight;
            }
        }
        ExprKind::Constructor(_, args) => args
            .iter()
            .for_each(|a| expr_occurrences(a, graphs, weight, out)),
        ExprKind::Call(callee, args) => {
            expr_occurrences(callee, graphs, weight, out);
            args.iter()
                .for_each(|a| expr_occurrences(a, graphs, weight, out));
        }
        ExprKind::Access(m, k) | ExprKind::Binary(_, m, k) => {
            expr_occurrences(m, graphs, weight, out);
            expr_occurrences(k, graphs, weight, out);
        }
        ExprKind::If(c, a, b) => {
            for x in [c, a, b] {
                expr_occurrences(x, graphs, weight, out);
            }
        }
        ExprKind::Paren(inner) => expr_occurrences(inner, graphs, weight, out),
        ExprKind::Map(_) => {}
    }
}

/// Call counts of the graphs reachable from `rules`; a recursive graph is
/// an error (it would be inlined without end).
pub fn call_counts<'p>(
    graphs: &HashMap<&'p str, &'p GraphDecl>,
) -> Result<HashMap<&'p str, u64>, Diagnostic> {
    let occurrences: HashMap<&str, IndexMap<String, u64>> = graphs
        .iter()
        .map(|(&name, g)| (name, occurrences(&g.body, graphs)))
        .collect();
    // Topological order from `rules` (depth-first, detecting cycles).
    let mut order = Vec::new();
    let mut state: HashMap<&str, u8> = HashMap::new(); // 1 = on the stack, 2 = done
    fn visit<'p>(
        name: &'p str,
        graphs: &HashMap<&'p str, &'p GraphDecl>,
        occurrences: &HashMap<&str, IndexMap<String, u64>>,
        state: &mut HashMap<&'p str, u8>,
        order: &mut Vec<&'p str>,
    ) -> Result<(), Diagnostic> {
        match state.get(name) {
            Some(2) => return Ok(()),
            Some(_) => {
                let g = graphs[name];
                return Err(Diagnostic::error(
                    format!("Graph \"{name}\" is called recursively; recursion is not supported."),
                    g.name.span,
                ));
            }
            None => {}
        }
        state.insert(name, 1);
        for callee in occurrences[name].keys() {
            let (&callee, _) = graphs
                .get_key_value(callee.as_str())
                .expect("occurrences name graphs");
            visit(callee, graphs, occurrences, state, order)?;
        }
        state.insert(name, 2);
        order.push(name);
        Ok(())
    }
    visit("rules", graphs, &occurrences, &mut state, &mut order)?;
    // Callers come before callees in reverse post-order.
    let mut counts: HashMap<&str, u64> = order.iter().map(|&g| (g, 0)).collect();
    counts.insert("rules", 1);
    for &caller in order.iter().rev() {
        let c = counts[caller];
        for (callee, occ) in &occurrences[caller] {
            *counts.get_mut(callee.as_str()).expect("reachable") += c.saturating_mul(*occ);
        }
    }
    Ok(counts)
}
