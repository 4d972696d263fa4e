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
    pub fn render(&self, file_name: &str, source: &str) -> String {
        use miette::{GraphicalReportHandler, GraphicalTheme};
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

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
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
}
