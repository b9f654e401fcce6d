//! Board diagrams for reports: a position as text, one block per level of a
//! board with more than two axes, the highest rank on top.

use rulebook_interpreter::text::notation::piece_letter;
use rulebook_interpreter::{Position, Variant};

/// The position as a text diagram: rank labels on the left, file labels
/// below, `.` for an empty square, a space for a hole, then who is to move
/// and any pieces in hand.
pub fn diagram(v: &Variant, pos: &Position) -> String {
    let geo = &v.game.geometry;
    let dims = geo.dims();
    let files = geo.size(0);
    let ranks = geo.size(1);
    let levels: usize = (2..dims).map(|a| geo.size(a)).product();
    let width = geo.axes[1].labels.iter().map(|l| l.len()).max().unwrap_or(1);
    let mut out = String::new();
    for level in (0..levels).rev() {
        if dims > 2 {
            // The level's labels, highest axis first.
            let mut rest = level;
            let mut names = Vec::new();
            for a in 2..dims {
                let size = geo.size(a);
                names.push(format!("{} {}", geo.axes[a].name, geo.axes[a].labels[rest % size]));
                rest /= size;
            }
            out.push_str(&format!("{}:\n", names.join(", ")));
        }
        for rank in (0..ranks).rev() {
            out.push_str(&format!("{:>width$} ", geo.axes[1].labels[rank]));
            for file in 0..files {
                let mut coords = vec![file as i64, rank as i64];
                let mut rest = level;
                for a in 2..dims {
                    coords.push((rest % geo.size(a)) as i64);
                    rest /= geo.size(a);
                }
                let ch = match geo.cell(&coords) {
                    Some(c) if geo.on_board[c as usize] => {
                        let code = pos.board[c as usize];
                        if code == 0 {
                            '.'
                        } else {
                            piece_letter(v, code)
                        }
                    }
                    _ => ' ',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push('\n');
        }
        out.push_str(&" ".repeat(width + 1));
        for label in &geo.axes[0].labels {
            out.push(' ');
            out.push_str(label);
        }
        out.push('\n');
    }
    out.push_str(&format!("{} to move", v.game.players[pos.side as usize].name));
    if v.game.hand.is_some() {
        for (p, player) in v.game.players.iter().enumerate() {
            let held: String = v
                .game
                .kinds
                .iter()
                .enumerate()
                .flat_map(|(k, kind)| std::iter::repeat_n(kind.letter, pos.hand[p][k] as usize))
                .collect();
            if !held.is_empty() {
                out.push_str(&format!("; {} holds {held}", player.name));
            }
        }
    }
    out
}
