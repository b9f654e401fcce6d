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

mod board;
mod pieces;
mod promotion;
mod castling;
mod hand;
mod end;
mod claims;
mod hidden;
mod letters;
mod chance;
mod observe;
mod explosion;
mod slide;
mod phases;
mod rules;
mod rulings;
mod docs;
mod examples;
use board::*;
use pieces::*;
pub use pieces::MAX_DIRECTIONS;
use promotion::*;
use castling::*;
use hand::*;
use end::*;
use claims::*;
use hidden::*;
use letters::*;
use chance::*;
use observe::*;
use explosion::*;
use slide::*;
use phases::*;
use rules::*;
use rulings::*;
use docs::*;
use examples::*;

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
    /// The `slide` item, if any (a child's replaces the parent's).
    slide: Option<From<'a, ast::Slide>>,
    /// The `observe` item, if any (a child's replaces the parent's).
    observe: Option<From<'a, ast::Observe>>,
    /// The `explosion` item, if any (a child's replaces the parent's).
    explosion: Option<From<'a, ast::Explosion>>,
    /// The phases, in the order first written (a child's phase of the same name replaces the parent's).
    phases: Vec<From<'a, ast::Phase>>,
    /// The `rule` items, in the order first written (a child's rule of the same name replaces the parent's).
    rules: Vec<From<'a, ast::RuleDef>>,
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
                ast::Item::Slide(sl) => draft.slide = Some(From { file, node: sl }),
                ast::Item::Observe(o) => draft.observe = Some(From { file, node: o }),
                ast::Item::Explosion(x) => draft.explosion = Some(From { file, node: x }),
                ast::Item::Rule(r) => {
                    if let Some(prev) = draft.rules.iter().find(|q| q.file == file && q.node.name.node == r.name.node) {
                        diags.push(
                            Diagnostic::error("E0176", file, r.name.span, format!("rule \"{}\" is given twice in this file", r.name.node), "given again here")
                                .with_note(prev.node.name.span, "first given here")
                                .with_help("give each rule its own name; a variant that `extends` another replaces an inherited rule by writing one of the same name"),
                        );
                        continue;
                    }
                    match draft.rules.iter_mut().find(|q| q.node.name.node == r.name.node) {
                        Some(slot) => *slot = From { file, node: r },
                        None => draft.rules.push(From { file, node: r }),
                    }
                }
                ast::Item::Phase(ph) => {
                    if let Some(prev) = draft.phases.iter().find(|q| q.file == file && q.node.name.node == ph.name.node) {
                        diags.push(
                            Diagnostic::error("E0163", file, ph.name.span, format!("phase `{}` is given twice in this file", ph.name.node), "given again here")
                                .with_note(prev.node.name.span, "first given here")
                                .with_help("give each phase its own name; a variant that `extends` another replaces an inherited phase by writing one of the same name"),
                        );
                        continue;
                    }
                    match draft.phases.iter_mut().find(|q| q.node.name.node == ph.name.node) {
                        Some(slot) => *slot = From { file, node: ph },
                        None => draft.phases.push(From { file, node: ph }),
                    }
                }
                // Examples are the variant's own file's (lowered below), docs every file's.
                ast::Item::Example(_) => {}
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
                    ast::Without::Explosion => draft.explosion = None,
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
    let mut letters: BTreeMap<(bool, char), &ast::PieceDef> = BTreeMap::new();
    if draft.pieces.len() > 63 {
        cx.diags.push(Diagnostic::error("E0115", last, Span::new(0, 0), "more than 63 piece kinds", "too many pieces"));
    }
    // The move tables' size, bounded part by part (reported once, where it is passed).
    let mut table_cells: u64 = 0;
    for p in &draft.pieces {
        let (letter, plus) = lower_piece_letter(&mut cx, p.file, &p.node.letter);
        if let Some(prev) = letters.insert((plus, letter), p.node) {
            if prev.letter.span != p.node.letter.span {
                let letter = if plus { format!("+{letter}") } else { letter.to_string() };
                cx.diags.push(
                    Diagnostic::error("E0106", p.file, p.node.letter.span, format!("letter `{letter}` is used by `{}` too", prev.name.node), "used twice")
                        .with_help("every piece needs its own letter for FEN and notation"),
                );
            }
        }
        let mut royal = false;
        let (mut passes, mut pass_when_stuck, mut converts_around, mut converts_enclosed) = (false, false, None, false);
        let mut parts = Vec::new();
        for item in &p.node.body {
            match item {
                ast::PieceItem::Royal(_) => royal = true,
                ast::PieceItem::Pass(_, stuck) => {
                    passes = true;
                    pass_when_stuck = *stuck;
                }
                ast::PieceItem::Converts(_, ast::Conversion::Around(n)) => converts_around = Some(*n),
                ast::PieceItem::Converts(_, ast::Conversion::Enclosed) => converts_enclosed = true,
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
        kinds.push(PieceKind { name: p.node.name.node.clone(), letter, plus, royal, passes, pass_when_stuck, converts_around, converts_enclosed, parts, span: p.node.span, file: p.file.to_string() });
    }
    // A promoted form (`+P`) goes to hand as the kind lettered `P`: one must exist.
    for (k, p) in kinds.iter().zip(&draft.pieces) {
        if k.plus && !letters.contains_key(&(false, k.letter)) {
            cx.diags.push(
                Diagnostic::error("E0120", p.file, p.node.letter.span, format!("`+{}` is the promoted form of a piece lettered `{}`, and there is none", k.letter, k.letter), "no piece has this letter without `+`")
                    .with_help(format!("define the unpromoted piece with the letter `{}`, or give this piece a letter of its own", k.letter)),
            );
        }
    }
    let promotions = draft.promotion.map(|p| lower_promotions(&mut cx, p)).unwrap_or_default();
    let castling = draft.castling.and_then(|c| lower_castling(&mut cx, c));
    let mut hand = draft.hand.map(|h| lower_hand(&mut cx, h, kinds.len()));
    if let Some(h) = &mut hand {
        // A promoted form (`+P`) joins a hand as the kind lettered `P`.
        for (k, kind) in kinds.iter().enumerate() {
            if let Some(base) = kinds.iter().position(|b| kind.plus && !b.plus && b.letter == kind.letter) {
                h.hand_kinds[k] = base as KindId;
            }
        }
    }
    let end = match draft.end {
        Some(e) => lower_end(&mut cx, e),
        None => EndRules { checkmate: Some(Outcome::Lose), stalemate: Some(Outcome::Draw), ..EndRules::default() },
    };
    let hidden = draft.hidden.as_ref().map(|h| lower_hidden(&mut cx, h, &kinds));
    let letter_sets: Vec<LetterSet> = draft.letter_sets.iter().map(|s| lower_letter_set(&mut cx, s, &kinds)).collect();
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
    let slide = draft.slide.and_then(|sl| lower_slide(&mut cx, sl));
    let observe = draft.observe.and_then(|o| lower_observe(&mut cx, o, kinds.len()));
    if let Some(o) = &observe {
        let other = [("spread", spread.is_some()), ("tunnel", tunnel.is_some()), ("hidden", hidden.is_some()), ("slide", slide.is_some())];
        if let Some((name, _)) = other.iter().find(|(_, there)| *there) {
            cx.diags.push(
                Diagnostic::error("E0167", o.file.clone(), o.span, format!("an `observe` item in a variant with `{name}`"), "not supported together yet")
                    .with_help(format!("observation is not yet combined with `{name}`; remove one of them")),
            );
        }
    }
    let explosion = draft.explosion.and_then(|x| lower_explosion(&mut cx, x));
    if let Some(x) = &explosion {
        // An exploding face-down or spread piece would need its identity or
        // collapse drawn; a sliding level changes which cells are neighbours.
        let other = [("hidden", hidden.is_some()), ("spread", spread.is_some()), ("tunnel", tunnel.is_some()), ("slide", slide.is_some()), ("observe", observe.is_some())];
        if let Some((name, _)) = other.iter().find(|(_, there)| *there) {
            cx.diags.push(
                Diagnostic::error("E0167", x.file.clone(), x.span, format!("an `explosion` item in a variant with `{name}`"), "not supported together yet")
                    .with_help(format!("explosions are not yet combined with `{name}`; remove one of them")),
            );
        }
    }
    let phases = lower_phases(&mut cx, &draft.phases, hand.as_ref(), castling.as_ref());
    let rules = lower_rules(&mut cx, &draft.rules, &RuleScope { kinds: kinds.len(), phases: &phases, slide: slide.as_ref() });
    let promotion_moves = draft.promotion.map(|p| lower_promotion_moves(&mut cx, p, &RuleScope { kinds: kinds.len(), phases: &phases, slide: slide.as_ref() })).unwrap_or_default();
    if let (Some(sl), Some((file, span, name))) = (&slide, spread.as_ref().map(|s| (s.file.clone(), s.span, "spread")).or(tunnel.as_ref().map(|t| (t.file.clone(), t.span, "tunnel")))) {
        cx.diags.push(
            Diagnostic::error("E0158", file, span, format!("a `{name}` block in a variant with sliding levels"), "not supported together with `slide`")
                .with_note(sl.span, "the `slide` item")
                .with_help("spread pieces and tunnels do not follow sliding levels yet; remove one of them"),
        );
    }
    let has = Has { hidden: hidden.is_some(), spread: spread.is_some(), entangle: spread.as_ref().is_some_and(|s| s.entangle.is_some()) };
    let claims = draft.claims.iter().filter_map(|c| lower_claim(&mut cx, *c, &draft.removed, has)).collect();
    let present = Present {
        kinds: &kinds,
        rules: &rules,
        phases: &phases,
        blocks: [
            ("board", true),
            ("setup", true),
            ("end", true),
            ("castling", castling.is_some()),
            ("promotion", !promotions.is_empty() || !promotion_moves.is_empty()),
            ("hand", hand.is_some()),
            ("hidden", hidden.is_some()),
            ("spread", spread.is_some()),
            ("tunnel", tunnel.is_some()),
            ("slide", slide.is_some()),
            ("observe", observe.is_some()),
            ("explosion", explosion.is_some()),
        ],
    };
    let rulings = lower_rulings(&mut cx, &draft.rulings, &present);
    let examples = lower_examples(&mut cx, chain, &rules, &letter_sets);
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
        promotion_moves,
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
        slide,
        observe,
        explosion,
        phases,
        rules,
        docs: lower_docs(chain),
        examples,
    };
    // The setup must be a legal position of this very game.
    let mut game = game;
    let src = FenSource { name: setup.file, offset: setup.node.span.start + 1 };
    let mut tables = Tables::new(&game);
    let start = fen::parse(&game, &tables, &game.setup, &src).map_err(|d| vec![d])?;
    if game.kinds.iter().any(|k| k.parts.iter().any(|p| p.from_start)) {
        fill_start_zones(&mut game, &start);
        tables = Tables::new(&game);
        fen::parse(&game, &tables, &game.setup, &src).map_err(|d| vec![d])?;
    }
    let example_errors = check_examples(&game, tables);
    if !example_errors.is_empty() {
        return Err(example_errors);
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
        ast::Item::Slide(sl) => ("slide", sl.span),
        ast::Item::Observe(o) => ("observe", o.span),
        ast::Item::Explosion(x) => ("explosion", x.span),
        _ => return None,
    })
}

fn known_pieces(pieces: &[From<ast::PieceDef>]) -> String {
    let names: Vec<&str> = pieces.iter().map(|p| p.node.name.node.as_str()).collect();
    format!("the pieces defined are: {}", names.join(", "))
}

/// The cells of `zone` for each player in a lowered `game` (relative
/// coordinates mirrored per player, as lowering reads it): for an editor's
/// hover over a zone. `None` when the zone names an axis, label or square
/// the board does not have.
pub fn zone_cells(game: &Game, zone: &ast::Zone) -> Option<[Vec<Cell>; 2]> {
    let mut diags = Vec::new();
    let mut cx = Cx { geometry: &game.geometry, players: &game.players, diags: &mut diags, pieces: &[] };
    cx.zone("", zone)
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
                    ast::ZoneAtom::Coord { axis, label, to } => match geo.axis_index(&axis.node) {
                        None => {
                            ok = false;
                            self.diags.push(unknown_axis(file, axis, geo));
                        }
                        Some(a) => {
                            let mut index = |label: &ast::Ident| {
                                let i = geo.axes[a].labels.iter().position(|l| *l == label.node);
                                if i.is_none() {
                                    self.diags.push(
                                        Diagnostic::error("E0104", file, label.span, format!("`{}` is not a {} of this board", label.node, axis.node), "unknown label")
                                            .with_help(format!("the {}s are {}", axis.node, geo.axes[a].labels.join(" "))),
                                    );
                                }
                                i
                            };
                            // `rank 1..3`: the labels from the first to the last, either way round.
                            let first = index(label);
                            let last = match to {
                                Some(to) => index(to),
                                None => first,
                            };
                            match (first, last) {
                                (Some(i), Some(j)) => atoms.push((Some((a, i.min(j), i.max(j))), None)),
                                _ => ok = false,
                            }
                        }
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
                        (Some((a, lo, hi)), _) => {
                            let here = if orient[a] < 0 { geo.size(a) - 1 - coords[a] } else { coords[a] };
                            (lo..=hi).contains(&here)
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

/// A zone atom after resolution: `(axis, first, last label index)` or a square.
type ResolvedAtom = (Option<(usize, usize, usize)>, Option<Cell>);

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
