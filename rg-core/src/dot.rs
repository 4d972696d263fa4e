//! Export of the rules automaton as a Graphviz DOT graph (through petgraph).
//!
//! Nodes are labeled with their names; `begin` and `end` are drawn bold,
//! edges carry their RG label, and a reachability check is also drawn as a
//! dashed edge to the start of the sub-automaton it runs.

use std::collections::HashMap;
use std::fmt::Write;

use petgraph::graph::{DiGraph, NodeIndex};

use crate::ast::{Game, Label};
use crate::builtins::{BEGIN, END};

/// The kind of a drawn edge.
#[derive(Clone, Debug)]
enum Drawn {
    Edge(String),
    Check(String),
}

/// The game's automaton in DOT syntax.
pub fn to_dot(game: &Game, title: &str) -> String {
    let mut graph: DiGraph<String, Drawn> = DiGraph::new();
    let mut index: HashMap<String, NodeIndex> = HashMap::new();
    let node =
        |name: &str, graph: &mut DiGraph<String, Drawn>, index: &mut HashMap<String, NodeIndex>| {
            if let Some(&n) = index.get(name) {
                return n;
            }
            let n = graph.add_node(name.to_string());
            index.insert(name.to_string(), n);
            n
        };
    node(BEGIN, &mut graph, &mut index);
    node(END, &mut graph, &mut index);
    for e in &game.edges {
        let from = node(&e.from, &mut graph, &mut index);
        let to = node(&e.to, &mut graph, &mut index);
        graph.add_edge(from, to, Drawn::Edge(e.label.to_string()));
        if let Label::Reach {
            from: start,
            negated,
            ..
        } = &e.label
        {
            let s = node(start, &mut graph, &mut index);
            let sign = if *negated { "!" } else { "?" };
            graph.add_edge(from, s, Drawn::Check(sign.to_string()));
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(title));
    let _ = writeln!(
        out,
        "  rankdir=LR;\n  node [shape=circle, fontsize=10];\n  edge [fontsize=9];"
    );
    for n in graph.node_indices() {
        let name = &graph[n];
        let style = if name == BEGIN || name == END {
            ", style=bold, shape=doublecircle"
        } else {
            ""
        };
        let _ = writeln!(out, "  n{} [label=\"{}\"{style}];", n.index(), escape(name));
    }
    for e in graph.edge_indices() {
        let (a, b) = graph.edge_endpoints(e).expect("edge endpoints");
        match &graph[e] {
            Drawn::Edge(label) => {
                let _ = writeln!(
                    out,
                    "  n{} -> n{} [label=\"{}\"];",
                    a.index(),
                    b.index(),
                    escape(label)
                );
            }
            Drawn::Check(sign) => {
                let _ = writeln!(
                    out,
                    "  n{} -> n{} [label=\"{sign}\", style=dashed, color=gray];",
                    a.index(),
                    b.index()
                );
            }
        }
    }
    out.push_str("}\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_nodes_edges_and_checks() {
        let game = crate::parse::parse_game(
            "type Player = { x };\ntype Score = { 0 };\nbegin, a: ? s -> t;\na, end: player = keeper;\ns, t: $ q;\n",
        )
        .unwrap();
        let dot = to_dot(&game, "demo");
        assert!(dot.starts_with("digraph \"demo\" {"));
        assert!(dot.contains("[label=\"begin\", style=bold, shape=doublecircle]"));
        assert!(dot.contains("[label=\"? s -> t\"]"));
        assert!(dot.contains("[label=\"player = keeper\"]"));
        assert!(dot.contains("[label=\"?\", style=dashed, color=gray]"));
        assert_eq!(dot.matches(" -> n").count(), 4);
    }
}
