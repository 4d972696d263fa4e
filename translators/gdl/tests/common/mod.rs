//! Shared by the translation tests: the three-way perft comparison of the
//! native reasoner, the propnet model and the RG translation.

use std::time::Instant;

use rg_core::model::{perft, Budget, ForwardModel, LimitError};
use rg_core::verify::verify;

/// How far three models agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreeWay {
    /// perft at depths `0..counts.len()`, equal in all three models.
    pub counts: Vec<u64>,
    /// Why the comparison stopped before the requested depth (a limit).
    pub stopped: Option<String>,
    /// The first disagreement or model error, described.
    pub mismatch: Option<String>,
}

impl ThreeWay {
    /// The deepest depth at which all three agree (`None`: not even 0).
    pub fn depth(&self) -> Option<u32> {
        (self.counts.len() as u32).checked_sub(1)
    }
}

/// Compares reasoner, propnet and RG perft depth by depth, `0..=max_depth`,
/// the perft calls of depth d within `deadline(d)`. On a difference
/// between the reasoner and the RG translation, `rg_core::verify`
/// localizes it (without a deadline).
pub fn three_way<R: ForwardModel, P: ForwardModel, G: ForwardModel>(
    reasoner: &R,
    propnet: &P,
    rg: &G,
    max_depth: u32,
    deadline: impl Fn(u32) -> Option<Instant>,
) -> ThreeWay {
    let mut out = ThreeWay {
        counts: Vec::new(),
        stopped: None,
        mismatch: None,
    };
    let (r0, p0, g0) = match (reasoner.initial(), propnet.initial(), rg.initial()) {
        (Ok(r), Ok(p), Ok(g)) => (r, p, g),
        (r, p, g) => {
            let errors: Vec<String> = [
                r.err().map(|e| format!("reasoner: {e}")),
                p.err().map(|e| format!("propnet: {e}")),
                g.err().map(|e| format!("RG: {e}")),
            ]
            .into_iter()
            .flatten()
            .collect();
            out.mismatch = Some(errors.join("; "));
            return out;
        }
    };
    for depth in 0..=max_depth {
        let mut budget = Budget::with_deadline(deadline(depth));
        let mut counts = [0u64; 3];
        let results = [
            perft(reasoner, &r0, depth, &mut budget),
            perft(propnet, &p0, depth, &mut budget),
            perft(rg, &g0, depth, &mut budget),
        ];
        for (k, (result, side)) in results
            .into_iter()
            .zip(["reasoner", "propnet", "RG"])
            .enumerate()
        {
            match result {
                Ok(n) => counts[k] = n,
                Err(LimitError::Model(e)) => {
                    out.mismatch = Some(format!("{side} fails at depth {depth}: {e}"));
                    return out;
                }
                Err(limit) => {
                    out.stopped = Some(format!("{limit} at depth {depth}"));
                    return out;
                }
            }
        }
        let [r, p, g] = counts;
        if r != g {
            let verdict = verify(reasoner, rg, depth, &mut Budget::unlimited());
            out.mismatch = Some(format!(
                "reasoner {r} vs RG {g} at depth {depth}: {verdict}"
            ));
            return out;
        }
        if r != p {
            out.mismatch = Some(format!("reasoner {r} vs propnet {p} at depth {depth}"));
            return out;
        }
        out.counts.push(r);
    }
    out
}
