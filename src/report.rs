//! Turning problems into output: diagnostics rendered through
//! [`rulebook_grammar::render_all`] (ariadne), plain error lines for I/O, the
//! [`Failure`] every command returns, and writing to stdout without panicking.

use rulebook_grammar::ast::Span;
use rulebook_grammar::{Diagnostic, Severity};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};

/// Exit status: a check failed (perft mismatch, `check` found errors).
pub const EXIT_FAILED: u8 = 1;
/// Exit status: usage error, unreadable file, or unusable input.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: a perft count stopped by `--max-nodes` or `--time` (no count is given).
pub const EXIT_STOPPED: u8 = 3;
/// Exit status when stdout was closed under us (as if killed by SIGPIPE).
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Why a command stopped: what to print on stderr and the exit status, and
/// the same as a JSON error object for `--json` (see [`JsonError`]).
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub code: u8,
    /// Text for stderr (rendered reports or an `error:` line); may be empty.
    pub text: String,
    /// What kind of failure, for `--json`: `usage`, `input`, `stopped`, `output`.
    pub kind: &'static str,
    /// One line saying what went wrong (without `error: `).
    pub message: String,
    /// The diagnostics behind it, for `--json`.
    pub diagnostics: Vec<JsonDiagnostic>,
}

impl Failure {
    /// An input/usage problem without a source location (exit 2).
    pub fn usage(message: impl std::fmt::Display) -> Failure {
        Failure {
            code: EXIT_USAGE,
            text: format!("error: {message}\n"),
            kind: "usage",
            message: message.to_string(),
            diagnostics: Vec::new(),
        }
    }

    /// Reports already rendered, with an exit status. The message is the
    /// text's last line (the summary).
    pub fn reports(code: u8, text: String) -> Failure {
        let message = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.strip_prefix("error: ").unwrap_or(l).to_string())
            .unwrap_or_default();
        Failure {
            code,
            kind: if code == EXIT_STOPPED { "stopped" } else { "input" },
            text,
            message,
            diagnostics: Vec::new(),
        }
    }

    /// Adds the diagnostics the text rendered, for `--json`; `lookup` gives
    /// the text of a source by name.
    pub fn with_diagnostics(mut self, diags: &[Diagnostic], lookup: impl Fn(&str) -> Option<String>) -> Failure {
        self.diagnostics = diags
            .iter()
            .map(|d| JsonDiagnostic::new(d, lookup(&d.file).as_deref()))
            .collect();
        self
    }
}

/// The JSON object a command run with `--json` prints on stdout when it
/// fails (unreadable file, bad rules, FEN, `--play` move or option value, a
/// stopped count), with the exit status of the text output.
#[derive(Debug, Serialize)]
pub struct JsonError<'a> {
    /// What went wrong.
    pub error: JsonErrorBody<'a>,
}

/// The body of a [`JsonError`].
#[derive(Debug, Serialize)]
pub struct JsonErrorBody<'a> {
    /// `usage` (the command line), `input` (a file, FEN or move that cannot
    /// be used), `stopped` (a limit stopped perft), `output`.
    pub kind: &'a str,
    /// One line.
    pub message: &'a str,
    /// The exit status.
    pub exit_code: u8,
    /// The diagnostics, as in `check --json`.
    pub diagnostics: &'a [JsonDiagnostic],
}

impl Failure {
    /// The failure as a [`JsonError`].
    pub fn json(&self) -> JsonError<'_> {
        JsonError {
            error: JsonErrorBody {
                kind: self.kind,
                message: &self.message,
                exit_code: self.code,
                diagnostics: &self.diagnostics,
            },
        }
    }
}

/// Should reports on stderr be coloured? Only on a terminal, and not when
/// `NO_COLOR` is set (<https://no-color.org>).
pub fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Source texts that are not files of the database (`<--fen>`, a perft suite),
/// by the name their diagnostics use.
#[derive(Debug, Default)]
pub struct ExtraSources(pub BTreeMap<String, String>);

impl ExtraSources {
    /// Adds the text of the source called `name`.
    pub fn insert(&mut self, name: impl Into<String>, text: impl Into<String>) {
        self.0.insert(name.into(), text.into());
    }
}

/// Renders `diags` with ariadne. `lookup` gives the text of a source by name.
pub fn render(
    diags: &[Diagnostic],
    lookup: impl Fn(&str) -> Option<String>,
    color: bool,
) -> String {
    rulebook_grammar::render_all(diags, lookup, color)
}

/// How many of `diags` are errors (the rest are warnings).
pub fn error_count(diags: &[Diagnostic]) -> usize {
    diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

/// `1 error`, `3 warnings` …
pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("{n} {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Writes `text` to stdout. A closed pipe (`| head`) ends the command quietly.
pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(Failure::reports(EXIT_BROKEN_PIPE, String::new()))
        }
        Err(e) => Err(Failure::usage(format!("cannot write the output: {e}"))),
    }
}

/// Writes `value` to stdout as pretty JSON, with a final newline.
pub fn emit_json(value: &impl Serialize) -> Result<(), Failure> {
    match serde_json::to_string_pretty(value) {
        Ok(mut text) => {
            text.push('\n');
            emit(&text)
        }
        Err(e) => Err(Failure::usage(format!("cannot write JSON: {e}"))),
    }
}

/// A diagnostic as JSON.
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic {
    /// `error` or `warning`.
    pub severity: &'static str,
    /// The stable code, e.g. `E0105`.
    pub code: &'static str,
    /// The headline.
    pub message: String,
    /// The source's name.
    pub file: String,
    /// Byte offsets of the primary location.
    pub span: JsonSpan,
    /// 1-based line and column (in characters) of the span's start, when the source is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// See `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The primary label.
    pub label: String,
    /// Further locations.
    pub notes: Vec<JsonNote>,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The report as the text output shows it (without colour).
    pub rendered: String,
}

/// A byte range as JSON.
#[derive(Debug, Serialize)]
pub struct JsonSpan {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A secondary location as JSON.
#[derive(Debug, Serialize)]
pub struct JsonNote {
    /// Byte offsets.
    pub span: JsonSpan,
    /// What is said there.
    pub message: String,
}

impl JsonDiagnostic {
    /// Converts `d`; `source` is the text its spans point into, if known.
    pub fn new(d: &Diagnostic, source: Option<&str>) -> JsonDiagnostic {
        let (line, column) = match source.map(|s| line_column(s, d.span)) {
            Some((l, c)) => (Some(l), Some(c)),
            None => (None, None),
        };
        let source_owned = source.map(str::to_string);
        JsonDiagnostic {
            severity: match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "note",
            },
            code: d.code,
            message: d.message.clone(),
            file: d.file.clone(),
            span: JsonSpan {
                start: d.span.start,
                end: d.span.end,
            },
            line,
            column,
            label: d.label.clone(),
            notes: d
                .notes
                .iter()
                .map(|n| JsonNote {
                    span: JsonSpan {
                        start: n.span.start,
                        end: n.span.end,
                    },
                    message: n.message.clone(),
                })
                .collect(),
            help: d.help.clone(),
            rendered: render(std::slice::from_ref(d), |_| source_owned.clone(), false),
        }
    }
}

/// 1-based line and character column of `span.start` in `source` (clamped).
fn line_column(source: &str, span: Span) -> (usize, usize) {
    let mut at = span.start.min(source.len());
    while !source.is_char_boundary(at) {
        at -= 1;
    }
    let before = &source[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        assert_eq!(line_column("ab\ncd", Span::new(4, 5)), (2, 2));
        assert_eq!(line_column("é\nxü y", Span::new(7, 8)), (2, 4));
        assert_eq!(line_column("", Span::new(9, 9)), (1, 1));
        assert_eq!(line_column("é", Span::new(1, 1)), (1, 1));
    }

    #[test]
    fn plural_words() {
        assert_eq!(plural(1, "error"), "1 error");
        assert_eq!(plural(2, "error"), "2 errors");
        assert_eq!(plural(0, "warning"), "0 warnings");
    }
}
