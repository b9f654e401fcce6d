//! Diagnostics as values: every error or warning any layer finds about user
//! input (rules file, FEN, move, record) is a [`Diagnostic`] carrying spans;
//! [`render`](crate::render) turns it into an ariadne report in one place.

use crate::ast::Span;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The input cannot be used.
    Error,
    /// The input works but is probably not what was meant.
    Warning,
    /// A finding the file itself settles (a ruling says which reading it
    /// takes): shown for the reader, not a problem.
    Note,
}

/// A secondary location with its own message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Note {
    /// Where (in the diagnostic's file).
    pub span: Span,
    /// What to say there.
    pub message: String,
}

/// One problem found in one source text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A short stable code, e.g. `E0101`, for docs and tests.
    pub code: &'static str,
    /// The headline.
    pub message: String,
    /// The name of the source (a path, or a pseudo-name like `<--fen>`).
    pub file: String,
    /// The primary location.
    pub span: Span,
    /// The primary label's text.
    pub label: String,
    /// Further labelled locations in the same file.
    pub notes: Vec<Note>,
    /// A line telling the user how to fix it.
    pub help: Option<String>,
    /// Free text shown under the report (a witness FEN, a board diagram, a
    /// move sequence), one entry per block.
    pub details: Vec<String>,
}

impl Diagnostic {
    /// An error at `span` in `file`, with the headline `message` and primary label `label`.
    pub fn error(
        code: &'static str,
        file: impl Into<String>,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            file: file.into(),
            span,
            label: label.into(),
            notes: Vec::new(),
            help: None,
            details: Vec::new(),
        }
    }

    /// The same diagnostic as a warning.
    pub fn warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// The same diagnostic as a note (a finding the file settles).
    pub fn note(mut self) -> Self {
        self.severity = Severity::Note;
        self
    }

    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary labelled location.
    pub fn with_note(mut self, span: Span, message: impl Into<String>) -> Self {
        self.notes.push(Note { span, message: message.into() });
        self
    }

    /// Adds a block of free text (shown as a note under the labels).
    pub fn with_detail(mut self, text: impl Into<String>) -> Self {
        self.details.push(text.into());
        self
    }

    /// This diagnostic as text, against the `source` its spans point into
    /// (same as [`crate::render`]).
    pub fn render(&self, source: &str, color: bool) -> String {
        crate::render(self, source, color)
    }
}
