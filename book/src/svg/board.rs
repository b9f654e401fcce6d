//! A position as a diagram: the squares with their coordinates (level by
//! level on a board of three or more axes), the marked cells, the pieces,
//! and under the board the pieces in hand and a legend.

use super::layout::{self, Layout};
use super::legend::{self, Entry, Swatch};
use super::marks::Marks;
use super::pieces::{self, Face};
use super::writer::{attr, Anchor, Svg};
use rulebook_interpreter::engine::position::{color_of, kind_of, PROMOTED};
use rulebook_interpreter::engine::spread::Branch;
use rulebook_interpreter::model::Game;
use rulebook_interpreter::{Position, Variant};

/// Height of one row of pieces in hand.
const HAND_ROW: f64 = 30.0;
/// Radius of a piece in hand.
const HAND_R: f64 = 11.0;
/// Room for one kind in hand: its piece and its count.
const HAND_STEP: f64 = 2.0 * HAND_R + 24.0;
/// Colours of the halves of a piece standing on two squares.
const RED: &str = "#d62728";
/// See [`RED`].
const BLUE: &str = "#1f77b4";

/// The position `pos` of `v` as a standalone SVG document, with the cells of
/// `marks` highlighted and listed in a legend.
pub fn board(v: &Variant, pos: &Position, marks: &Marks) -> String {
    let game: &Game = &v.game;
    let geo = &game.geometry;
    let levels: Vec<usize> = (0..layout::level_count(geo)).collect();
    let lay = Layout::new(game, pos.frame.as_deref(), &levels, 0.0);
    let hands = hand_rows(game, pos);
    let mut entries = legend_entries(pos, marks);
    legend::fit(&mut entries, lay.width.max(360.0));
    let hand_top = lay.height;
    let legend_top = hand_top + hands.len() as f64 * HAND_ROW + 4.0;
    let hand_width = hands.iter().map(|(label, kinds)| hand_start(label) + kinds.len() as f64 * HAND_STEP + 8.0).fold(0.0, f64::max);
    let width = lay.width.max(legend::width(&entries) + 8.0).max(hand_width);
    let height = legend_top + legend::height(&entries) + 4.0;
    let label = format!("{}: {}", game.name, v.fen(pos));
    let mut svg = Svg::new(width, height, "rulebook-board", &label);
    lay.draw_squares(&mut svg);
    draw_marks(&mut svg, &lay, game, marks);
    draw_pieces(&mut svg, &lay, game, pos);
    draw_hands(&mut svg, game, &hands, hand_top);
    legend::draw(&mut svg, &entries, 4.0, legend_top);
    svg.finish()
}

/// The marked cells, translucent over the squares.
fn draw_marks(svg: &mut Svg, lay: &Layout, game: &Game, marks: &Marks) {
    if marks.is_empty() {
        return;
    }
    svg.group("marks");
    for (i, mark) in marks.sets.iter().enumerate() {
        let mut cells = mark.cells.clone();
        cells.sort_unstable();
        cells.dedup();
        for cell in cells {
            if !game.geometry.on_board.get(cell as usize).copied().unwrap_or(false) {
                continue;
            }
            let Some((x, y)) = lay.corner(cell) else { continue };
            let extra = format!("{}{} fill-opacity=\"0.55\"", attr("data-mark", &i.to_string()), attr("data-cell", &game.geometry.name(cell)));
            svg.rect("mark", (x, y), (lay.cell, lay.cell), &mark.colour, &extra);
        }
    }
    svg.end_group();
}

/// Every piece on the board; face-down pieces dashed, the halves of a piece
/// on two squares with a red or blue ring.
fn draw_pieces(svg: &mut Svg, lay: &Layout, game: &Game, pos: &Position) {
    let geo = &game.geometry;
    svg.group("pieces");
    for cell in geo.board_cells() {
        let code = pos.board[cell as usize];
        if code == 0 {
            continue;
        }
        if code == rulebook_interpreter::engine::position::WALL {
            // A wall (duck chess, amazons): a dark square inset in its cell.
            if let Some((x, y)) = lay.corner(cell) {
                let inset = lay.cell * 0.15;
                svg.rect("wall", (x + inset, y + inset), (lay.cell - 2.0 * inset, lay.cell - 2.0 * inset), "#444", &attr("data-cell", &geo.name(cell)));
            }
            continue;
        }
        let Some((x, y)) = lay.centre(cell) else { continue };
        let (kind, color) = (kind_of(code), color_of(code));
        let mut class = String::from("piece");
        if code & PROMOTED != 0 {
            class.push_str(" promoted");
        }
        if pos.is_hidden(cell) {
            class.push_str(" hidden");
        }
        let half = pos.spread.as_ref().and_then(|s| s.pair_at(cell)).and_then(|p| p.branch_at(cell));
        let r = lay.cell * 0.38;
        if let Some(branch) = half {
            let (name, colour) = match branch {
                Branch::Red => ("half red", RED),
                Branch::Blue => ("half blue", BLUE),
            };
            svg.circle(name, (x, y), r + 2.5, "none", &format!(" stroke=\"{colour}\" stroke-width=\"3\""));
        }
        let extra = attr("data-cell", &geo.name(cell));
        let letter = pieces::letter(game, kind, color);
        pieces::draw(svg, &class, (x, y), r, Face { color, letter: &letter, dashed: pos.is_hidden(cell) }, &extra);
    }
    svg.end_group();
}

/// Per player with a hand (or in a variant with hands): the row's label and
/// the kinds in hand with their counts.
fn hand_rows(game: &Game, pos: &Position) -> Vec<(String, Vec<(u8, u8)>)> {
    let any = pos.hand.iter().any(|h| h.iter().any(|&n| n > 0));
    if game.hand.is_none() && !any {
        return Vec::new();
    }
    (0..2u8)
        .map(|color| {
            let kinds = (0..game.kinds.len().min(64))
                .filter_map(|k| {
                    let n = pos.hand[color as usize][k];
                    (n > 0).then_some((k as u8, n))
                })
                .collect();
            let name = game.players.get(color as usize).map(|p| p.name.as_str()).unwrap_or("?");
            (format!("{name} in hand:"), kinds)
        })
        .collect()
}

/// Where the pieces of a row of pieces in hand begin, after its label.
fn hand_start(label: &str) -> f64 {
    16.0 + label.chars().count() as f64 * 6.6
}

/// The rows of pieces in hand: one circle per kind, with its count.
fn draw_hands(svg: &mut Svg, game: &Game, rows: &[(String, Vec<(u8, u8)>)], top: f64) {
    if rows.is_empty() {
        return;
    }
    svg.group("hands");
    for (color, (label, kinds)) in rows.iter().enumerate() {
        let color = color as u8;
        let mid = top + color as f64 * HAND_ROW + HAND_ROW / 2.0;
        svg.text("hand-label", (4.0, mid + 4.0), 12.0, Anchor::Start, layout::INK, label);
        let mut x = hand_start(label);
        if kinds.is_empty() {
            svg.text("hand-empty", (x, mid + 4.0), 12.0, Anchor::Start, layout::INK, "none");
        }
        for &(kind, n) in kinds {
            let letter = pieces::letter(game, kind, color);
            let extra = attr("data-count", &n.to_string());
            pieces::draw(svg, "hand", (x + HAND_R, mid), HAND_R, Face { color, letter: &letter, dashed: false }, &extra);
            if n > 1 {
                svg.text("count", (x + 2.0 * HAND_R + 2.0, mid + 4.0), 11.0, Anchor::Start, layout::INK, &format!("×{n}"));
            }
            x += HAND_STEP;
        }
    }
    svg.end_group();
}

/// The legend: one line per mark, and notes for face-down and spread pieces.
fn legend_entries(pos: &Position, marks: &Marks) -> Vec<Entry> {
    let mut entries: Vec<Entry> = marks.sets.iter().map(|m| Entry { swatch: Swatch::Zone(m.colour.clone()), text: m.label.clone() }).collect();
    if pos.any_hidden() {
        entries.push(Entry { swatch: Swatch::Note, text: "dashed circle: face down; it moves as the piece shown".into() });
    }
    if pos.spread.as_ref().is_some_and(|s| !s.pairs.is_empty()) {
        entries.push(Entry { swatch: Swatch::Note, text: "red and blue rings: the two halves of a piece on two squares".into() });
    }
    entries
}
