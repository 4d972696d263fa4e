//! Reading prefix KIF (gdl.md §1.1–1.3) with `lexpr`, folding case, into
//! the AST.
//!
//! `lexpr` gives the S-expression structure and line/column spans; every
//! word's text is taken from the source itself (so `007` or `3pieces` cannot
//! be silently changed by number parsing).

use lexpr::datum::Ref;
use lexpr::Value;
use rg_core::diag::{Diagnostic, Span};

use super::parsed::{Parsed, MAX_NESTING, MAX_SENTENCE_BYTES};
use crate::ast::{Atom, Description, Literal, Rule, Term, TermKind};

/// Parses a prefix KIF text. On failure, returns every syntax error found
/// (and the warnings so far).
pub fn parse_prefix(source: &str) -> Result<Parsed, Vec<Diagnostic>> {
    let mut reader = KifReader::new(source);
    let unsupported = reader.unsupported_characters();
    if !unsupported.is_empty() {
        return Err(unsupported);
    }
    let chunks = match top_level_chunks(source) {
        Ok(chunks) => chunks,
        Err(error) => return Err(vec![error]),
    };
    let mut rules = Vec::new();
    // Each chunk is read by its own parser: lexpr computes a datum's
    // position by scanning its input from the start, which over the whole
    // text would take time quadratic in the text's length.
    'chunks: for (start, end) in chunks {
        reader.base = start;
        reader.base_line = reader.line_starts.partition_point(|&s| s <= start);
        let mut parser =
            lexpr::Parser::from_str_custom(&source[start..end], lexpr::parse::Options::default());
        loop {
            match parser.next_datum() {
                Ok(Some(datum)) => {
                    if let Some(rule) = reader.sentence(datum.as_ref()) {
                        rules.push(rule);
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    let message = error.to_string();
                    // lexpr reports an unclosed list at the end of the file;
                    // the useful place is the parenthesis that is never closed.
                    if message.starts_with("EOF while parsing a list") {
                        if let Some(open) = first_unclosed_parenthesis(source) {
                            reader.errors.push(
                                Diagnostic::error(
                                    "syntax error: this parenthesis is never closed",
                                    Span::new(open, open + 1),
                                )
                                .with_label("opened here")
                                .with_note("the file ends before its matching `)`"),
                            );
                            break 'chunks;
                        }
                    }
                    let offset = error.location().map_or(source.len(), |l| {
                        reader.offset(l.line(), l.column().saturating_sub(1))
                    });
                    let message = message.split(" at line").next().unwrap_or(&message);
                    reader.errors.push(
                        Diagnostic::error(
                            format!("syntax error: {message}"),
                            char_span(source, offset),
                        )
                        .with_label("here"),
                    );
                    break 'chunks;
                }
            }
        }
    }
    if reader.errors.is_empty() {
        Ok(Parsed {
            description: Description { rules },
            warnings: reader.warnings,
        })
    } else {
        let mut all = reader.errors;
        all.extend(reader.warnings);
        Err(all)
    }
}

/// The text cut after every top-level sentence (`;` comments skipped):
/// `(start, end)` byte ranges covering it. A sentence longer than
/// [`MAX_SENTENCE_BYTES`] is refused.
fn top_level_chunks(source: &str) -> Result<Vec<(usize, usize)>, Diagnostic> {
    let mut chunks = Vec::new();
    let mut chunk_start = 0;
    let mut sentence_start = 0;
    let mut depth = 0usize;
    let mut in_comment = false;
    for (offset, c) in source.char_indices() {
        match c {
            '\n' => in_comment = false,
            _ if in_comment => {}
            ';' => in_comment = true,
            '(' => {
                if depth == 0 {
                    sentence_start = offset;
                }
                depth += 1;
            }
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if offset - sentence_start >= MAX_SENTENCE_BYTES {
                        return Err(Diagnostic::error(
                            format!("a sentence longer than {MAX_SENTENCE_BYTES} bytes"),
                            Span::new(sentence_start, sentence_start + 1),
                        )
                        .with_label("this sentence")
                        .with_note(format!(
                            "{MAX_SENTENCE_BYTES} bytes is the limit of one top-level sentence \
                             (raise MAX_SENTENCE_BYTES in translators/gdl/src/parse/parsed.rs to \
                             allow more)"
                        )));
                    }
                    chunks.push((chunk_start, offset + 1));
                    chunk_start = offset + 1;
                }
            }
            _ => {}
        }
    }
    if depth > 0 && source.len() - sentence_start > MAX_SENTENCE_BYTES {
        // An unclosed sentence: reported by the reader, but not read whole.
        chunks.push((chunk_start, (sentence_start + 1).min(source.len())));
        return Ok(chunks);
    }
    chunks.push((chunk_start, source.len()));
    Ok(chunks)
}

/// The span of the character at (or around) byte `offset`: lexpr's
/// columns count bytes, and an error may sit on a multi-byte character.
fn char_span(source: &str, offset: usize) -> Span {
    let mut start = offset.min(source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let end = source[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    Span::new(start, end)
}

/// Byte offset of the outermost `(` that is never closed (`;` comments
/// skipped), if any.
fn first_unclosed_parenthesis(source: &str) -> Option<usize> {
    let mut open: Vec<usize> = Vec::new();
    let mut in_comment = false;
    for (offset, c) in source.char_indices() {
        match c {
            '\n' | '\r' => in_comment = false,
            _ if in_comment => {}
            ';' => in_comment = true,
            '(' => open.push(offset),
            ')' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.first().copied()
}

fn is_word_char(c: char) -> bool {
    !(c.is_whitespace() || c == '(' || c == ')' || c == ';')
}

struct KifReader<'s> {
    source: &'s str,
    line_starts: Vec<usize>,
    /// Where the chunk being read starts, and the (1-based) line it starts
    /// on: lexpr's positions are relative to the chunk.
    base: usize,
    base_line: usize,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl<'s> KifReader<'s> {
    fn new(source: &'s str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        KifReader {
            source,
            line_starts,
            base: 0,
            base_line: 1,
            errors: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Byte offset of a 1-based line and 0-based byte column of the chunk
    /// being read.
    fn offset(&self, line: usize, column: usize) -> usize {
        let start = if line <= 1 {
            self.base
        } else {
            self.line_starts
                .get(self.base_line + line - 2)
                .copied()
                .unwrap_or(self.source.len())
        };
        (start + column).min(self.source.len())
    }

    fn span_of(&self, r: &Ref<'_>) -> Span {
        let span = r.span();
        let start = self.offset(span.start().line(), span.start().column());
        let end = self.offset(span.end().line(), span.end().column());
        Span::new(start, end.max(start))
    }

    /// `lexpr` would read strings, `#` syntax, brackets and quotes as data
    /// that GDL does not have; reject them up front with a precise span.
    fn unsupported_characters(&self) -> Vec<Diagnostic> {
        let mut errors = Vec::new();
        let mut in_comment = false;
        let mut depth = 0usize;
        for (i, c) in self.source.char_indices() {
            match c {
                '\n' => in_comment = false,
                ';' => in_comment = true,
                '(' if !in_comment => {
                    depth += 1;
                    // Readers recurse per level; refuse absurd nesting
                    // instead of overflowing the stack.
                    if depth > MAX_NESTING {
                        errors.push(
                            Diagnostic::error("expressions nested too deeply", Span::new(i, i + 1))
                                .with_label(format!("more than {MAX_NESTING} levels")),
                        );
                        return errors;
                    }
                }
                ')' if !in_comment => depth = depth.saturating_sub(1),
                '"' | '#' | '[' | ']' | '|' | '\'' | '`' | ',' | '{' | '}' if !in_comment => {
                    errors.push(
                        Diagnostic::error(
                            format!("unsupported token `{c}`"),
                            Span::new(i, i + c.len_utf8()),
                        )
                        .with_label("KIF has no strings, quotes, brackets or `#` syntax"),
                    );
                }
                _ => {}
            }
        }
        errors
    }

    /// The source word starting where `r` starts; an error if `lexpr` read
    /// less than the whole word (e.g. `3pieces` read as a number).
    fn word(&mut self, r: &Ref<'_>) -> Option<(String, Span)> {
        let span = self.span_of(r);
        let rest = self.source.get(span.start..).unwrap_or("");
        let len = rest
            .char_indices()
            .find(|&(_, c)| !is_word_char(c))
            .map_or(rest.len(), |(i, _)| i);
        let word_span = Span::new(span.start, span.start + len);
        if len == 0 || (span.end > span.start && span.end != word_span.end) {
            self.errors.push(
                Diagnostic::error("invalid token", word_span)
                    .with_label("not a KIF word")
                    .with_note("words are runs of letters, digits and `_ - + < > = ? .`"),
            );
            return None;
        }
        Some((rest[..len].to_lowercase(), word_span))
    }

    fn list<'a>(&mut self, r: &Ref<'a>) -> Option<Vec<Ref<'a>>> {
        let span = self.span_of(r);
        match r.value() {
            Value::Null => {
                self.errors.push(
                    Diagnostic::error("empty list", span)
                        .with_label("`()` is not a GDL expression"),
                );
                None
            }
            Value::Cons(_) if !r.value().is_list() => {
                self.errors
                    .push(Diagnostic::error("dotted pair", span).with_label("not a proper list"));
                None
            }
            Value::Cons(_) => r.list_iter().map(std::iter::Iterator::collect),
            _ => None,
        }
    }

    fn is_atomic(r: &Ref<'_>) -> bool {
        matches!(r.value(), Value::Symbol(_) | Value::Number(_))
    }

    fn unsupported(&mut self, r: &Ref<'_>) {
        let span = self.span_of(r);
        self.errors.push(
            Diagnostic::error("unsupported token", span)
                .with_label("strings, characters, keywords and vectors do not occur in GDL"),
        );
    }

    fn sentence(&mut self, r: Ref<'_>) -> Option<Rule> {
        let span = self.span_of(&r);
        if let Value::Cons(_) = r.value() {
            let items = self.list(&r)?;
            if let Some(first) = items.first() {
                if let Value::Symbol(s) = first.value() {
                    if s.as_ref() == "<=" {
                        let Some(head) = items.get(1) else {
                            self.errors.push(
                                Diagnostic::error("expected a fact or a rule", span)
                                    .with_label("`<=` without a head"),
                            );
                            return None;
                        };
                        let head = self.head(head)?;
                        let body: Vec<Literal> =
                            items[2..].iter().filter_map(|l| self.literal(l)).collect();
                        if body.len() != items.len() - 2 {
                            return None;
                        }
                        return Some(Rule { head, body, span });
                    }
                }
            }
        }
        let head = self.head(&r)?;
        Some(Rule {
            head,
            body: Vec::new(),
            span,
        })
    }

    fn head(&mut self, r: &Ref<'_>) -> Option<Atom> {
        if let Value::Symbol(_) = r.value() {
            let (word, span) = self.word(r)?;
            if word.starts_with('?') {
                self.errors.push(
                    Diagnostic::error("invalid rule head", span)
                        .with_label("a variable cannot be a fact or a rule head"),
                );
                return None;
            }
            if word == "<=" {
                self.errors.push(
                    Diagnostic::error("expected a fact or a rule", span)
                        .with_label("`<=` must start a list"),
                );
                return None;
            }
        }
        self.atom(r, "a fact or a rule")
    }

    /// An atom: a bare relation name or `(name term…)`.
    fn atom(&mut self, r: &Ref<'_>, expected: &str) -> Option<Atom> {
        let span = self.span_of(r);
        match r.value() {
            Value::Symbol(_) | Value::Number(_) => {
                let (word, word_span) = self.word(r)?;
                if word.starts_with('?') || matches!(r.value(), Value::Number(_)) {
                    self.errors.push(
                        Diagnostic::error(
                            format!("expected {expected}, found `{word}`"),
                            word_span,
                        )
                        .with_label("not a relation name"),
                    );
                    return None;
                }
                Some(Atom {
                    name: word,
                    args: Vec::new(),
                    span: word_span,
                })
            }
            Value::Cons(_) | Value::Null => {
                let items = self.list(r)?;
                let name = self.functor(&items[0], "relation")?;
                if items.len() == 1 {
                    self.warnings.push(
                        Diagnostic::warning(format!("`({name})` written as a list"), span)
                            .with_label("read as the bare relation name")
                            .with_note("zero-arity relations are written without parentheses"),
                    );
                }
                let args: Vec<Term> = items[1..].iter().filter_map(|t| self.term(t)).collect();
                (args.len() == items.len() - 1).then_some(Atom { name, args, span })
            }
            _ => {
                self.unsupported(r);
                None
            }
        }
    }

    /// The name at the head of a list: a non-variable symbol.
    fn functor(&mut self, r: &Ref<'_>, what: &str) -> Option<String> {
        if !Self::is_atomic(r) {
            let span = self.span_of(r);
            self.errors.push(
                Diagnostic::error(format!("expected a {what} name"), span)
                    .with_label("a list must start with a name"),
            );
            return None;
        }
        let (word, span) = self.word(r)?;
        if word.starts_with('?') || matches!(r.value(), Value::Number(_)) {
            self.errors.push(
                Diagnostic::error(format!("expected a {what} name, found `{word}`"), span)
                    .with_label("a list must start with a name"),
            );
            return None;
        }
        Some(word)
    }

    fn term(&mut self, r: &Ref<'_>) -> Option<Term> {
        let span = self.span_of(r);
        match r.value() {
            Value::Symbol(_) | Value::Number(_) => {
                let (word, span) = self.word(r)?;
                let kind = if word.starts_with('?') {
                    TermKind::Variable(word)
                } else {
                    TermKind::Constant(word)
                };
                Some(Term { kind, span })
            }
            Value::Cons(_) | Value::Null => {
                let items = self.list(r)?;
                let name = self.functor(&items[0], "function")?;
                if items.len() == 1 {
                    self.warnings.push(
                        Diagnostic::warning(format!("`({name})` written as a list"), span)
                            .with_label("read as the constant")
                            .with_note("constants are written without parentheses"),
                    );
                    return Some(Term {
                        kind: TermKind::Constant(name),
                        span,
                    });
                }
                let args: Vec<Term> = items[1..].iter().filter_map(|t| self.term(t)).collect();
                (args.len() == items.len() - 1).then_some(Term {
                    kind: TermKind::Function { name, args },
                    span,
                })
            }
            _ => {
                self.unsupported(r);
                None
            }
        }
    }

    fn literal(&mut self, r: &Ref<'_>) -> Option<Literal> {
        let span = self.span_of(r);
        let Value::Cons(_) = r.value() else {
            if let Value::Symbol(_) = r.value() {
                let (word, word_span) = self.word(r)?;
                if word.starts_with('?') {
                    self.errors.push(
                        Diagnostic::error(
                            format!("a variable cannot be a literal: `{word}`"),
                            word_span,
                        )
                        .with_label("expected an atom"),
                    );
                    return None;
                }
                if matches!(word.as_str(), "not" | "or" | "and" | "distinct" | "<=") {
                    self.errors.push(
                        Diagnostic::error(format!("`{word}` used without arguments"), word_span)
                            .with_label("a connective must start a list"),
                    );
                    return None;
                }
            }
            return self.atom(r, "a literal").map(Literal::Atom);
        };
        let items = self.list(r)?;
        let connective = match items[0].value() {
            Value::Symbol(s) => s.to_lowercase(),
            _ => String::new(),
        };
        let arg_count = items.len() - 1;
        match connective.as_str() {
            "not" => {
                if arg_count != 1 {
                    self.errors.push(wrong_arity("not", 1, arg_count, span));
                    return None;
                }
                let inner = self.literal(&items[1])?;
                match inner {
                    Literal::Atom(_) | Literal::Distinct(..) => {
                        Some(Literal::Not(Box::new(inner), span))
                    }
                    Literal::Or(..) => {
                        self.errors.push(
                            Diagnostic::error("negated disjunction is not supported", span)
                                .with_label("`not` applied to `or`")
                                .with_note(
                                    "rewrite it with De Morgan: (not (or a b)) = (not a) (not b)",
                                ),
                        );
                        None
                    }
                    Literal::Not(..) | Literal::And(..) => {
                        self.errors.push(
                            Diagnostic::error(
                                "negation applies only to an atom or a distinct",
                                span,
                            )
                            .with_label("nested connective under `not`"),
                        );
                        None
                    }
                }
            }
            "distinct" => {
                if arg_count != 2 {
                    self.errors
                        .push(wrong_arity("distinct", 2, arg_count, span));
                    return None;
                }
                let s = self.term(&items[1])?;
                let t = self.term(&items[2])?;
                Some(Literal::Distinct(s, t, span))
            }
            "or" | "and" => {
                if arg_count == 0 {
                    self.errors.push(
                        Diagnostic::error(
                            format!("wrong number of arguments to {connective}: expected at least 1, got 0"),
                            span,
                        )
                        .with_label("empty connective"),
                    );
                    return None;
                }
                let items: Vec<Literal> =
                    items[1..].iter().filter_map(|l| self.literal(l)).collect();
                if items.len() != arg_count {
                    return None;
                }
                Some(if connective == "or" {
                    Literal::Or(items, span)
                } else {
                    Literal::And(items, span)
                })
            }
            _ => self.atom(r, "a literal").map(Literal::Atom),
        }
    }
}

fn wrong_arity(name: &str, expected: usize, got: usize, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!("wrong number of arguments to {name}: expected {expected}, got {got}"),
        span,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn the_unclosed_parenthesis_is_the_outermost_open_one() {
        assert_eq!(first_unclosed_parenthesis("(a) (b (c)"), Some(4));
        // Parentheses in comments do not count.
        assert_eq!(first_unclosed_parenthesis("; (\n(a)\n(b ; )\n"), Some(8));
        assert_eq!(first_unclosed_parenthesis("(a (b))"), None);
    }

    fn parse_ok(text: &str) -> Description {
        match parse(text) {
            Ok(parsed) => parsed.description,
            Err(errors) => panic!("{errors:?}"),
        }
    }

    #[test]
    fn folds_case_and_reads_rules_facts_and_connectives() {
        let d = parse_ok(
            "; comment (ignored)\r\n(ROLE xPlayer)\n(<= (Legal ?P (mark ?X 1)) (true (cell ?x 1 b)) (not (DOES ?p noop)) (or (distinct ?x 2) open))\n(<= terminal (not open))\n",
        );
        assert_eq!(d.rules.len(), 3);
        assert_eq!(d.rules[0].head.name, "role");
        assert_eq!(
            d.rules[0].head.args[0].kind,
            TermKind::Constant("xplayer".into())
        );
        let legal = &d.rules[1];
        assert_eq!(legal.head.key(), ("legal", 2));
        assert_eq!(legal.head.args[0].kind, TermKind::Variable("?p".into()));
        assert_eq!(legal.body.len(), 3);
        assert!(matches!(legal.body[1], Literal::Not(..)));
        assert!(matches!(&legal.body[2], Literal::Or(items, _) if items.len() == 2));
        assert_eq!(d.rules[2].head.args.len(), 0);
    }

    #[test]
    fn spans_are_byte_ranges_of_the_source() {
        let text = "(role a)\n  (<= (p ?x) (q ?x))";
        let d = parse_ok(text);
        let rule = &d.rules[1];
        assert_eq!(&text[rule.span.start..rule.span.end], "(<= (p ?x) (q ?x))");
        assert_eq!(&text[rule.head.span.start..rule.head.span.end], "(p ?x)");
        let Literal::Atom(q) = &rule.body[0] else {
            panic!()
        };
        assert_eq!(&text[q.args[0].span.start..q.args[0].span.end], "?x");
    }

    #[test]
    fn numbers_and_special_words_keep_their_text() {
        let d = parse_ok("(succ -1 0) (plus map+ ++ < ?n++) (v 100)");
        let TermKind::Constant(c) = &d.rules[0].head.args[0].kind else {
            panic!()
        };
        assert_eq!(c, "-1");
        let TermKind::Constant(c) = &d.rules[1].head.args[0].kind else {
            panic!()
        };
        assert_eq!(c, "map+");
        assert_eq!(d.rules[1].head.args[2].kind, TermKind::Constant("<".into()));
        assert_eq!(
            d.rules[1].head.args[3].kind,
            TermKind::Variable("?n++".into())
        );
        assert_eq!(d.rules[1].head.args.len(), 4);
    }

    #[test]
    fn lone_parenthesized_relation_is_bare_with_warning() {
        let parsed = parse("(<= (terminal) (open))").unwrap();
        assert_eq!(parsed.description.rules[0].head.args.len(), 0);
        assert_eq!(parsed.warnings.len(), 2);
    }

    #[test]
    fn syntax_errors_are_diagnostics() {
        for text in [
            "(role a",
            "(role a))",
            "(role \"a\")",
            "()",
            "(a . b)",
            "(<= (p ?x) (not (or a b)))",
            "(<= (p) (not a b))",
            "(<= ?x a)",
            "(<= (p) (1 a))",
            "(p 3pieces)",
        ] {
            let errors = parse(text)
                .err()
                .unwrap_or_else(|| panic!("accepted {text}"));
            assert!(
                errors.iter().any(Diagnostic::is_error),
                "{text}: {errors:?}"
            );
            for e in &errors {
                if let Some(span) = e.span {
                    assert!(span.end <= text.len(), "{text}: {e:?}");
                }
            }
        }
    }
}
