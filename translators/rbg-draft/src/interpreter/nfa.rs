//! Thompson NFAs of movement expressions (rbg-draft.md §5.7): every step
//! and marker is one labelled transition. ε-edges are followed during the
//! searches (each (state, square) is visited once), not precomputed as
//! closures, which could be quadratic in the size of the expression.

use crate::ast::{Expr, PlayerId, Target};

/// A step letter, with its on set as a membership table.
#[derive(Clone, Debug)]
pub struct StepLetter {
    pub dx: i64,
    pub dy: i64,
    /// `on[piece]`; `None` accepts any piece.
    pub on: Option<Vec<bool>>,
    pub off: Option<Vec<u32>>,
}

#[derive(Clone, Debug)]
pub enum Letter {
    Step(StepLetter),
    Marker(Target),
}

#[derive(Clone, Debug, Default)]
pub struct Nfa {
    pub start: usize,
    pub accept: usize,
    pub eps: Vec<Vec<usize>>,
    pub edges: Vec<Vec<(Letter, usize)>>,
}

impl Nfa {
    pub fn new(expr: &Expr, pieces: usize) -> Nfa {
        let mut nfa = Nfa::default();
        nfa.start = nfa.state();
        nfa.accept = nfa.state();
        nfa.build(expr, nfa.start, nfa.accept, pieces);
        nfa
    }

    pub fn len(&self) -> usize {
        self.eps.len()
    }

    fn state(&mut self) -> usize {
        self.eps.push(Vec::new());
        self.edges.push(Vec::new());
        self.eps.len() - 1
    }

    fn build(&mut self, e: &Expr, from: usize, to: usize, pieces: usize) {
        match e {
            Expr::Step(step) => {
                let on = step.on.as_ref().map(|set| {
                    let mut table = vec![false; pieces];
                    for &p in set {
                        table[p] = true;
                    }
                    table
                });
                let off = step
                    .off
                    .as_ref()
                    .map(|set| set.iter().map(|&p| piece_u32(p)).collect());
                let letter = Letter::Step(StepLetter {
                    dx: step.dx,
                    dy: step.dy,
                    on,
                    off,
                });
                self.edges[from].push((letter, to));
            }
            Expr::Marker(target, _) => self.edges[from].push((Letter::Marker(*target), to)),
            Expr::Alt(parts) => {
                for part in parts {
                    let (a, b) = (self.state(), self.state());
                    self.eps[from].push(a);
                    self.build(part, a, b, pieces);
                    self.eps[b].push(to);
                }
            }
            Expr::Concat(parts) => {
                let mut current = from;
                for (k, part) in parts.iter().enumerate() {
                    let next = if k + 1 == parts.len() {
                        to
                    } else {
                        self.state()
                    };
                    self.build(part, current, next, pieces);
                    current = next;
                }
            }
            Expr::Power(inner, n, _) => {
                let mut current = from;
                for k in 0..*n {
                    let next = if k + 1 == *n { to } else { self.state() };
                    let (a, b) = (self.state(), self.state());
                    self.eps[current].push(a);
                    self.build(inner, a, b, pieces);
                    self.eps[b].push(next);
                    current = next;
                }
            }
            Expr::Star(inner, _) => {
                let (a, b) = (self.state(), self.state());
                self.eps[from].push(a);
                self.eps[from].push(to);
                self.build(inner, a, b, pieces);
                self.eps[b].push(a);
                self.eps[b].push(to);
            }
        }
    }
}

fn piece_u32(p: usize) -> u32 {
    u32::try_from(p).unwrap_or(u32::MAX)
}

/// The player a marker hands over to, seen from `current` (R24).
pub fn resolve(target: Target, current: PlayerId, players: usize) -> PlayerId {
    match target {
        Target::Player(p) => p,
        Target::Offset(k) => {
            let n = i64::try_from(players).unwrap_or(i64::MAX);
            let c = i64::try_from(current).unwrap_or(0);
            usize::try_from((c + k).rem_euclid(n)).unwrap_or(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_cyclic() {
        assert_eq!(resolve(Target::Offset(1), 2, 3), 0);
        assert_eq!(resolve(Target::Offset(-1), 0, 3), 2);
        assert_eq!(resolve(Target::Offset(0), 1, 3), 1);
        assert_eq!(resolve(Target::Offset(-7), 1, 3), 0);
        assert_eq!(resolve(Target::Player(2), 0, 3), 2);
    }
}
