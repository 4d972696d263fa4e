//! Goals of the native model (replay.md §6.5): per seat a scale, per round
//! and profile a scaled discounted term, and the increment that keeps the
//! running goal non-negative. Computed here from the definitions.

use rg_core::diag::Diagnostic;

use crate::instance::{Instance, Seat};
use crate::ratio::Ratio;

/// The largest scale chosen automatically (§6.5).
const AUTO_SCALE_LIMIT: i128 = 100;

pub struct Payoffs {
    /// `increments[round][profile][seat]`.
    increments: Vec<Vec<Vec<i64>>>,
    scales: Vec<i128>,
    offsets: Vec<i128>,
}

impl Payoffs {
    pub fn new(game: &Instance) -> Result<Payoffs, Diagnostic> {
        let overflow = || {
            Diagnostic::error(
                "a discounted payoff is too large to compute exactly",
                game.span,
            )
        };
        let n = game.players;
        let mut scales = Vec::with_capacity(n);
        let mut deltas = Vec::with_capacity(n);
        for seat in &game.seats {
            let delta = match seat {
                Seat::Fixed(m) => m.delta,
                Seat::Free => Ratio::ONE,
            };
            deltas.push(delta);
            if delta == Ratio::ONE {
                scales.push(1);
                continue;
            }
            if let Some(s) = game.scale {
                scales.push(s as i128);
                continue;
            }
            // Least common multiple of the denominators of δ^0 … δ^(R−1),
            // capped at the limit.
            let mut lcm: i128 = 1;
            let mut power = Ratio::ONE;
            for _ in 0..game.rounds {
                let d = power.den();
                lcm = lcm / crate::ratio::gcd(lcm, d) * (d.min(AUTO_SCALE_LIMIT + 1));
                if lcm > AUTO_SCALE_LIMIT {
                    lcm = AUTO_SCALE_LIMIT;
                    break;
                }
                power = match power.checked_mul(delta) {
                    Ok(p) => p,
                    // Denominators this large need the cap anyway.
                    Err(_) => {
                        lcm = AUTO_SCALE_LIMIT;
                        break;
                    }
                };
            }
            scales.push(lcm);
        }
        let mut increments = Vec::with_capacity(game.rounds);
        let mut offsets = vec![0i128; n];
        let mut weights: Vec<Ratio> = scales.iter().map(|&s| Ratio::int(s)).collect();
        for _ in 0..game.rounds {
            let mut terms = vec![vec![0i128; n]; game.profiles()];
            let mut lowest = vec![0i128; n];
            for (p, pays) in game.payoffs.iter().enumerate() {
                for k in 0..n {
                    let t = weights[k]
                        .checked_mul(Ratio::int(pays[k] as i128))
                        .map_err(|_| overflow())?
                        .round();
                    terms[p][k] = t;
                    lowest[k] = lowest[k].min(t);
                }
            }
            for k in 0..n {
                offsets[k] += lowest[k];
                weights[k] = weights[k].checked_mul(deltas[k]).map_err(|_| overflow())?;
            }
            let round: Vec<Vec<i64>> = terms
                .iter()
                .map(|t| {
                    (0..n)
                        .map(|k| i64::try_from(t[k] - lowest[k]).unwrap_or(i64::MAX))
                        .collect()
                })
                .collect();
            increments.push(round);
        }
        Ok(Payoffs {
            increments,
            scales,
            offsets,
        })
    }

    /// What seat `k`'s goal gains in `round` when `profile` is played.
    pub fn increment(&self, round: usize, profile: usize, k: usize) -> i64 {
        self.increments[round][profile][k]
    }

    /// Per seat: the payoff is (goal + offset) / scale.
    pub fn scale(&self, k: usize) -> i128 {
        self.scales[k]
    }

    pub fn offset(&self, k: usize) -> i128 {
        self.offsets[k]
    }
}
