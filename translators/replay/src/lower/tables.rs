//! The numbers the lowering prints (replay.md §6.5, §7.5): per seat a
//! scale, per round, profile and seat the goal increment `d`, the offsets
//! for the `@replayGoals` note, `H`, and per draw its copy counts.

use rg_core::diag::Diagnostic;

use crate::instance::{Instance, Seat};
use crate::ratio::{gcd, Ratio};

pub const MAX_H: i128 = 100_000;
pub const MAX_SCORE_TABLE: i128 = 2_000_000;

pub struct Tables {
    pub scale: Vec<i128>,
    pub offset: Vec<i128>,
    /// `d[r][profile][seat]`.
    pub d: Vec<Vec<Vec<i128>>>,
    pub h: i128,
}

/// δ of a seat (free seats are undiscounted).
fn delta(seat: &Seat) -> Ratio {
    match seat {
        Seat::Free => Ratio::ONE,
        Seat::Fixed(m) => m.delta,
    }
}

pub fn tables(inst: &Instance, warnings: &mut Vec<Diagnostic>) -> Result<Tables, Diagnostic> {
    let too_big = || {
        Diagnostic::error(
            "a discounted payoff is too large to compute exactly",
            inst.span,
        )
    };
    let n = inst.players;
    let rounds = inst.rounds;
    // δ^r per seat and round, exactly.
    let mut powers = vec![vec![Ok(Ratio::ONE); rounds]; n];
    for (k, seat) in inst.seats.iter().enumerate() {
        for r in 1..rounds {
            powers[k][r] = powers[k][r - 1].and_then(|p: Ratio| p.checked_mul(delta(seat)));
        }
    }
    let mut scale = vec![1i128; n];
    for (k, seat) in inst.seats.iter().enumerate() {
        if delta(seat) == Ratio::ONE {
            continue;
        }
        if let Some(s) = inst.scale {
            scale[k] = s as i128;
            continue;
        }
        // δ = p/q in lowest terms: the denominators of δ^r are q^r, so
        // their lcm is q^(R−1).
        let q = delta(seat).den();
        let mut lcm: i128 = 1;
        for _ in 1..rounds {
            match lcm.checked_mul(q) {
                Some(v) if v <= 100 => lcm = v,
                _ => {
                    lcm = 101;
                    break;
                }
            }
        }
        if lcm > 100 {
            scale[k] = 100;
            let name = match seat {
                Seat::Fixed(m) => m.name.as_str(),
                Seat::Free => "",
            };
            warnings.push(Diagnostic::warning(
                format!(
                    "seat {k} ({name}): the discounted payoffs need a scale above 100; \
                     terms are scaled by 100 and rounded (--scale to choose)"
                ),
                inst.span,
            ));
        } else {
            scale[k] = lcm;
        }
    }
    let mut d = Vec::with_capacity(rounds);
    let mut offset = vec![0i128; n];
    let mut spans = vec![0i128; n];
    // Round by round: powers is indexed by seat first, so an index is clearer.
    #[allow(clippy::needless_range_loop)]
    for r in 0..rounds {
        let mut c = Vec::with_capacity(inst.profiles());
        for pays in &inst.payoffs {
            let mut row = Vec::with_capacity(n);
            for k in 0..n {
                let exact = Ratio::int(scale[k])
                    .checked_mul(powers[k][r].map_err(|_| too_big())?)
                    .and_then(|x| x.checked_mul(Ratio::int(pays[k] as i128)))
                    .map_err(|_| too_big())?;
                row.push(exact.round());
            }
            c.push(row);
        }
        let mut round_d = c.clone();
        for k in 0..n {
            let low = c.iter().map(|row| row[k]).min().unwrap_or(0).min(0);
            let high = c.iter().map(|row| row[k]).max().unwrap_or(0);
            offset[k] += low;
            spans[k] += high - low;
            for row in &mut round_d {
                row[k] -= low;
            }
        }
        d.push(round_d);
    }
    let h = spans.iter().copied().max().unwrap_or(0);
    if h > MAX_H {
        return Err(Diagnostic::error(
            format!("the goals need {h} score values (limit {MAX_H}); use fewer rounds or --scale"),
            inst.span,
        ));
    }
    Ok(Tables {
        scale,
        offset,
        d,
        h,
    })
}

/// Copy counts `(c_ok, c_err)` of a draw with error probability `eps`
/// over `m` moves: P(true) = 1 − ε, P(each wrong) = ε/(m−1).
pub fn draw_counts(eps: Ratio, m: usize) -> (i128, i128) {
    let (alpha, beta) = (eps.num(), eps.den());
    let ok = (beta - alpha) * (m as i128 - 1);
    let g = gcd(ok, alpha).max(1);
    (ok / g, alpha / g)
}
