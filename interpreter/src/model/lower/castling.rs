//! The `castling` item.

use super::*;

pub(super) fn lower_castling(cx: &mut Cx, c: From<ast::Castling>) -> Option<CastlingRule> {
    let king = cx.kind(c.file, &c.node.king);
    let rook = cx.kind(c.file, &c.node.rook);
    let mut sides = Vec::new();
    for side in &c.node.sides {
        let short = match side.name.node.as_str() {
            "short" => true,
            "long" => false,
            other => {
                cx.diags.push(
                    Diagnostic::error("E0121", c.file, side.name.span, format!("`{other}` is not a castling side"), "expected `short` or `long`")
                        .with_help("`short` castles with the partner on the higher files, `long` with the one on the lower files"),
                );
                continue;
            }
        };
        // A side written twice is kept: both definitions share the side's
        // castling right, and `rulebook check` reports the ambiguity.
        let kt = cx.square(c.file, &side.king_to);
        let rt = cx.square(c.file, &side.rook_to);
        let from = match &side.rook_from {
            Some(sq) => match cx.square(c.file, sq) {
                Some(cell) => Some(cell),
                None => continue,
            },
            None => None,
        };
        if let (Some(kt), Some(rt)) = (kt, rt) {
            if cx.geometry.coords(kt)[1..] != cx.geometry.coords(rt)[1..] {
                cx.diags.push(
                    Diagnostic::error("E0121", c.file, Span::new(side.king_to.span.start, side.rook_to.span.end), "king and partner must end on one rank", "different ranks")
                        .with_help("castling moves both pieces along their rank: give destinations on the same rank, e.g. `king to g1, rook to f1`"),
                );
                continue;
            }
            let mirror = |cell: Cell, p: usize| -> Cell {
                let geo = cx.geometry;
                let coords: Vec<i64> = geo
                    .coords(cell)
                    .iter()
                    .enumerate()
                    .map(|(a, &x)| if cx.players[p].orientation[a] < 0 { (geo.size(a) - 1 - x) as i64 } else { x as i64 })
                    .collect();
                geo.cell(&coords).unwrap_or(cell)
            };
            let rook_from = from.map(|f| [f, mirror(f, 1)]);
            sides.push(CastlingSide { short, king_to: [kt, mirror(kt, 1)], rook_to: [rt, mirror(rt, 1)], rook_from, span: side.span });
        }
    }
    let more: Vec<Option<KindId>> = c.node.more_partners.iter().map(|p| cx.kind(c.file, p)).collect();
    let rook = rook?;
    let mut partners = vec![rook];
    partners.extend(more.into_iter().collect::<Option<Vec<KindId>>>()?);
    Some(CastlingRule { king: king?, rook, partners, sides, span: c.node.span, file: c.file.to_string() })
}
