//! One piece's movement as a diagram: the piece alone on an empty board,
//! with a marker on every cell it reaches (quiet, capture, both, or only by
//! a part limited to a start zone), lines along its rides and hops, the
//! cells a leap `via step` passes, a caption and a legend.

use super::layout::{self, Layout};
use super::legend::{self, Entry, Swatch};
use super::pieces::{self, Face};
use super::reach::{self, HopRule, Line, LineKind, Reach};
use super::writer::{attr, Anchor, Svg};
use rulebook_interpreter::model::geometry::Geometry;
use rulebook_interpreter::model::{Game, KindId};
use rulebook_interpreter::Variant;

/// Height of the caption above the board.
const CAPTION: f64 = 22.0;

/// Marker colours (fill, outline) per class.
const QUIET: (&str, &str) = ("#2b8a3e", "#fff");
/// See [`QUIET`].
const CAPTURE: (&str, &str) = ("#c92a2a", "#fff");
/// See [`QUIET`].
const BOTH: (&str, &str) = ("#6741d9", "#fff");
/// See [`QUIET`].
const INITIAL: (&str, &str) = ("#fff", "#2b8a3e");
/// Colour of the lines along rides and hops.
const LINE: &str = "#555";
/// Colour of `via step` markers.
const VIA: &str = "#e67700";

/// The movement of `kind` as a standalone SVG document: the piece (the first
/// player's) on the central cell of an empty board, or on a cell of its start
/// zone when it has moves only from there. On a board of three or more axes
/// the piece's level is shown, or every level when its moves leave it.
/// `None` when the kind does not exist or has no movement parts.
pub fn movement(v: &Variant, kind: KindId) -> Option<String> {
    let game: &Game = &v.game;
    let piece = game.kinds.get(kind as usize)?;
    if piece.parts.is_empty() {
        return None;
    }
    let geo = &game.geometry;
    let origin = reach::origin(game, kind)?;
    let r = reach::reach(game, kind, origin);
    let home = layout::level_of(geo, origin);
    let leaves = r.targets.keys().chain(&r.via).chain(r.lines.iter().flat_map(|l| &l.cells)).any(|&c| layout::level_of(geo, c) != home);
    let levels: Vec<usize> = if leaves { (0..layout::level_count(geo)).collect() } else { vec![home] };
    let lay = Layout::new(game, None, &levels, CAPTION);
    let caption = caption(game, kind, &r);
    let mut entries = legend_entries(&r);
    if r.lines.iter().any(|l| l.kind != LineKind::Hop && !flat(geo, home, l)) {
        let text = "lines to other levels are not drawn: the markers there show where those rides reach";
        entries.push(Entry { swatch: Swatch::Note, text: text.into() });
    }
    legend::fit(&mut entries, lay.width.max(360.0));
    let width = lay.width.max(legend::width(&entries) + 8.0).max(caption.chars().count() as f64 * 7.5 + 8.0);
    let legend_top = CAPTION + lay.height;
    let height = legend_top + legend::height(&entries) + 4.0;
    let mut svg = Svg::new(width, height, "rulebook-movement", &caption);
    svg.text("caption", (4.0, 15.0), 13.0, Anchor::Start, layout::INK, &caption);
    lay.draw_squares(&mut svg);
    draw_lines(&mut svg, &lay, game, &r);
    draw_markers(&mut svg, &lay, game, &r);
    if let Some((x, y)) = lay.centre(origin) {
        let extra = attr("data-cell", &geo.name(origin));
        let letter = pieces::letter(game, kind, 0);
        pieces::draw(&mut svg, "piece", (x, y), lay.cell * 0.38, Face { color: 0, letter: &letter, dashed: false }, &extra);
    }
    legend::draw(&mut svg, &entries, 4.0, legend_top);
    Some(svg.finish())
}

/// `Rook on d4`, and why the cell was chosen when it is not the centre. The
/// piece is always the first player's.
fn caption(game: &Game, kind: KindId, r: &Reach) -> String {
    let name = game.kinds.get(kind as usize).map(|k| k.name.as_str()).unwrap_or("?");
    let cell = game.geometry.name(r.origin);
    if r.has_initial {
        format!("{name} on {cell}, in its start zone")
    } else {
        format!("{name} on {cell}")
    }
}

/// Lines along rides (solid; dashed green for a start-zone ride) and hops
/// (dashed). A line that leaves the level cannot be drawn across panels: its
/// cells keep their markers, and a hop's cells get small rings.
fn draw_lines(svg: &mut Svg, lay: &Layout, game: &Game, r: &Reach) {
    let geo = &game.geometry;
    let home = layout::level_of(geo, r.origin);
    let Some(start) = lay.centre(r.origin) else { return };
    let mut seen = Vec::new();
    svg.group("lines");
    for line in &r.lines {
        if seen.contains(&line) {
            continue;
        }
        seen.push(line);
        let (class, stroke, dash) = match line.kind {
            LineKind::Ride => ("ride", LINE, ""),
            LineKind::Initial => ("ride initial", INITIAL.1, " stroke-dasharray=\"5 3\""),
            LineKind::Hop => ("hop", LINE, " stroke-dasharray=\"2 4\""),
        };
        let end = line.cells.last().and_then(|&c| lay.centre(c));
        match end {
            Some(end) if flat(geo, home, line) => {
                // A hop along a ride's line is drawn beside it, not under it.
                let shared = line.kind == LineKind::Hop && r.lines.iter().any(|l| l.kind != LineKind::Hop && l.cells.first() == line.cells.first());
                let (from, to) = if shared { beside(start, end, lay.cell * 0.15) } else { (start, end) };
                let extra = format!("{dash} stroke-linecap=\"round\"{}", attr("data-to", &geo.name(line.cells[line.cells.len() - 1])));
                svg.line(class, from, to, stroke, (lay.cell * 0.08).max(2.0), &extra);
            }
            _ if line.kind == LineKind::Hop => {
                for &c in &line.cells {
                    let Some((x, y)) = lay.centre(c) else { continue };
                    let extra = format!(" stroke=\"{LINE}\" stroke-width=\"1\"{dash}{}", attr("data-cell", &geo.name(c)));
                    svg.circle("hop", (x, y), lay.cell * 0.3, "none", &extra);
                }
            }
            _ => {}
        }
    }
    svg.end_group();
}

/// Does `line` stay on the level `home`?
fn flat(geo: &Geometry, home: usize, line: &Line) -> bool {
    line.cells.iter().all(|&c| layout::level_of(geo, c) == home)
}

/// The segment `from`–`to` moved sideways by `by` (to its left).
fn beside(from: (f64, f64), to: (f64, f64), by: f64) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ox, oy) = (dy / len * by, -dx / len * by);
    ((from.0 + ox, from.1 + oy), (to.0 + ox, to.1 + oy))
}

/// One marker per reached cell, and the small `via step` markers.
fn draw_markers(svg: &mut Svg, lay: &Layout, game: &Game, r: &Reach) {
    let geo = &game.geometry;
    svg.group("targets");
    for (&cell, t) in &r.targets {
        let Some((x, y)) = lay.centre(cell) else { continue };
        let class = t.class();
        let (fill, stroke) = colours(class);
        let extra = format!(" stroke=\"{stroke}\" stroke-width=\"2\"{}", attr("data-cell", &geo.name(cell)));
        svg.circle(class, (x, y), lay.cell * 0.2, fill, &extra);
    }
    for &cell in &r.via {
        let Some((x, y)) = lay.centre(cell) else { continue };
        let extra = format!(" stroke=\"#fff\" stroke-width=\"1\"{}", attr("data-cell", &geo.name(cell)));
        let s = lay.cell * 0.24;
        svg.rect("via", (x - s / 2.0, y - s / 2.0), (s, s), VIA, &extra);
    }
    svg.end_group();
}

/// Fill and outline of a marker class.
fn colours(class: &str) -> (&'static str, &'static str) {
    match class {
        "quiet" => QUIET,
        "capture" => CAPTURE,
        "both" => BOTH,
        _ => INITIAL,
    }
}

/// The legend: only the kinds of marking the diagram uses.
fn legend_entries(r: &Reach) -> Vec<Entry> {
    let mut entries = Vec::new();
    let marker = |class: &'static str, text: &str| {
        let (fill, stroke) = colours(class);
        Entry { swatch: Swatch::Marker { class, fill, stroke, r: 5.0 }, text: text.to_string() }
    };
    let has = |class: &str| r.targets.values().any(|t| t.class() == class);
    if has("quiet") {
        entries.push(marker("quiet", "moves here, only if the cell is empty"));
    }
    if has("capture") {
        entries.push(marker("capture", "captures here, only an enemy piece"));
    }
    if has("both") {
        entries.push(marker("both", "moves or captures here"));
    }
    if has("initial") {
        entries.push(marker("initial", "only from its start zone (initial move)"));
    }
    if r.lines.iter().any(|l| l.kind == LineKind::Ride) {
        let text = "rides: along the line, every cell up to the first piece in the way";
        entries.push(Entry { swatch: Swatch::Line { class: "ride", stroke: LINE, dash: "" }, text: text.into() });
    }
    if r.lines.iter().any(|l| l.kind == LineKind::Initial) {
        let text = "initial ride: the cells on the way must be empty";
        entries.push(Entry { swatch: Swatch::Line { class: "ride initial", stroke: INITIAL.1, dash: "5 3" }, text: text.into() });
    }
    for hop in &r.hops {
        entries.push(Entry { swatch: Swatch::Line { class: "hop", stroke: LINE, dash: "2 4" }, text: hop_text(hop) });
    }
    if !r.via.is_empty() {
        let text = "the cell its leap passes: it can be seen there, but is not blocked";
        entries.push(Entry { swatch: Swatch::Square { class: "via", fill: VIA }, text: text.into() });
    }
    entries
}

/// What a hop does, in words.
fn hop_text(hop: &HopRule) -> String {
    let what = match (hop.quiet, hop.capture) {
        (true, true) => "moves or captures",
        (true, false) => "moves (no capture)",
        _ => "captures",
    };
    let beyond = match hop.beyond {
        Some(1) => "on the cell just beyond it".to_string(),
        Some(n) => format!("up to {n} cells beyond it"),
        None => "any distance beyond it, up to the next piece".to_string(),
    };
    format!("hops: {what} over a screen (the first piece on the line), landing {beyond}")
}
