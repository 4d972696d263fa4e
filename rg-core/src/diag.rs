//! Diagnostics shared by every input language.
//!
//! A [`Diagnostic`] is a value: a severity, a message, the byte span of the
//! offending text and optional notes. Libraries return diagnostics; rendering
//! turns one into a string with `file:line:column` and a source excerpt
//! (through miette's graphical handler, without colours so that snapshots
//! are stable). Nothing here performs I/O.

use std::fmt;

/// A half-open byte range `start..end` in a source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Severity::Error => f.write_str("error"),
            Severity::Warning => f.write_str("warning"),
        }
    }
}

/// One problem found in a source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// Where the problem is; `None` for whole-file problems (e.g. "`Player` is missing").
    pub span: Option<Span>,
    /// A short text shown under the excerpt, at the span.
    pub label: Option<String>,
    /// Hints and explanations, shown after the excerpt.
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: impl Into<Option<Span>>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: span.into(),
            label: None,
            notes: Vec::new(),
        }
    }

    pub fn warning(message: impl Into<String>, span: impl Into<Option<Span>>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, span)
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:column: severity: message` — one line, for logs and reports.
    pub fn one_line(&self, file_name: &str, source: &str) -> String {
        match self.span {
            Some(span) => {
                let (line, column) = line_column(source, span.start);
                format!(
                    "{file_name}:{line}:{column}: {}: {}",
                    self.severity, self.message
                )
            }
            None => format!("{file_name}: {}: {}", self.severity, self.message),
        }
    }

    /// The full report: message, `file:line:column`, the source excerpt with
    /// the span underlined, and the notes. No colours.
    ///
    /// Around a very long line (say a whole file on one line), the excerpt
    /// is clipped to a few dozen characters either side of the span.
    pub fn render(&self, file_name: &str, source: &str) -> String {
        use miette::{GraphicalReportHandler, GraphicalTheme};
        if let Some(span) = self.span {
            if excerpt_has_long_line(source, span) {
                return self.render_clipped(file_name, source, span);
            }
        }
        // Whole-file problems have no excerpt: name the file in the message.
        let located;
        let diagnostic = match self.span {
            Some(_) => self,
            None => {
                located = Diagnostic {
                    message: format!("{file_name}: {}", self.message),
                    ..self.clone()
                };
                &located
            }
        };
        let report = MietteReport {
            diagnostic,
            source: miette::NamedSource::new(file_name, source.to_string()),
        };
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_width(100)
            .with_links(false);
        let mut out = String::new();
        if handler.render_report(&mut out, &report).is_err() {
            return self.one_line(file_name, source);
        }
        out
    }
}

/// Lines longer than this many bytes are not shown whole: miette pads the
/// underline to the span's column, which panics past column 65,535 (a
/// formatting width is 16 bits) and is unreadable long before.
const LONG_LINE: usize = 1000;

/// How many characters of a long line are shown either side of the span,
/// and of the span itself.
const CLIPPED_CONTEXT: usize = 40;

/// Whether any line miette would show around `span` (its lines and one of
/// context either side) is longer than [`LONG_LINE`].
fn excerpt_has_long_line(source: &str, span: Span) -> bool {
    let start = span.start.min(source.len());
    let end = span.end.clamp(start, source.len());
    let first = source.as_bytes()[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .and_then(|i| source.as_bytes()[..i].iter().rposition(|&b| b == b'\n'))
        .map_or(0, |i| i + 1);
    let last = source.as_bytes()[end..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| end + i + 1)
        .and_then(|i| {
            source.as_bytes()[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|j| i + j)
        })
        .unwrap_or(source.len());
    source.as_bytes()[first..last]
        .split(|&b| b == b'\n')
        .any(|line| line.len() > LONG_LINE)
}

/// The largest char boundary of `source` at or before `offset`.
fn floor_boundary(source: &str, offset: usize) -> usize {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Text for a one-line excerpt: tabs and other control characters become
/// spaces so that the underline stays aligned.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl Diagnostic {
    /// The report for a span on a very long line: the one-line form, then
    /// a clipped excerpt of the span's line with the span underlined, then
    /// the notes.
    fn render_clipped(&self, file_name: &str, source: &str, span: Span) -> String {
        let start = floor_boundary(source, span.start);
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let end = floor_boundary(source, span.end.clamp(start, line_end));
        let before: Vec<char> = source[line_start..start].chars().collect();
        let shown_before = before.len().min(CLIPPED_CONTEXT);
        let marked: Vec<char> = source[start..end].chars().collect();
        let after: Vec<char> = source[end..line_end].chars().collect();
        let mut excerpt = String::new();
        if shown_before < before.len() {
            excerpt.push('…');
        }
        excerpt.extend(&before[before.len() - shown_before..]);
        let underline_at = excerpt.chars().count();
        let underline = if marked.len() > CLIPPED_CONTEXT {
            excerpt.extend(&marked[..CLIPPED_CONTEXT]);
            excerpt.push('…');
            CLIPPED_CONTEXT + 1
        } else {
            excerpt.extend(&marked);
            excerpt.extend(after.iter().take(CLIPPED_CONTEXT));
            if after.len() > CLIPPED_CONTEXT {
                excerpt.push('…');
            }
            marked.len().max(1)
        };
        let mut out = self.one_line(file_name, source);
        out.push_str("\n   │ ");
        out.push_str(printable(&excerpt).trim_end());
        out.push_str("\n   │ ");
        out.push_str(&" ".repeat(underline_at));
        out.push_str(&"^".repeat(underline));
        if let Some(label) = &self.label {
            out.push(' ');
            out.push_str(label);
        }
        out.push('\n');
        for note in &self.notes {
            out.push_str("  help: ");
            out.push_str(note);
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_boundary(source, offset);
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

/// Renders every diagnostic, errors and warnings, separated by blank lines.
pub fn render_all(diagnostics: &[Diagnostic], file_name: &str, source: &str) -> String {
    diagnostics
        .iter()
        .map(|d| d.render(file_name, source))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// Adapter that lets miette render a [`Diagnostic`] against its source.
struct MietteReport<'a> {
    diagnostic: &'a Diagnostic,
    source: miette::NamedSource<String>,
}

impl fmt::Debug for MietteReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diagnostic, f)
    }
}

impl fmt::Display for MietteReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for MietteReport<'_> {}

impl miette::Diagnostic for MietteReport<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        if self.diagnostic.notes.is_empty() {
            None
        } else {
            Some(Box::new(self.diagnostic.notes.join("\n")))
        }
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.diagnostic
            .span
            .map(|_| &self.source as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let span = self.diagnostic.span?;
        let len = span.len().max(usize::from(span.start < self.source_len()));
        let label = miette::LabeledSpan::new(self.diagnostic.label.clone(), span.start, len);
        Some(Box::new(std::iter::once(label)))
    }
}

impl MietteReport<'_> {
    fn source_len(&self) -> usize {
        self.source.inner().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_from_one_and_in_characters() {
        let text = "ab\né1x\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        // 'é' is two bytes: the '1' after it is column 2.
        assert_eq!(line_column(text, 5), (2, 2));
        assert_eq!(line_column(text, 100), (3, 1));
    }

    #[test]
    fn render_names_file_line_and_column_and_shows_excerpt() {
        let text = "type A = {a};\ntype A = {b};\n";
        let d = Diagnostic::error("Multiple typedefs named A.", Span::new(14, 27))
            .with_label("second definition")
            .with_note("rename one of them");
        let out = d.render("game.rg", text);
        assert!(out.contains("game.rg:2:1"), "{out}");
        assert!(out.contains("type A = {b};"), "{out}");
        assert!(out.contains("Multiple typedefs named A."), "{out}");
        assert!(out.contains("rename one of them"), "{out}");
        assert_eq!(
            d.one_line("game.rg", text),
            "game.rg:2:1: error: Multiple typedefs named A."
        );
    }

    #[test]
    fn render_clips_very_long_lines_around_the_span() {
        // An error at column 70,001 of a single line: miette would panic
        // ("Formatting argument out of range").
        let text = format!(
            "{}→ bad {}\nnext line\n",
            "x".repeat(70_000),
            "y".repeat(70_000)
        );
        let start = 70_000;
        let d = Diagnostic::error("unexpected character: \"→\"", Span::new(start, start + 3))
            .with_label("expected a type")
            .with_note("write ->");
        let out = d.render("game.rg", &text);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0], "game.rg:1:70001: error: unexpected character: \"→\"",
            "{out}"
        );
        let excerpt = format!("   │ …{}→ bad {}…", "x".repeat(40), "y".repeat(35));
        assert_eq!(lines[1], excerpt);
        assert_eq!(
            lines[2],
            format!("   │ {}^ expected a type", " ".repeat(41))
        );
        assert_eq!(lines[3], "  help: write ->");
        assert!(out.len() < 400, "{out}");
        // A long span is clipped too, and so is a span at the end.
        let long = Diagnostic::error("string too long", Span::new(10, text.len()));
        assert!(long.render("a.kif", &text).len() < 400);
        let at_end = Diagnostic::error("unexpected end", Span::new(text.len(), text.len()));
        assert!(at_end.render("a.kif", &text).contains("a.kif:3:1"));
        // A long line next to the span's is not shown whole either.
        let near = Diagnostic::error("bad", Span::new(text.len() - 5, text.len() - 4));
        let out = near.render("a.rg", &text);
        assert!(out.starts_with("a.rg:2:6: error: bad"), "{out}");
        assert!(out.len() < 400, "{out}");
    }
}
