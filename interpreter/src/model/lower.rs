//! Lowering: from syntax trees to the semantic model. Resolves names, applies
//! inheritance (`extends`, overrides, `without`), expands movement atoms into
//! absolute vectors per player, and turns zones into cell sets. Every problem
//! is a [`Diagnostic`] pointing into the file that caused it.

use crate::text::fen::{self, FenSource};
use crate::model::geometry::{AxisInfo, Cell, Geometry, MAX_CELLS};
use crate::model::*;
use crate::engine::tables::{self, Tables};
use rulebook_grammar::ast::{self, Span, Spanned};
use rulebook_grammar::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};

/// A parsed file with the name its diagnostics use.
pub struct SourceTree<'a> {
    /// The file's name (path as given).
    pub name: &'a str,
    /// Its syntax tree.
    pub tree: &'a ast::File,
}

/// An item of the inheritance chain, with the file it came from.
struct From<'a, T> {
    file: &'a str,
    node: &'a T,
}

impl<T> Clone for From<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for From<'_, T> {}

/// Everything the chain of files says, latest word first resolved.
#[derive(Default)]
struct Draft<'a> {
    name: Option<From<'a, Spanned<String>>>,
    board: Option<From<'a, ast::Board>>,
    players: Option<From<'a, ast::Players>>,
    pieces: Vec<From<'a, ast::PieceDef>>,
    promotion: Option<From<'a, ast::Promotion>>,
    castling: Option<From<'a, ast::Castling>>,
    setup: Option<From<'a, Spanned<String>>>,
    end: Option<From<'a, ast::End>>,
    hand: Option<From<'a, ast::Hand>>,
    rulings: Vec<From<'a, ast::Ruling>>,
    claims: Vec<From<'a, ast::Claim>>,
    /// Pieces removed by `without piece`: (name, the file that removes it).
    removed: Vec<(&'a str, &'a str)>,
    /// The `hidden` block, if any.
    hidden: Option<Dropping<'a, ast::Hidden>>,
    /// The letter sets, in the order first defined.
    letter_sets: Vec<Dropping<'a, ast::LetterSetDef>>,
    /// The dice, in the order first declared (a child's die of the same name replaces it).
    dice: Vec<From<'a, ast::DieDef>>,
    /// The `spread` block, if any.
    spread: Option<Dropping<'a, ast::Spread>>,
    /// The `entangle` block, if any.
    entangle: Option<From<'a, ast::Entangle>>,
    /// The `tunnel` block, if any.
    tunnel: Option<From<'a, ast::Tunnel>>,
}

/// An item that lists pieces, with the pieces a later `without piece`
/// removed (they are left out of the list instead of being errors).
struct Dropping<'a, T> {
    item: From<'a, T>,
    dropped: Vec<&'a str>,
}

impl<'a, T> Dropping<'a, T> {
    fn new(item: From<'a, T>) -> Self {
        Dropping { item, dropped: Vec::new() }
    }
}

/// Lowers a chain of files, the root ancestor first and the variant itself last.
pub fn lower(chain: &[SourceTree]) -> Result<Game, Vec<Diagnostic>> {
    let mut draft = Draft::default();
    let mut diags = Vec::new();
    for src in chain {
        let file = src.name;
        let mut defined_here: BTreeMap<&str, Span> = BTreeMap::new();
        let mut sets_here: BTreeMap<&str, Span> = BTreeMap::new();
        let mut dice_here: BTreeMap<&str, Span> = BTreeMap::new();
        let mut singletons: BTreeMap<&'static str, Span> = BTreeMap::new();
        for item in &src.tree.items {
            if let Some((what, span)) = singleton(item) {
                if let Some(prev) = singletons.insert(what, span) {
                    diags.push(
                        Diagnostic::error("E0123", file, span, format!("`{what}` is given twice in this file"), "given again here")
                            .with_note(prev, "first given here")
                            .with_help(format!("a file has at most one `{what}`; a variant that `extends` another replaces the parent's by writing its own")),
                    );
                }
            }
            match item {
                ast::Item::Variant(n) => draft.name = Some(From { file, node: n }),
                ast::Item::Extends(_) => {}
                ast::Item::Board(b) => draft.board = Some(From { file, node: b }),
                ast::Item::Players(p) => draft.players = Some(From { file, node: p }),
                ast::Item::Piece(p) => {
                    if let Some(prev) = defined_here.insert(&p.name.node, p.name.span) {
                        diags.push(
                            Diagnostic::error("E0106", file, p.name.span, format!("piece `{}` is defined twice", p.name.node), "defined again here")
                                .with_note(prev, "first defined here")
                                .with_help("rename one of them, or delete one definition"),
                        );
                    }
                    match draft.pieces.iter_mut().find(|q| q.node.name.node == p.name.node) {
                        Some(slot) => *slot = From { file, node: p },
                        None => draft.pieces.push(From { file, node: p }),
                    }
                }
                ast::Item::Promotion(p) => draft.promotion = Some(From { file, node: p }),
                ast::Item::Castling(c) => draft.castling = Some(From { file, node: c }),
                ast::Item::Setup(s) => draft.setup = Some(From { file, node: s }),
                ast::Item::End(e) => draft.end = Some(From { file, node: e }),
                ast::Item::Hand(h) => draft.hand = Some(From { file, node: h }),
                ast::Item::Ruling(r) => draft.rulings.push(From { file, node: r }),
                ast::Item::Claim(c) => add_claim(&mut draft.claims, From { file, node: c }, &mut diags),
                ast::Item::Hidden(h) => draft.hidden = Some(Dropping::new(From { file, node: h })),
                ast::Item::Letters(l) => {
                    if let Some(d) = letter_set_name_error(file, l, &mut sets_here) {
                        diags.push(d);
                        continue;
                    }
                    let set = Dropping::new(From { file, node: l });
                    match draft.letter_sets.iter_mut().find(|s| s.item.node.name.node == l.name.node) {
                        Some(slot) => *slot = set,
                        None => draft.letter_sets.push(set),
                    }
                }
                ast::Item::Die(d) => {
                    if let Some(prev) = dice_here.insert(&d.name.node, d.name.span) {
                        diags.push(
                            Diagnostic::error("E0134", file, d.name.span, format!("die `{}` is declared twice in this file", d.name.node), "declared again here")
                                .with_note(prev, "first declared here")
                                .with_help("give each die its own name; a variant that `extends` another replaces an inherited die by declaring one of the same name"),
                        );
                        continue;
                    }
                    match draft.dice.iter_mut().find(|q| q.node.name.node == d.name.node) {
                        Some(slot) => *slot = From { file, node: d },
                        None => draft.dice.push(From { file, node: d }),
                    }
                }
                ast::Item::Spread(sp) => draft.spread = Some(Dropping::new(From { file, node: sp })),
                ast::Item::Entangle(e) => draft.entangle = Some(From { file, node: e }),
                ast::Item::Tunnel(t) => draft.tunnel = Some(From { file, node: t }),
                ast::Item::Without(w) => match &w.node {
                    ast::Without::Piece(name) => {
                        let before = draft.pieces.len();
                        draft.pieces.retain(|p| p.node.name.node != name.node);
                        if draft.pieces.len() == before {
                            diags.push(
                                Diagnostic::error("E0105", file, name.span, format!("no piece `{}` to remove", name.node), "not defined so far")
                                    .with_help(known_pieces(&draft.pieces)),
                            );
                        } else {
                            draft.removed.push((&name.node, file));
                            if let Some(h) = &mut draft.hidden {
                                h.dropped.push(&name.node);
                            }
                            for set in &mut draft.letter_sets {
                                set.dropped.push(&name.node);
                            }
                            if let Some(sp) = &mut draft.spread {
                                sp.dropped.push(&name.node);
                            }
                        }
                    }
                    ast::Without::Claim(name) => remove_claim(&mut draft.claims, From { file, node: name }, &mut diags),
                    ast::Without::Castling => draft.castling = None,
                    ast::Without::Promotion => draft.promotion = None,
                    ast::Without::Hand => draft.hand = None,
                    ast::Without::Hidden => draft.hidden = None,
                    ast::Without::Spread => draft.spread = None,
                    ast::Without::Entangle => draft.entangle = None,
                    ast::Without::Tunnel => draft.tunnel = None,
                },
            }
        }
    }
    let last = chain.last().map(|s| s.name).unwrap_or("<rules>");
    let Some(board) = draft.board else {
        diags.push(
            Diagnostic::error("E0101", last, Span::new(0, 0), "no board", "the variant needs a `board { … }`")
                .with_help("add e.g. `board { files a..h  ranks 1..8 }`"),
        );
        return Err(diags);
    };
    let geometry = match lower_board(board.file, board.node) {
        Ok(g) => g,
        Err(d) => {
            diags.extend(d);
            return Err(diags);
        }
    };
    let players = match lower_players(draft.players, &geometry, last) {
        Ok(p) => p,
        Err(d) => {
            diags.extend(d);
            return Err(diags);
        }
    };
    let mut cx = Cx { geometry: &geometry, players: &players, diags: &mut diags, pieces: &draft.pieces };
    let mut kinds = Vec::new();
    let mut letters: BTreeMap<char, &ast::PieceDef> = BTreeMap::new();
    if draft.pieces.len() > 63 {
        cx.diags.push(Diagnostic::error("E0115", last, Span::new(0, 0), "more than 63 piece kinds", "too many pieces"));
    }
    // The move tables' size, bounded part by part (reported once, where it is passed).
    let mut table_cells: u64 = 0;
    for p in &draft.pieces {
        let letter = lower_letter(&mut cx, p.file, &p.node.letter);
        if let Some(prev) = letters.insert(letter, p.node) {
            if prev.letter.span != p.node.letter.span {
                cx.diags.push(
                    Diagnostic::error("E0106", p.file, p.node.letter.span, format!("letter `{letter}` is used by `{}` too", prev.name.node), "used twice")
                        .with_help("every piece needs its own letter for FEN and notation"),
                );
            }
        }
        let mut royal = false;
        let mut parts = Vec::new();
        for item in &p.node.body {
            match item {
                ast::PieceItem::Royal(_) => royal = true,
                ast::PieceItem::Part(part) => {
                    if let Some(part) = lower_part(&mut cx, p.file, part) {
                        let before = table_cells;
                        table_cells = table_cells.saturating_add(tables::part_cells_bound(&geometry, &part));
                        if table_cells > tables::MAX_TABLE_CELLS && before <= tables::MAX_TABLE_CELLS {
                            cx.diags.push(
                                Diagnostic::error(
                                    "E0115",
                                    p.file,
                                    part.span,
                                    format!("the move tables would hold up to {table_cells} cells with this part, more than the limit of {}", tables::MAX_TABLE_CELLS),
                                    "the move tables' limit is passed here",
                                )
                                .with_help("every direction of every part is a ray from every square: use fewer directions (`mirror`, direction words), shorter rides (`max N`) or fewer parts"),
                            );
                        }
                        parts.push(part);
                    }
                }
            }
        }
        kinds.push(PieceKind { name: p.node.name.node.clone(), letter, royal, parts, span: p.node.span, file: p.file.to_string() });
    }
    let promotions = draft.promotion.map(|p| lower_promotions(&mut cx, p)).unwrap_or_default();
    let castling = draft.castling.and_then(|c| lower_castling(&mut cx, c));
    let hand = draft.hand.map(|h| lower_hand(&mut cx, h, kinds.len()));
    let end = match draft.end {
        Some(e) => lower_end(&mut cx, e),
        None => EndRules { checkmate: Some(Outcome::Lose), stalemate: Some(Outcome::Draw), ..EndRules::default() },
    };
    let hidden = draft.hidden.as_ref().map(|h| lower_hidden(&mut cx, h, &kinds));
    let letter_sets = draft.letter_sets.iter().map(|s| lower_letter_set(&mut cx, s, &kinds)).collect();
    let dice = lower_dice(&mut cx, &draft.dice);
    let spread = draft.spread.as_ref().map(|s| lower_spread(&mut cx, s, &dice));
    let spread = match (spread, draft.entangle) {
        (Some(mut spread), Some(e)) => {
            spread.entangle = Some(lower_entangle(&mut cx, e));
            Some(spread)
        }
        (spread, Some(e)) => {
            // Its own errors too, then that it needs spread pieces.
            lower_entangle(&mut cx, e);
            cx.diags.push(
                Diagnostic::error("E0140", e.file, keyword_span(e.node.span, "entangle"), "an `entangle` block needs spread pieces", "no `spread` block in the variant")
                    .with_help("an entangling move is a kind of split: add a `spread { … }` block; if `without spread` removed it, remove this block too with `without entangle`"),
            );
            spread
        }
        (spread, None) => spread,
    };
    let tunnel = draft.tunnel.and_then(|t| lower_tunnel(&mut cx, t, &dice));
    // The move generator for spread pieces and tunnels does not draw the
    // identities of face-down pieces: the two mechanisms cannot be combined yet.
    if hidden.is_some() {
        let block = spread.as_ref().map(|s| (s.file.clone(), s.span, "spread")).or(tunnel.as_ref().map(|t| (t.file.clone(), t.span, "tunnel")));
        if let Some((file, span, name)) = block {
            cx.diags.push(
                Diagnostic::error("E0142", file, span, format!("a `{name}` block in a variant with face-down pieces"), "not supported together with `hidden`")
                    .with_help("spread pieces and tunnels are not yet combined with hidden identities; remove one of the blocks (`without hidden` removes an inherited one)"),
            );
        }
    }
    let has = Has { hidden: hidden.is_some(), spread: spread.is_some(), entangle: spread.as_ref().is_some_and(|s| s.entangle.is_some()) };
    let claims = draft.claims.iter().filter_map(|c| lower_claim(&mut cx, *c, &draft.removed, has)).collect();
    let rulings = draft
        .rulings
        .iter()
        .map(|r| Ruling {
            name: r.node.name.node.clone(),
            source: r.node.source.as_ref().map(|s| s.node.clone()),
            quote: r.node.quote.node.clone(),
            reading: r.node.reading.node.clone(),
            file: r.file.to_string(),
            span: r.node.span,
        })
        .collect();
    let Some(setup) = draft.setup else {
        diags.push(
            Diagnostic::error("E0113", last, Span::new(0, 0), "no setup", "the variant needs a `setup \"FEN\"`")
                .with_help("add the initial position, e.g. `setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"`"),
        );
        return Err(diags);
    };
    if !diags.is_empty() {
        return Err(diags);
    }
    let game = Game {
        name: draft.name.map(|n| n.node.node.clone()).unwrap_or_else(|| "Unnamed variant".into()),
        geometry,
        players,
        kinds,
        promotions,
        castling,
        hand,
        end,
        setup: setup.node.node.clone(),
        rulings,
        claims,
        hidden,
        letter_sets,
        dice: dice.dice,
        spread,
        tunnel,
    };
    // The setup must be a legal position of this very game.
    let mut game = game;
    let src = FenSource { name: setup.file, offset: setup.node.span.start + 1 };
    let start = fen::parse(&game, &Tables::new(&game), &game.setup, &src).map_err(|d| vec![d])?;
    if game.kinds.iter().any(|k| k.parts.iter().any(|p| p.from_start)) {
        fill_start_zones(&mut game, &start);
        fen::parse(&game, &Tables::new(&game), &game.setup, &src).map_err(|d| vec![d])?;
    }
    Ok(game)
}

/// The items a file may state only once, with their keyword.
fn singleton(item: &ast::Item) -> Option<(&'static str, Span)> {
    Some(match item {
        ast::Item::Variant(v) => ("variant", v.span),
        ast::Item::Extends(e) => ("extends", e.span),
        ast::Item::Board(b) => ("board", b.span),
        ast::Item::Players(p) => ("players", p.span),
        ast::Item::Promotion(p) => ("promotion", p.span),
        ast::Item::Castling(c) => ("castling", c.span),
        ast::Item::Setup(s) => ("setup", s.span),
        ast::Item::End(e) => ("end", e.span),
        ast::Item::Hand(h) => ("hand", h.span),
        ast::Item::Hidden(h) => ("hidden", h.span),
        ast::Item::Spread(sp) => ("spread", sp.span),
        ast::Item::Entangle(e) => ("entangle", e.span),
        ast::Item::Tunnel(t) => ("tunnel", t.span),
        _ => return None,
    })
}

fn known_pieces(pieces: &[From<ast::PieceDef>]) -> String {
    let names: Vec<&str> = pieces.iter().map(|p| p.node.name.node.as_str()).collect();
    format!("the pieces defined are: {}", names.join(", "))
}

struct Cx<'a, 'b> {
    geometry: &'a Geometry,
    players: &'a [Player; 2],
    diags: &'a mut Vec<Diagnostic>,
    pieces: &'a [From<'b, ast::PieceDef>],
}

impl Cx<'_, '_> {
    fn kind(&mut self, file: &str, name: &ast::Ident) -> Option<KindId> {
        match self.pieces.iter().position(|p| p.node.name.node == name.node) {
            Some(i) => Some(i as KindId),
            None => {
                self.diags.push(
                    Diagnostic::error("E0105", file, name.span, format!("unknown piece `{}`", name.node), "no piece has this name")
                        .with_help(known_pieces(self.pieces)),
                );
                None
            }
        }
    }

    fn square(&mut self, file: &str, name: &ast::Ident) -> Option<Cell> {
        let cell = self.geometry.parse_square(&name.node);
        if cell.is_none() {
            let example = self.geometry.name(self.geometry.board_cells().next().unwrap_or(0));
            self.diags.push(
                Diagnostic::error("E0112", file, name.span, format!("`{}` is not a square of this board", name.node), "no such square")
                    .with_help(format!("squares are named like `{example}`")),
            );
        }
        cell
    }

    /// The cells of `zone` for each player (relative coordinates mirrored per orientation).
    fn zone(&mut self, file: &str, zone: &ast::Zone) -> Option<[Vec<Cell>; 2]> {
        let geo = self.geometry;
        // Resolve every atom once, reporting problems.
        let mut conjs: Vec<Vec<ResolvedAtom>> = Vec::new();
        let mut ok = true;
        for conj in &zone.any_of {
            let mut atoms = Vec::new();
            for atom in &conj.all_of {
                match atom {
                    ast::ZoneAtom::Coord { axis, label } => match geo.axis_index(&axis.node) {
                        None => {
                            ok = false;
                            self.diags.push(unknown_axis(file, axis, geo));
                        }
                        Some(a) => match geo.axes[a].labels.iter().position(|l| *l == label.node) {
                            None => {
                                ok = false;
                                self.diags.push(
                                    Diagnostic::error("E0104", file, label.span, format!("`{}` is not a {} of this board", label.node, axis.node), "unknown label")
                                        .with_help(format!("the {}s are {}", axis.node, geo.axes[a].labels.join(" "))),
                                );
                            }
                            Some(i) => atoms.push((Some((a, i)), None)),
                        },
                    },
                    ast::ZoneAtom::Square(sq) => match self.square(file, sq) {
                        Some(c) => atoms.push((None, Some(c))),
                        None => ok = false,
                    },
                    ast::ZoneAtom::Start(span) => {
                        ok = false;
                        self.diags.push(
                            Diagnostic::error("E0124", file, *span, "`start` stands only alone after `from`", "not allowed here")
                                .with_help("write `from start` in a movement part: the part applies while the piece stands on one of its setup squares"),
                        );
                    }
                }
            }
            conjs.push(atoms);
        }
        if !ok {
            return None;
        }
        let mut out: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
        for (p, cells) in out.iter_mut().enumerate() {
            let orient = &self.players[p].orientation;
            for cell in geo.board_cells() {
                let coords = geo.coords(cell);
                let inside = conjs.iter().any(|atoms| {
                    atoms.iter().all(|&(coord, sq)| match (coord, sq) {
                        (Some((a, i)), _) => {
                            let want = if orient[a] < 0 { geo.size(a) - 1 - i } else { i };
                            coords[a] == want
                        }
                        (None, Some(c)) => c == cell,
                        _ => false,
                    })
                });
                if inside {
                    cells.push(cell);
                }
            }
        }
        Some(out)
    }
}

/// A zone atom after resolution: `(axis, label index)` or a square.
type ResolvedAtom = (Option<(usize, usize)>, Option<Cell>);

fn unknown_axis(file: &str, axis: &ast::Ident, geo: &Geometry) -> Diagnostic {
    let names: Vec<&str> = geo.axes.iter().map(|a| a.name.as_str()).collect();
    Diagnostic::error("E0103", file, axis.span, format!("unknown axis `{}`", axis.node), "no axis has this name")
        .with_help(format!("this board's axes are {}", names.join(", ")))
}

fn lower_board(file: &str, board: &ast::Board) -> Result<Geometry, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut axes: Vec<AxisInfo> = Vec::new();
    for axis in &board.axes {
        if axes.iter().any(|a| a.name == axis.name.node) {
            diags.push(
                Diagnostic::error("E0102", file, axis.name.span, format!("axis `{}` declared twice", axis.name.node), "declared again")
                    .with_help("declare each axis once"),
            );
            continue;
        }
        let mut labels: Vec<String> = Vec::new();
        for label in &axis.labels {
            match label {
                ast::Label::Single(l) => labels.push(l.node.clone()),
                ast::Label::Range(a, b) => match expand_range(&a.node, &b.node) {
                    Some(r) => labels.extend(r),
                    None => diags.push(
                        Diagnostic::error("E0102", file, Span::new(a.span.start, b.span.end), format!("`{}..{}` is not a range", a.node, b.node), "bad range")
                            .with_help("ranges go from a lower to a higher number (`1..8`) or letter (`a..h`)"),
                    ),
                },
            }
        }
        let mut seen = BTreeSet::new();
        for l in &labels {
            if !seen.insert(l) {
                diags.push(
                    Diagnostic::error("E0102", file, axis.span, format!("label `{l}` appears twice on axis `{}`", axis.name.node), "duplicate label")
                        .with_help("every coordinate needs its own label"),
                );
            }
        }
        if labels.is_empty() {
            diags.push(Diagnostic::error("E0102", file, axis.span, "an axis needs labels", "no labels"));
        }
        axes.push(AxisInfo { name: axis.name.node.clone(), labels });
    }
    for (want, name) in [(0usize, "file"), (1, "rank")] {
        if let Some(at) = axes.iter().position(|a| a.name == name) {
            if at != want {
                diags.push(
                    Diagnostic::error("E0102", file, board.axes[at].name.span, format!("the {name}s must be axis {}", want + 1), "declared out of order")
                        .with_help("declare `files` first and `ranks` second: squares are named file then rank (`e4`), vectors are (file, rank, …)"),
                );
            }
        }
    }
    if axes.len() < 2 {
        diags.push(
            Diagnostic::error("E0102", file, board.span, "a board needs files and ranks", "fewer than two axes")
                .with_help("declare `files …` and `ranks …` (and `levels …` for a 3D board)"),
        );
    }
    let cells: usize = axes.iter().map(|a| a.labels.len().max(1)).product();
    if cells > MAX_CELLS {
        diags.push(
            Diagnostic::error("E0115", file, board.span, format!("a board of {cells} cells is too large"), format!("at most {MAX_CELLS} cells"))
                .with_help("rulebook supports boards of up to 512 cells (8x8x8)"),
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let geo = Geometry::new(axes, &[]);
    let mut holes = Vec::new();
    for h in &board.holes {
        match geo.parse_square(&h.node) {
            Some(c) => holes.push(c),
            None => diags.push(
                Diagnostic::error("E0112", file, h.span, format!("`{}` is not a square of this board", h.node), "no such square")
                    .with_help(format!("squares are named like `{}`", geo.name(0))),
            ),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(Geometry::new(geo.axes, &holes))
}

fn expand_range(a: &str, b: &str) -> Option<Vec<String>> {
    if let (Ok(x), Ok(y)) = (a.parse::<u32>(), b.parse::<u32>()) {
        return (x <= y && y - x < 64).then(|| (x..=y).map(|n| n.to_string()).collect());
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    match (ca.next(), ca.next(), cb.next(), cb.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() && x <= y && x.is_ascii_lowercase() == y.is_ascii_lowercase() => {
            Some((x..=y).map(|c| c.to_string()).collect())
        }
        _ => None,
    }
}

fn lower_players(players: Option<From<ast::Players>>, geo: &Geometry, last: &str) -> Result<[Player; 2], Vec<Diagnostic>> {
    let dims = geo.dims();
    let Some(players) = players else {
        // Default: white and black, forward along the rank axis.
        let mk = |name: &str, sign: i8| {
            let mut orientation = vec![1i8; dims];
            orientation[1] = sign;
            Player { name: name.into(), directions: vec![("forward".into(), 1, sign)], orientation }
        };
        return Ok([mk("white", 1), mk("black", -1)]);
    };
    let file = players.file;
    let mut diags = Vec::new();
    if players.node.players.len() != 2 {
        diags.push(
            Diagnostic::error("E0116", file, players.node.span, format!("{} players declared", players.node.players.len()), "expected two")
                .with_help("rulebook plays two-player games: declare `white` and `black`"),
        );
        return Err(diags);
    }
    let mut out = Vec::new();
    for p in &players.node.players {
        let mut orientation = vec![1i8; dims];
        let mut directions = Vec::new();
        for d in &p.directions {
            match geo.axis_index(&d.axis.node) {
                None => diags.push(unknown_axis(file, &d.axis, geo)),
                Some(a) => {
                    let sign = if d.positive { 1 } else { -1 };
                    orientation[a] = sign;
                    directions.push((d.word.node.clone(), a, sign));
                }
            }
        }
        out.push(Player { name: p.name.node.clone(), directions, orientation });
    }
    let words = |p: &Player| p.directions.iter().map(|d| d.0.clone()).collect::<BTreeSet<_>>();
    if out.len() == 2 && words(&out[0]) != words(&out[1]) {
        diags.push(
            Diagnostic::error("E0109", file, players.node.span, "the players declare different direction words", "here")
                .with_help("both players must name the same directions (e.g. both `forward`), each pointing its own way"),
        );
    }
    let _ = last;
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut it = out.into_iter();
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => Ok([a, b]),
        _ => Err(diags),
    }
}

fn lower_letter(cx: &mut Cx, file: &str, letter: &ast::Ident) -> char {
    let mut chars = letter.node.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => {
            cx.diags.push(
                Diagnostic::error("E0120", file, letter.span, format!("`{}` is not a piece letter", letter.node), "expected one letter")
                    .with_help("a piece's letter is one ASCII letter, written upper case, e.g. `piece Knight N`"),
            );
            '?'
        }
    }
}

/// The vector of a Betza atom letter, in two dimensions.
fn atom_vector(letter: &str) -> Option<[i32; 2]> {
    Some(match letter {
        "W" => [1, 0],
        "F" => [1, 1],
        "D" => [2, 0],
        "N" => [2, 1],
        "A" => [2, 2],
        "H" => [3, 0],
        "C" => [3, 1],
        "Z" => [3, 2],
        "G" => [3, 3],
        _ => return None,
    })
}

/// The most directions one part may generate from its atom: the rotations and
/// reflections of the atom (every permutation of its components with every
/// sign), or the reflections `mirror` asks for (LANGUAGE.md §9).
pub const MAX_DIRECTIONS: u64 = 4096;

/// How many distinct vectors [`symmetries`] makes of `v`, computed without
/// making them, saturating at `cap`: the arrangements of the components'
/// absolute values (a multinomial coefficient) times two signs for each
/// non-zero component.
fn symmetry_count(v: &[i32], cap: u64) -> u64 {
    let mut multiplicity: BTreeMap<u32, u64> = BTreeMap::new();
    for x in v {
        *multiplicity.entry(x.unsigned_abs()).or_default() += 1;
    }
    let cap = u128::from(cap);
    let mut total: u128 = 1;
    let mut placed: u128 = 0;
    for &m in multiplicity.values() {
        // total × C(placed + m, m), one factor at a time (each step is exact).
        for i in 1..=u128::from(m) {
            total = total * (placed + i) / i;
            if total >= cap {
                return cap as u64;
            }
        }
        placed += u128::from(m);
    }
    for _ in v.iter().filter(|&&x| x != 0) {
        total *= 2;
        if total >= cap {
            return cap as u64;
        }
    }
    total as u64
}

/// The error for a part whose atom makes more than [`MAX_DIRECTIONS`] directions.
fn too_many_directions(file: &str, span: Span, count: u64, how: &str, cap: u64, help: &str) -> Diagnostic {
    let count = if count >= cap { format!("more than {cap}") } else { count.to_string() };
    Diagnostic::error(
        "E0115",
        file,
        span,
        format!("this part makes {count} directions ({how}), more than the limit of {MAX_DIRECTIONS}"),
        format!("at most {MAX_DIRECTIONS} directions a part"),
    )
    .with_help(help)
}

/// All rotations and reflections of `v`: every permutation of its components with every sign.
/// Only distinct arrangements are made (the components' absolute values as a
/// multiset), so the work is proportional to the result: `W` on a board of
/// nine axes is 18 vectors, not 9! × 2^9 permutations to deduplicate.
fn symmetries(v: &[i32]) -> BTreeSet<Vec<i32>> {
    let mut pool: BTreeMap<u32, usize> = BTreeMap::new();
    for x in v {
        *pool.entry(x.unsigned_abs()).or_default() += 1;
    }
    let mut out = BTreeSet::new();
    let mut arrangement = Vec::with_capacity(v.len());
    arrange(&mut pool, v.len(), &mut arrangement, &mut out);
    out
}

/// Extends `arrangement` with every distinct arrangement of what is left in
/// `pool` (absolute values and how many of each), then adds each complete
/// arrangement to `out` with every sign of its non-zero components.
fn arrange(pool: &mut BTreeMap<u32, usize>, n: usize, arrangement: &mut Vec<u32>, out: &mut BTreeSet<Vec<i32>>) {
    if arrangement.len() == n {
        let nonzero: Vec<usize> = (0..n).filter(|&i| arrangement[i] != 0).collect();
        for signs in 0..(1u64 << nonzero.len()) {
            let mut w: Vec<i32> = arrangement.iter().map(|&x| x as i32).collect();
            for (bit, &i) in nonzero.iter().enumerate() {
                if signs >> bit & 1 == 1 {
                    w[i] = -w[i];
                }
            }
            out.insert(w);
        }
        return;
    }
    let values: Vec<u32> = pool.iter().filter(|(_, &left)| left > 0).map(|(&x, _)| x).collect();
    for x in values {
        if let Some(left) = pool.get_mut(&x) {
            *left -= 1;
        }
        arrangement.push(x);
        arrange(pool, n, arrangement, out);
        arrangement.pop();
        if let Some(left) = pool.get_mut(&x) {
            *left += 1;
        }
    }
}

fn lower_part(cx: &mut Cx, file: &str, part: &ast::MovePart) -> Option<Part> {
    let dims = cx.geometry.dims();
    let base: Vec<i32> = match &part.atom.node {
        ast::Atom::Letter(l) => {
            let Some(v) = atom_vector(l) else {
                cx.diags.push(
                    Diagnostic::error("E0107", file, part.atom.span, format!("unknown atom `{l}`"), "not a Betza atom")
                        .with_help("atoms are W F D N A H C Z G, or write a vector such as `(1,2)`"),
                );
                return None;
            };
            let mut full = vec![0; dims];
            full[0] = v[0];
            full[1] = v[1];
            full
        }
        ast::Atom::Vector(v) => {
            if v.len() != dims {
                cx.diags.push(
                    Diagnostic::error("E0108", file, part.atom.span, format!("a vector of {} components on a {dims}-dimensional board", v.len()), "wrong length")
                        .with_help(format!("write one component per axis ({})", cx.geometry.axes.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", "))),
                );
                return None;
            }
            if v.iter().all(|&x| x == 0) {
                cx.diags.push(
                    Diagnostic::error("E0108", file, part.atom.span, "the zero vector goes nowhere", "zero vector")
                        .with_help("a movement vector needs a non-zero component"),
                );
                return None;
            }
            v.clone()
        }
    };
    let kind = match part.kind.node {
        ast::PatternKind::Leap => StepKind::Leap,
        ast::PatternKind::Ride => StepKind::Ride,
        ast::PatternKind::Hop => StepKind::Hop,
    };
    // `mirror` replaces the rotations and reflections: do not make them then.
    let mirrored = part.modifiers.iter().any(|m| matches!(m.node, ast::Modifier::Mirror(_)));
    let mut relative: BTreeSet<Vec<i32>> = BTreeSet::new();
    if !mirrored {
        // Counted first: nine distinct components would make 185,794,560 vectors.
        const CAP: u64 = 1_000_000_000_000;
        let count = symmetry_count(&base, CAP);
        if count > MAX_DIRECTIONS {
            cx.diags.push(too_many_directions(file, part.atom.span, count, "every permutation of the atom's components, with every sign", CAP, "name the directions you mean with `mirror AXIS…` (reflections only) or direction words, or split the part into several"));
            return None;
        }
        relative = symmetries(&base);
    }
    let mut filters: Vec<(String, Span)> = Vec::new();
    let mut max = None;
    let mut exact = false;
    let mut from = None;
    let mut sets_ep = false;
    let mut takes_ep = false;
    let mut from_start = false;
    let mut ok = true;
    for m in &part.modifiers {
        match &m.node {
            ast::Modifier::Direction(w) => filters.push((w.clone(), m.span)),
            ast::Modifier::Mirror(axes) => {
                // Each listed axis along which the atom moves doubles the set: count first.
                let flipped: BTreeSet<usize> = axes
                    .iter()
                    .filter_map(|axis| cx.geometry.axis_index(&axis.node))
                    .filter(|&a| base[a] != 0)
                    .collect();
                const CAP: u64 = 1 << 40;
                let count = if flipped.len() >= 40 { CAP } else { 1u64 << flipped.len() };
                if count > MAX_DIRECTIONS {
                    cx.diags.push(too_many_directions(file, m.span, count, "every combination of reflections over the listed axes", CAP, "mirror fewer axes, or split the part into several"));
                    return None;
                }
                let mut set = BTreeSet::new();
                set.insert(base.clone());
                for axis in axes {
                    match cx.geometry.axis_index(&axis.node) {
                        None => {
                            ok = false;
                            cx.diags.push(unknown_axis(file, axis, cx.geometry));
                        }
                        Some(a) => {
                            let more: Vec<Vec<i32>> = set
                                .iter()
                                .map(|v| {
                                    let mut w = v.clone();
                                    w[a] = -w[a];
                                    w
                                })
                                .collect();
                            set.extend(more);
                        }
                    }
                }
                relative = set;
            }
            ast::Modifier::Max(n) | ast::Modifier::Exactly(n) => {
                if *n == 0 || kind == StepKind::Leap {
                    ok = false;
                    let why = if *n == 0 { "a range of zero steps" } else { "a leap has no range" };
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, why, "not allowed here")
                            .with_help("ranges belong to `ride` or `hop` parts, e.g. `move ride W max 2`"),
                    );
                }
                max = Some(*n);
                exact = matches!(m.node, ast::Modifier::Exactly(_));
                if exact && kind == StepKind::Hop {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "`exactly` does not apply to a hop", "not allowed here")
                            .with_help("use `max N` to limit how far a hop lands beyond its screen"),
                    );
                }
            }
            ast::Modifier::From(zone) if is_start(zone) => {
                // Filled in from the setup once the whole game is lowered.
                from = Some([Vec::new(), Vec::new()]);
                from_start = true;
            }
            ast::Modifier::From(zone) => match cx.zone(file, zone) {
                Some(z) => from = Some(z),
                None => ok = false,
            },
            ast::Modifier::SetsEnPassant => {
                if part.mode.node == ast::Mode::Capture || kind != StepKind::Ride {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "`sets en-passant` needs a ride that may move to an empty square", "`sets en-passant` here")
                            .with_help("write it on a part like `quiet ride W forward exactly 2`"),
                    );
                }
                sets_ep = true;
            }
            ast::Modifier::TakesEnPassant => {
                if part.mode.node == ast::Mode::Quiet {
                    ok = false;
                    cx.diags.push(
                        Diagnostic::error("E0111", file, m.span, "a quiet part cannot capture en passant", "`takes en-passant` here")
                            .with_help("write it on a `capture` or `move` part"),
                    );
                }
                takes_ep = true;
            }
        }
    }
    let mut vectors: [Vec<Vec<i32>>; 2] = [Vec::new(), Vec::new()];
    for (p, out) in vectors.iter_mut().enumerate() {
        let player = &cx.players[p];
        let mut keep: Vec<Vec<i32>> = relative.iter().cloned().collect();
        for (word, span) in &filters {
            let test = direction_test(player, word);
            match test {
                Some((axis, want)) => keep.retain(|v| v[axis].signum() == want),
                None => {
                    if p == 0 {
                        ok = false;
                        let words: Vec<&str> = player.directions.iter().map(|d| d.0.as_str()).collect();
                        cx.diags.push(
                            Diagnostic::error("E0109", file, *span, format!("unknown direction `{word}`"), "not a direction of this board")
                                .with_help(format!(
                                    "the players declare {}; `backward`, `down` and `sideways` are derived from `forward` and `up`",
                                    words.join(", ")
                                )),
                        );
                    }
                }
            }
        }
        *out = keep.iter().map(|v| player.absolute(v)).collect();
    }
    if ok && vectors[0].is_empty() {
        cx.diags.push(
            Diagnostic::error("E0108", file, part.span, "no direction is left", "this part never moves")
                .with_help("the direction words exclude every rotation of the atom"),
        );
        ok = false;
    }
    if !ok {
        return None;
    }
    Some(Part {
        quiet: part.mode.node != ast::Mode::Capture,
        capture: part.mode.node != ast::Mode::Quiet,
        kind,
        vectors,
        max: if kind == StepKind::Leap { Some(1) } else { max },
        exact,
        from,
        from_start,
        sets_en_passant: sets_ep,
        takes_en_passant: takes_ep,
        span: part.span,
    })
}

/// Is the zone exactly `start`?
fn is_start(zone: &ast::Zone) -> bool {
    matches!(zone.any_of.as_slice(), [conj] if matches!(conj.all_of.as_slice(), [ast::ZoneAtom::Start(_)]))
}

/// Fills the `from start` zones of `game` with the cells its setup gives each
/// kind and player; the setup must already parse.
fn fill_start_zones(game: &mut Game, setup: &crate::engine::position::Position) {
    let t_cells = game.geometry.cells();
    for (k, kind) in game.kinds.iter_mut().enumerate() {
        for part in kind.parts.iter_mut().filter(|p| p.from_start) {
            let mut zones: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
            for cell in 0..t_cells {
                let code = setup.board[cell];
                if code != 0 && crate::engine::position::kind_of(code) as usize == k {
                    zones[crate::engine::position::color_of(code) as usize].push(cell as Cell);
                }
            }
            part.from = Some(zones);
        }
    }
}

/// What a direction word requires of a relative vector: `(axis, sign)` of its component.
fn direction_test(player: &Player, word: &str) -> Option<(usize, i32)> {
    let declared = |w: &str| player.directions.iter().find(|d| d.0 == w).map(|d| d.1);
    if let Some(a) = declared(word) {
        return Some((a, 1));
    }
    match word {
        "backward" => declared("forward").map(|a| (a, -1)),
        "down" => declared("up").map(|a| (a, -1)),
        "sideways" => declared("forward").map(|a| (a, 0)),
        _ => None,
    }
}

fn lower_promotions(cx: &mut Cx, p: From<ast::Promotion>) -> Vec<PromotionRule> {
    let mut out = Vec::new();
    for rule in &p.node.rules {
        let kind = cx.kind(p.file, &rule.piece);
        let zone = cx.zone(p.file, &rule.zone);
        let targets: Vec<Option<KindId>> = rule.targets.iter().map(|t| cx.kind(p.file, t)).collect();
        if let (Some(kind), Some(zone)) = (kind, zone) {
            if targets.iter().all(|t| t.is_some()) {
                out.push(PromotionRule { kind, zone, targets: targets.into_iter().flatten().collect(), span: rule.span, file: p.file.to_string() });
            }
        }
    }
    out
}

fn lower_castling(cx: &mut Cx, c: From<ast::Castling>) -> Option<CastlingRule> {
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
            sides.push(CastlingSide { short, king_to: [kt, mirror(kt, 1)], rook_to: [rt, mirror(rt, 1)], span: side.span });
        }
    }
    if let Some(k) = king {
        if !cx.pieces[k as usize].node.body.iter().any(|i| matches!(i, ast::PieceItem::Royal(_))) {
            cx.diags.push(
                Diagnostic::error("E0122", c.file, c.node.king.span, format!("`{}` castles but is not royal", c.node.king.node), "not royal")
                    .with_help("the castling piece is the one that may not castle out of or through check: mark it `royal`"),
            );
        }
    }
    Some(CastlingRule { king: king?, rook: rook?, sides, span: c.node.span, file: c.file.to_string() })
}

fn lower_hand(cx: &mut Cx, h: From<ast::Hand>, nkinds: usize) -> HandRules {
    let mut rules = HandRules { capture_to_hand: false, demote_to: None, drop_cells: vec![None; nkinds] };
    let all: Vec<Cell> = cx.geometry.board_cells().collect();
    let mut any: Option<[Vec<Cell>; 2]> = None;
    let mut specific: Vec<Option<[Vec<Cell>; 2]>> = vec![None; nkinds];
    for rule in &h.node.rules {
        match &rule.node {
            ast::HandRule::CaptureToHand => rules.capture_to_hand = true,
            ast::HandRule::DemotePromoted(k) => rules.demote_to = cx.kind(h.file, k),
            ast::HandRule::Drop { piece, only, except } => {
                let mut cells = [all.clone(), all.clone()];
                if let Some(z) = only {
                    if let Some(z) = cx.zone(h.file, z) {
                        cells = z;
                    }
                }
                if let Some(z) = except {
                    if let Some(z) = cx.zone(h.file, z) {
                        for p in 0..2 {
                            cells[p].retain(|c| !z[p].contains(c));
                        }
                    }
                }
                match piece {
                    None => any = Some(cells),
                    Some(name) => {
                        if let Some(k) = cx.kind(h.file, name) {
                            specific[k as usize] = Some(cells);
                        }
                    }
                }
            }
        }
    }
    for (slot, own) in rules.drop_cells.iter_mut().zip(specific) {
        *slot = own.or_else(|| any.clone());
    }
    rules
}

fn lower_end(cx: &mut Cx, e: From<ast::End>) -> EndRules {
    let outcome = |o: &ast::Outcome| match o {
        ast::Outcome::Win => Outcome::Win,
        ast::Outcome::Lose => Outcome::Lose,
        ast::Outcome::Draw => Outcome::Draw,
    };
    let mut end = EndRules { file: e.file.to_string(), ..EndRules::default() };
    let mut priorities = Vec::new();
    for rule in &e.node.rules {
        let condition = match &rule.node {
            ast::EndRule::Checkmate(o) => {
                end.checkmate = Some(outcome(&o.node));
                EndCondition::Checkmate
            }
            ast::EndRule::Stalemate(o) => {
                end.stalemate = Some(outcome(&o.node));
                EndCondition::Stalemate
            }
            ast::EndRule::FiftyMove { moves, piece, reveal } => {
                if moves.node == 0 {
                    cx.diags.push(senseless_count(e.file, moves.span, "a move limit of 0 moves", "1 move", "the half-move clock starts at 0, which has already reached 2 × 0"));
                }
                end.fifty_move = Some(moves.node);
                end.fifty_move_piece = cx.kind(e.file, piece);
                end.fifty_move_reveal = reveal.is_some();
                EndCondition::MoveLimit
            }
            ast::EndRule::Repetition(n) => {
                if n.node < 2 {
                    let what = format!("a repetition count of {}", n.node);
                    cx.diags.push(senseless_count(e.file, n.span, &what, "2", "the setup is already the first occurrence of its position"));
                }
                end.repetition = Some(n.node);
                EndCondition::Repetition
            }
            ast::EndRule::Priority { higher, lower } => {
                priorities.push((rule.span, higher, lower));
                continue;
            }
        };
        end.spans.push((condition, rule.span));
    }
    // Lines that fixed a pair, to point at when a later line contradicts them.
    let mut lines: Vec<((EndCondition, EndCondition), Span)> = Vec::new();
    for (span, higher, lower) in priorities {
        lower_priority(cx, e.file, &mut end, &mut lines, higher, lower);
        end.spans.push((condition(higher.node), span));
    }
    end
}

/// `E0143`: a count in an `end` rule that ends every game at the setup
/// (`draw on repetition 0` or `1`, `draw after 0 moves …`).
fn senseless_count(file: &str, span: Span, what: &str, least: &str, why: &str) -> Diagnostic {
    Diagnostic::error("E0143", file, span, format!("{what} ends every game before its first move"), format!("at least {least}"))
        .with_help(format!("{why}; write at least {least} (FIDE chess: `draw on repetition 3`, `draw after 50 moves without capture or Pawn move`)"))
}

/// The model's name for a condition written in a `priority` line.
fn condition(c: ast::EndCondition) -> EndCondition {
    match c {
        ast::EndCondition::Checkmate => EndCondition::Checkmate,
        ast::EndCondition::Stalemate => EndCondition::Stalemate,
        ast::EndCondition::MoveLimit => EndCondition::MoveLimit,
        ast::EndCondition::Repetition => EndCondition::Repetition,
    }
}

/// One `priority A over B, C` line: adds its pairs to `end.priority`, or
/// reports a condition the block does not define (`E0127`) or a pair that
/// makes priority go round (`E0126`).
fn lower_priority(
    cx: &mut Cx,
    file: &str,
    end: &mut EndRules,
    lines: &mut Vec<((EndCondition, EndCondition), Span)>,
    higher: &Spanned<ast::EndCondition>,
    lower: &[Spanned<ast::EndCondition>],
) {
    let h = condition(higher.node);
    if !end.defines(h) {
        cx.diags.push(undefined_condition(file, h, higher.span));
        return;
    }
    for l in lower {
        let lc = condition(l.node);
        if !end.defines(lc) {
            cx.diags.push(undefined_condition(file, lc, l.span));
        } else if lc == h {
            cx.diags.push(
                Diagnostic::error("E0126", file, l.span, format!("`{}` has priority over itself", h.keyword()), "the same condition on both sides")
                    .with_note(higher.span, "the condition with priority")
                    .with_help(format!("name another condition after `over`, e.g. `priority {} over …`, or remove this one", h.keyword())),
            );
        } else if end.outranks(lc, h) {
            cx.diags.push(priority_cycle(file, h, lc, Span::new(higher.span.start, l.span.end), lines));
        } else if !end.priority.contains(&(h, lc)) {
            end.priority.push((h, lc));
            lines.push(((h, lc), Span::new(higher.span.start, l.span.end)));
        }
    }
}

/// `E0127`: a `priority` line names a condition that ends nothing in this block.
fn undefined_condition(file: &str, c: EndCondition, span: Span) -> Diagnostic {
    let rule = match c {
        EndCondition::MoveLimit => "`draw after 50 moves without capture or Pawn move`",
        EndCondition::Repetition => "`draw on repetition 3`",
        // Always defined (defaults); listed to keep the match exhaustive.
        EndCondition::Checkmate => "`checkmate: lose`",
        EndCondition::Stalemate => "`stalemate: draw`",
    };
    Diagnostic::error("E0127", file, span, format!("`{}` is not a rule of this end block", c.keyword()), "no rule of the block ends the game this way")
        .with_help(format!("add the rule to the block, e.g. {rule}, or leave `{}` out of the priority line", c.keyword()))
}

/// `E0126`: `higher` over `lower` although `lower` already has priority over
/// `higher` (through the pairs in `lines`).
fn priority_cycle(
    file: &str,
    higher: EndCondition,
    lower: EndCondition,
    span: Span,
    lines: &[((EndCondition, EndCondition), Span)],
) -> Diagnostic {
    let mut d = Diagnostic::error(
        "E0126",
        file,
        span,
        format!("priority goes round in a circle: `{}` over `{}` over `{}`", higher.keyword(), lower.keyword(), higher.keyword()),
        format!("`{}` over `{}` here", higher.keyword(), lower.keyword()),
    );
    for ((a, b), at) in priority_path(lower, higher, lines) {
        d = d.with_note(at, format!("`{}` over `{}` here", a.keyword(), b.keyword()));
    }
    d.with_help("priority goes one way only: keep one of the contradicting lines")
}

/// The pairs of `lines` that lead from `from` to `to` (from over … over to).
fn priority_path(
    from: EndCondition,
    to: EndCondition,
    lines: &[((EndCondition, EndCondition), Span)],
) -> Vec<((EndCondition, EndCondition), Span)> {
    // Breadth first over at most four conditions: remember how each was reached.
    let mut how: Vec<(EndCondition, Option<usize>)> = vec![(from, None)];
    let mut next = 0;
    while let Some(&(at, _)) = how.get(next) {
        if at == to {
            break;
        }
        for (i, &((a, b), _)) in lines.iter().enumerate() {
            if a == at && !how.iter().any(|&(c, _)| c == b) {
                how.push((b, Some(i)));
            }
        }
        next += 1;
    }
    let mut path = Vec::new();
    let mut at = to;
    while let Some(&(_, Some(i))) = how.iter().find(|&&(c, _)| c == at) {
        path.push(lines[i]);
        at = lines[i].0 .0;
    }
    path.reverse();
    path
}

/// Adds a `claim` to those of the chain, unless one of that name is already
/// there (`E0125`).
fn add_claim<'a>(claims: &mut Vec<From<'a, ast::Claim>>, c: From<'a, ast::Claim>, diags: &mut Vec<Diagnostic>) {
    let name = &c.node.name;
    let Some(prev) = claims.iter().find(|p| p.node.name.node == name.node) else {
        claims.push(c);
        return;
    };
    let help = "give each claim its own name; to restate an inherited claim, remove it first with `without claim NAME`";
    let d = if prev.file == c.file {
        Diagnostic::error("E0125", c.file, name.span, format!("claim `{}` is made twice", name.node), "claimed again here")
            .with_note(prev.node.name.span, "first claimed here")
    } else {
        Diagnostic::error("E0125", c.file, name.span, format!("claim `{}` is made twice", name.node), format!("already claimed in {}", prev.file))
    };
    diags.push(d.with_help(help));
}

/// `without claim NAME`: removes an inherited claim (`E0128` if there is none of that name).
fn remove_claim(claims: &mut Vec<From<ast::Claim>>, name: From<ast::Ident>, diags: &mut Vec<Diagnostic>) {
    let before = claims.len();
    claims.retain(|c| c.node.name.node != name.node.node);
    if claims.len() == before {
        let names: Vec<&str> = claims.iter().map(|c| c.node.name.node.as_str()).collect();
        let help = if names.is_empty() {
            "no claim is made so far".to_string()
        } else {
            format!("the claims made so far are: {}", names.join(", "))
        };
        diags.push(
            Diagnostic::error("E0128", name.file, name.node.span, format!("no claim `{}` to remove", name.node.node), "not claimed so far")
                .with_help(help),
        );
    }
}

/// Which optional blocks the final variant has (claims about them need them).
#[derive(Clone, Copy)]
struct Has {
    hidden: bool,
    spread: bool,
    entangle: bool,
}

/// A claim of the chain in the model. Unknown pieces, and pieces a `without
/// piece` removed, are `E0105`; zones resolve like promotion zones. A claim
/// about face-down pieces in a game without them is `E0133`; one about spread
/// pieces or entangled groups in a game without them `E0140`, and its bound
/// must fit (`E0141`).
fn lower_claim(cx: &mut Cx, c: From<ast::Claim>, removed: &[(&str, &str)], has: Has) -> Option<Claim> {
    let has_hidden = has.hidden;
    let property = match &c.node.body.node {
        ast::ClaimBody::KeepsColour { piece } => Property::KeepsColour { kind: claim_kind(cx, c, piece, removed)? },
        ast::ClaimBody::NeverAdjacent { piece, other } => {
            let kind = claim_kind(cx, c, piece, removed);
            let other = claim_kind(cx, c, other, removed);
            Property::NeverAdjacent { kind: kind?, other: other? }
        }
        ast::ClaimBody::NeverOn { piece, zone } => {
            let kind = claim_kind(cx, c, piece, removed);
            let zone = cx.zone(c.file, zone);
            Property::NeverOn { kind: kind?, zone: zone? }
        }
        ast::ClaimBody::AtMost { count, piece } => {
            Property::AtMost { kind: claim_kind(cx, c, piece, removed)?, count: count.node }
        }
        ast::ClaimBody::HiddenArrivals { zone, pieces } => {
            if !has_hidden {
                let claim = &c.node.name.node;
                cx.diags.push(
                    Diagnostic::error("E0133", c.file, c.node.body.span, format!("claim `{claim}` is about face-down pieces, but the variant has none"), "no `hidden` block in the variant")
                        .with_help(format!("a claim about face-down pieces needs a `hidden {{ pieces … }}` block; if `without hidden` removed it, remove the claim too with `without claim {claim}`")),
                );
            }
            let zone = cx.zone(c.file, zone);
            let mut kinds = Vec::new();
            let mut ok = true;
            for piece in pieces {
                match claim_kind(cx, c, piece, removed) {
                    Some(k) if !kinds.contains(&k) => kinds.push(k),
                    Some(_) => {}
                    None => ok = false,
                }
            }
            if !has_hidden || !ok {
                return None;
            }
            Property::HiddenArrivals { zone: zone?, kinds }
        }
        ast::ClaimBody::SpreadAtMost { squares } => {
            let needs = (!has.spread).then_some(("spread pieces", "spread", "spread { … }"));
            let bound = claim_bound(cx, c, squares, 1);
            if claim_needs(cx, c, needs) {
                return None;
            }
            Property::SpreadAtMost { squares: bound? }
        }
        ast::ClaimBody::GroupsAtMost { groups } => {
            let needs = match (has.spread, has.entangle) {
                (false, _) => Some(("entangled groups", "spread", "spread { … }")),
                (true, false) => Some(("entangled groups", "entangle", "entangle { groups \"/\" \"\\\\\" }")),
                (true, true) => None,
            };
            let bound = claim_bound(cx, c, groups, 0);
            if claim_needs(cx, c, needs) {
                return None;
            }
            Property::GroupsAtMost { groups: bound? }
        }
    };
    Some(Claim { name: c.node.name.node.clone(), property, file: c.file.to_string(), span: c.node.span })
}

/// `E0140` when a claim is about something the variant does not have:
/// `needs` is (what the claim is about, the block it needs, an example of
/// that block). Returns whether it reported one.
fn claim_needs(cx: &mut Cx, c: From<ast::Claim>, needs: Option<(&str, &str, &str)>) -> bool {
    let Some((about, block, example)) = needs else { return false };
    let claim = &c.node.name.node;
    cx.diags.push(
        Diagnostic::error("E0140", c.file, c.node.body.span, format!("claim `{claim}` is about {about}, but the variant has no `{block}` block"), format!("no `{block}` block in the variant"))
            .with_help(format!("a claim about {about} needs a block such as `{example}`; if `without {block}` removed it, remove the claim too with `without claim {claim}`")),
    );
    true
}

/// The bound of a spread or groups claim: at least `least` and at most 255 (`E0141`).
fn claim_bound(cx: &mut Cx, c: From<ast::Claim>, bound: &Spanned<u32>, least: u32) -> Option<u8> {
    let claim = &c.node.name.node;
    let fits = u8::try_from(bound.node).ok().filter(|_| bound.node >= least);
    if fits.is_none() {
        let (label, help) = if bound.node < least {
            (format!("at least {least}"), "a piece always stands on at least one square: write a bound of 1 or more, e.g. `spread pieces on at most 2 squares`")
        } else {
            ("at most 255".to_string(), "the bound of this claim is a number from 0 to 255")
        };
        cx.diags.push(
            Diagnostic::error("E0141", c.file, bound.span, format!("the bound {} of claim `{claim}` is too {}", bound.node, if bound.node < least { "small" } else { "large" }), label)
                .with_help(help),
        );
    }
    fits
}

/// The kind a claim names: `E0105` if there is none, saying so when a
/// `without piece` removed it.
fn claim_kind(cx: &mut Cx, c: From<ast::Claim>, piece: &ast::Ident, removed: &[(&str, &str)]) -> Option<KindId> {
    let defined = cx.pieces.iter().any(|p| p.node.name.node == piece.node);
    match removed.iter().rev().find(|(name, _)| *name == piece.node) {
        Some((_, by)) if !defined => {
            let claim = &c.node.name.node;
            cx.diags.push(
                Diagnostic::error("E0105", c.file, piece.span, format!("claim `{claim}` is about `{}`, which is removed", piece.node), format!("removed by `without piece {}` in {by}", piece.node))
                    .with_help(format!("a claim about a removed piece cannot be checked: write `without claim {claim}` next to `without piece {}`", piece.node)),
            );
            None
        }
        _ => cx.kind(c.file, piece),
    }
}

/// Whether `name`, listed by `item`, was removed by a later `without piece`
/// and not defined again: then it is left out of the list.
fn is_dropped<T>(cx: &Cx, item: &Dropping<T>, name: &str) -> bool {
    item.dropped.contains(&name) && !cx.pieces.iter().any(|p| p.node.name.node == name)
}

/// The `hidden` block: its kinds must exist (`E0105`), not be royal
/// (`E0130`) and be listed once, and the block needs a `pieces` line and at
/// most one `captured seen by` line (`E0129`). Kinds a later `without piece`
/// removed are left out.
fn lower_hidden(cx: &mut Cx, h: &Dropping<ast::Hidden>, kinds: &[PieceKind]) -> HiddenRules {
    let file = h.item.file;
    let block = h.item.node;
    let mut listed: Vec<(KindId, Span)> = Vec::new();
    let mut pieces_line = false;
    let mut seen_by: Option<(ast::SeenBy, Span)> = None;
    for rule in &block.rules {
        match &rule.node {
            ast::HiddenRule::Pieces(names) => {
                pieces_line = true;
                for name in names {
                    if is_dropped(cx, h, &name.node) {
                        continue;
                    }
                    let Some(k) = cx.kind(file, name) else { continue };
                    if let Some(&(_, first)) = listed.iter().find(|(q, _)| *q == k) {
                        cx.diags.push(
                            Diagnostic::error("E0129", file, name.span, format!("`{}` is listed twice", name.node), "listed again here")
                                .with_note(first, "first listed here")
                                .with_help("list each kind that stands face down once"),
                        );
                        continue;
                    }
                    if kinds.get(k as usize).is_some_and(|kind| kind.royal) {
                        cx.diags.push(
                            Diagnostic::error("E0130", file, name.span, format!("`{}` is royal and cannot stand face down", name.node), "a royal piece")
                                .with_help("royal pieces must stand open: the game tracks them"),
                        );
                        continue;
                    }
                    listed.push((k, name.span));
                }
            }
            ast::HiddenRule::CapturedSeenBy(who) => match seen_by {
                Some((_, first)) => cx.diags.push(
                    Diagnostic::error("E0129", file, rule.span, "`captured seen by` is given twice", "given again here")
                        .with_note(first, "first given here")
                        .with_help("say once who sees a captured face-down piece: `capturer`, `both` or `nobody`"),
                ),
                None => seen_by = Some((who.node, rule.span)),
            },
        }
    }
    if !pieces_line {
        // The block starts with its keyword.
        let keyword = Span::new(block.span.start, (block.span.start + "hidden".len()).min(block.span.end));
        cx.diags.push(
            Diagnostic::error("E0129", file, keyword, "this `hidden` block has no `pieces` line", "no `pieces` line in this block")
                .with_help("list the kinds that stand face down in the setup: `hidden { pieces Queen Rook Bishop Knight Pawn }`"),
        );
    }
    let seen_by = match seen_by.map(|s| s.0) {
        None | Some(ast::SeenBy::Capturer) => SeenBy::Capturer,
        Some(ast::SeenBy::Both) => SeenBy::Both,
        Some(ast::SeenBy::Nobody) => SeenBy::Nobody,
    };
    HiddenRules { kinds: listed.into_iter().map(|(k, _)| k).collect(), seen_by, span: block.span, file: file.to_string() }
}

/// The name of a letter set, checked as the file is read: `en` is reserved
/// and a name may be used once per file (`E0132`). Records it in `here`.
fn letter_set_name_error<'a>(file: &str, set: &'a ast::LetterSetDef, here: &mut BTreeMap<&'a str, Span>) -> Option<Diagnostic> {
    let name = &set.name;
    if name.node == "en" {
        return Some(
            Diagnostic::error("E0132", file, name.span, "the letter set `en` is reserved", "reserved name")
                .with_help("`en` is the set of FEN letters, given by the `piece` definitions; give this set another name, e.g. the code of its language (`de`, `fr`)"),
        );
    }
    let prev = here.insert(&name.node, name.span)?;
    Some(
        Diagnostic::error("E0132", file, name.span, format!("letter set `{}` is defined twice in this file", name.node), "defined again here")
            .with_note(prev, "first defined here")
            .with_help("give each set its own name; a variant that `extends` another replaces an inherited set by defining one of the same name"),
    )
}

/// A letter set: kinds must exist (`E0105`); each kind gets one letter,
/// stored upper case, and no two kinds share one, counting the FEN letters
/// of the kinds the set does not name (`E0131`). Kinds a later `without
/// piece` removed are left out.
fn lower_letter_set(cx: &mut Cx, s: &Dropping<ast::LetterSetDef>, kinds: &[PieceKind]) -> LetterSet {
    let file = s.item.file;
    let set = s.item.node;
    let name = &set.name.node;
    let mut letters: Vec<(KindId, char)> = Vec::new();
    let mut pairs: Vec<&ast::LetterPair> = Vec::new();
    for pair in &set.letters {
        if is_dropped(cx, s, &pair.piece.node) {
            continue;
        }
        let kind = cx.kind(file, &pair.piece);
        let letter = lower_letter(cx, file, &pair.letter);
        let Some(kind) = kind else { continue };
        if letter == '?' {
            continue;
        }
        if let Some(i) = letters.iter().position(|&(k, _)| k == kind) {
            cx.diags.push(
                Diagnostic::error("E0131", file, pair.piece.span, format!("`{}` is given two letters in set `{name}`", pair.piece.node), "given again here")
                    .with_note(pairs[i].span, "first given here")
                    .with_help("a letter set gives each piece one letter"),
            );
            continue;
        }
        if let Some(i) = letters.iter().position(|&(_, c)| c == letter) {
            cx.diags.push(
                Diagnostic::error("E0131", file, pair.letter.span, format!("letter `{letter}` is used by `{}` too in set `{name}`", pairs[i].piece.node), "used twice")
                    .with_note(pairs[i].letter.span, format!("`{}` has it here", pairs[i].piece.node))
                    .with_help("every piece needs its own letter in a set, or notation cannot tell the pieces apart"),
            );
            continue;
        }
        letters.push((kind, letter));
        pairs.push(pair);
    }
    // Kinds the set does not name keep their FEN letter in it.
    for (&(kind, letter), pair) in letters.iter().zip(&pairs) {
        let keeps = kinds
            .iter()
            .enumerate()
            .find(|&(j, other)| j != kind as usize && other.letter == letter && !letters.iter().any(|&(k, _)| k as usize == j));
        if let Some((_, other)) = keeps {
            cx.diags.push(
                Diagnostic::error("E0131", file, pair.letter.span, format!("letter `{letter}` is `{}`'s, which set `{name}` does not rename", other.name), format!("`{}` keeps `{letter}` in this set", other.name))
                    .with_help(format!("give `{}` a letter in this set too, or choose another letter for `{}`", other.name, pair.piece.node)),
            );
        }
    }
    LetterSet { name: name.clone(), letters, span: set.span, file: file.to_string() }
}

// ---------------------------------------------------------------- dice, spread, entangle, tunnel

/// The first word of a block (its keyword), for errors about the whole block.
fn keyword_span(block: Span, keyword: &str) -> Span {
    Span::new(block.start, (block.start + keyword.len()).min(block.end))
}

/// `E0137`: a statement given twice in one block.
fn given_twice(cx: &mut Cx, file: &str, span: Span, first: Span, what: &str, block: &str) {
    cx.diags.push(
        Diagnostic::error("E0137", file, span, format!("`{what}` is given twice in this `{block}` block"), "given again here")
            .with_note(first, "first given here")
            .with_help(format!("say `{what}` once in a `{block}` block")),
    );
}

/// The dice of the chain: the model's list, and which of them are broken
/// (already reported, so that rolls of them report nothing more).
struct Dice {
    dice: Vec<Die>,
    broken: Vec<bool>,
}

/// The dice: each is written `1..N` with 2 ≤ N ≤ 255 (`E0134`).
fn lower_dice(cx: &mut Cx, defs: &[From<ast::DieDef>]) -> Dice {
    let mut out = Dice { dice: Vec::new(), broken: Vec::new() };
    for d in defs {
        let (low, high) = (&d.node.low, &d.node.high);
        let name = &d.node.name.node;
        let problem = if low.node != 1 {
            Some((low.span, format!("the faces of die `{name}` start at {}", low.node), "the first face is 1"))
        } else if high.node < 2 {
            Some((high.span, format!("die `{name}` has fewer than two faces"), "at least 2"))
        } else if high.node > u32::from(u8::MAX) {
            Some((high.span, format!("die `{name}` has {} faces", high.node), "at most 255"))
        } else {
            None
        };
        let broken = problem.is_some();
        if let Some((span, message, label)) = problem {
            cx.diags.push(
                Diagnostic::error("E0134", d.file, span, message, label)
                    .with_help("a die is written `die NAME 1..N`: its faces are numbered from 1, and it has 2 to 255 of them, e.g. `die d6 1..6`"),
            );
        }
        out.dice.push(Die { name: name.clone(), faces: u8::try_from(high.node).unwrap_or(u8::MAX) });
        out.broken.push(broken);
    }
    out
}

/// The die a roll names, as an index into `Game::dice` (`E0135` if no die
/// has that name); `None` also when that die is broken (already reported).
fn roll_die(cx: &mut Cx, file: &str, dice: &Dice, roll: &ast::Roll) -> Option<usize> {
    match dice.dice.iter().position(|d| d.name == roll.die.node) {
        Some(i) if dice.broken.get(i).copied().unwrap_or(true) => None,
        Some(i) => Some(i),
        None => {
            let help = if dice.dice.is_empty() {
                format!("no die is declared: declare it, e.g. `die {} 1..6`", roll.die.node)
            } else {
                let names: Vec<&str> = dice.dice.iter().map(|d| d.name.as_str()).collect();
                format!("the dice declared are: {}; declare another with `die NAME 1..N`", names.join(", "))
            };
            cx.diags.push(
                Diagnostic::error("E0135", file, roll.die.span, format!("unknown die `{}`", roll.die.node), "no die has this name")
                    .with_help(help),
            );
            None
        }
    }
}

/// The faces of each of the two `outcomes` in a roll of `die`, sorted: each
/// outcome is given once, and every face of the die means exactly one
/// outcome (`E0136`).
fn roll_faces(cx: &mut Cx, file: &str, roll: &ast::Roll, die: &Die, outcomes: [ast::RollOutcome; 2]) -> Option<[Vec<u8>; 2]> {
    let n = u32::from(die.faces);
    let name = &die.name;
    let example = match outcomes[0] {
        ast::RollOutcome::Red | ast::RollOutcome::Blue => "`roll d6 { red 2 4 6  blue 1 3 5 }`",
        _ => "`roll d6 { through 6  bounce 1..5 }`",
    };
    let mut faces: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let mut given: [Option<Span>; 2] = [None, None];
    let mut listed: BTreeMap<u32, Span> = BTreeMap::new();
    let mut ok = true;
    for side in &roll.sides {
        let Some(k) = outcomes.iter().position(|o| *o == side.outcome.node) else { continue };
        let word = side.outcome.node.keyword();
        if let Some(first) = given[k] {
            cx.diags.push(
                Diagnostic::error("E0136", file, side.outcome.span, format!("`{word}` is given twice in this roll"), "given again here")
                    .with_note(first, "first given here")
                    .with_help(format!("list all the faces of `{word}` on one line, as in {example}")),
            );
            ok = false;
            continue;
        }
        given[k] = Some(side.outcome.span);
        for entry in &side.faces {
            let span = entry.span();
            let (low, high) = match entry {
                ast::Faces::One(f) => (f.node, f.node),
                ast::Faces::Range(a, b) => (a.node, b.node),
            };
            let problem = if low > high {
                Some((format!("`{low}..{high}` is not a range of faces"), "the first face is larger than the last".to_string()))
            } else if low < 1 || high > n {
                let what = if low == high { format!("face {low} is") } else { format!("`{low}..{high}` goes") };
                let what = if low == high { format!("{what} not a face of die `{name}`") } else { format!("{what} beyond the faces of die `{name}`") };
                Some((what, format!("`{name}` has the faces 1 to {n}")))
            } else {
                None
            };
            if let Some((message, label)) = problem {
                cx.diags.push(
                    Diagnostic::error("E0136", file, span, message, label)
                        .with_help(format!("faces are numbers from 1 to {n} or ranges of them written from the smaller up, such as `1..4`")),
                );
                ok = false;
                continue;
            }
            for f in low..=high {
                if let Some(&first) = listed.get(&f) {
                    cx.diags.push(
                        Diagnostic::error("E0136", file, span, format!("face {f} is listed twice in this roll"), "listed again here")
                            .with_note(first, "first listed here")
                            .with_help(format!("each face of the die means one outcome, as in {example}")),
                    );
                    ok = false;
                    break;
                }
                listed.insert(f, span);
                faces[k].push(u8::try_from(f).unwrap_or(u8::MAX));
            }
        }
    }
    let head = Span::new(roll.span.start, roll.die.span.end);
    for (k, outcome) in outcomes.iter().enumerate() {
        if given[k].is_none() {
            let word = outcome.keyword();
            cx.diags.push(
                Diagnostic::error("E0136", file, head, format!("this roll gives no `{word}` faces"), format!("no `{word}` line in this roll"))
                    .with_help(format!("a roll gives the faces of each outcome, as in {example}")),
            );
            ok = false;
        }
    }
    if ok {
        let missing: Vec<String> = (1..=n).filter(|f| !listed.contains_key(f)).map(|f| f.to_string()).collect();
        if !missing.is_empty() {
            let (faces_are, mean) = if missing.len() == 1 { ("face", "means") } else { ("faces", "mean") };
            cx.diags.push(
                Diagnostic::error("E0136", file, head, format!("{faces_are} {} of die `{name}` {mean} nothing in this roll", missing.join(", ")), "not every face is given")
                    .with_help(format!("every face of the die must mean one outcome, as in {example}")),
            );
            ok = false;
        }
    }
    for list in &mut faces {
        list.sort_unstable();
    }
    ok.then_some(faces)
}

/// The `spread` block: `squares at most 2` (the default; any other bound is
/// `E0138`); at least one weight, each statement once and each `red forward`
/// kind once (`E0137`); weights with distinct names and separators
/// (`E0139`); `red forward` kinds that exist (`E0105`) in a variant whose
/// players declare `forward` (`E0109`). Rolls are checked against their
/// dice (`E0135`, `E0136`). Kinds a later `without piece` removed are left out.
fn lower_spread(cx: &mut Cx, s: &Dropping<ast::Spread>, dice: &Dice) -> SpreadRules {
    let file = s.item.file;
    let block = s.item.node;
    let mut squares: Option<Span> = None;
    let mut names: Vec<&ast::Ident> = Vec::new();
    let mut weights: Vec<(Weight, &ast::Ident)> = Vec::new();
    let mut red_forward: Vec<(KindId, Span)> = Vec::new();
    let mut castling: Option<Span> = None;
    for rule in &block.rules {
        match &rule.node {
            ast::SpreadRule::SquaresAtMost(n) => {
                if let Some(first) = squares {
                    given_twice(cx, file, rule.span, first, "squares at most", "spread");
                    continue;
                }
                squares = Some(rule.span);
                if n.node != 2 {
                    cx.diags.push(
                        Diagnostic::error("E0138", file, n.span, format!("a spread piece on at most {} squares is not supported", n.node), "the engine keeps two halves per piece")
                            .with_help("write `squares at most 2` (or leave the line out): a split puts a conventional piece on two squares, and only a conventional piece splits"),
                    );
                }
            }
            ast::SpreadRule::Weight(w) => {
                if let Some(first) = names.iter().find(|n| n.node == w.name.node) {
                    cx.diags.push(
                        Diagnostic::error("E0139", file, w.name.span, format!("weight `{}` is defined twice", w.name.node), "defined again here")
                            .with_note(first.span, "first defined here")
                            .with_help("give each weight its own name: positions (FEN) write it after a spread piece (`Nd4g5:equal`)"),
                    );
                    continue;
                }
                names.push(&w.name);
                let Some(die) = roll_die(cx, file, dice, &w.roll) else { continue };
                let Some([red, blue]) = roll_faces(cx, file, &w.roll, &dice.dice[die], [ast::RollOutcome::Red, ast::RollOutcome::Blue]) else {
                    continue;
                };
                let separator = match red.len().cmp(&blue.len()) {
                    std::cmp::Ordering::Equal => '&',
                    std::cmp::Ordering::Greater => '>',
                    std::cmp::Ordering::Less => '<',
                };
                if let Some((other, other_name)) = weights.iter().find(|(o, _)| o.separator == separator) {
                    cx.diags.push(
                        Diagnostic::error("E0139", file, w.name.span, format!("weights `{}` and `{}` are both written `{separator}`", other.name, w.name.node), format!("written `{separator}` in a split"))
                            .with_note(other_name.span, format!("`{}` is written `{separator}` too", other.name))
                            .with_help("a split writes its weight between its two squares (`Nd4&g5`): `&` when red and blue are equally likely, `>` when red is likelier, `<` when blue is; each weight needs its own sign, so a block has at most three"),
                    );
                    continue;
                }
                weights.push((Weight { name: w.name.node.clone(), die, red_faces: red, blue_faces: blue, separator }, &w.name));
            }
            ast::SpreadRule::RedForward { forward, kinds } => {
                if cx.players.iter().any(|p| direction_test(p, "forward").is_none()) {
                    cx.diags.push(
                        Diagnostic::error("E0109", file, *forward, "`forward` is not a direction of this board", "not declared by the players")
                            .with_help("the red half stands the farther forward: the players must declare `forward`, as in `players { white: forward +rank  black: forward -rank }`"),
                    );
                }
                for name in kinds {
                    if is_dropped(cx, s, &name.node) {
                        continue;
                    }
                    let Some(k) = cx.kind(file, name) else { continue };
                    if let Some(&(_, first)) = red_forward.iter().find(|(q, _)| *q == k) {
                        cx.diags.push(
                            Diagnostic::error("E0137", file, name.span, format!("`{}` is listed twice after `red forward`", name.node), "listed again here")
                                .with_note(first, "first listed here")
                                .with_help("list each kind whose red half stands in front once"),
                        );
                        continue;
                    }
                    red_forward.push((k, name.span));
                }
            }
            ast::SpreadRule::CastlingSplits => match castling {
                Some(first) => given_twice(cx, file, rule.span, first, "castling splits", "spread"),
                None => castling = Some(rule.span),
            },
        }
    }
    if names.is_empty() {
        cx.diags.push(
            Diagnostic::error("E0137", file, keyword_span(block.span, "spread"), "this `spread` block has no weight", "no `weight` line in this block")
                .with_help("a split chooses one of the block's weights: add one, e.g. `weight equal roll d6 { red 2 4 6  blue 1 3 5 }`"),
        );
    }
    SpreadRules {
        squares: 2,
        weights: weights.into_iter().map(|(w, _)| w).collect(),
        red_forward: red_forward.into_iter().map(|(k, _)| k).collect(),
        castling_split: castling.is_some(),
        entangle: None,
        span: block.span,
        file: file.to_string(),
    }
}

/// The `entangle` block: one `groups` line (`E0137`) whose labels are
/// distinct, at most 255, not empty and without spaces, `:`, `+` or `~`
/// (positions write them; `E0139`).
fn lower_entangle(cx: &mut Cx, e: From<ast::Entangle>) -> EntangleRules {
    let file = e.file;
    let mut line: Option<Span> = None;
    let mut labels: Vec<&Spanned<String>> = Vec::new();
    for rule in &e.node.rules {
        let ast::EntangleRule::Groups(written) = &rule.node;
        if let Some(first) = line {
            given_twice(cx, file, rule.span, first, "groups", "entangle");
            continue;
        }
        line = Some(rule.span);
        for label in written {
            if label.node.is_empty() || label.node.chars().any(|c| c.is_whitespace() || matches!(c, ':' | '+' | '~')) {
                cx.diags.push(
                    Diagnostic::error("E0139", file, label.span, format!("{label:?} cannot label a group", label = label.node), "empty, or with a space, `:`, `+` or `~`")
                        .with_help("positions (FEN) write a group's label after its weight (`Bc4e2+nd5f6:equal:/`); use a short mark such as \"/\" or \"\\\\\""),
                );
                continue;
            }
            if let Some(first) = labels.iter().find(|l| l.node == label.node) {
                cx.diags.push(
                    Diagnostic::error("E0139", file, label.span, format!("label {:?} is given twice", label.node), "given again here")
                        .with_note(first.span, "first given here")
                        .with_help("each entangled group needs its own label"),
                );
                continue;
            }
            labels.push(label);
        }
    }
    if labels.len() > usize::from(u8::MAX) {
        if let Some(l) = labels.get(usize::from(u8::MAX)) {
            cx.diags.push(
                Diagnostic::error("E0139", file, l.span, format!("{} group labels", labels.len()), "the 256th label")
                    .with_help("an `entangle` block has at most 255 labels"),
            );
        }
    }
    if line.is_none() {
        cx.diags.push(
            Diagnostic::error("E0137", file, keyword_span(e.node.span, "entangle"), "this `entangle` block has no `groups` line", "no `groups` line in this block")
                .with_help("list the labels of the entangled groups, e.g. `entangle { groups \"/\" \"\\\\\" }`: their number is the most groups that may exist at once"),
        );
    }
    EntangleRules { labels: labels.into_iter().map(|l| l.node.clone()).collect(), span: e.node.span }
}

/// The `tunnel` block: one `roll` line (`E0137`) of a declared die
/// (`E0135`) whose faces each mean `through` or `bounce` (`E0136`).
fn lower_tunnel(cx: &mut Cx, t: From<ast::Tunnel>, dice: &Dice) -> Option<TunnelRules> {
    let file = t.file;
    let mut first: Option<Span> = None;
    let mut out = None;
    for rule in &t.node.rules {
        let ast::TunnelRule::Roll(roll) = &rule.node;
        if let Some(first) = first {
            given_twice(cx, file, rule.span, first, "roll", "tunnel");
            continue;
        }
        first = Some(rule.span);
        let Some(die) = roll_die(cx, file, dice, roll) else { continue };
        let Some([through, _]) = roll_faces(cx, file, roll, &dice.dice[die], [ast::RollOutcome::Through, ast::RollOutcome::Bounce]) else {
            continue;
        };
        out = Some(TunnelRules { die, through_faces: through, span: t.node.span, file: file.to_string() });
    }
    if first.is_none() {
        cx.diags.push(
            Diagnostic::error("E0137", file, keyword_span(t.node.span, "tunnel"), "this `tunnel` block has no `roll` line", "no `roll` line in this block")
                .with_help("say which faces let the piece through, e.g. `tunnel { roll d6 { through 6  bounce 1..5 } }`"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_of_knight_and_3d_atoms() {
        assert_eq!(symmetries(&[2, 1]).len(), 8);
        assert_eq!(symmetries(&[1, 0]).len(), 4);
        assert_eq!(symmetries(&[1, 0, 0]).len(), 6);
        assert_eq!(symmetries(&[1, 1, 0]).len(), 12);
        assert_eq!(symmetries(&[1, 1, 1]).len(), 8);
        assert_eq!(symmetries(&[2, 1, 0]).len(), 24);
        assert_eq!(symmetries(&[-3, 0]), [[-3, 0], [0, -3], [0, 3], [3, 0]].iter().map(|v| v.to_vec()).collect());
    }

    #[test]
    fn symmetries_of_a_step_on_many_axes_are_quick() {
        // `W` on twelve axes: 12 places × 2 signs. Enumerating every
        // permutation (12! × 2^12) would not end.
        let mut w = vec![0; 12];
        w[0] = 1;
        let all = symmetries(&w);
        assert_eq!(all.len(), 24);
        assert!(all.iter().all(|v| v.iter().map(|x| x.abs()).sum::<i32>() == 1));
        let mut n = vec![0; 40];
        n[0] = 2;
        n[1] = 1;
        assert_eq!(symmetries(&n).len(), 40 * 39 * 4);
    }

    #[test]
    fn symmetry_count_matches_the_symmetries() {
        for v in [&[2, 1][..], &[1, 0], &[1, 0, 0], &[1, 1, 0], &[1, 1, 1], &[2, 1, 0], &[3, -3, 1, 0], &[1, 2, 2, 0, 0], &[0, 0, 5]] {
            assert_eq!(symmetry_count(v, u64::MAX), symmetries(v).len() as u64, "{v:?}");
        }
        // By hand: 7! permutations × 2^7 signs; 9! × 2^9; capped.
        assert_eq!(symmetry_count(&[1, 2, 3, 4, 5, 6, 7], u64::MAX), 5040 * 128);
        assert_eq!(symmetry_count(&[1, 2, 3, 4, 5, 6, 7, 8, 9], u64::MAX), 362_880 * 512);
        assert_eq!(symmetry_count(&[1; 40], 1000), 1000);
        assert_eq!(symmetry_count(&(1..=60).collect::<Vec<i32>>(), 1 << 50), 1 << 50);
    }

    #[test]
    fn ranges_expand() {
        assert_eq!(expand_range("a", "c"), Some(vec!["a".into(), "b".into(), "c".into()]));
        assert_eq!(expand_range("1", "10").map(|v| v.len()), Some(10));
        assert_eq!(expand_range("c", "a"), None);
    }
}
