//! Diagnostics to text: the one place a [`Diagnostic`] becomes an ariadne report.

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};

use crate::ast::Span;
use crate::diagnostic::{Diagnostic, Severity};

/// Renders `diag` against `source` (the text its spans point into) as an
/// ariadne report: kind by severity, code, message, the primary label, every
/// note as a further label, and the help line.
///
/// Spans are byte offsets (`IndexType::Byte`); spans beyond the text or inside
/// a character are clamped, so any diagnostic renders without panicking. With
/// `color` false the output is plain text (as in snapshots and logs).
pub fn render(diag: &Diagnostic, source: &str, color: bool) -> String {
    let file = diag.file.as_str();
    let (kind, primary) = match diag.severity {
        Severity::Error => (ReportKind::Error, Color::Red),
        Severity::Warning => (ReportKind::Warning, Color::Yellow),
        Severity::Note => (ReportKind::Advice, Color::Blue),
    };
    let range = clamp(diag.span, source);
    let config = Config::default()
        .with_index_type(IndexType::Byte)
        .with_color(color);
    let mut report = Report::build(kind, (file, range.clone()))
        .with_config(config)
        .with_code(diag.code)
        .with_message(&diag.message);
    // ariadne draws labels in the order given and starts a new section when a
    // label lies above the previous one, so add them top to bottom.
    let mut labels = vec![(range, diag.label.as_str(), primary)];
    for note in &diag.notes {
        labels.push((clamp(note.span, source), note.message.as_str(), Color::Blue));
    }
    labels.sort_by_key(|(r, _, _)| r.start);
    for (r, message, label_color) in labels {
        report = report.with_label(
            Label::new((file, r))
                .with_message(message)
                .with_color(label_color),
        );
    }
    if let Some(help) = &diag.help {
        report = report.with_help(help);
    }
    for detail in &diag.details {
        report = report.with_note(detail);
    }
    let mut out = Vec::new();
    if report
        .finish()
        .write((file, Source::from(source)), &mut out)
        .is_err()
    {
        return plain(diag);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Renders several diagnostics, one after the other. `source_of` gives the text
/// of a diagnostic's file by its name; a diagnostic whose text is unknown is
/// rendered without source lines.
pub fn render_all(
    diags: &[Diagnostic],
    source_of: impl Fn(&str) -> Option<String>,
    color: bool,
) -> String {
    let mut out = String::new();
    for diag in diags {
        match source_of(&diag.file) {
            Some(source) => out.push_str(&render(diag, &source, color)),
            None => out.push_str(&plain(diag)),
        }
    }
    out
}

/// A diagnostic as plain lines, for when its source text is not available.
fn plain(diag: &Diagnostic) -> String {
    let kind = match diag.severity {
        Severity::Error => "Error",
        Severity::Warning => "Warning",
        Severity::Note => "Note",
    };
    let mut out = format!(
        "[{}] {}: {}\n   ╭─[ {} {}..{} ]\n   │ {}\n",
        diag.code, kind, diag.message, diag.file, diag.span.start, diag.span.end, diag.label
    );
    for note in &diag.notes {
        out.push_str(&format!(
            "   │ {}..{}: {}\n",
            note.span.start, note.span.end, note.message
        ));
    }
    if let Some(help) = &diag.help {
        out.push_str(&format!("   │ Help: {help}\n"));
    }
    for detail in &diag.details {
        out.push_str(&format!("   │ Note: {detail}\n"));
    }
    out.push_str("───╯\n");
    out
}

/// `span` as a range inside `source`, on character boundaries, never backwards.
fn clamp(span: Span, source: &str) -> std::ops::Range<usize> {
    let floor = |mut p: usize| {
        p = p.min(source.len());
        while !source.is_char_boundary(p) {
            p -= 1;
        }
        p
    };
    let start = floor(span.start);
    let end = floor(span.end).max(start);
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_code_message_label_and_help() {
        let src = "piece King { }\n";
        let d = Diagnostic::error(
            "E0001",
            "x.rules",
            Span::new(11, 12),
            "unexpected `{`",
            "expected a letter",
        )
        .with_help("write a letter")
        .with_note(Span::new(0, 5), "here");
        let text = render(&d, src, false);
        assert!(text.contains("[E0001] Error: unexpected `{`"), "{text}");
        assert!(text.contains("expected a letter"), "{text}");
        assert!(text.contains("Help: write a letter"), "{text}");
        assert!(text.contains("here"), "{text}");
    }

    #[test]
    fn byte_spans_stay_put_after_non_ascii_text() {
        let src = "# Läufer ü\nfoo bar\n";
        let start = src.find("bar").unwrap();
        let d = Diagnostic::error(
            "E0001",
            "x.rules",
            Span::new(start, start + 3),
            "m",
            "LABEL",
        );
        let text = render(&d, src, false);
        // The underline sits under `bar` (column 5 of line 2).
        let line = text.lines().find(|l| l.contains("foo bar")).unwrap();
        let under = text
            .lines()
            .skip_while(|l| !l.contains("foo bar"))
            .nth(1)
            .unwrap();
        let col = line[..line.find("bar").unwrap()].chars().count();
        let marks: String = under.chars().skip(col).take(3).collect();
        assert_eq!(marks, "─┬─", "{text}");
        let before: String = under.chars().skip(col - 1).take(1).collect();
        assert_eq!(before, " ", "{text}");
        assert!(text.contains(":2:5"), "{text}");
    }

    #[test]
    fn bogus_spans_do_not_panic() {
        let src = "é";
        for (s, e) in [(0, 1), (5, 9), (2, 0), (1, 1)] {
            let d = Diagnostic::error("E0", "f", Span::new(s, e), "m", "l")
                .with_note(Span::new(e, s), "n");
            let _ = render(&d, "ab\ncd\n", true);
            let d = Diagnostic::error("E0", "f", Span::new(s, e), "m", "l");
            let _ = render(&d, src, true);
        }
        let _ = render(
            &Diagnostic::error("E0", "f", Span::new(3, 4), "m", "l"),
            "",
            false,
        );
        // Spans that end on or just after a line break, with multi-byte text about.
        let src = "aé\r\nbü\n\nc";
        for s in 0..=src.len() {
            for e in 0..=src.len() + 1 {
                let d = Diagnostic::error("E0", "f", Span::new(s, e), "m", "l")
                    .with_note(Span::new(e, s), "n");
                let _ = render(&d, src, false);
            }
        }
    }

    #[test]
    fn render_all_falls_back_to_plain_text() {
        let d = Diagnostic::error("E0101", "<--fen>", Span::new(0, 1), "bad", "here");
        let text = render_all(&[d], |_| None, false);
        assert!(text.contains("[E0101] Error: bad"), "{text}");
    }
}
