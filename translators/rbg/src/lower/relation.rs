//! Static position relations (rbg.md §5.8): what a shift-only rule does to
//! the current vertex. `R(v)` is the set of vertices a legal walk of the
//! rule can end on when it starts on `v`.

/// A relation over the vertices `0..n`: sorted, duplicate-free successor
/// lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Relation {
    pub succ: Vec<Vec<u32>>,
}

impl Relation {
    pub(crate) fn identity(n: usize) -> Relation {
        Relation {
            succ: (0..n as u32).map(|v| vec![v]).collect(),
        }
    }

    /// One shift: `neighbour[v]` is the target of the labelled edge of `v`.
    pub(crate) fn function(neighbour: &[Option<u32>]) -> Relation {
        Relation {
            succ: neighbour
                .iter()
                .map(|t| t.iter().copied().collect())
                .collect(),
        }
    }

    pub(crate) fn empty(n: usize) -> Relation {
        Relation {
            succ: vec![Vec::new(); n],
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.succ.len()
    }

    pub(crate) fn union(&self, other: &Relation) -> Relation {
        let succ = self
            .succ
            .iter()
            .zip(&other.succ)
            .map(|(a, b)| {
                let mut out: Vec<u32> = a.iter().chain(b).copied().collect();
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect();
        Relation { succ }
    }

    /// `self` followed by `other`.
    pub(crate) fn then(&self, other: &Relation) -> Relation {
        let mut stamp = vec![u32::MAX; self.len()];
        let succ = self
            .succ
            .iter()
            .enumerate()
            .map(|(v, mids)| {
                let mut out = Vec::new();
                for &m in mids {
                    for &t in &other.succ[m as usize] {
                        if stamp[t as usize] != v as u32 {
                            stamp[t as usize] = v as u32;
                            out.push(t);
                        }
                    }
                }
                out.sort_unstable();
                out
            })
            .collect();
        Relation { succ }
    }

    /// Reflexive-transitive closure (zero or more repetitions).
    pub(crate) fn star(&self) -> Relation {
        let n = self.len();
        let mut stamp = vec![u32::MAX; n];
        let mut stack = Vec::new();
        let succ = (0..n)
            .map(|v| {
                let mut out = vec![v as u32];
                stamp[v] = v as u32;
                stack.push(v as u32);
                while let Some(u) = stack.pop() {
                    for &t in &self.succ[u as usize] {
                        if stamp[t as usize] != v as u32 {
                            stamp[t as usize] = v as u32;
                            out.push(t);
                            stack.push(t);
                        }
                    }
                }
                out.sort_unstable();
                out
            })
            .collect();
        Relation { succ }
    }

    /// The pattern test `{? rule}` (or `{! rule}` when `negated`): the
    /// identity on the vertices where the rule can (cannot) be walked.
    pub(crate) fn test(&self, negated: bool) -> Relation {
        Relation {
            succ: self
                .succ
                .iter()
                .enumerate()
                .map(|(v, out)| {
                    if out.is_empty() == negated {
                        vec![v as u32]
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
        }
    }

    /// Whether every `R(v)` is empty or `{v}`.
    pub(crate) fn is_partial_identity(&self) -> bool {
        self.succ
            .iter()
            .enumerate()
            .all(|(v, out)| out.is_empty() || out.as_slice() == [v as u32])
    }

    /// The largest `|R(v)|`.
    pub(crate) fn width(&self) -> usize {
        self.succ.iter().map(Vec::len).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path 0 - 1 - 2 with `right` and `left`.
    fn path() -> (Relation, Relation) {
        (
            Relation::function(&[Some(1), Some(2), None]),
            Relation::function(&[None, Some(0), Some(1)]),
        )
    }

    #[test]
    fn algebra_on_a_path() {
        let (right, left) = path();
        assert_eq!(right.then(&right).succ, vec![vec![2], vec![], vec![]]);
        assert_eq!(right.star().succ, vec![vec![0, 1, 2], vec![1, 2], vec![2]]);
        let any = right.star().union(&left.star());
        assert_eq!(any.succ, vec![vec![0, 1, 2], vec![0, 1, 2], vec![0, 1, 2]]);
        assert_eq!(right.then(&left).succ, vec![vec![0], vec![1], vec![]]);
        assert!(right.then(&left).is_partial_identity());
        assert_eq!(right.test(true).succ, vec![vec![], vec![], vec![2]]);
        assert_eq!(right.width(), 1);
        assert_eq!(any.width(), 3);
        assert_eq!(
            Relation::identity(2).then(&Relation::empty(2)).succ,
            vec![vec![], vec![]]
        );
    }
}
