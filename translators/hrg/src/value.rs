//! Translation-time values (hrg.md §3.2, §3.4): symbols, constructor values
//! and maps; their RG serialization, natural order, and the conversion of
//! maps into RG map literals with the default-compression rule of §2.4.

#![warn(clippy::cast_possible_truncation)] // user data is read here

use std::cmp::Ordering;
use std::fmt;

use rg_core::ast as rg;

/// A value computed by the translator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Symbol(String),
    Constructor(String, Vec<Value>),
    Map(MapValue),
}

/// A map value: an optional explicit default and the produced entries
/// (keys are serialized symbols), in production order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapValue {
    pub default: Option<Box<Value>>,
    pub entries: Vec<(String, Value)>,
}

impl Value {
    pub fn symbol(text: impl Into<String>) -> Value {
        Value::Symbol(text.into())
    }

    /// The RG symbol of a symbol or constructor value (§3.4):
    /// `P(1, 2)` → `P__1_2`, `C()` → `C__`.
    pub fn serialize(&self) -> String {
        match self {
            Value::Symbol(s) => s.clone(),
            Value::Constructor(name, args) => {
                let args: Vec<String> = args.iter().map(Value::serialize).collect();
                format!("{name}__{}", args.join("_"))
            }
            Value::Map(_) => self.to_rg().to_string(),
        }
    }

    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Value::Symbol(s) => s.parse::<i32>().ok().map(i64::from),
            _ => None,
        }
    }

    pub fn is_map(&self) -> bool {
        matches!(self, Value::Map(_))
    }

    /// The RG value: a symbol, or a map literal (§2.4).
    pub fn to_rg(&self) -> rg::Value {
        match self {
            Value::Map(map) => map.to_rg(),
            other => rg::Value::symbol(other.serialize()),
        }
    }
}

impl MapValue {
    /// With a default, every produced entry is listed; without one, the most
    /// frequent value becomes the default and only the other entries are
    /// listed (ties: a symbol before a map, then the greatest in string
    /// order).
    pub fn to_rg(&self) -> rg::Value {
        let entries: Vec<(String, rg::Value)> = self
            .entries
            .iter()
            .map(|(k, v)| (k.clone(), v.to_rg()))
            .collect();
        match &self.default {
            Some(default) => rg::Value::map(default.to_rg(), entries),
            None => compress(entries),
        }
    }
}

/// Builds `{ :d, ... }` with the most frequent value as the default.
pub fn compress(entries: Vec<(String, rg::Value)>) -> rg::Value {
    // Distinct values in order of first occurrence, found through an index
    // (a linear scan made tabulating a function over a large domain
    // quadratic).
    let mut counts: Vec<(rg::Value, String, usize)> = Vec::new();
    let mut index: std::collections::HashMap<&rg::Value, usize> = std::collections::HashMap::new();
    for (_, v) in &entries {
        match index.get(v) {
            Some(&k) => counts[k].2 += 1,
            None => {
                index.insert(v, counts.len());
                counts.push((v.clone(), v.to_string(), 1));
            }
        }
    }
    let best = counts
        .iter()
        .max_by(|a, b| {
            a.2.cmp(&b.2)
                .then_with(|| is_symbol(&a.0).cmp(&is_symbol(&b.0)))
                .then_with(|| a.1.cmp(&b.1))
        })
        .map(|(v, _, _)| v.clone());
    let Some(default) = best else {
        // No entries at all: nothing to compress (callers never print this).
        return rg::Value::Map(Vec::new(), rg::At::NOWHERE);
    };
    let rest: Vec<(String, rg::Value)> =
        entries.into_iter().filter(|(_, v)| *v != default).collect();
    rg::Value::map(default, rest)
}

fn is_symbol(v: &rg::Value) -> bool {
    matches!(v, rg::Value::Symbol(..))
}

/// Natural order of symbols: runs of digits compare numerically, other
/// characters by code point.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let run = |it: &mut std::iter::Peekable<std::str::Chars>| {
                    let mut digits = String::new();
                    while let Some(c) = it.peek().copied().filter(char::is_ascii_digit) {
                        digits.push(c);
                        it.next();
                    }
                    digits
                };
                let (m, n) = (run(&mut x), run(&mut y));
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                let order = m.len().cmp(&n.len()).then_with(|| m.cmp(n));
                if order != Ordering::Equal {
                    return order;
                }
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x.next();
                y.next();
            }
        }
    }
}

/// Compares two values (§3.2): symbols naturally; constructors by name,
/// arity, then arguments. `None` when incomparable (a symbol and a
/// constructor, or maps).
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Symbol(x), Value::Symbol(y)) => Some(natural_cmp(x, y)),
        (Value::Constructor(n, xs), Value::Constructor(m, ys)) => {
            let mut order = natural_cmp(n, m).then(xs.len().cmp(&ys.len()));
            for (x, y) in xs.iter().zip(ys) {
                if order != Ordering::Equal {
                    break;
                }
                order = compare(x, y)?;
            }
            Some(order)
        }
        _ => None,
    }
}

impl fmt::Display for Value {
    /// HRG notation, for messages: `P(0, 1)`, `a`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Symbol(s) => f.write_str(s),
            Value::Constructor(name, args) => {
                write!(f, "{name}(")?;
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Value::Map(_) => write!(f, "{}", self.to_rg()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization() {
        let p = Value::Constructor("P".into(), vec![Value::symbol("1"), Value::symbol("2")]);
        assert_eq!(p.serialize(), "P__1_2");
        let z = Value::Constructor(
            "Z".into(),
            vec![
                Value::Constructor("Z".into(), vec![Value::symbol("a"), Value::symbol("0")]),
                Value::symbol("3"),
            ],
        );
        assert_eq!(z.serialize(), "Z__Z__a_0_3");
        assert_eq!(Value::Constructor("C".into(), vec![]).serialize(), "C__");
        assert_eq!(p.to_string(), "P(1, 2)");
    }

    #[test]
    fn natural_order() {
        assert_eq!(natural_cmp("9", "10"), Ordering::Less);
        assert_eq!(natural_cmp("a10", "a9"), Ordering::Greater);
        assert_eq!(natural_cmp("b", "a"), Ordering::Greater);
        assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
        assert_eq!(natural_cmp("x", "x1"), Ordering::Less);
    }

    #[test]
    fn compression_prefers_frequent_then_symbols_then_greatest() {
        let e = |k: &str, v: &str| (k.to_string(), rg::Value::symbol(v));
        // other(red) = blue, other(blue) = red: tie, the greater symbol `red` wins.
        let m = compress(vec![e("red", "blue"), e("blue", "red")]);
        assert_eq!(m.to_string(), "{ :red, red: blue }");
        let m = compress(vec![
            e("C__0", "C__1"),
            e("C__1", "C__2"),
            e("C__2", "C__3"),
            e("C__3", "none"),
            e("none", "none"),
        ]);
        assert_eq!(
            m.to_string(),
            "{ :none, C__0: C__1, C__1: C__2, C__2: C__3 }"
        );
    }
}
