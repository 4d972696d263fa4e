//! Canonical text of rules and expressions, used as keys to share the
//! translations of structurally identical parts (patterns, shift
//! relations). Spans and modifier indices are left out.

use std::fmt::Write;

use crate::ast::{ActionKind, Expr, ExprKind, Rule, RuleKind};

pub(crate) fn rule_key(rule: &Rule) -> String {
    let mut out = String::new();
    write_rule(rule, &mut out);
    out
}

fn write_rule(rule: &Rule, out: &mut String) {
    match &rule.kind {
        RuleKind::Sum(items) => {
            out.push('(');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push('+');
                }
                write_rule(item, out);
            }
            out.push(')');
        }
        RuleKind::Concat(items) => {
            out.push('(');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                write_rule(item, out);
            }
            out.push(')');
        }
        RuleKind::Star(inner) => {
            out.push('(');
            write_rule(inner, out);
            out.push_str(")*");
        }
        RuleKind::Action(action) => match &action.kind {
            ActionKind::Shift(label) => out.push_str(&label.name),
            ActionKind::On(pieces) => {
                out.push('{');
                for (k, p) in pieces.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    out.push_str(&p.name);
                }
                out.push('}');
            }
            ActionKind::Off(piece) => {
                let _ = write!(out, "[{}]", piece.name);
            }
            ActionKind::Assign { target, value } => {
                let _ = write!(out, "[${}=", target.name);
                write_expr(value, out);
                out.push(']');
            }
            ActionKind::Compare { left, op, right } => {
                out.push_str("{$");
                write_expr(left, out);
                out.push_str(op.text());
                write_expr(right, out);
                out.push('}');
            }
            ActionKind::Switch(player) => {
                let _ = write!(out, "->{}", player.name);
            }
            ActionKind::KeeperSwitch => out.push_str("->>"),
            ActionKind::Pattern { negated, rule } => {
                out.push_str(if *negated { "{!" } else { "{?" });
                write_rule(rule, out);
                out.push('}');
            }
            ActionKind::Noop => out.push('.'),
        },
    }
}

fn write_expr(expr: &Expr, out: &mut String) {
    match &expr.kind {
        ExprKind::Number(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Name(name) => out.push_str(name),
        ExprKind::Binary { op, left, right } => {
            out.push('(');
            write_expr(left, out);
            out.push_str(op.text());
            write_expr(right, out);
            out.push(')');
        }
    }
}
