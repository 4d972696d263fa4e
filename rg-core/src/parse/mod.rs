//! The RG parser (rg.md §1–2), built with nom over `&str`.
//!
//! Every AST node gets the byte span it was read from. Syntax errors become
//! [`Diagnostic`]s; after an error the parser skips to the next `;` and goes
//! on, so one run reports every broken declaration. It never panics.

use nom::bytes::complete::tag;
use nom::Finish;

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::syntax::{
    self, commit, delimited_list, error, failure, peek_token, separated0_until, separated1,
    skip_trivia, split_word, starts_with_trivia, token, PResult, SyntaxError,
};

/// Parses a whole RG description.
pub fn parse_game(source: &str) -> Result<Game, Vec<Diagnostic>> {
    let parser = Parser { src: source };
    match syntax::parse_sequence(source, |input| parser.declaration(input), after_semicolon) {
        Ok(declarations) => {
            let mut game = Game::default();
            for declaration in declarations {
                declaration.add_to(&mut game);
            }
            Ok(game)
        }
        Err(errors) => Err(errors.iter().map(|e| parser.diagnostic(e)).collect()),
    }
}

/// Where parsing resumes after an error: after the next `;`.
fn after_semicolon(input: &str) -> &str {
    input
        .find(';')
        .map_or("", |semicolon| &input[semicolon + 1..])
}

/// Parses a single expression (used by tools and tests).
pub fn parse_expr(source: &str) -> Result<Expr, Diagnostic> {
    let parser = Parser { src: source };
    let result = parser
        .expr(source)
        .and_then(|(rest, e)| parser.eof(rest).map(|(rest, ())| (rest, e)));
    match result.finish() {
        Ok((_, e)) => Ok(e),
        Err(e) => Err(parser.diagnostic(&e)),
    }
}

/// Parses a type expression (used by tools and tests).
pub fn parse_type(source: &str) -> Result<Type, Diagnostic> {
    let parser = Parser { src: source };
    let result = parser
        .ty(source)
        .and_then(|(rest, t)| parser.eof(rest).map(|(rest, ())| (rest, t)));
    match result.finish() {
        Ok((_, t)) => Ok(t),
        Err(e) => Err(parser.diagnostic(&e)),
    }
}

enum Declaration {
    Pragma(Pragma),
    TypeDef(TypeDef),
    Constant(Constant),
    Variable(Variable),
    Edge(Edge),
}

impl Declaration {
    fn add_to(self, game: &mut Game) {
        match self {
            Declaration::Pragma(p) => game.pragmas.push(p),
            Declaration::TypeDef(t) => game.typedefs.push(t),
            Declaration::Constant(c) => game.constants.push(c),
            Declaration::Variable(v) => game.variables.push(v),
            Declaration::Edge(e) => game.edges.push(e),
        }
    }
}

struct Parser<'s> {
    src: &'s str,
}

impl<'s> Parser<'s> {
    /// The span from `start` (a suffix of the source) to `rest`.
    fn span(&self, start: &str, rest: &str) -> At {
        At::from(syntax::span(self.src, start, rest))
    }

    /// A character no token starts with is reported as such, with what was
    /// expected as its label.
    fn diagnostic(&self, e: &SyntaxError<'_>) -> Diagnostic {
        match e.input.chars().next() {
            Some(c) if !is_token_start(c) => {
                Diagnostic::error(format!("unexpected character: \"{c}\""), e.span(self.src))
                    .with_label(e.message.to_string())
            }
            _ => e.to_diagnostic(self.src),
        }
    }

    fn eof<'a>(&self, input: &'a str) -> PResult<'a, ()> {
        let input = skip_trivia(input);
        if input.is_empty() {
            Ok((input, ()))
        } else {
            error(input, "expected end of input")
        }
    }

    /// An identifier (maximal run of alphanumerics and `_`), after trivia.
    /// Keywords are rejected.
    fn ident<'a>(&self, input: &'a str) -> PResult<'a, (Ident, At)> {
        let input = skip_trivia(input);
        let (rest, word) = self.word(input)?;
        if KEYWORDS.contains(&word) {
            return error(
                input,
                format!("keyword \"{word}\" cannot be used as an identifier"),
            );
        }
        Ok((rest, (word.to_string(), self.span(input, rest))))
    }

    /// A maximal identifier-character run, without trivia skipping.
    fn word<'a>(&self, input: &'a str) -> PResult<'a, &'a str> {
        match split_word(input) {
            ("", _) => error(input, "expected identifier"),
            (word, rest) => Ok((rest, word)),
        }
    }

    fn name<'a>(&self, input: &'a str) -> PResult<'a, Ident> {
        let (rest, (name, _)) = self.ident(input)?;
        Ok((rest, name))
    }

    fn digits<'a>(&self, input: &'a str) -> PResult<'a, u64> {
        let input = skip_trivia(input);
        let (word, rest) = split_word(input);
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
            return error(input, "expected a decimal number");
        }
        match word.parse() {
            Ok(n) => Ok((rest, n)),
            Err(_) => error(input, "number too large"),
        }
    }

    fn declaration<'a>(&self, input: &'a str) -> PResult<'a, Declaration> {
        if input.starts_with('@') {
            let (rest, p) = self.pragma(input)?;
            return Ok((rest, Declaration::Pragma(p)));
        }
        match split_word(input).0 {
            "type" => self
                .typedef(input)
                .map(|(r, d)| (r, Declaration::TypeDef(d))),
            "const" => self
                .constant(input)
                .map(|(r, d)| (r, Declaration::Constant(d))),
            "var" => self
                .variable(input)
                .map(|(r, d)| (r, Declaration::Variable(d))),
            _ => self.edge(input).map(|(r, d)| (r, Declaration::Edge(d))),
        }
    }

    fn typedef<'a>(&self, input: &'a str) -> PResult<'a, TypeDef> {
        let (i, _) = tag("type")(input)?;
        commit((|| {
            let (i, name) = self.name(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, ty) = self.ty(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((rest, TypeDef { name, ty, at }))
        })())
    }

    fn constant<'a>(&self, input: &'a str) -> PResult<'a, Constant> {
        let (i, _) = tag("const")(input)?;
        commit((|| {
            let (i, (name, ty, value)) = self.declared_value(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((
                rest,
                Constant {
                    name,
                    ty,
                    value,
                    at,
                },
            ))
        })())
    }

    fn variable<'a>(&self, input: &'a str) -> PResult<'a, Variable> {
        let (i, _) = tag("var")(input)?;
        commit((|| {
            let (i, (name, ty, value)) = self.declared_value(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((
                rest,
                Variable {
                    name,
                    ty,
                    value,
                    at,
                },
            ))
        })())
    }

    /// `name: T = value` (shared by constants and variables).
    fn declared_value<'a>(&self, i: &'a str) -> PResult<'a, (Ident, Type, Value)> {
        let (i, name) = self.name(i)?;
        let (i, ()) = token(i, ":")?;
        let (i, ty) = self.ty(i)?;
        let (i, ()) = token(i, "=")?;
        let (i, value) = self.value(i)?;
        Ok((i, (name, ty, value)))
    }

    /// `type = ( set_type | ident ) [ "->" type ]`
    fn ty<'a>(&self, input: &'a str) -> PResult<'a, Type> {
        let input = skip_trivia(input);
        let (i, base) = if input.starts_with('{') {
            self.set_type(input)?
        } else {
            match self.ident(input) {
                Ok((i, (name, at))) => (i, Type::Name(name, at)),
                Err(_) => return error(input, "expected a type"),
            }
        };
        if peek_token(i, "->") {
            let (i, ()) = token(i, "->")?;
            let (i, target) = self.ty(i)?;
            Ok((i, Type::Arrow(Box::new(base), Box::new(target))))
        } else {
            Ok((i, base))
        }
    }

    fn set_type<'a>(&self, input: &'a str) -> PResult<'a, Type> {
        let (i, ()) = token(input, "{")?;
        if peek_token(i, "}") {
            return error(
                skip_trivia(i),
                "expected: identifier (set types cannot be empty)",
            );
        }
        let (i, symbols) = separated1(i, ",", |i| self.name(i))?;
        let (rest, ()) = token(i, "}")
            .or_else(|_| error(skip_trivia(i), "expected \",\" or \"}\" in a set type"))?;
        Ok((rest, Type::Set(symbols, self.span(input, rest))))
    }

    /// `value = ident | map`
    fn value<'a>(&self, input: &'a str) -> PResult<'a, Value> {
        let input = skip_trivia(input);
        if !input.starts_with('{') {
            return match self.ident(input) {
                Ok((rest, (name, at))) => Ok((rest, Value::Symbol(name, at))),
                Err(_) => error(input, "expected a value (a symbol or a map)"),
            };
        }
        let (i, ()) = token(input, "{")?;
        let (i, entries) = separated0_until(i, ",", "}", |i| self.map_entry(i))?;
        let (rest, ()) =
            token(i, "}").or_else(|_| error(skip_trivia(i), "expected \",\" or \"}\" in a map"))?;
        Ok((rest, Value::Map(entries, self.span(input, rest))))
    }

    /// `entry = [ ident ] ":" value`
    fn map_entry<'a>(&self, input: &'a str) -> PResult<'a, MapEntry> {
        let input = skip_trivia(input);
        let (i, key) = if input.starts_with(':') {
            (input, None)
        } else {
            let (i, key) = self.name(input).or_else(|_| {
                error(
                    input,
                    "expected a map entry (\"key: value\" or \":default\")",
                )
            })?;
            (i, Some(key))
        };
        let (i, ()) = token(i, ":")?;
        let (i, value) = self.value(i)?;
        Ok((i, MapEntry { key, value }))
    }

    /// `expression = ident [ "(" expression ")" ] { "[" expression "]" }`
    fn expr<'a>(&self, input: &'a str) -> PResult<'a, Expr> {
        let input = skip_trivia(input);
        let (mut i, (name, at)) = self
            .ident(input)
            .or_else(|_| error(input, "expected an expression"))?;
        let mut e = if peek_token(i, "(") {
            let (next, ()) = token(i, "(")?;
            let (next, inner) = self.expr(next)?;
            let (next, ()) = token(next, ")")?;
            i = next;
            Expr::Cast(name, Box::new(inner), self.span(input, next))
        } else {
            Expr::Ref(name, at)
        };
        while i.starts_with('[') {
            let (next, key) = self.expr(&i[1..])?;
            let (next, ()) = token(next, "]")?;
            i = next;
            e = Expr::Access(Box::new(e), Box::new(key), self.span(input, next));
        }
        let after = skip_trivia(i);
        if after.starts_with('[') && starts_with_trivia(i) {
            return failure(after, "whitespace is not allowed before \"[\" of an access");
        }
        Ok((i, e))
    }

    /// `edge = node "," node ":" label ";"`
    fn edge<'a>(&self, input: &'a str) -> PResult<'a, Edge> {
        let (i, from) = self.name(input).or_else(|_| {
            error(
                input,
                "expected a declaration (type, const, var, an edge or a pragma)",
            )
        })?;
        let (i, ()) = token(i, ",")?;
        commit((|| {
            let (i, to) = self.name(i)?;
            let (i, ()) = token(i, ":")?;
            let (i, label) = self.label(i)?;
            let (rest, ()) = token(i, ";")?;
            let at = self.span(input, rest);
            Ok((
                rest,
                Edge {
                    from,
                    to,
                    label,
                    at,
                },
            ))
        })())
    }

    fn label<'a>(&self, input: &'a str) -> PResult<'a, Label> {
        let input = skip_trivia(input);
        if input.starts_with(';') {
            return Ok((input, Label::Skip));
        }
        if let Some(rest) = input.strip_prefix("$$") {
            let (i, name) = self.name(rest)?;
            return Ok((i, Label::VarTag(name)));
        }
        if let Some(rest) = input.strip_prefix('$') {
            let (i, name) = self.name(rest)?;
            return Ok((i, Label::Tag(name)));
        }
        for (prefix, negated) in [('?', false), ('!', true)] {
            if let Some(rest) = input.strip_prefix(prefix) {
                let (i, from) = self.name(rest)?;
                let (i, ()) = token(i, "->")?;
                let (i, to) = self.name(i)?;
                return Ok((i, Label::Reach { negated, from, to }));
            }
        }
        let (i, lhs) = self.expr(input)?;
        let operator = skip_trivia(i);
        for (op, negated) in [("==", false), ("!=", true)] {
            if let Some(rest) = operator.strip_prefix(op) {
                let (i, rhs) = self.expr(rest)?;
                return Ok((i, Label::Compare { negated, lhs, rhs }));
            }
        }
        let Some(rest) = operator.strip_prefix('=') else {
            return error(
                operator,
                "expected \"==\", \"!=\" or \"=\" after the left side",
            );
        };
        if let Ok((i, ty)) = self.any_assignment_type(rest) {
            return Ok((i, Label::AssignAny { lhs, ty }));
        }
        let (i, rhs) = self.expr(rest)?;
        Ok((i, Label::Assign { lhs, rhs }))
    }

    /// `type "(" "*" ")"` — the right side of an any-assignment.
    fn any_assignment_type<'a>(&self, input: &'a str) -> PResult<'a, Type> {
        let (i, ty) = self.ty(input)?;
        let (i, ()) = token(i, "(")?;
        let (i, ()) = token(i, "*")?;
        let (i, ()) = token(i, ")")?;
        Ok((i, ty))
    }

    fn pragma<'a>(&self, input: &'a str) -> PResult<'a, Pragma> {
        let body = &input[1..];
        let (name, i) = split_word(body);
        let kind = match name {
            "disjoint" | "disjointExhaustive" => {
                commit(self.disjoint(i, name == "disjointExhaustive"))?
            }
            "artificialTag" => commit(
                self.idents1(i)
                    .map(|(i, v)| (i, PragmaKind::ArtificialTag(v))),
            )?,
            "repeat" => commit((|| {
                let (i, nodes) = self.idents1(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, variables) = self.idents0(i)?;
                Ok((i, PragmaKind::Repeat { nodes, variables }))
            })())?,
            "unique" => commit(self.idents1(i).map(|(i, v)| (i, PragmaKind::Unique(v))))?,
            "tagIndex" | "tagMaxIndex" => commit((|| {
                let (i, nodes) = self.idents1(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, index) = self.digits(i)?;
                let max = name == "tagMaxIndex";
                Ok((i, PragmaKind::TagIndex { max, nodes, index }))
            })())?,
            "integer" => commit((|| {
                let (i, start) = self.digits(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, symbols) = self.idents1(i)?;
                Ok((i, PragmaKind::Integer { start, symbols }))
            })())?,
            "iterator" => commit((|| {
                let (i, a) = self.name(i)?;
                let (i, b) = self.name(i)?;
                let (i, c) = self.name(i)?;
                let (i, ()) = token(i, ":")?;
                let (i, variable) = self.name(i)?;
                Ok((
                    i,
                    PragmaKind::Iterator {
                        nodes: [a, b, c],
                        variable,
                    },
                ))
            })())?,
            "simpleApply" | "simpleApplyExhaustive" => {
                commit(self.simple_apply(i, name == "simpleApplyExhaustive"))?
            }
            "translatedFromRbg" => (i, PragmaKind::TranslatedFromRbg),
            _ => {
                let Some(end) = body.find(';') else {
                    return failure(input, "unterminated pragma: expected \";\"");
                };
                let rest = &body[end..];
                (rest, PragmaKind::Unknown(body[..end].to_string()))
            }
        };
        let (rest, ()) = commit(token(kind.0, ";"))?;
        Ok((
            rest,
            Pragma {
                kind: kind.1,
                at: self.span(input, rest),
            },
        ))
    }

    fn disjoint<'a>(&self, i: &'a str, exhaustive: bool) -> PResult<'a, PragmaKind> {
        let (i, node) = self.name(i)?;
        let (i, ()) = token(i, ":")?;
        let (i, targets) = self.idents1(i)?;
        Ok((
            i,
            PragmaKind::Disjoint {
                exhaustive,
                node,
                targets,
            },
        ))
    }

    fn simple_apply<'a>(&self, i: &'a str, exhaustive: bool) -> PResult<'a, PragmaKind> {
        let (i, from) = self.name(i)?;
        let (i, to) = self.name(i)?;
        let (i, tags) = delimited_list(i, "[", "]", |i| self.pattern_tag(i))?;
        let (i, assignments) = separated0_until(i, ",", ";", |i| {
            let (i, lhs) = self.expr(i)?;
            let (i, ()) = token(i, "=")?;
            let (i, rhs) = self.expr(i)?;
            Ok((i, (lhs, rhs)))
        })?;
        Ok((
            i,
            PragmaKind::SimpleApply(SimpleApply {
                exhaustive,
                from,
                to,
                tags,
                assignments,
            }),
        ))
    }

    /// `name` or `name: Type` (binding a tag; the colon must follow at once).
    fn pattern_tag<'a>(&self, input: &'a str) -> PResult<'a, PatternTag> {
        let (i, (name, _)) = self.ident(input)?;
        if let Some(after) = i.strip_prefix(':') {
            let (after, ty) = self.ty(after)?;
            Ok((after, PatternTag::Bind(name, ty)))
        } else {
            Ok((i, PatternTag::Symbol(name)))
        }
    }

    /// One or more identifiers (space separated), up to a non-identifier.
    fn idents1<'a>(&self, i: &'a str) -> PResult<'a, Vec<Ident>> {
        let (mut i, first) = self.name(i)?;
        let mut names = vec![first];
        while let Ok((next, name)) = self.name(i) {
            names.push(name);
            i = next;
        }
        Ok((i, names))
    }

    fn idents0<'a>(&self, mut i: &'a str) -> PResult<'a, Vec<Ident>> {
        let mut names = Vec::new();
        while let Ok((next, name)) = self.name(i) {
            names.push(name);
            i = next;
        }
        Ok((i, names))
    }
}

/// Characters that can begin some RG token.
fn is_token_start(c: char) -> bool {
    is_ident_char(c)
        || matches!(
            c,
            ' ' | '\t'
                | '\r'
                | '\n'
                | '-'
                | '='
                | '!'
                | '$'
                | '?'
                | '{'
                | '}'
                | ','
                | ':'
                | '('
                | ')'
                | '*'
                | '['
                | ']'
                | ';'
                | '@'
                | '/'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_error(text: &str) -> (String, usize) {
        let errors = parse_game(text).unwrap_err();
        let d = &errors[0];
        (d.message.clone(), d.span.unwrap().start)
    }

    #[test]
    fn parses_every_label_form() {
        let game = parse_game(
            "a, b: ; a, b: $ t; a, b: $$v; a, b: ? x -> y; a, b: ! x -> y;
             a, b: m[k] == T(v); a, b: x != y; a, b: x = y; a, b: x = T(*);
             a, b: x = { p, q }(*); a, b: T(x)[k] = U(y);",
        )
        .unwrap();
        let labels: Vec<_> = game.edges.iter().map(|e| e.label.clone()).collect();
        assert_eq!(labels[0], Label::Skip);
        assert_eq!(labels[1], Label::Tag("t".into()));
        assert_eq!(labels[2], Label::VarTag("v".into()));
        assert!(matches!(labels[3], Label::Reach { negated: false, .. }));
        assert!(matches!(labels[4], Label::Reach { negated: true, .. }));
        assert!(matches!(labels[5], Label::Compare { negated: false, .. }));
        assert!(matches!(labels[6], Label::Compare { negated: true, .. }));
        assert!(matches!(labels[7], Label::Assign { .. }));
        assert_eq!(
            labels[8],
            Label::AssignAny {
                lhs: Expr::name("x"),
                ty: Type::name("T")
            }
        );
        assert_eq!(
            labels[9],
            Label::AssignAny {
                lhs: Expr::name("x"),
                ty: Type::set(["p", "q"])
            }
        );
        assert_eq!(
            labels[10],
            Label::Assign {
                lhs: Expr::access(Expr::cast("T", Expr::name("x")), Expr::name("k")),
                rhs: Expr::cast("U", Expr::name("y")),
            }
        );
    }

    #[test]
    fn identifiers_may_start_with_digits_and_be_unicode() {
        let game = parse_game("17, é1: C__2_s = 0abc;").unwrap();
        assert_eq!(game.edges[0].from, "17");
        assert_eq!(game.edges[0].to, "é1");
    }

    #[test]
    fn keyword_prefixed_node_names_are_identifiers() {
        let game = parse_game("constant, end: ; types, x: ; variable, y: ;").unwrap();
        assert_eq!(game.edges.len(), 3);
        assert_eq!(game.edges[0].from, "constant");
    }

    #[test]
    fn declarations_are_grouped_by_kind_in_source_order() {
        let game = parse_game(
            "a, b: ; var v: T = x; type T = {x}; @unique a; const c: T = x; type U = T;",
        )
        .unwrap();
        assert_eq!(game.typedefs.len(), 2);
        assert_eq!(game.typedefs[1].name, "U");
        assert_eq!(game.constants.len(), 1);
        assert_eq!(game.variables.len(), 1);
        assert_eq!(game.pragmas.len(), 1);
    }

    #[test]
    fn arrow_types_are_right_associative() {
        let t = parse_type("A -> {b} -> C").unwrap();
        assert_eq!(
            t,
            Type::arrow(
                Type::name("A"),
                Type::arrow(Type::set(["b"]), Type::name("C"))
            )
        );
    }

    #[test]
    fn nested_maps_and_defaults_anywhere() {
        let game = parse_game("var m: A = { a: { b: c, :e }, :{ :e } };").unwrap();
        let Value::Map(entries, _) = &game.variables[0].value else {
            panic!("expected a map")
        };
        assert_eq!(entries[0].key.as_deref(), Some("a"));
        assert_eq!(entries[1].key, None);
        // `{ }` parses (it is invalid only for the checker).
        assert!(parse_game("var m: A = { };").is_ok());
    }

    #[test]
    fn pragmas_known_and_unknown() {
        let game = parse_game(
            "@disjoint n : a b; @disjointExhaustive n: a; @artificialTag t u;
             @repeat a b : x y; @repeat a :; @unique a b; @tagIndex a b : 3; @tagMaxIndex a : 4;
             @integer 0 : s0 s1; @iterator a b c : v; @simpleApply a b [t, x: T] v = x, player = keeper;
             @simpleApplyExhaustive a b []; @translatedFromRbg; @tagIndexMax a : 2; @ disjoint x // y
             z;",
        )
        .unwrap();
        let kinds: Vec<_> = game.pragmas.iter().map(|p| p.kind.clone()).collect();
        assert_eq!(kinds.len(), 15);
        assert_eq!(
            kinds[4],
            PragmaKind::Repeat {
                nodes: vec!["a".into()],
                variables: vec![]
            }
        );
        assert_eq!(
            kinds[7],
            PragmaKind::TagIndex {
                max: true,
                nodes: vec!["a".into()],
                index: 4
            }
        );
        let PragmaKind::SimpleApply(sa) = &kinds[10] else {
            panic!()
        };
        assert_eq!(
            sa.tags,
            vec![
                PatternTag::Symbol("t".into()),
                PatternTag::Bind("x".into(), Type::name("T"))
            ]
        );
        assert_eq!(sa.assignments.len(), 2);
        assert_eq!(kinds[13], PragmaKind::Unknown("tagIndexMax a : 2".into()));
        // Raw text keeps comments and newlines verbatim.
        assert_eq!(
            kinds[14],
            PragmaKind::Unknown(" disjoint x // y\n             z".into())
        );
    }

    #[test]
    fn unicode_arrow_is_an_unexpected_character() {
        let (message, offset) = first_error("type A = {a, b} → {c};");
        assert_eq!(message, "unexpected character: \"→\"");
        assert_eq!(offset, 16);
    }

    #[test]
    fn missing_semicolon_is_reported_where_expected() {
        let (message, offset) = first_error("type A = {a}\ntype B = {b};");
        assert_eq!(message, "expected \";\"");
        assert_eq!(offset, 13);
    }

    #[test]
    fn several_errors_are_reported_at_once() {
        let errors = parse_game("type A = {};\nvar v: A = ;\na, b: x;\nok, fine: ;").unwrap_err();
        assert_eq!(errors.len(), 3, "{errors:?}");
    }

    #[test]
    fn whitespace_rules() {
        assert!(parse_game("a, b: x [y] = z;").is_err());
        assert!(parse_game("a, b: $ $ x;").is_err());
        assert!(parse_game("a, b: x - > y;").is_err());
        assert!(parse_game("a, b: $$x;").is_ok());
        assert!(parse_game("a,b:x=T ( * );//c").is_ok());
        assert!(parse_game("a, b: x;").is_err());
        assert!(parse_game("type var = {a};").is_err());
        assert!(parse_game(";").is_err());
        assert!(parse_game("a, b: ; ;").is_err());
    }

    #[test]
    fn spans_cover_declarations() {
        let text = "  a, b: x = y;";
        let game = parse_game(text).unwrap();
        let span = game.edges[0].at.span().unwrap();
        assert_eq!(&text[span.start..span.end], "a, b: x = y;");
    }
}
