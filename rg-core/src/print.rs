//! The canonical printer (rg.md §2.7): one declaration per line, grouped as
//! pragmas, types, constants, variables, edges, each group in source order.
//! `parse(print(g)) == g` and printing is idempotent.

use std::fmt::{self, Display, Formatter};

use crate::diag::Span;

use crate::ast::{
    At, Edge, Expr, Game, Label, PatternTag, Pragma, PragmaKind, Type, TypeDef, Value,
};

mod comments;

pub use comments::{print_game_with_comments, source_comments, Comment};

/// Prints a whole game in canonical form.
pub fn print_game(game: &Game) -> String {
    let mut out = String::new();
    for item in printed_items(game) {
        out.push_str(&item.text);
        out.push('\n');
    }
    out
}

/// A declaration printed (without its final newline), with the source
/// span it was parsed from.
struct PrintedItem {
    span: Option<Span>,
    text: String,
    /// The text is the raw source (a pragma rgw does not know), comments
    /// included.
    raw: bool,
}

/// Every declaration of `game` printed, in canonical order.
fn printed_items(game: &Game) -> Vec<PrintedItem> {
    let mut items = Vec::new();
    let mut push = |at: At, text: String| {
        items.push(PrintedItem {
            span: at.span(),
            text,
            raw: false,
        });
    };
    for p in &game.pragmas {
        push(p.at, p.to_string());
    }
    for t in &game.typedefs {
        push(t.at, t.to_string());
    }
    for c in &game.constants {
        push(c.at, format!("const {}: {} = {};", c.name, c.ty, c.value));
    }
    for v in &game.variables {
        push(v.at, format!("var {}: {} = {};", v.name, v.ty, v.value));
    }
    for e in &game.edges {
        push(e.at, e.to_string());
    }
    for (item, pragma) in items.iter_mut().zip(&game.pragmas) {
        item.raw = matches!(pragma.kind, PragmaKind::Unknown(_));
    }
    items
}

impl Display for TypeDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "type {} = {};", self.name, self.ty)
    }
}

impl Display for Type {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Type::Set(symbols, _) => write!(f, "{{ {} }}", symbols.join(", ")),
            Type::Name(name, _) => f.write_str(name),
            Type::Arrow(key, value) => write!(f, "{key} -> {value}"),
        }
    }
}

/// Maps this large whose entries are maps are printed one entry per line.
const LARGE_MAP_ENTRIES: usize = 100;

impl Display for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Value::Symbol(name, _) => f.write_str(name),
            Value::Map(entries, _) if entries.is_empty() => f.write_str("{  }"),
            Value::Map(entries, _) => {
                let large = entries.len() >= LARGE_MAP_ENTRIES
                    && matches!(entries[0].value, Value::Map(..));
                let (open, separator, close) = if large {
                    ("{\n    ", ",\n    ", "\n}")
                } else {
                    ("{ ", ", ", " }")
                };
                f.write_str(open)?;
                for (k, entry) in entries.iter().enumerate() {
                    if k > 0 {
                        f.write_str(separator)?;
                    }
                    match &entry.key {
                        Some(key) => write!(f, "{key}: {}", entry.value)?,
                        None => write!(f, ":{}", entry.value)?,
                    }
                }
                f.write_str(close)
            }
        }
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Ref(name, _) => f.write_str(name),
            Expr::Cast(ty, inner, _) => write!(f, "{ty}({inner})"),
            Expr::Access(map, key, _) => write!(f, "{map}[{key}]"),
        }
    }
}

impl Display for Label {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Label::Skip => Ok(()),
            Label::Tag(t) => write!(f, "$ {t}"),
            Label::VarTag(v) => write!(f, "$$ {v}"),
            Label::Reach { negated, from, to } => {
                let sign = if *negated { '!' } else { '?' };
                write!(f, "{sign} {from} -> {to}")
            }
            Label::Compare { negated, lhs, rhs } => {
                let op = if *negated { "!=" } else { "==" };
                write!(f, "{lhs} {op} {rhs}")
            }
            Label::Assign { lhs, rhs } => write!(f, "{lhs} = {rhs}"),
            Label::AssignAny { lhs, ty } => write!(f, "{lhs} = {ty}(*)"),
        }
    }
}

impl Display for Edge {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.label {
            Label::Skip => write!(f, "{}, {}: ;", self.from, self.to),
            _ => write!(f, "{}, {}: {};", self.from, self.to, self.label),
        }
    }
}

impl Display for Pragma {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            PragmaKind::Disjoint {
                exhaustive,
                node,
                targets,
            } => {
                let name = if *exhaustive {
                    "disjointExhaustive"
                } else {
                    "disjoint"
                };
                write!(f, "@{name} {node} : {};", targets.join(" "))
            }
            PragmaKind::ArtificialTag(tags) => write!(f, "@artificialTag {};", tags.join(" ")),
            PragmaKind::Repeat { nodes, variables } if variables.is_empty() => {
                write!(f, "@repeat {} :;", nodes.join(" "))
            }
            PragmaKind::Repeat { nodes, variables } => {
                write!(f, "@repeat {} : {};", nodes.join(" "), variables.join(" "))
            }
            PragmaKind::Unique(nodes) => write!(f, "@unique {};", nodes.join(" ")),
            PragmaKind::TagIndex { max, nodes, index } => {
                let name = if *max { "tagMaxIndex" } else { "tagIndex" };
                write!(f, "@{name} {} : {index};", nodes.join(" "))
            }
            PragmaKind::Integer { start, symbols } => {
                write!(f, "@integer {start} : {};", symbols.join(" "))
            }
            PragmaKind::Iterator { nodes, variable } => {
                write!(f, "@iterator {} : {variable};", nodes.join(" "))
            }
            PragmaKind::SimpleApply(sa) => {
                let name = if sa.exhaustive {
                    "simpleApplyExhaustive"
                } else {
                    "simpleApply"
                };
                write!(f, "@{name} {} {} [", sa.from, sa.to)?;
                for (k, t) in sa.tags.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    match t {
                        PatternTag::Symbol(s) => f.write_str(s)?,
                        PatternTag::Bind(name, ty) => write!(f, "{name}: {ty}")?,
                    }
                }
                f.write_str("]")?;
                for (k, (lhs, rhs)) in sa.assignments.iter().enumerate() {
                    let separator = if k == 0 { " " } else { ", " };
                    write!(f, "{separator}{lhs} = {rhs}")?;
                }
                f.write_str(";")
            }
            PragmaKind::TranslatedFromRbg => f.write_str("@translatedFromRbg;"),
            PragmaKind::Unknown(raw) => write!(f, "@{raw};"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;

    #[test]
    fn example_from_the_reference() {
        let game = parse_game("a,b:x=T ( * );//c").unwrap();
        assert_eq!(print_game(&game), "a, b: x = T(*);\n");
    }

    #[test]
    fn canonical_forms() {
        let text = "@repeat n :;\n@simpleApply a b [t];\ntype A = { a, b } -> B;\nconst c: A = { :{  }, a: x };\nvar v: B = x;\na, b: ;\na, b: T(x)[y][z] != w;\n";
        let game = parse_game(text).unwrap();
        assert_eq!(print_game(&game), text);
    }

    #[test]
    fn large_maps_of_maps_break_lines() {
        let mut text = String::from("const m: A = { :{ :0 }");
        for k in 0..100 {
            text.push_str(&format!(", k{k}: {{ :1 }}"));
        }
        text.push_str(" };");
        let printed = print_game(&parse_game(&text).unwrap());
        assert!(printed.starts_with("const m: A = {\n    :{ :0 },\n    k0: { :1 },\n"));
        assert!(printed.ends_with("    k99: { :1 }\n};\n"));
        assert_eq!(parse_game(&printed).unwrap(), parse_game(&text).unwrap());
    }
}
