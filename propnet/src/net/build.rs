//! Construction (gdl.md §6.2) and optimization (§6.3) of a network.

use petgraph::algo::kosaraju_scc;
use petgraph::graph::DiGraph;

use super::{EvalStep, Gate, Propnet};
use crate::ground::{GroundProgram, TermId};

/// Where the game's inputs and outputs are in a network.
#[derive(Clone, Debug, Default)]
pub struct NetOutputs {
    /// State facts; `Gate::Base(i)` is `base_facts[i]`.
    pub base_facts: Vec<TermId>,
    pub base_components: Vec<u32>,
    /// The component of `next(f)` for each base fact (`None`: never true next).
    pub next_components: Vec<Option<u32>>,
    /// (role, action) of each `Gate::Input(i)`.
    pub inputs: Vec<(TermId, TermId)>,
    pub input_components: Vec<u32>,
    /// Per role (file order): (action, component of `legal(r, action)`).
    pub legal: Vec<Vec<(TermId, u32)>>,
    /// Per role (file order): (value, component of `goal(r, value)`).
    pub goals: Vec<Vec<(TermId, u32)>>,
    pub terminal: Option<u32>,
    /// The component of each run-time atom (`program.runtime.atoms`).
    pub runtime_components: Vec<u32>,
}

struct Builder {
    gates: Vec<Gate>,
    fanin: Vec<Vec<u32>>,
    alias: Vec<Option<u32>>,
}

impl Builder {
    fn add(&mut self, gate: Gate, inputs: Vec<u32>) -> u32 {
        self.gates.push(gate);
        self.fanin.push(inputs);
        self.alias.push(None);
        (self.gates.len() - 1) as u32
    }

    /// The component `c` stands for, following collapsed gates. A loop of
    /// collapsed gates has no support and is false (least fixpoint).
    fn resolve(&mut self, c: u32) -> u32 {
        if self.alias[c as usize].is_none() {
            return c;
        }
        let mut path = Vec::new();
        let mut current = c;
        while let Some(next) = self.alias[current as usize] {
            if path.contains(&current) {
                for &p in &path {
                    self.alias[p as usize] = None;
                    self.gates[p as usize] = Gate::Constant(false);
                    self.fanin[p as usize].clear();
                }
                return c;
            }
            path.push(current);
            current = next;
        }
        for &p in &path {
            self.alias[p as usize] = Some(current);
        }
        current
    }

    fn constant(&self, c: u32) -> Option<bool> {
        match self.gates[c as usize] {
            Gate::Constant(b) => Some(b),
            _ => None,
        }
    }

    /// Components with their inputs first (Kahn's algorithm); components on
    /// cycles come last, in index order.
    fn inputs_first_order(&self) -> Vec<u32> {
        let n = self.gates.len();
        let mut pending: Vec<u32> = self.fanin.iter().map(|f| f.len() as u32).collect();
        let mut users: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (c, inputs) in self.fanin.iter().enumerate() {
            for &i in inputs {
                users[i as usize].push(c as u32);
            }
        }
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&c| pending[c as usize] == 0)
            .collect();
        let mut k = 0;
        while k < order.len() {
            let c = order[k] as usize;
            for &u in &users[c] {
                pending[u as usize] -= 1;
                if pending[u as usize] == 0 {
                    order.push(u);
                }
            }
            k += 1;
        }
        order.extend((0..n as u32).filter(|&c| pending[c as usize] > 0));
        order
    }

    /// One pass of constant propagation and gate collapsing over `order`;
    /// true if anything changed.
    fn simplify_pass(&mut self, order: &[u32]) -> bool {
        let mut changed = false;
        let mut resolved: Vec<u32> = Vec::new();
        for &c in order {
            if self.alias[c as usize].is_some() {
                continue;
            }
            let gate = self.gates[c as usize];
            if !matches!(gate, Gate::And | Gate::Or | Gate::Not) {
                continue;
            }
            let inputs: Vec<u32> = std::mem::take(&mut self.fanin[c as usize]);
            resolved.clear();
            for &i in &inputs {
                let r = self.resolve(i);
                resolved.push(r);
            }
            resolved.sort_unstable();
            resolved.dedup();
            let new_gate = match gate {
                Gate::Not => match resolved.first().and_then(|&i| self.constant(i)) {
                    Some(b) => Gate::Constant(!b),
                    None => Gate::Not,
                },
                Gate::And => {
                    if resolved
                        .iter()
                        .any(|&i| i == c || self.constant(i) == Some(false))
                    {
                        Gate::Constant(false)
                    } else {
                        resolved.retain(|&i| self.constant(i) != Some(true));
                        if resolved.is_empty() {
                            Gate::Constant(true)
                        } else {
                            Gate::And
                        }
                    }
                }
                _ => {
                    if resolved
                        .iter()
                        .any(|&i| i != c && self.constant(i) == Some(true))
                    {
                        Gate::Constant(true)
                    } else {
                        resolved.retain(|&i| i != c && self.constant(i) != Some(false));
                        if resolved.is_empty() {
                            Gate::Constant(false)
                        } else {
                            Gate::Or
                        }
                    }
                }
            };
            if matches!(new_gate, Gate::Constant(_)) {
                resolved.clear();
            }
            if matches!(new_gate, Gate::And | Gate::Or) && resolved.len() == 1 {
                self.alias[c as usize] = Some(resolved[0]);
                changed = true;
                continue;
            }
            self.gates[c as usize] = new_gate;
            if new_gate == gate && inputs == resolved {
                self.fanin[c as usize] = inputs;
            } else {
                self.fanin[c as usize] = resolved.clone();
                changed = true;
            }
        }
        changed
    }
}

/// Builds and optimizes the network of a ground program.
pub fn build(program: &GroundProgram) -> (Propnet, NetOutputs) {
    let v = program.vocabulary;
    let mut builder = Builder {
        gates: Vec::new(),
        fanin: Vec::new(),
        alias: Vec::new(),
    };
    let mut outputs = NetOutputs {
        legal: vec![Vec::new(); program.roles.len()],
        goals: vec![Vec::new(); program.roles.len()],
        ..NetOutputs::default()
    };
    let mut next_atom = std::collections::HashMap::new();
    let mut atom_component = Vec::with_capacity(program.atoms.len());
    let runtime_index: std::collections::HashMap<u32, u32> = program
        .runtime
        .atoms
        .iter()
        .enumerate()
        .map(|(k, &a)| (a, k as u32))
        .collect();
    for (id, atom) in program.atoms.iter().enumerate() {
        let role_index = |r: &TermId| program.roles.iter().position(|x| x == r);
        let gate = match (atom.relation, atom.args.as_slice()) {
            (s, [f]) if s == v.true_ => {
                outputs.base_facts.push(*f);
                Gate::Base(outputs.base_facts.len() as u32 - 1)
            }
            (s, [r, a]) if s == v.does => {
                outputs.inputs.push((*r, *a));
                Gate::Input(outputs.inputs.len() as u32 - 1)
            }
            _ => match runtime_index.get(&(id as u32)) {
                Some(&k) => Gate::Runtime(k),
                None => Gate::Or,
            },
        };
        let c = builder.add(gate, Vec::new());
        if let Gate::Runtime(k) = gate {
            outputs.runtime_components.resize(k as usize + 1, 0);
            outputs.runtime_components[k as usize] = c;
        }
        match (atom.relation, atom.args.as_slice()) {
            (s, [_]) if s == v.true_ => outputs.base_components.push(c),
            (s, [_, _]) if s == v.does => outputs.input_components.push(c),
            (s, [f]) if s == v.next => {
                next_atom.insert(*f, c);
            }
            (s, [r, a]) if s == v.legal => {
                if let Some(i) = role_index(r) {
                    outputs.legal[i].push((*a, c));
                }
            }
            (s, [r, value]) if s == v.goal => {
                if let Some(i) = role_index(r) {
                    outputs.goals[i].push((*value, c));
                }
            }
            (s, []) if s == v.terminal => outputs.terminal = Some(c),
            _ => {}
        }
        atom_component.push(c);
    }
    let true_constant = builder.add(Gate::Constant(true), Vec::new());
    let mut negation = std::collections::HashMap::new();
    for rule in &program.rules {
        let literals: Vec<u32> = rule
            .body
            .iter()
            .map(|l| {
                let c = atom_component[l.atom as usize];
                if l.positive {
                    c
                } else {
                    *negation
                        .entry(c)
                        .or_insert_with(|| builder.add(Gate::Not, vec![c]))
                }
            })
            .collect();
        let gate = match literals.len() {
            0 => true_constant,
            1 => literals[0],
            _ => builder.add(Gate::And, literals),
        };
        let head = atom_component[rule.head as usize];
        if builder.gates[head as usize] == Gate::Or {
            builder.fanin[head as usize].push(gate);
        }
    }
    outputs.next_components = outputs
        .base_facts
        .iter()
        .map(|f| next_atom.get(f).copied())
        .collect();
    // Inputs-first order settles most constants in the first pass.
    let simplify_order = builder.inputs_first_order();
    while builder.simplify_pass(&simplify_order) {}
    // Resolve every reference to its final component.
    for c in 0..builder.gates.len() {
        let inputs = std::mem::take(&mut builder.fanin[c]);
        builder.fanin[c] = inputs.into_iter().map(|i| builder.resolve(i)).collect();
    }
    let mut roots: Vec<u32> = Vec::new();
    for list in outputs.legal.iter_mut().chain(outputs.goals.iter_mut()) {
        for entry in list.iter_mut() {
            entry.1 = builder.resolve(entry.1);
            roots.push(entry.1);
        }
    }
    if let Some(t) = outputs.terminal.as_mut() {
        *t = builder.resolve(*t);
        roots.push(*t);
    }
    for n in outputs.next_components.iter_mut().flatten() {
        *n = builder.resolve(*n);
        roots.push(*n);
    }
    roots.extend(&outputs.base_components);
    roots.extend(&outputs.input_components);
    roots.extend(&outputs.runtime_components);
    // Keep only components that some output needs.
    let total = builder.gates.len();
    let mut keep = vec![false; total];
    let mut stack = roots;
    while let Some(c) = stack.pop() {
        if std::mem::replace(&mut keep[c as usize], true) {
            continue;
        }
        if builder.alias[c as usize].is_none() {
            stack.extend(builder.fanin[c as usize].iter().copied());
        }
    }
    let mut new_id = vec![u32::MAX; total];
    let mut net = Propnet::default();
    let mut fanin_lists = Vec::new();
    for c in 0..total {
        if keep[c] && builder.alias[c].is_none() {
            new_id[c] = net.gates.len() as u32;
            net.gates.push(builder.gates[c]);
            fanin_lists.push(c);
        }
    }
    let remap = |c: u32| new_id[c as usize];
    net.offsets.push(0);
    for &c in &fanin_lists {
        net.fanin.extend(builder.fanin[c].iter().map(|&i| remap(i)));
        net.offsets.push(net.fanin.len() as u32);
    }
    for list in outputs.legal.iter_mut().chain(outputs.goals.iter_mut()) {
        for entry in list.iter_mut() {
            entry.1 = remap(entry.1);
        }
    }
    outputs.terminal = outputs.terminal.map(remap);
    for n in outputs.next_components.iter_mut().flatten() {
        *n = remap(*n);
    }
    for c in outputs
        .base_components
        .iter_mut()
        .chain(outputs.input_components.iter_mut())
        .chain(outputs.runtime_components.iter_mut())
    {
        *c = remap(*c);
    }
    order(&mut net);
    (net, outputs)
}

/// Topological evaluation order, split by dependence on inputs.
fn order(net: &mut Propnet) {
    let n = net.gates.len();
    let mut graph = DiGraph::<u32, ()>::with_capacity(n, net.fanin.len());
    let nodes: Vec<_> = (0..n as u32).map(|c| graph.add_node(c)).collect();
    for c in 0..n as u32 {
        for &i in net.inputs(c) {
            graph.add_edge(nodes[i as usize], nodes[c as usize], ());
        }
    }
    let mut sccs = kosaraju_scc(&graph);
    sccs.reverse();
    let mut depends_on_input = vec![false; n];
    for scc in &sccs {
        let members: Vec<u32> = scc.iter().map(|&x| graph[x]).collect();
        let dependent = members.iter().any(|&c| {
            matches!(net.gates[c as usize], Gate::Input(_))
                || net.inputs(c).iter().any(|&i| depends_on_input[i as usize])
        });
        for &c in &members {
            depends_on_input[c as usize] = dependent;
        }
        let step = if members.len() == 1 {
            let c = members[0];
            if matches!(
                net.gates[c as usize],
                Gate::Base(_) | Gate::Input(_) | Gate::Runtime(_)
            ) {
                continue;
            }
            EvalStep::Single(c)
        } else {
            EvalStep::Cycle(members)
        };
        if dependent {
            net.move_steps.push(step);
        } else {
            net.state_steps.push(step);
        }
    }
}
