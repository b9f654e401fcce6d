//! The key under a diagram: one line per kind of marking, a swatch drawn as
//! the diagram draws it and a text saying what it means.

use super::writer::{Anchor, Svg};

/// Height of one legend line.
pub const LINE: f64 = 18.0;
/// Font size of legend texts.
const SIZE: f64 = 12.0;

/// How an entry's swatch is drawn.
#[derive(Clone, Debug)]
pub enum Swatch {
    /// A square filled with a translucent colour (a marked zone).
    Zone(String),
    /// A round marker with `class`, fill and outline, as on the cells.
    Marker {
        /// The marker's class (`quiet`, `capture`, …).
        class: &'static str,
        /// Its fill.
        fill: &'static str,
        /// Its outline.
        stroke: &'static str,
        /// Its radius.
        r: f64,
    },
    /// A line with `class`, colour and dash pattern (empty: solid).
    Line {
        /// The line's class (`ride`, `hop`).
        class: &'static str,
        /// Its colour.
        stroke: &'static str,
        /// Its dash pattern (empty: solid).
        dash: &'static str,
    },
    /// A small square with `class` and fill, as on the cells.
    Square {
        /// The square's class (`via`).
        class: &'static str,
        /// Its fill.
        fill: &'static str,
    },
    /// No swatch: a note.
    Note,
}

/// One line of a legend.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its swatch.
    pub swatch: Swatch,
    /// What it means.
    pub text: String,
}

/// An estimate of the width of `chars` characters of legend text.
fn text_width(chars: usize) -> f64 {
    chars as f64 * SIZE * 0.55
}

/// Breaks the entries' texts into lines (at spaces) so the legend fits in
/// `width` pixels, or as near as the longest word allows.
pub fn fit(entries: &mut [Entry], width: f64) {
    let max = ((width - 28.0) / text_width(1)).floor().max(24.0) as usize;
    for e in entries.iter_mut() {
        let mut lines: Vec<String> = Vec::new();
        for word in e.text.split_whitespace() {
            match lines.last_mut() {
                Some(line) if line.chars().count() + 1 + word.chars().count() <= max => {
                    line.push(' ');
                    line.push_str(word);
                }
                _ => lines.push(word.to_string()),
            }
        }
        e.text = lines.join("\n");
    }
}

/// An estimate of the width a legend needs (texts are not measured).
pub fn width(entries: &[Entry]) -> f64 {
    entries.iter().flat_map(|e| e.text.lines()).map(|l| 28.0 + text_width(l.chars().count())).fold(0.0, f64::max)
}

/// The height a legend of `entries` takes.
pub fn height(entries: &[Entry]) -> f64 {
    entries.iter().map(|e| e.text.lines().count().max(1)).sum::<usize>() as f64 * LINE
}

/// Draws `entries` from `(x, y)` (top-left) downwards.
pub fn draw(svg: &mut Svg, entries: &[Entry], x: f64, y: f64) {
    if entries.is_empty() {
        return;
    }
    svg.group("legend");
    let mut top = y;
    for e in entries {
        let mid = top + LINE / 2.0;
        match &e.swatch {
            Swatch::Zone(colour) => {
                svg.rect("key zone", (x + 2.0, mid - 6.0), (12.0, 12.0), colour, " fill-opacity=\"0.55\" stroke=\"#333\" stroke-width=\"0.5\"")
            }
            Swatch::Marker { class, fill, stroke, r } => {
                svg.circle(&format!("key {class}"), (x + 8.0, mid), *r, fill, &format!(" stroke=\"{stroke}\" stroke-width=\"1.5\""))
            }
            Swatch::Line { class, stroke, dash } => {
                let dash = if dash.is_empty() { String::new() } else { format!(" stroke-dasharray=\"{dash}\"") };
                svg.line(&format!("key {class}"), (x, mid), (x + 16.0, mid), stroke, 2.5, &dash)
            }
            Swatch::Square { class, fill } => {
                svg.rect(&format!("key {class}"), (x + 3.0, mid - 5.0), (10.0, 10.0), fill, " stroke=\"#fff\" stroke-width=\"1\"")
            }
            Swatch::Note => {}
        }
        for line in e.text.lines() {
            svg.text("key-text", (x + 22.0, top + LINE / 2.0 + SIZE * 0.35), SIZE, Anchor::Start, "#333", line);
            top += LINE;
        }
        if e.text.is_empty() {
            top += LINE;
        }
    }
    svg.end_group();
}
