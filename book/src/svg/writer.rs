//! Writing SVG text: XML escaping, compact numbers and the handful of
//! elements the diagrams use, each written with its attributes in a fixed
//! order so the same drawing always gives the same string.

use std::fmt::Write as _;

/// The font every diagram names: a generic family, so no font is fetched.
pub const FONT: &str = "sans-serif";

/// Escapes `text` for XML character data and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newline are not XML 1.0.
            c if c.is_control() && c != '\t' && c != '\n' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate rounded to one decimal, without a trailing `.0`.
pub fn num(x: f64) -> String {
    let tenths = (x * 10.0).round() as i64;
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        let sign = if tenths < 0 { "-" } else { "" };
        let t = tenths.abs();
        format!("{sign}{}.{}", t / 10, t % 10)
    }
}

/// An SVG document being written.
pub struct Svg {
    out: String,
}

/// How a text is anchored horizontally.
#[derive(Clone, Copy)]
pub enum Anchor {
    /// At its start.
    Start,
    /// At its middle.
    Middle,
    /// At its end.
    End,
}

impl Anchor {
    fn word(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

impl Svg {
    /// Opens a standalone document `width` × `height` (user units = pixels),
    /// labelled `label` for assistive technology and with `label` as its title.
    pub fn new(width: f64, height: f64, class: &str, label: &str) -> Svg {
        let (w, h) = (num(width.max(1.0)), num(height.max(1.0)));
        let label = escape(label);
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             role=\"img\" aria-label=\"{label}\" font-family=\"{FONT}\"><title>{label}</title>"
        );
        Svg { out }
    }

    /// Opens a group with `class`.
    pub fn group(&mut self, class: &str) {
        let _ = write!(self.out, "<g class=\"{}\">", escape(class));
    }

    /// Closes the innermost group.
    pub fn end_group(&mut self) {
        self.out.push_str("</g>");
    }

    /// A rectangle; `extra` is written as is (already escaped attributes).
    /// `at` is the top-left corner and `size` the width and height.
    pub fn rect(&mut self, class: &str, at: (f64, f64), size: (f64, f64), fill: &str, extra: &str) {
        let ((x, y), (w, h)) = (at, size);
        let _ = write!(
            self.out,
            "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{extra}/>",
            escape(class),
            num(x),
            num(y),
            num(w),
            num(h),
            escape(fill)
        );
    }

    /// A circle; `extra` is written as is (already escaped attributes).
    pub fn circle(&mut self, class: &str, centre: (f64, f64), r: f64, fill: &str, extra: &str) {
        let (cx, cy) = centre;
        let _ = write!(
            self.out,
            "<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"{extra}/>",
            escape(class),
            num(cx),
            num(cy),
            num(r),
            escape(fill)
        );
    }

    /// A line; `extra` is written as is (already escaped attributes).
    pub fn line(&mut self, class: &str, from: (f64, f64), to: (f64, f64), stroke: &str, width: f64, extra: &str) {
        let _ = write!(
            self.out,
            "<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{extra}/>",
            escape(class),
            num(from.0),
            num(from.1),
            num(to.0),
            num(to.1),
            escape(stroke),
            num(width)
        );
    }

    /// A text at `at` (its baseline's anchor point), `size` pixels high.
    pub fn text(&mut self, class: &str, at: (f64, f64), size: f64, anchor: Anchor, fill: &str, text: &str) {
        let (x, y) = at;
        let _ = write!(
            self.out,
            "<text class=\"{}\" x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\">{}</text>",
            escape(class),
            num(x),
            num(y),
            num(size),
            anchor.word(),
            escape(fill),
            escape(text)
        );
    }

    /// Closes the document and returns its text.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// An attribute ` name="value"` with `value` escaped, for the `extra` arguments.
pub fn attr(name: &str, value: &str) -> String {
    format!(" {name}=\"{}\"", escape(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.04), "12");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(-0.5), "-0.5");
        assert_eq!(num(-3.0), "-3");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
