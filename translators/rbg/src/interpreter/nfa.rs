//! Thompson NFAs of the rules and of every pattern (rbg.md §3.2), compiled
//! for the interpreter: each automaton is reduced to its action transitions
//! plus precomputed ε-closures.
//!
//! States that matter at run time are *keys*: key 0 is the start state and
//! key `t + 1` is the target state of action transition `t`. Because every
//! action occurrence labels exactly one transition, a key identifies "just
//! after action `t`", which is all the search and the rules position need.

/// A raw Thompson automaton under construction.
#[derive(Default)]
pub struct Builder<A> {
    epsilon: Vec<Vec<u32>>,
    /// Action transitions leaving each raw state: (transition id).
    leaving: Vec<Vec<u32>>,
    /// Per transition: (source raw state, target raw state, action).
    transitions: Vec<(u32, u32, A)>,
}

impl<A> Builder<A> {
    pub fn new() -> Self {
        Builder {
            epsilon: Vec::new(),
            leaving: Vec::new(),
            transitions: Vec::new(),
        }
    }

    pub fn state(&mut self) -> u32 {
        self.epsilon.push(Vec::new());
        self.leaving.push(Vec::new());
        (self.epsilon.len() - 1) as u32
    }

    pub fn epsilon(&mut self, from: u32, to: u32) {
        self.epsilon[from as usize].push(to);
    }

    /// Adds `from --action--> to`; returns the transition id.
    pub fn action(&mut self, from: u32, to: u32, action: A) -> u32 {
        let id = self.transitions.len() as u32;
        self.transitions.push((from, to, action));
        self.leaving[from as usize].push(id);
        id
    }

    /// Compiles to closures over keys. `start`/`end` are the fragment's
    /// start and final raw states.
    pub fn finish(self, start: u32, end: u32) -> Automaton<A> {
        let Builder {
            epsilon,
            leaving,
            transitions,
        } = self;
        let mut key_states = Vec::with_capacity(transitions.len() + 1);
        key_states.push(start);
        key_states.extend(transitions.iter().map(|(_, to, _)| *to));

        let mut closure_starts = Vec::with_capacity(key_states.len() + 1);
        let mut closure_items = Vec::new();
        let mut reaches_final = Vec::with_capacity(key_states.len());
        let mut seen = vec![u32::MAX; epsilon.len()];
        let mut stack = Vec::new();
        for (key, &state) in key_states.iter().enumerate() {
            closure_starts.push(closure_items.len() as u32);
            let mark = key as u32;
            let mut final_reached = false;
            stack.clear();
            stack.push(state);
            seen[state as usize] = mark;
            // Depth-first in edge order: a deterministic transition order.
            while let Some(s) = stack.pop() {
                if s == end {
                    final_reached = true;
                }
                closure_items.extend_from_slice(&leaving[s as usize]);
                for &next in epsilon[s as usize].iter().rev() {
                    if seen[next as usize] != mark {
                        seen[next as usize] = mark;
                        stack.push(next);
                    }
                }
            }
            reaches_final.push(final_reached);
        }
        closure_starts.push(closure_items.len() as u32);
        Automaton {
            actions: transitions.into_iter().map(|(_, _, a)| a).collect(),
            closure_starts,
            closure_items,
            reaches_final,
        }
    }
}

/// A compiled automaton: action transitions and ε-closures per key.
pub struct Automaton<A> {
    /// Action of transition `t`; its target key is `t + 1`.
    pub actions: Vec<A>,
    closure_starts: Vec<u32>,
    closure_items: Vec<u32>,
    reaches_final: Vec<bool>,
}

impl<A> Automaton<A> {
    pub fn key_count(&self) -> usize {
        self.actions.len() + 1
    }

    /// The action transitions whose source is ε-reachable from `key`.
    #[inline]
    pub fn closure(&self, key: u32) -> &[u32] {
        let k = key as usize;
        &self.closure_items[self.closure_starts[k] as usize..self.closure_starts[k + 1] as usize]
    }

    /// Whether the final state is ε-reachable from `key`.
    #[inline]
    pub fn reaches_final(&self, key: u32) -> bool {
        self.reaches_final[key as usize]
    }

    /// Transitions listed in the closures of two or more keys: the only
    /// ones whose target can be reached twice at one vertex within a level
    /// (every cycle of a Thompson automaton passes through one of them).
    pub fn shared_transitions(&self) -> Vec<bool> {
        let mut seen = vec![0u8; self.actions.len()];
        for &t in &self.closure_items {
            let count = &mut seen[t as usize];
            *count = count.saturating_add(1);
        }
        seen.into_iter().map(|c| c >= 2).collect()
    }

    #[inline]
    pub fn target_key(transition: u32) -> u32 {
        transition + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closures_follow_epsilon_edges() {
        // (a b)* c
        let mut b = Builder::new();
        let s = b.state();
        let e = b.state();
        let (sa, ea, sb, eb, sc, ec) = (
            b.state(),
            b.state(),
            b.state(),
            b.state(),
            b.state(),
            b.state(),
        );
        let ta = b.action(sa, ea, 'a');
        let tb = b.action(sb, eb, 'b');
        let tc = b.action(sc, ec, 'c');
        b.epsilon(ea, sb);
        // star around a b from s to e
        b.epsilon(s, sa);
        b.epsilon(s, e);
        b.epsilon(eb, sa);
        b.epsilon(eb, e);
        b.epsilon(e, sc);
        let automaton = b.finish(s, ec);
        assert_eq!(automaton.closure(0), &[ta, tc]);
        assert_eq!(automaton.closure(Automaton::<char>::target_key(ta)), &[tb]);
        assert_eq!(
            automaton.closure(Automaton::<char>::target_key(tb)),
            &[ta, tc]
        );
        assert!(automaton.reaches_final(Automaton::<char>::target_key(tc)));
        assert!(!automaton.reaches_final(0));
    }
}
