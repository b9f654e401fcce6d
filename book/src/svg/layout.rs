//! Where each cell is drawn. A 2D board is one panel; a board with more axes
//! is cut into levels (one panel per combination of the coordinates beyond
//! file and rank), laid out side by side in rows, each with a caption. File 0
//! is on the left and rank 0 at the bottom (the first player's view). When
//! levels have slid out of the shaft (`slide`), a cell is drawn at its
//! absolute position and every panel is widened to hold the levels' reach.

use super::writer::{attr, Anchor, Svg};
use rulebook_interpreter::engine::frame::{self, Frame};
use rulebook_interpreter::model::geometry::{Cell, Geometry};
use rulebook_interpreter::model::Game;

/// The widest a row of level panels is allowed to grow, in pixels.
const MAX_ROW_WIDTH: f64 = 960.0;

/// Light and dark square colours.
pub const LIGHT: &str = "#eeeed2";
/// See [`LIGHT`].
pub const DARK: &str = "#9bb57a";
/// Colour of coordinates and captions.
pub const INK: &str = "#333";

/// One drawn level: its index and the top-left corner of its squares.
#[derive(Clone, Debug)]
pub struct Panel {
    /// The level (`cell / (files × ranks)`).
    pub level: usize,
    /// Left edge of its squares.
    pub x: f64,
    /// Top edge of its squares.
    pub y: f64,
}

/// The placement of the shown levels and their cells.
pub struct Layout<'a> {
    game: &'a Game,
    frame: Option<&'a Frame>,
    /// The side of a square.
    pub cell: f64,
    /// The panels, in level order.
    pub panels: Vec<Panel>,
    /// Total width of the panels with their labels.
    pub width: f64,
    /// Total height, from `top`, of the panels with their labels.
    pub height: f64,
    /// Lowest and highest absolute coordinate drawn on axes 0 and 1.
    span: [(i64, i64); 2],
}

/// Size of axis `a`, 1 for an axis the board does not have.
fn size(geo: &Geometry, a: usize) -> usize {
    if a < geo.dims() {
        geo.size(a).max(1)
    } else {
        1
    }
}

/// Files × ranks: the cells of one level.
pub fn level_cells(geo: &Geometry) -> usize {
    size(geo, 0) * size(geo, 1)
}

/// Number of levels (1 for a 2D board).
pub fn level_count(geo: &Geometry) -> usize {
    (2..geo.dims()).map(|a| size(geo, a)).product::<usize>().max(1)
}

/// The level `cell` is on.
pub fn level_of(geo: &Geometry, cell: Cell) -> usize {
    cell as usize / level_cells(geo)
}

/// A level's caption: each axis beyond file and rank with its label
/// (`level C`, `level B, time 2`); empty for a 2D board.
pub fn caption(geo: &Geometry, level: usize) -> String {
    let mut rest = level;
    let mut words = Vec::new();
    for a in 2..geo.dims() {
        let n = size(geo, a);
        let axis = &geo.axes[a];
        words.push(format!("{} {}", axis.name, axis.labels.get(rest % n).map(String::as_str).unwrap_or("?")));
        rest /= n;
    }
    words.join(", ")
}

/// Is the board drawn as several levels?
pub fn is_layered(geo: &Geometry) -> bool {
    geo.dims() > 2
}

impl<'a> Layout<'a> {
    /// Lays out `levels` (in the order given) of `game`'s board, starting at `top`.
    pub fn new(game: &'a Game, frame: Option<&'a Frame>, levels: &[usize], top: f64) -> Layout<'a> {
        let geo = &game.geometry;
        let mut span = [(0i64, size(geo, 0) as i64 - 1), (0i64, size(geo, 1) as i64 - 1)];
        if frame.is_some() {
            for c in geo.board_cells() {
                let abs = frame::absolute(game, frame, c);
                for (a, s) in span.iter_mut().enumerate() {
                    let v = abs.get(a).copied().unwrap_or(0);
                    *s = (s.0.min(v), s.1.max(v));
                }
            }
        }
        let cols = (span[0].1 - span[0].0 + 1) as f64;
        let rows = (span[1].1 - span[1].0 + 1) as f64;
        let layered = is_layered(geo);
        let cell = if layered { (200.0 / cols).clamp(14.0, 28.0) } else { (640.0 / cols).clamp(20.0, 40.0) };
        let mut layout = Layout { game, frame, cell, panels: Vec::new(), width: 0.0, height: 0.0, span };
        let panel_w = layout.left() + cols * cell + layout.gap();
        let panel_h = layout.caption_height() + rows * cell + layout.bottom() + layout.gap();
        let per_row = ((MAX_ROW_WIDTH / panel_w).floor() as usize).max(1);
        for (i, &level) in levels.iter().enumerate() {
            let (col, row) = (i % per_row, i / per_row);
            layout.panels.push(Panel { level, x: col as f64 * panel_w + layout.left(), y: top + row as f64 * panel_h + layout.caption_height() });
        }
        let shown_cols = levels.len().min(per_row).max(1) as f64;
        let shown_rows = levels.len().div_ceil(per_row).max(1) as f64;
        layout.width = shown_cols * panel_w;
        layout.height = shown_rows * panel_h;
        layout
    }

    /// Room left of a panel for the rank labels.
    fn left(&self) -> f64 {
        (self.cell * 0.6).max(16.0)
    }

    /// Room under a panel for the file labels.
    fn bottom(&self) -> f64 {
        (self.cell * 0.5).max(14.0)
    }

    /// Room between panels.
    fn gap(&self) -> f64 {
        if is_layered(&self.game.geometry) {
            (self.cell * 0.5).max(10.0)
        } else {
            4.0
        }
    }

    /// Room above a panel for its caption.
    fn caption_height(&self) -> f64 {
        if is_layered(&self.game.geometry) {
            16.0
        } else {
            4.0
        }
    }

    /// Font size of coordinates.
    pub fn label_size(&self) -> f64 {
        (self.cell * 0.35).clamp(9.0, 13.0)
    }

    /// The top-left corner of `cell`, if its level is shown.
    pub fn corner(&self, cell: Cell) -> Option<(f64, f64)> {
        let geo = &self.game.geometry;
        let panel = self.panels.iter().find(|p| p.level == level_of(geo, cell))?;
        let abs = frame::absolute(self.game, self.frame, cell);
        let x = abs.first().copied().unwrap_or(0) - self.span[0].0;
        let y = self.span[1].1 - abs.get(1).copied().unwrap_or(0);
        Some((panel.x + x as f64 * self.cell, panel.y + y as f64 * self.cell))
    }

    /// The centre of `cell`, if its level is shown.
    pub fn centre(&self, cell: Cell) -> Option<(f64, f64)> {
        self.corner(cell).map(|(x, y)| (x + self.cell / 2.0, y + self.cell / 2.0))
    }

    /// Draws the squares of the shown levels (holes are left out), their
    /// coordinates, captions and, where levels slid, the shaft's outline.
    pub fn draw_squares(&self, svg: &mut Svg) {
        let geo = &self.game.geometry;
        svg.group("board");
        for cell in geo.board_cells() {
            let Some((x, y)) = self.corner(cell) else { continue };
            let dark = geo.coords(cell).iter().sum::<usize>() % 2 == 0;
            let (class, fill) = if dark { ("square dark", DARK) } else { ("square light", LIGHT) };
            let extra = attr("data-cell", &geo.name(cell));
            svg.rect(class, (x, y), (self.cell, self.cell), fill, &extra);
        }
        svg.end_group();
        self.draw_labels(svg);
    }

    /// Coordinates around each panel (file labels under it, rank labels to
    /// its left) and, on a layered board, the caption above it.
    fn draw_labels(&self, svg: &mut Svg) {
        let geo = &self.game.geometry;
        let size_px = self.label_size();
        let files = geo.axes.first().map(|a| a.labels.as_slice()).unwrap_or(&[]);
        let ranks = geo.axes.get(1).map(|a| a.labels.as_slice()).unwrap_or(&[]);
        let rows = (self.span[1].1 - self.span[1].0 + 1) as f64;
        svg.group("coords");
        for p in &self.panels {
            for (i, label) in files.iter().enumerate() {
                let x = p.x + (i as i64 - self.span[0].0) as f64 * self.cell + self.cell / 2.0;
                svg.text("file", (x, p.y + rows * self.cell + size_px + 2.0), size_px, Anchor::Middle, INK, label);
            }
            for (i, label) in ranks.iter().enumerate() {
                let y = p.y + (self.span[1].1 - i as i64) as f64 * self.cell + self.cell / 2.0 + size_px * 0.35;
                svg.text("rank", (p.x - 3.0, y), size_px, Anchor::End, INK, label);
            }
            if is_layered(geo) {
                svg.text("caption", (p.x, p.y - 4.0), 12.0, Anchor::Start, INK, &caption(geo, p.level));
            }
            if self.span != [(0, files.len() as i64 - 1), (0, ranks.len() as i64 - 1)] {
                // The shaft: where the levels stand at rest.
                let (x, y) = (p.x - self.span[0].0 as f64 * self.cell, p.y + (self.span[1].1 - ranks.len() as i64 + 1) as f64 * self.cell);
                let extra = format!(" stroke=\"{INK}\" stroke-dasharray=\"4 3\"");
                svg.rect("shaft", (x, y), (files.len() as f64 * self.cell, ranks.len() as f64 * self.cell), "none", &extra);
            }
        }
        svg.end_group();
    }
}
