//! Niel's Chess (rules/niels-chess.rules) against its rulebook: one scenario
//! test per worked example N1–N29 and per supplementary test S1–S12 of
//! docs/niels-chess-examples.md ("the catalogue").
//!
//! Sources: "Niel's Chess - Spielregeln" (German, Teil 1 and 2,
//! /work/shared/seeds/000_9da34e1a20ea2907.txt) and "Niel's Chess - Comment
//! jouer ?" (French, Partie 1 and 2, 001_931ed2663a87aae8.txt). The rulings
//! are those of the shared spec (R1–R18; where it and the catalogue differ
//! the spec wins: R5 colours, R11 counters, R12 promotion, R13 en passant,
//! R16 castling splits).
//!
//! The rulebook's diagrams are lost. Every position here is the catalogue's
//! rebuilt one; each test says which of its pieces come from the text and
//! which were invented.
//!
//! Positions are written as FEN with the spread field (spec §3): both halves
//! stand on the board, and ` ~ ` lists one token per unit,
//! `<letter><red><blue>[+…]:<weight>[:<label>]`. Expected positions are
//! compared as the engine writes them (both sides parsed and written), so the
//! order of tokens in the field does not matter; spread units are also
//! compared member by member with [`units`].
//!
//! Why a move is illegal is shown on the *worlds* it may lead to: a world is
//! an ordinary chess position (every unit collapsed), built by [`world`]
//! without the engine's FEN checks, and asked whether the mover's king is
//! attacked there (R3: an action is legal only when no outcome with p > 0
//! leaves the mover in check).

use num_rational::Ratio;
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::engine::movegen;
use rulebook_interpreter::text::notation::{coordinate, parse_candidates, parse_move, piece_letter, san};
use rulebook_interpreter::engine::position::{code, color_of, kind_of, MoveKind, NO_CELL};
use rulebook_interpreter::engine::spread::{self, attacker_branch, victim_branch, Branch};
use rulebook_interpreter::{Move, Position, Status, Variant};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

mod support;

const WHITE: u8 = 0;
const BLACK: u8 = 1;
const RED: Option<Branch> = Some(Branch::Red);
const BLUE: Option<Branch> = Some(Branch::Blue);

// ------------------------------------------------------------------ helpers

fn niels() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(|| support::variant("niels-chess"))
}

fn sq(v: &Variant, name: &str) -> Cell {
    v.game.geometry.parse_square(name).unwrap_or_else(|| panic!("no square {name}"))
}

fn nm(v: &Variant, c: Cell) -> String {
    v.game.geometry.name(c)
}

fn fen(v: &Variant, text: &str) -> Position {
    v.parse_fen(text, "<test>").unwrap_or_else(|d| panic!("{text}: {} {:?}", d.message, d.help))
}

/// Asserts that `pos` is the position `expected` (FEN, spread field included).
#[track_caller]
fn assert_position(v: &Variant, pos: &Position, expected: &str, what: &str) {
    let want = fen(v, expected);
    assert_eq!(v.fen(pos), v.fen(&want), "{what}");
}

/// The FEN letter on `square` (`None`: empty).
fn at(v: &Variant, pos: &Position, square: &str) -> Option<char> {
    let c = pos.board[sq(v, square) as usize];
    (c != 0).then(|| piece_letter(v, c))
}

fn weight_index(v: &Variant, name: &str) -> usize {
    let rules = v.game.spread.as_ref().expect("niels-chess has `spread { … }`");
    rules.weights.iter().position(|w| w.name == name).unwrap_or_else(|| panic!("no weight {name}"))
}

fn label_name(v: &Variant, label: u8) -> String {
    let rules = v.game.spread.as_ref().expect("spread");
    let labels = &rules.entangle.as_ref().expect("niels-chess has `entangle { … }`").labels;
    labels[label as usize - 1].clone()
}

/// The spread units of `pos` in the FEN field's syntax, sorted, members sorted:
/// `["Be2c4+nd5f6:equal:/", "Qd1g4:equal"]`. Checks that the members of a
/// unit share weight and label, and that both halves of each pair hold the
/// pair's piece.
fn units(v: &Variant, pos: &Position) -> Vec<String> {
    let Some(state) = pos.spread.as_deref() else { return Vec::new() };
    let rules = v.game.spread.as_ref().expect("spread");
    let mut ids: Vec<u8> = state.pairs.iter().map(|p| p.unit).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut out = Vec::new();
    for u in ids {
        let members: Vec<_> = state.unit(u).copied().collect();
        let (w, l) = (members[0].weight, members[0].label);
        let mut texts = Vec::new();
        for p in &members {
            assert_eq!((p.weight, p.label), (w, l), "unit {u}: members differ in weight or label");
            let (r, b) = (pos.board[p.red as usize], pos.board[p.blue as usize]);
            assert!(r != 0 && r == b, "pair {}/{}: both halves must hold the piece", nm(v, p.red), nm(v, p.blue));
            texts.push(format!("{}{}{}", piece_letter(v, r), nm(v, p.red), nm(v, p.blue)));
        }
        texts.sort();
        let mut s = format!("{}:{}", texts.join("+"), rules.weights[w as usize].name);
        if l != 0 {
            s.push(':');
            s.push_str(&label_name(v, l));
        }
        out.push(s);
    }
    out.sort();
    out
}

fn unit_list(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Number of entangled groups (units that entangling formed or joined,
/// counted from the pieces), checked against the labels in use (R8: every
/// group carries one).
#[track_caller]
fn groups(pos: &Position) -> usize {
    let n = spread::entangled_groups(pos);
    assert_eq!(n, pos.spread.as_deref().map_or(0, |s| s.groups()), "every group carries a label");
    n
}

/// The legal moves (one per chance outcome).
fn legal(v: &Variant, pos: &Position) -> Vec<Move> {
    v.legal_moves(pos)
}

/// The legal actions: distinct decisions, in generation order.
fn actions(v: &Variant, pos: &Position) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    for m in legal(v, pos) {
        let d = m.decision();
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The legal outcome moves of decision `d`.
fn outcomes_of(v: &Variant, pos: &Position, d: &Move) -> Vec<Move> {
    legal(v, pos).into_iter().filter(|m| m.decision() == *d).collect()
}

fn action_of(m: &Move) -> u8 {
    m.spread & spread::ACTION
}

fn is_split(m: &Move) -> bool {
    action_of(m) == spread::SPLIT
}

fn is_entangle(m: &Move) -> bool {
    action_of(m) == spread::ENTANGLE
}

fn is_tunnel(m: &Move) -> bool {
    action_of(m) == spread::TUNNEL
}

fn is_plain(m: &Move) -> bool {
    action_of(m) == 0
}

/// (red cell, blue cell) of a split or entangle (for an entangle: the cell
/// that goes with the attacked unit's red branch first).
fn red_blue(m: &Move) -> (Cell, Cell) {
    if m.spread & spread::RED_SECOND != 0 {
        (m.second, m.to)
    } else {
        (m.to, m.second)
    }
}

fn weight_of(v: &Variant, m: &Move) -> String {
    let w = (m.spread >> spread::WEIGHT_SHIFT) & spread::WEIGHT_MASK;
    v.game.spread.as_ref().expect("spread").weights[w as usize].name.clone()
}

/// The cell of the enemy half an entangle attacks.
fn attacked_half(m: &Move) -> Cell {
    (m.aux >> 16) as Cell
}

/// The two cells of a split/entangle as sorted names.
fn cell_set(v: &Variant, m: &Move) -> [String; 2] {
    let (a, b) = (nm(v, m.to), nm(v, m.second));
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

/// A short engine-independent description, for messages and comparisons:
/// `f3>d4|g5:unequal` (split, red|blue), `f3>d4&g5:equal` (an equal split,
/// cells sorted: its colours are no part of the action), `e2>e2|c4~d5`
/// (entangle: the cell with the attacked unit's red branch first), `e7^e4`,
/// `g5h7`, each chance outcome as `/a:red`, `/v:blue`, `/through`.
fn desc(v: &Variant, m: &Move) -> String {
    let mut s = match action_of(m) {
        spread::SPLIT | spread::ENTANGLE => {
            let (r, b) = red_blue(m);
            let equal_split = is_split(m) && weight_of(v, m) == "equal";
            let mut s = if equal_split {
                // The colours of an equal split are not part of the action (R5).
                let [x, y] = cell_set(v, m);
                format!("{}>{x}&{y}", nm(v, m.from))
            } else {
                format!("{}>{}|{}", nm(v, m.from), nm(v, r), nm(v, b))
            };
            if is_entangle(m) {
                s.push_str(&format!("~{}", nm(v, attacked_half(m))));
            } else {
                s.push_str(&format!(":{}", weight_of(v, m)));
            }
            if m.kind == MoveKind::Castle {
                s.push_str(" (castling)");
            }
            s
        }
        spread::TUNNEL => format!("{}^{}", nm(v, m.from), nm(v, m.to)),
        _ => coordinate(v, &m.decision()),
    };
    if m.is_promotion() && !is_plain(m) {
        s.push_str(&format!("={}", v.game.kinds[m.promotion as usize].letter));
    }
    if let Some(b) = attacker_branch(m.outcome) {
        s.push_str(&format!("/a:{b:?}"));
    }
    if let Some(b) = victim_branch(m.outcome) {
        s.push_str(&format!("/v:{b:?}"));
    }
    if m.outcome & spread::THROUGH != 0 {
        s.push_str("/through");
    }
    if m.outcome & spread::BOUNCE != 0 {
        s.push_str("/bounce");
    }
    s
}

fn descs(v: &Variant, moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|m| desc(v, m)).collect();
    out.sort();
    out
}

/// The legal moves `text` names (all outcomes when it leaves the outcome open).
#[track_caller]
fn named(v: &Variant, pos: &Position, text: &str) -> Vec<Move> {
    parse_candidates(v, pos, text, None, "<test>", 0)
        .unwrap_or_else(|d| panic!("`{text}`: {} ({:?})\nposition {}", d.message, d.help, v.fen(pos)))
}

/// The one move `text` names (outcome included).
#[track_caller]
fn one(v: &Variant, pos: &Position, text: &str) -> Move {
    parse_move(v, pos, text, "<test>", 0)
        .unwrap_or_else(|d| panic!("`{text}`: {} ({:?})\nposition {}", d.message, d.help, v.fen(pos)))
}

/// Plays the one move `text` names.
#[track_caller]
fn play(v: &Variant, pos: &Position, text: &str) -> Position {
    let m = one(v, pos, text);
    v.play(pos, &m)
}

/// Asserts that no legal move is written `text` (the notation refuses it).
#[track_caller]
fn refused(v: &Variant, pos: &Position, text: &str) {
    if let Ok(found) = parse_candidates(v, pos, text, None, "<test>", 0) {
        panic!("`{text}` should not be legal here, found {:?}", descs(v, &found));
    }
}

/// Asserts that the SAN of `m` (check marks dropped) is `text`.
#[track_caller]
fn assert_san(v: &Variant, pos: &Position, m: &Move, text: &str) {
    let all = legal(v, pos);
    let s = san(v, pos, m, &all);
    assert_eq!(s.trim_end_matches(['+', '#']), text, "SAN of {}", desc(v, m));
}

/// Is `color` in check in `pos` (whoever is to move)?
fn in_check_of(v: &Variant, pos: &Position, color: u8) -> bool {
    let mut p = pos.clone();
    p.side = color;
    v.in_check(&p)
}

fn is_mate(v: &Variant, pos: &Position) -> bool {
    matches!(v.status(pos), Status::Checkmate(_))
}

/// A conventional world: the pieces of the FEN board `placement` (no spread
/// pieces), built directly, without the FEN checks (both kings may be
/// attacked). Is `color`'s king attacked there?
fn king_attacked_in_world(v: &Variant, placement: &str, color: u8) -> bool {
    let mut p = Position::empty();
    for (i, row) in placement.split('/').enumerate() {
        let rank = 8 - i;
        let mut file = 0u8;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as u8;
                continue;
            }
            let kind = v.game.kind_by_letter(ch).unwrap_or_else(|| panic!("no kind {ch}"));
            let col = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
            let cell = sq(v, &format!("{}{}", (b'a' + file) as char, rank));
            p.put(cell, code(kind, col), &v.tables);
            file += 1;
        }
    }
    p.side = color;
    v.in_check(&p)
}

/// The branch a die face means for weight `weight` (the rules file's table).
fn face_branch(v: &Variant, weight: &str, face: u8) -> Branch {
    let w = &v.game.spread.as_ref().expect("spread").weights[weight_index(v, weight)];
    match (w.red_faces.contains(&face), w.blue_faces.contains(&face)) {
        (true, false) => Branch::Red,
        (false, true) => Branch::Blue,
        _ => panic!("face {face} of weight {weight} is neither red nor blue only"),
    }
}

/// P(red) of a weight, from its die table.
fn red_probability(v: &Variant, weight: &str) -> Ratio<u64> {
    let w = &v.game.spread.as_ref().expect("spread").weights[weight_index(v, weight)];
    Ratio::new(w.red_faces.len() as u64, v.game.dice[w.die].faces as u64)
}

/// The outcome among `outs` with these branches.
#[track_caller]
fn outcome(v: &Variant, outs: &[Move], attacker: Option<Branch>, victim: Option<Branch>) -> Move {
    let found: Vec<&Move> =
        outs.iter().filter(|m| attacker_branch(m.outcome) == attacker && victim_branch(m.outcome) == victim).collect();
    assert_eq!(found.len(), 1, "outcome {attacker:?}/{victim:?} among {:?}", descs(v, outs));
    *found[0]
}

/// The sum of the outcomes' probabilities (must be 1 for every action).
fn total(v: &Variant, pos: &Position, outs: &[Move]) -> Ratio<u64> {
    outs.iter().map(|m| v.probability(pos, m)).sum()
}

/// The actions after which the opponent is mated in every outcome (a mate
/// never depends on a roll).
fn mating_actions(v: &Variant, pos: &Position) -> Vec<Move> {
    let all = legal(v, pos);
    actions(v, pos)
        .into_iter()
        .filter(|d| {
            all.iter().filter(|m| m.decision() == *d).all(|m| {
                let next = v.play(pos, m);
                v.in_check(&next) && is_mate(v, &next)
            })
        })
        .collect()
}

/// Pieces of `color` counted as tokens (a pair counts once): letter → count.
fn material(v: &Variant, pos: &Position, color: u8) -> BTreeMap<char, u32> {
    let mut out = BTreeMap::new();
    for c in v.game.geometry.board_cells() {
        let code = pos.board[c as usize];
        if code == 0 || color_of(code) != color {
            continue;
        }
        // The blue half of a pair is the same token as its red half.
        if pos.spread.as_deref().and_then(|s| s.pair_at(c)).is_some_and(|p| p.blue == c) {
            continue;
        }
        *out.entry(v.game.kinds[kind_of(code) as usize].letter).or_insert(0) += 1;
    }
    out
}

fn tally(items: &[(char, u32)]) -> BTreeMap<char, u32> {
    items.iter().copied().collect()
}

// ------------------------------------------------------------------ positions

/// G0 (N2): the knight on f3 before its split. From the text: Nf3, Qb3, the
/// black rook spread a7 (red, "mehr") / d7 (blue, N7), the white queen on g1
/// (N6), a black king next to h7 (N6, g8 chosen), a black pawn that can take
/// on d4 (N8, c5 chosen), a spread black bishop (N8). Invented: Kh1, Re1,
/// Bc1, pawns a2 b2 g2 h2 f7 g7, the bishop's squares c8/a6, c5 over e5.
const G0: &str = "2b3k1/r2r1ppr/b7/2p5/8/1q3N2/PP4PP/2B1R1QK w - - 0 1 ~ ra7d7:unequal bc8a6:equal";
/// G1: after 1. Nf3→d4&g5 (equal, red d4: the dice of N5, N7, N8 need it).
const G1: &str = "2b3k1/r2r1ppr/b7/2p3N1/3N4/1q6/PP4PP/2B1R1QK b - - 1 1 ~ ra7d7:unequal bc8a6:equal Nd4g5:equal";
/// G1 with White to move (for the halves' own moves, S2).
const G1_WHITE: &str = "2b3k1/r2r1ppr/b7/2p3N1/3N4/1q6/PP4PP/2B1R1QK w - - 1 2 ~ ra7d7:unequal bc8a6:equal Nd4g5:equal";
/// C0 (N9, N10). From the text: Kg4, the black knight spread d4/e5 (equal:
/// "50%"), Pe3. Invented: Ka8, no other piece, red d4 / blue e5.
const C0: &str = "k7/8/8/4n3/3n2K1/4P3/8/8 w - - 0 1 ~ nd4e5:equal";
/// E0 (N15). From the text: Be2 (d3, c4 empty), the black knight equal d5
/// (red: N16's red branch is c7-e2) / f6, Ph5 (N16), Rc8 with c7-c5 empty
/// and d8-h8 empty (N17). Invented: Kg1, Kg7, Pf2, Pg2.
const E0: &str = "2r5/6k1/5n2/3n3P/8/8/4BPP1/6K1 w - - 0 1 ~ nd5f6:equal";
/// E1: after 1. Be2&c4~d5 (e2 with the knight's red branch).
const E1: &str = "2r5/6k1/5n2/3n3P/2B5/8/4BPP1/6K1 b - - 1 1 ~ Be2c4+nd5f6:equal:/";
/// J (N17): after 1… Rh8&c8~c4 from E1.
const J: &str = "2r4r/6k1/5n2/3n3P/2B5/8/4BPP1/6K1 w - - 2 2 ~ Be2c4+nd5f6+rh8c8:equal:/";
/// D0 (N19). From the text: group / = {black rook, white bishop} unequal,
/// group \ = {white pawn, black pawn} equal, a white queen spread in no
/// group, a conventional black queen that reaches e4, the bishop's blue
/// half attacking e4. Invented: every square (bishop a2/c2, rook a8/d8,
/// pawns c4/c3 and b5/b7, queen d1/g4, Qe7, kings g1 g8, pawns f2-h2 f7-h7).
const D0: &str = r"r2r2k1/1p2qppp/8/1p6/2P3Q1/2P5/B1B2PPP/3Q2K1 b - - 0 1 ~ Ba2c2+ra8d8:unequal:/ Pc4c3+pb5b7:equal:\ Qd1g4:equal";
/// D1: after 1… Qe4&e7~c4 (e4 with the red branch of \).
const D1: &str = r"r2r2k1/1p2qppp/8/1p6/2P1q1Q1/2P5/B1B2PPP/3Q2K1 w - - 1 2 ~ Ba2c2+ra8d8:unequal:/ Pc4c3+pb5b7+qe4e7:equal:\ Qd1g4:equal";
/// Z0 (N21). From the text: a white queen half on e8, a black king that
/// entangles by staying and moving to f8 (origin g8, derived). Invented:
/// the queen's other half a4 and the weight (equal), pawns f7-h7 f2-h2, Kg1.
const Z0: &str = "4Q1k1/5ppp/8/8/Q7/8/5PPP/6K1 b - - 0 1 ~ Qe8a4:equal";
/// Z1: after 1… Kg8&f8~e8.
const Z1: &str = "4Qkk1/5ppp/8/8/Q7/8/5PPP/6K1 w - - 1 2 ~ Qe8a4+kg8f8:equal:/";
/// T1 (N23). From the text: Re7, Pe5, e6 and e4 empty, the white king on
/// e1 (N25; French: the tunnelled rook checks it), e3 and e2 empty.
/// Invented: Bf1, Pd2, Pf2, Kg8.
const T1: &str = "6k1/4r3/8/4P3/8/8/3P1P2/4KB2 b - - 0 1";
/// T1s: after 1… Re7^e4/through (French: "Les Noirs ont lancé un 6").
const T1S: &str = "6k1/8/8/4P3/4r3/8/3P1P2/4KB2 w - - 1 2";

// ======================================================================
// Teil 1 / Partie 1
// ======================================================================

/// N1 — DE "Unbestimmte Figuren" / FR "Pièces indéterminées".
///
/// "Eine Figur im unbestimmten Paar hat eine rote Markierung, die andere eine
/// blaue. Einmal auf dem Schachbrett, können sie die gleichen Züge wie die
/// konventionellen Figuren ausführen." — "zwei Beispiele: eins mit dem
/// schwarzen Springer (oben) und eins mit dem weißen Springer (unten)."
///
/// Invented: the whole position (the text gives no squares): the start after
/// 1. Ng1→f3&h3 Ng8→f6&h6, both equal.
#[test]
fn n01_indeterminate_pieces() {
    let v = niels();
    const N1: &str = "rnbqkb1r/pppppppp/5n1n/8/8/5N1N/PPPPPPPP/RNBQKB1R w KQkq - 2 2 ~ Nf3h3:equal nf6h6:equal";
    let start = v.start().expect("setup");
    let after1 = play(v, &start, "Nf3&h3");
    let pos = play(v, &after1, "Nf6&h6");
    // Two knight moves: no reset of the fifty-move count (R11).
    assert_position(v, &pos, N1, "1. Nf3&h3 Nf6&h6");
    assert_eq!(units(v, &pos), unit_list(&["Nf3h3:equal", "nf6h6:equal"]));
    // The position reads and writes back unchanged.
    assert_eq!(v.fen(&fen(v, N1)), N1);
    // One knight token per side, shown as two halves: material unchanged.
    let army = tally(&[('B', 2), ('K', 1), ('N', 2), ('P', 8), ('Q', 1), ('R', 2)]);
    assert_eq!(material(v, &pos, WHITE), army);
    assert_eq!(material(v, &pos, BLACK), army);
    // "die gleichen Züge": each half has the knight's moves from its own square.
    let moves_from = |square: &str| -> BTreeSet<String> {
        legal(v, &pos).iter().filter(|m| m.from == sq(v, square) && is_plain(m)).map(|m| nm(v, m.to)).collect()
    };
    assert_eq!(moves_from("f3"), ["d4", "e5", "g1", "g5", "h4"].iter().map(|s| s.to_string()).collect());
    assert_eq!(moves_from("h3"), ["f4", "g1", "g5"].iter().map(|s| s.to_string()).collect());
    // A half's move is written with its full origin (spec §4).
    let m = one(v, &pos, "Nf3d4");
    assert_eq!((nm(v, m.from), nm(v, m.to)), ("f3".into(), "d4".into()));
    // Halves do not split (R4: only conventional pieces split).
    assert!(legal(v, &pos).iter().all(|m| is_plain(m) || (m.from != sq(v, "f3") && m.from != sq(v, "h3"))));
}

/// N2 — DE "Superposition" / "Superpositionszug"; FR "Superposition" /
/// "Coup en superposition".
///
/// "Im Niel's Chess kann der Springer jedoch gleichzeitig nach d4 und g5
/// ziehen und so sowohl die Dame als auch den Turm angreifen!" — "WICHTIG: d4
/// und g5 müssen unbesetzt sein" — "Es ist 1 Springer, repräsentiert durch 2
/// unbestimmte Figuren." — "Das Besetzen von drei oder mehr Feldern ist in
/// diesem Spiel nicht erlaubt".
///
/// Position G0 (see the constant for what is invented).
#[test]
fn n02_superposition_move() {
    let v = niels();
    let g0 = fen(v, G0);
    // Counted by hand: the knight's quiet targets from f3 are d2 d4 e5 g5 h4
    // (e1 g1 h2 are White's own), so 10 two-cell sets + 5 stay sets = 15 sets,
    // each equal (1 action) or unequal (2 actions, red on either cell) = 45
    // splits; from e5 the knight attacks the rook's blue half d7, so the
    // stay-and-move f3&e5 may also entangle (2 pairings, R9).
    let knight: Vec<Move> = actions(v, &g0).into_iter().filter(|m| m.from == sq(v, "f3")).collect();
    assert_eq!(knight.iter().filter(|m| is_split(m)).count(), 45, "{:?}", descs(v, &knight));
    let entangles: Vec<Move> = knight.iter().copied().filter(is_entangle).collect();
    assert_eq!(entangles.len(), 2, "{:?}", descs(v, &entangles));
    assert!(entangles.iter().all(|m| attacked_half(m) == sq(v, "d7") && cell_set(v, m) == ["e5".to_string(), "f3".into()]));

    // 1. Nf3→d4&g5, equal, red d4.
    let m = one(v, &g0, "Nd4&g5");
    assert!(is_split(&m), "{}", desc(v, &m));
    assert_eq!(red_blue(&m), (sq(v, "d4"), sq(v, "g5")));
    assert_eq!(weight_of(v, &m), "equal");
    assert_eq!(one(v, &g0, "f3d4&g5"), m, "coordinate form");
    assert!(!m.is_chance(), "a split rolls no die");
    // An equal split of {d4, g5} is one action (R5); the notation accepts
    // either order, the cell written first being red.
    let equal_d4_g5 = actions(v, &g0)
        .into_iter()
        .filter(|a| is_split(a) && weight_of(v, a) == "equal" && cell_set(v, a) == ["d4".to_string(), "g5".into()])
        .count();
    assert_eq!(equal_d4_g5, 1);
    assert_eq!(red_blue(&one(v, &g0, "Ng5&d4")), (sq(v, "g5"), sq(v, "d4")));
    // Unequal: two actions, red (2/3) on either cell, written with `>`.
    assert_eq!(red_blue(&one(v, &g0, "Nd4>g5")), (sq(v, "d4"), sq(v, "g5")));
    assert_eq!(red_blue(&one(v, &g0, "Ng5>d4")), (sq(v, "g5"), sq(v, "d4")));
    let g1 = v.play(&g0, &m);
    assert_position(v, &g1, G1, "after Nd4&g5");
    assert_eq!(at(v, &g1, "f3"), None);
    assert_eq!(units(v, &g1), unit_list(&["Nd4g5:equal", "ra7d7:unequal", "bc8a6:equal"]));
    // One knight token: White's material is unchanged.
    assert_eq!(material(v, &g1, WHITE), material(v, &g0, WHITE));
    // "sowohl die Dame als auch den Turm angreifen": with White to move the d4
    // half may try b3 and the g5 half h7.
    let g1w = fen(v, G1_WHITE);
    let tries = legal(v, &g1w);
    assert!(tries.iter().any(|m| m.from == sq(v, "d4") && m.to == sq(v, "b3")));
    assert!(tries.iter().any(|m| m.from == sq(v, "g5") && m.to == sq(v, "h7")));
    assert!(!v.in_check(&g1), "Black is not in check in G1");
    // "drei oder mehr Feldern … nicht erlaubt": the halves neither split nor entangle.
    assert!(tries.iter().filter(|m| m.from == sq(v, "d4") || m.from == sq(v, "g5")).all(is_plain));
}

/// N3 — DE "Gleich vs. ungleich" / FR "Égal vs. inégal".
///
/// "Der weiße Springer ist „gleichmäßig“ auf d4 und g5." — "Der schwarze
/// Turm ist „mehr“ auf a7 als auf d7." — "Wir werden diesen Begriffen später
/// eine quantitative Bedeutung geben."
///
/// Position G1 (as N2). The quantitative meaning is the die: equal 1/2–1/2,
/// unequal 2/3–1/3 (red, "mehr", on a7). Observed through collision
/// outcomes: the d4 half's Nxb3 (White) and the rook's Rd7xd4 (Black).
#[test]
fn n03_equal_and_unequal() {
    let v = niels();
    let g1 = fen(v, G1);
    assert_eq!(red_probability(v, "equal"), Ratio::new(1, 2));
    assert_eq!(red_probability(v, "unequal"), Ratio::new(2, 3));
    let state = g1.spread.as_deref().expect("spread pieces");
    let knight = state.pair_at(sq(v, "d4")).expect("knight pair");
    assert_eq!((knight.red, knight.blue), (sq(v, "d4"), sq(v, "g5")));
    let rook = state.pair_at(sq(v, "a7")).expect("rook pair");
    assert_eq!((rook.red, rook.blue, rook.weight as usize), (sq(v, "a7"), sq(v, "d7"), weight_index(v, "unequal")));
    // P(knight on d4) = P(knight on g5) = 1/2: White's d4 half tries b3.
    let g1w = fen(v, G1_WHITE);
    let outs = named(v, &g1w, "Nd4xb3");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    assert_eq!(v.probability(&g1w, &outcome(v, &outs, RED, None)), Ratio::new(1, 2));
    assert_eq!(v.probability(&g1w, &outcome(v, &outs, BLUE, None)), Ratio::new(1, 2));
    // P(rook on a7) = 2/3, P(rook on d7) = 1/3: the rook's branch in Rd7xd4.
    let outs = named(v, &g1, "Rd7xd4");
    let p = |b: Option<Branch>| -> Ratio<u64> {
        outs.iter().filter(|m| attacker_branch(m.outcome) == b).map(|m| v.probability(&g1, m)).sum()
    };
    assert_eq!(p(RED), Ratio::new(2, 3));
    assert_eq!(p(BLUE), Ratio::new(1, 3));
}

/// N4 — DE "Ziehen & Bleiben ist erlaubt" / FR "Bouger & rester, c'est permis".
///
/// "Es ist erlaubt, gleichzeitig auf ein unbesetztes Feld zu ziehen und auf
/// dem ursprünglichen Feld zu bleiben." — "Zum Beispiel ist der schwarze
/// Bauer sowohl nach e5 gezogen als auch auf e7 stehen geblieben." — "Nur
/// für Bauer-Paare: Die unbestimmte Figur mit der roten Markierung muss
/// vorne sein."
///
/// Invented: the surroundings (the start after 1. e4) and the weight (both
/// tested).
#[test]
fn n04_move_and_stay_pawn() {
    let v = niels();
    let pos = fen(v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    // The e7 pawn's splits: {e5,e6} (red e5, the farther), {e6,e7} (red e6,
    // the moved cell), {e5,e7} (red e5) × {equal, unequal} = 6; red is never
    // the rear cell (R5, `red forward Pawn`).
    let splits: Vec<Move> = actions(v, &pos).into_iter().filter(|m| m.from == sq(v, "e7") && is_split(m)).collect();
    let mut got: Vec<(String, String, String)> =
        splits.iter().map(|m| (nm(v, red_blue(m).0), nm(v, red_blue(m).1), weight_of(v, m))).collect();
    got.sort();
    let mut want: Vec<(String, String, String)> = Vec::new();
    for (r, b) in [("e5", "e6"), ("e6", "e7"), ("e5", "e7")] {
        for w in ["equal", "unequal"] {
            want.push((r.into(), b.into(), w.into()));
        }
    }
    want.sort();
    assert_eq!(got, want);
    // Black's actions here are those of the start position (R5): 20 moves +
    // 8 pawns × 3 sets × 2 weights + 2 knights × 3 sets × 3 = 86.
    assert_eq!(actions(v, &pos).len(), 86);

    // 1… e7→e5&e7, equal: red e5 (front). The e5 half made a double step and
    // e6 is empty after the split, so e6 is the en-passant target (R13); a
    // pawn action resets the fifty-move count (R11).
    let m = one(v, &pos, "e5&e7");
    assert_eq!((red_blue(&m), weight_of(v, &m)), ((sq(v, "e5"), sq(v, "e7")), "equal".to_string()));
    assert_eq!(one(v, &pos, "e7e5&e7"), m, "coordinate form");
    let after = v.play(&pos, &m);
    assert_position(v, &after, "rnbqkbnr/pppppppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2 ~ pe5e7:equal", "after e5&e7");
    // The unequal variant: the same squares, red e5 with 2/3.
    let unequal = play(v, &pos, "e5>e7");
    assert_eq!(units(v, &unequal), vec!["pe5e7:unequal".to_string()]);
    // The e7 half fills its square and blocks rides (R1): after 2. Nf3 Black
    // has no move onto e7 and none through it (Qd8-h4, Bf8-c5 are cut).
    let next = play(v, &after, "Nf3");
    let black = legal(v, &next);
    assert!(black.iter().all(|m| (m.to != sq(v, "e7") && m.second != sq(v, "e7")) || m.from == sq(v, "e7")));
    for target in ["f6", "g5", "h4"] {
        assert!(!black.iter().any(|m| m.from == sq(v, "d8") && (m.to == sq(v, target) || m.second == sq(v, target))), "Qd8 to {target}");
    }
    assert!(!black.iter().any(|m| m.from == sq(v, "f8")), "the f8 bishop is shut in");
}

/// N5 — DE "Kollaps" / "Rein zufälliger Kollaps"; FR "Effondrement
/// véritablement aléatoire".
///
/// "Danach ist der unbestimmte weiße Springer von g5 nach h7 gezogen, um zu
/// versuchen, den schwarzen Turm zu schlagen." — "er wird entweder auf d4
/// oder auf h7 landen." — "Weiß hat eine 5 geworfen." — "Bei gleicher
/// Superposition bedeutet eine gerade Zahl Rot und eine ungerade Zahl Blau."
/// — "Somit kollabierte der Springer auf h7, und damit wurde der Turm
/// geschlagen." — "Letzteres würde bedeuten, dass der Springer auf d4
/// landet … und damit würde der Turm auf h7 entkommen."
///
/// Position G1 carried forward (invented pieces as G0).
#[test]
fn n05_purely_random_collapse() {
    let v = niels();
    let g1 = fen(v, G1);
    // "Die schwarze Dame ist von b3 nach c4 gezogen."
    let q = one(v, &g1, "Qc4");
    assert!(!q.is_chance() && is_plain(&q));
    let g2 = v.play(&g1, &q);
    assert_position(v, &g2, "2b3k1/r2r1ppr/b7/2p3N1/2qN4/8/PP4PP/2B1R1QK w - - 2 2 ~ ra7d7:unequal bc8a6:equal Nd4g5:equal", "G2");

    let outs = named(v, &g2, "Ng5xh7");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    assert_eq!(total(v, &g2, &outs), Ratio::from_integer(1));
    // Only the knight's unit is touched (the rook on h7 is conventional).
    assert!(outs.iter().all(|m| victim_branch(m.outcome).is_none()));
    let blue = outcome(v, &outs, BLUE, None);
    let red = outcome(v, &outs, RED, None);
    assert_eq!(v.probability(&g2, &blue), Ratio::new(1, 2));
    assert_eq!(v.probability(&g2, &red), Ratio::new(1, 2));
    // Blue (g5 real): the knight takes the rook. A capture resets the count.
    let g3 = v.play(&g2, &blue);
    assert_position(v, &g3, "2b3k1/r2r1ppN/b7/2p5/2q5/8/PP4PP/2B1R1QK b - - 0 2 ~ ra7d7:unequal bc8a6:equal", "G3");
    // Red (d4 real): the attacker is not on g5, nothing moves, the rook escapes (R6).
    let g3r = v.play(&g2, &red);
    assert_position(v, &g3r, "2b3k1/r2r1ppr/b7/2p5/2qN4/8/PP4PP/2B1R1QK b - - 3 2 ~ ra7d7:unequal bc8a6:equal", "G3r");
    for p in [&g3, &g3r] {
        assert_eq!(units(v, p), unit_list(&["ra7d7:unequal", "bc8a6:equal"]), "rook and bishop untouched");
        assert!(!v.in_check(p));
    }
    // The faces: 1 3 5 blue → G3, 2 4 6 red → G3r; the text's 5 gives G3.
    for face in 1..=6u8 {
        let want = if face % 2 == 1 { Branch::Blue } else { Branch::Red };
        assert_eq!(face_branch(v, "equal", face), want);
        let m = one(v, &g2, &format!("Ng5xh7/{face}"));
        assert_eq!(attacker_branch(m.outcome), Some(want), "face {face}");
    }
    assert_eq!(one(v, &g2, "Ng5xh7/5"), blue);
    assert_eq!(one(v, &g2, "Ng5xh7/blue"), blue);
    assert_san(v, &g2, &blue, "Ng5xh7/blue");
}

/// N6 — DE "Der nächste Zug" + "Bemerkung" / FR "Le coup suivant" + "Remarque".
///
/// "Nach den konventionellen Regeln hat der schwarze König den Springer
/// geschlagen." — "Wäre der weiße Springer stattdessen nach d4 kollabiert,
/// wäre er durch die Dame auf g1 geschützt gewesen".
///
/// Positions G3 and G3r of N5 (invented pieces as G0).
#[test]
fn n06_next_move_and_remark() {
    let v = niels();
    let g3 = fen(v, "2b3k1/r2r1ppN/b7/2p5/2q5/8/PP4PP/2B1R1QK b - - 0 2 ~ ra7d7:unequal bc8a6:equal");
    let outs = named(v, &g3, "Kxh7");
    assert_eq!(outs.len(), 1);
    assert!(!outs[0].is_chance(), "a conventional capture rolls no die");
    assert_eq!(v.probability(&g3, &outs[0]), Ratio::from_integer(1));
    let after = v.play(&g3, &outs[0]);
    assert_position(v, &after, "2b5/r2r1ppk/b7/2p5/2q5/8/PP4PP/2B1R1QK w - - 0 3 ~ ra7d7:unequal bc8a6:equal", "after Kxh7");
    // "Weiß scheint immer noch bessere Chancen": White is a pawn up.
    assert_eq!(material(v, &after, WHITE), tally(&[('B', 1), ('K', 1), ('P', 4), ('Q', 1), ('R', 1)]));
    assert_eq!(material(v, &after, BLACK), tally(&[('B', 1), ('K', 1), ('P', 3), ('Q', 1), ('R', 1)]));
    // The remark: in G3r the queen g1 guards d4 along g1-f2-e3-d4, where the
    // black queen c4 and pawn c5 attack it.
    let g3r = fen(v, "2b3k1/r2r1ppr/b7/2p5/2qN4/8/PP4PP/2B1R1QK b - - 3 2 ~ ra7d7:unequal bc8a6:equal");
    let d4 = sq(v, "d4");
    assert!(movegen::attacked(&v.game, &v.tables, &g3r, d4, WHITE));
    assert!(movegen::attacked(&v.game, &v.tables, &g3r, d4, BLACK));
    let after_qxd4 = play(v, &g3r, "Qxd4");
    assert!(legal(v, &after_qxd4).iter().any(|m| m.from == sq(v, "g1") && m.to == d4), "Qg1xd4 recaptures");
}

/// N7 — DE "Zwei unbestimmte Figuren" / FR "Deux pièces indéterminées".
///
/// "Eine Kollision zerstört die Schutzschicht der Figuren, daher müssen
/// sowohl Schwarz als auch Weiß würfeln. Der Schlag wird nur gelingen, wenn
/// beide Figuren auf demselben Feld landen, also auf d4." — "Bei ungleicher
/// Superposition bedeutet eine Zahl von 1, 2, 3 oder 4 Rot, während 5 oder 6
/// Blau bedeutet." — "Schwarz hat eine 6 und Weiß eine 2 geworfen." —
/// "Damit wurde der Springer geschlagen."
///
/// Position G1, Black to move (a branch instead of 1… Qc4).
#[test]
fn n07_two_indeterminate_pieces() {
    let v = niels();
    let g1 = fen(v, G1);
    let outs = named(v, &g1, "Rd7xd4");
    assert_eq!(outs.len(), 4, "{:?}", descs(v, &outs));
    assert_eq!(total(v, &g1, &outs), Ratio::from_integer(1));
    let rows = [
        // rook (attacker, Black's unequal die), knight (victim, White's equal die), p, result
        (RED, RED, Ratio::new(1, 3), "2b3k1/r4ppr/b7/2p5/3N4/1q6/PP4PP/2B1R1QK w - - 2 2 ~ bc8a6:equal"),
        (RED, BLUE, Ratio::new(1, 3), "2b3k1/r4ppr/b7/2p3N1/8/1q6/PP4PP/2B1R1QK w - - 2 2 ~ bc8a6:equal"),
        (BLUE, RED, Ratio::new(1, 6), "2b3k1/5ppr/b7/2p5/3r4/1q6/PP4PP/2B1R1QK w - - 0 2 ~ bc8a6:equal"),
        // The rook lands on the empty d4 (R6 "attacker lands").
        (BLUE, BLUE, Ratio::new(1, 6), "2b3k1/5ppr/b7/2p3N1/3r4/1q6/PP4PP/2B1R1QK w - - 2 2 ~ bc8a6:equal"),
    ];
    for (a, b, p, result) in rows {
        let m = outcome(v, &outs, a, b);
        assert_eq!(v.probability(&g1, &m), p, "{}", desc(v, &m));
        let next = v.play(&g1, &m);
        assert_position(v, &next, result, &desc(v, &m));
        assert_eq!(units(v, &next), vec!["bc8a6:equal".to_string()], "the bishop stays spread");
    }
    // The text's faces: Black 6 (unequal: blue), White 2 (equal: red) → capture.
    assert_eq!(face_branch(v, "unequal", 6), Branch::Blue);
    assert_eq!(face_branch(v, "equal", 2), Branch::Red);
    let capture = outcome(v, &outs, BLUE, RED);
    assert_eq!(one(v, &g1, "Rd7xd4/6/2"), capture);
    assert_eq!(one(v, &g1, "Rd7xd4/blue/red"), capture);
    assert_san(v, &g1, &capture, "Rd7xd4/blue/red");
    // After the capture the white queen g1 attacks d4.
    let after = v.play(&g1, &capture);
    assert!(movegen::attacked(&v.game, &v.tables, &after, sq(v, "d4"), WHITE));
}

/// N8 — DE "Unabhängige Paare" / FR "Paires indépendantes".
///
/// "Der schwarze Bauer versucht, den Springer auf d4 zu schlagen." — "Nun
/// muss Weiß würfeln, um seinen Springer kollabieren zu lassen..." — "Weiß
/// hat eine 3 geworfen, sodass der Springer auf g5 kollabierte und entkam."
/// — "Der Turm und der Läufer wurden jedoch durch den Bauern nicht gestört
/// und sind daher in Superposition geblieben..."
///
/// Position G1 (a branch instead of 1… Qc4). Invented: the pawn on c5 (it
/// must be conventional, since only White rolls), the bishop's squares.
/// Reading: R6 "attacker lands" — on the blue outcome the pawn stands on d4.
#[test]
fn n08_independent_pairs() {
    let v = niels();
    let g1 = fen(v, G1);
    let outs = named(v, &g1, "cxd4");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    // One die only, White's: the attacker is conventional.
    assert!(outs.iter().all(|m| attacker_branch(m.outcome).is_none()));
    let escaped = outcome(v, &outs, None, BLUE);
    let taken = outcome(v, &outs, None, RED);
    assert_eq!(v.probability(&g1, &escaped), Ratio::new(1, 2));
    assert_eq!(v.probability(&g1, &taken), Ratio::new(1, 2));
    let a = v.play(&g1, &escaped);
    assert_position(v, &a, "2b3k1/r2r1ppr/b7/6N1/3p4/1q6/PP4PP/2B1R1QK w - - 0 2 ~ ra7d7:unequal bc8a6:equal", "face 3: the knight escapes to g5");
    let b = v.play(&g1, &taken);
    assert_position(v, &b, "2b3k1/r2r1ppr/b7/8/3p4/1q6/PP4PP/2B1R1QK w - - 0 2 ~ ra7d7:unequal bc8a6:equal", "even: the knight is taken");
    for p in [&a, &b] {
        assert_eq!(units(v, p), unit_list(&["ra7d7:unequal", "bc8a6:equal"]), "rook and bishop stay spread");
    }
    assert_eq!(face_branch(v, "equal", 3), Branch::Blue);
    assert_eq!(one(v, &g1, "cxd4/3"), escaped);
    assert_eq!(one(v, &g1, "cxd4/blue"), escaped);
}

/// N9 — DE "Schach & Schachmatt" / "Was ist ein Schach?"; FR "Qu'est-ce
/// qu'un échec ?".
///
/// "In einem hypothetischen nächsten Zug hätte Schwarz eine 50% Chance, ihn zu
/// schlagen, indem er von e5 nach g4 zieht." — "In Niel's Chess wird Gefahr
/// (die Möglichkeit, den König zu schlagen) als „Schach“ bezeichnet." —
/// "Also steht der weiße König im Schach und muss ziehen".
///
/// Position C0 (invented: Ka8, nothing else, the colours red d4 / blue e5).
#[test]
fn n09_what_is_a_check() {
    let v = niels();
    let c0 = fen(v, C0);
    assert!(v.in_check(&c0), "a world (knight on e5) attacks g4");
    // The hypothetical 1… Ne5xg4: the king is taken with p = 1/2.
    let mut black = c0.clone();
    black.side = BLACK;
    let tries: Vec<Move> = legal(v, &black).into_iter().filter(|m| m.from == sq(v, "e5") && m.to == sq(v, "g4")).collect();
    assert_eq!(tries.len(), 2, "{:?}", descs(v, &tries));
    assert_eq!(v.probability(&black, &outcome(v, &tries, BLUE, None)), Ratio::new(1, 2));

    // White's legal actions, counted by hand (spec R2–R5, R9): 53, all of the king.
    let all = actions(v, &c0);
    assert!(all.iter().all(|m| m.from == sq(v, "g4")), "only the king moves: {:?}", descs(v, &all));
    let safe: BTreeSet<String> = ["f4", "g3", "g5", "h3", "h4", "h5"].iter().map(|s| s.to_string()).collect();
    // 6 king steps (f3 is attacked from both halves, f5 from d4).
    let steps: BTreeSet<String> = all.iter().filter(|m| is_plain(m)).map(|m| nm(v, m.to)).collect();
    assert_eq!(steps, safe);
    // 45 splits: the 15 pairs of safe squares × {equal, unequal red first,
    // unequal red second}; no stay (g4 is attacked).
    let splits: Vec<&Move> = all.iter().filter(|m| is_split(m)).collect();
    assert_eq!(splits.len(), 45);
    let mut per_set: BTreeMap<[String; 2], usize> = BTreeMap::new();
    for m in &splits {
        let set = cell_set(v, m);
        assert!(safe.contains(&set[0]) && safe.contains(&set[1]), "{}", desc(v, m));
        *per_set.entry(set).or_insert(0) += 1;
    }
    assert_eq!(per_set.len(), 15);
    assert!(per_set.values().all(|&n| n == 3));
    // 2 entangles: stay on g4 with the knight's red branch (d4), f4 or f5
    // with its blue branch (e5). The other pairing leaves g4 with e5 in one
    // world (R2); d4 on f5 is harmless because they are in different branches.
    let ent: Vec<&Move> = all.iter().filter(|m| is_entangle(m)).collect();
    assert_eq!(ent.len(), 2, "{:?}", ent.iter().map(|m| desc(v, m)).collect::<Vec<_>>());
    for m in &ent {
        assert_eq!(red_blue(m).0, sq(v, "g4"), "{}", desc(v, m));
        assert_eq!(attacked_half(m), sq(v, "e5"));
        assert!(["f4", "f5"].contains(&nm(v, red_blue(m).1).as_str()));
    }
    assert_eq!(all.len(), 53);
    let next = play(v, &c0, "Kg4&f4~e5");
    assert_eq!(units(v, &next), vec!["Kg4f4+nd4e5:equal:/".to_string()]);
    // Why the reverse pairing fails: in its blue world the king stands on g4
    // and the knight on e5.
    assert!(king_attacked_in_world(v, "k7/8/8/4n3/6K1/4P3/8/8", WHITE));
}

/// N10 — DE "Geht nicht!" / FR "Interdit !".
///
/// "Der weiße Bauer darf nicht versuchen, den Springer auf d4 zu schlagen." —
/// "Weil dadurch der schwarze Springer kollabieren würde, mit einer 50%
/// Chance, dass er auf e5 kollabiert und so der Schlag entkommt, was den
/// weißen König im Schach lassen würde." — "Es ist nicht erlaubt, einen Zug
/// zu machen, der potenziell den eigenen König im Schach belässt oder ihm
/// Schach aussetzt." — "(Der Bauer muss auf e3 bleiben.)"
///
/// Position C0 (as N9).
#[test]
fn n10_not_allowed() {
    let v = niels();
    let c0 = fen(v, C0);
    let all = legal(v, &c0);
    assert!(!all.iter().any(|m| m.from == sq(v, "e3")), "no pawn action at all: {:?}", descs(v, &all));
    refused(v, &c0, "exd4");
    // Why: exd4's two outcomes. Knight on d4 (1/2): taken, the king is safe.
    assert!(!king_attacked_in_world(v, "k7/8/8/8/3P2K1/8/8/8", WHITE));
    // Knight on e5 (1/2): the pawn lands on d4 and e5 still attacks g4.
    assert!(king_attacked_in_world(v, "k7/8/8/4n3/3P2K1/8/8/8", WHITE));
    // e3-e4, the split e4&e3 and the entangle e4&e3~d4 all keep the e5 world.
    assert!(king_attacked_in_world(v, "k7/8/8/4n3/4P1K1/8/8/8", WHITE));
    // Legality is a function of the position alone: no die is involved.
    assert_eq!(descs(v, &legal(v, &c0)), descs(v, &all));
}

/// N11 — DE "Schachmatt" (two pages) / FR "Échec et mat".
///
/// "Im konventionellen Schach wäre es nicht möglich, den schwarzen König in
/// nur einem Zug schachmatt zu setzen." — "Schwarz kann diesem Schach nicht
/// entkommen." — "Das Ziehen des Springers nach f5 ist nicht erlaubt, da der
/// Turm mit einer 50% Chance nach c8 kollabieren würde, wodurch der schwarze
/// König im Schach bliebe." — "Dies hatte nichts mit Glück zu tun – wir
/// haben nicht einmal gewürfelt!"
///
/// Position M0. From the text: a white rook splitting to c8 and f5, a black
/// knight that can take on f5, "50%" (equal; all three weights mate).
/// Invented: Rc5, Kf8, Nh6, pawns e7 g7 h7 f2 g2 h2, Kg1.
#[test]
fn n11_mate_by_a_superposition_move() {
    let v = niels();
    let m0 = fen(v, "5k2/4p1pp/7n/2R5/8/8/5PPP/6K1 w - - 0 1");
    // The mating actions are exactly the three weights of the c8/f5 split.
    let mates = mating_actions(v, &m0);
    let got: BTreeSet<String> = mates.iter().map(|m| desc(v, m)).collect();
    let want: BTreeSet<String> =
        ["c5>c8&f5:equal", "c5>c8|f5:unequal", "c5>f5|c8:unequal"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want, "no conventional move mates");
    let m = one(v, &m0, "Rc8&f5");
    assert!(!m.is_chance());
    let m1 = v.play(&m0, &m);
    assert_position(v, &m1, "2R2k2/4p1pp/7n/5R2/8/8/5PPP/6K1 b - - 1 1 ~ Rc8f5:equal", "M1");
    assert!(v.in_check(&m1));
    assert!(legal(v, &m1).is_empty(), "{:?}", descs(v, &legal(v, &m1)));
    assert!(is_mate(v, &m1));
    for text in ["Rc8>f5", "Rf5>c8"] {
        assert!(is_mate(v, &play(v, &m0, text)), "{text} mates as well");
    }
    // Why Nxf5 fails: rook on c8 (1/2), the knight lands on f5 and c8 checks.
    assert!(king_attacked_in_world(v, "2R2k2/4p1pp/8/5n2/8/8/5PPP/6K1", BLACK));
    // Rook on f5 (1/2): taken, no check.
    assert!(!king_attacked_in_world(v, "5k2/4p1pp/8/5n2/8/8/5PPP/6K1", BLACK));
    // Nf7 blocks only the f-file: the c8 world keeps the check.
    assert!(king_attacked_in_world(v, "2R2k2/4pnpp/8/8/8/8/5PPP/6K1", BLACK));
    // Kf7 meets the f5 world; e8 and g8 the c8 world.
    assert!(king_attacked_in_world(v, "8/4pkpp/7n/5R2/8/8/5PPP/6K1", BLACK));
    assert!(king_attacked_in_world(v, "2R3k1/4p1pp/7n/8/8/8/5PPP/6K1", BLACK));
    // The conventional tries do not mate: Rc8+ Kf7, Rf5+ Nxf5.
    assert!(!is_mate(v, &play(v, &m0, "Rc8")));
    assert!(!is_mate(v, &play(v, &m0, "Rf5")));
}

/// N12 — DE "Etwas Seltsames" / FR "Un cas étrange".
///
/// "Dies ist ebenfalls ein Schachmatt." — "Weiß hat keinen legalen Zug, um dem
/// Schach zu entkommen."
///
/// Wholly invented (the diagram is lost): the only piece that could take the
/// checking rook is a half of White's own knight, which is on d3 only with
/// 1/2 — in conventional chess Nxe1 would save White.
#[test]
fn n12_something_strange() {
    let v = niels();
    let s0 = fen(v, "6k1/5ppp/8/N7/8/3N4/6PP/4r2K w - - 0 1 ~ Nd3a5:equal");
    assert!(v.in_check(&s0));
    assert!(legal(v, &s0).is_empty(), "{:?}", descs(v, &legal(v, &s0)));
    assert!(is_mate(v, &s0));
    // Why Nd3xe1 fails: on a5 (1/2) nothing moves and e1 still checks.
    assert!(king_attacked_in_world(v, "6k1/5ppp/8/N7/8/8/6PP/4r2K", WHITE));
    assert!(!king_attacked_in_world(v, "6k1/5ppp/8/8/8/8/6PP/4N2K", WHITE));
    // The conventional control: a knight really on d3 saves White.
    let control = fen(v, "6k1/5ppp/8/8/8/3N4/6PP/4r2K w - - 0 1");
    assert_eq!(descs(v, &legal(v, &control)), vec!["d3e1".to_string()]);
}

/// N13 — DE "Ein weiteres" / FR "Encore un".
///
/// "Die unbestimmte schwarze Dame auf f8 verhindert das Schach durch den
/// weißen Turm auf h8..." — "...während ihr Gegenstück auf b4 den weißen
/// König schachmatt setzt."
///
/// From the text: the queen halves f8 and b4, Rh8, the black king left of f8
/// on rank 8 (e8 chosen). Invented: Ka3, Pa2, Pb2, Pa5 (guards b4), the
/// weight (equal; all three mate), and W0 with the queen on f4 to reach W1.
#[test]
fn n13_another_one() {
    let v = niels();
    let w0 = fen(v, "4k2R/8/8/p7/5q2/K7/PP6/8 b - - 0 1");
    assert!(v.in_check(&w0));
    let mates = mating_actions(v, &w0);
    let got: BTreeSet<String> = mates.iter().map(|m| desc(v, m)).collect();
    let want: BTreeSet<String> =
        ["f4>b4&f8:equal", "f4>f8|b4:unequal", "f4>b4|f8:unequal"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
    let w1 = play(v, &w0, "Qf8&b4");
    assert_position(v, &w1, "4kq1R/8/8/p7/1q6/K7/PP6/8 w - - 1 2 ~ qf8b4:equal", "W1");
    // The f8 half blocks the rook in every world (R1): Black is not in check.
    assert!(!in_check_of(v, &w1, BLACK));
    assert!(v.in_check(&w1), "the b4 world checks a3");
    assert!(legal(v, &w1).is_empty(), "{:?}", descs(v, &legal(v, &w1)));
    assert!(is_mate(v, &w1));
    // Why Rxf8 fails: queen on b4 (1/2), the rook lands on f8, b4 checks.
    assert!(king_attacked_in_world(v, "4kR2/8/8/p7/1q6/K7/PP6/8", WHITE));
    // Kxb4 fails in both worlds: a5 guards b4.
    assert!(king_attacked_in_world(v, "4kq1R/8/8/p7/1K6/8/PP6/8", WHITE));
    assert!(king_attacked_in_world(v, "4k2R/8/8/p7/1K6/8/PP6/8", WHITE));
    // Without the blocking half (a conventional queen on b4 only) Black would be in check.
    assert!(king_attacked_in_world(v, "4k2R/8/8/p7/1q6/K7/PP6/8", BLACK));
}

/// N14 — DE "Sonderzüge I" / "Unbestimmte Bauernumwandlung"; FR "Promotion
/// de pion indéterminé".
///
/// "Wenn ein unbestimmter Bauer die letzte Reihe erreicht, muss das Paar, zu
/// dem er gehört, gegen ein neues unbestimmtes Damen-, Turm-, Läufer- oder
/// Springer-Paar mit derselben Orientierung der Markierungen ausgetauscht
/// werden" — "Der unbestimmte Bauer hat d8 erreicht, und das Paar wurde in
/// eine Dame verwandelt." — "Es wäre möglich gewesen, das Bauernpaar gegen
/// ein Läuferpaar auszutauschen!"
///
/// From the text: a white pawn pair whose half reaches d8 from d7. Invented:
/// the other half on d5 (red in front), the weight unequal (red d7 2/3), the
/// kings b1 and h6.
#[test]
fn n14_indeterminate_promotion() {
    let v = niels();
    let pr0 = fen(v, "8/3P4/7k/3P4/8/8/8/1K6 w - - 0 1 ~ Pd7d5:unequal");
    let to_d8: Vec<Move> = legal(v, &pr0).into_iter().filter(|m| m.from == sq(v, "d7") && m.to == sq(v, "d8")).collect();
    // Mandatory: exactly =Q =R =B =N, no pawn half on d8; no die.
    let mut kinds: Vec<char> = to_d8.iter().map(|m| {
        assert!(m.is_promotion() && !m.is_chance() && is_plain(m), "{}", desc(v, m));
        v.game.kinds[m.promotion as usize].letter
    }).collect();
    kinds.sort();
    assert_eq!(kinds, vec!['B', 'N', 'Q', 'R']);
    // Halves do not split (R4).
    assert!(legal(v, &pr0).iter().all(|m| is_plain(m) || (m.from != sq(v, "d7") && m.from != sq(v, "d5"))));
    let pr1 = play(v, &pr0, "d7d8=Q");
    // Both halves are queen halves, same unit, weight and colours; a pawn action resets the count.
    assert_position(v, &pr1, "3Q4/8/7k/3Q4/8/8/8/1K6 b - - 0 1 ~ Qd8d5:unequal", "=Q");
    assert!(!v.in_check(&pr1));
    // The "fun fact": a bishop pair on d8 (dark) and d5 (light).
    let bishop = play(v, &pr0, "d7d8=B");
    assert_eq!(units(v, &bishop), vec!["Bd8d5:unequal".to_string()]);
    assert!(!v.in_check(&bishop));
    let mut white = bishop.clone();
    white.side = WHITE;
    let diag: BTreeSet<String> = legal(v, &white).iter().filter(|m| m.from == sq(v, "d5") && is_plain(m)).map(|m| nm(v, m.to)).collect();
    assert!(diag.contains("e6") && diag.contains("c4") && !diag.contains("d6"), "the d5 half moves as a bishop: {diag:?}");
    for text in ["d7d8=R", "d7d8=N"] {
        assert!(!v.in_check(&play(v, &pr0, text)), "{text}");
    }
}

// ======================================================================
// Teil 2 / Partie 2
// ======================================================================

/// N15 — DE "Verschränkung" / "Der Zug, technisch gesehen"; FR "Intrication"
/// / "Le coup, techniquement".
///
/// "1. Der weiße Läufer zieht (z.B. nach c4) und bleibt gleichzeitig auf
/// e2... 2. ...sodass er den schwarzen Springer angreift (in diesem Fall von
/// c4 aus)." — "WICHTIG: c4 muss unbesetzt sein" — "Weiß kann frei wählen,
/// ob die rote Markierung nach e2 und die blaue nach c4 geht oder umgekehrt."
/// — "das Springer-Läufer-Paar „gleichmäßig“ auf d5-e2 und f6-c4 steht."
///
/// Position E0 (see the constant for what is invented).
#[test]
fn n15_entanglement_move() {
    let v = niels();
    let e0 = fen(v, E0);
    // White's entangles: stay on e2 and move to c4 (c4-d5) or to f3
    // (f3-e4-d5), each with 2 pairings (R9) = 4.
    let ent: Vec<Move> = actions(v, &e0).into_iter().filter(is_entangle).collect();
    let got: BTreeSet<String> = ent.iter().map(|m| desc(v, m)).collect();
    let want: BTreeSet<String> =
        ["e2>e2|c4~d5", "e2>c4|e2~d5", "e2>e2|f3~d5", "e2>f3|e2~d5"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
    // The plain split e2&c4 exists as well (R10, X6).
    assert!(actions(v, &e0).iter().any(|m| is_split(m) && m.from == sq(v, "e2") && cell_set(v, m) == ["c4".to_string(), "e2".into()]));

    let m = one(v, &e0, "Be2&c4~d5");
    assert!(is_entangle(&m) && !m.is_chance());
    assert_eq!(one(v, &e0, "e2e2&c4~d5"), m, "coordinate form");
    let e1 = v.play(&e0, &m);
    assert_position(v, &e1, E1, "E1");
    // One unit of two members, equal, labelled "/": red world knight d5 +
    // bishop e2, blue world knight f6 + bishop c4.
    assert_eq!(units(v, &e1), vec!["Be2c4+nd5f6:equal:/".to_string()]);
    assert_eq!(groups(&e1), 1);
    assert!(!v.in_check(&e1));
    assert_san(v, &e0, &m, "Be2&c4~d5");
    // The other pairing.
    let reverse = play(v, &e0, "Bc4&e2~d5");
    assert_eq!(units(v, &reverse), vec!["Bc4e2+nd5f6:equal:/".to_string()]);
}

/// N16 — DE "Kollaps im Tandem" / FR "Effondrement en tandem".
///
/// "Zwei Züge später versucht Schwarz, den weißen Bauern auf h5 zu schlagen."
/// — "ist das nur mit h5-b3 in der gemeinsamen Superposition kompatibel (die
/// c7-e2 und h5-b3 enthält)" — "Das Ergebnis wird also entweder „rot-rot“
/// oder „blau-blau“ sein." — "Schwarz hat eine 4 geworfen." — "Somit landete
/// das Springer-Läufer-Paar auf c7-e2, und der Bauer auf h5 ist entkommen.
/// Ein einzelner Würfelwurf hat beide Figuren gleichzeitig kollabieren
/// lassen."
///
/// Position E1 carried forward. Invented: the two intermediate moves
/// 1… Nd5c7 2. Bc4b3 ("zwei Züge später", taken as two plies).
#[test]
fn n16_collapse_in_tandem() {
    let v = niels();
    let e1 = fen(v, E1);
    let a = play(v, &e1, "Nd5c7");
    assert_position(v, &a, "2r5/2n3k1/5n2/7P/2B5/8/4BPP1/6K1 w - - 2 2 ~ Be2c4+nc7f6:equal:/", "after Nd5c7");
    let e3 = play(v, &a, "Bc4b3");
    assert_position(v, &e3, "2r5/2n3k1/5n2/7P/8/1B6/4BPP1/6K1 b - - 3 2 ~ Be2b3+nc7f6:equal:/", "E3");

    let outs = named(v, &e3, "Nf6xh5");
    assert_eq!(outs.len(), 2, "no mixed outcome: {:?}", descs(v, &outs));
    // One roll: only the attacker's unit (the pawn is conventional).
    assert!(outs.iter().all(|m| victim_branch(m.outcome).is_none()));
    let red = outcome(v, &outs, RED, None);
    let blue = outcome(v, &outs, BLUE, None);
    assert_eq!(v.probability(&e3, &red), Ratio::new(1, 2));
    assert_eq!(v.probability(&e3, &blue), Ratio::new(1, 2));
    // "rot-rot": knight c7, bishop e2, the pawn escapes (no capture: the count goes on).
    let r = v.play(&e3, &red);
    assert_position(v, &r, "2r5/2n3k1/8/7P/8/8/4BPP1/6K1 w - - 4 3", "red-red");
    // "blau-blau": the knight takes on h5, the bishop is on b3.
    let b = v.play(&e3, &blue);
    assert_position(v, &b, "2r5/6k1/8/7n/8/1B6/5PP1/6K1 w - - 0 3", "blue-blue");
    for p in [&r, &b] {
        assert!(p.spread.is_none() && groups(p) == 0, "no unit remains, the label is free");
    }
    assert_eq!(face_branch(v, "equal", 4), Branch::Red);
    assert_eq!(one(v, &e3, "Nf6xh5/4"), red);
    assert_eq!(one(v, &e3, "Nf6xh5/red"), red);
}

/// N17 — DE "Weitere können sich anschließen" (page 1) / FR "D'autres
/// peuvent se joindre".
///
/// "Der Turm auf c8 kann sich der Verschränkung von Springer und Läufer
/// anschließen, indem er einen Verschränkungszug ausführt, bei dem der Läufer
/// des Gegners beteiligt ist." — "Da er den Läufer bereits von c8 aus
/// angreift, kann der Turm in diesem Beispiel auf jedes unbesetzte Feld
/// ziehen, das er erreichen kann (z.B. h8), während er gleichzeitig auf c8
/// bleibt." — "Das Springer-Läufer-Turm-Triplett befindet sich „gleichmäßig“
/// auf d5-e2-h8 und f6-c4-c8."
///
/// Position E1, Black to move (a branch from E1, not after N16).
#[test]
fn n17_others_can_join() {
    let v = niels();
    let e1 = fen(v, E1);
    // The attack comes from the stay cell c8 (c7-c5 empty), so every empty
    // square the rook reaches is a second cell: a8 b8 d8 e8 f8 g8 h8 c7 c6
    // c5 = 10 × 2 pairings = 20 (one action per attacked unit, R9/X19).
    let ent: Vec<Move> = actions(v, &e1).into_iter().filter(|m| is_entangle(m) && m.from == sq(v, "c8")).collect();
    assert_eq!(ent.len(), 20, "{:?}", descs(v, &ent));
    let seconds: BTreeSet<String> = ent.iter().map(|m| {
        let (r, b) = red_blue(m);
        nm(v, if r == sq(v, "c8") { b } else { r })
    }).collect();
    let want: BTreeSet<String> = ["a8", "b8", "d8", "e8", "f8", "g8", "h8", "c7", "c6", "c5"].iter().map(|s| s.to_string()).collect();
    assert_eq!(seconds, want);

    let m = one(v, &e1, "Rh8&c8~c4");
    assert_eq!(red_blue(&m), (sq(v, "h8"), sq(v, "c8")));
    let j = v.play(&e1, &m);
    assert_position(v, &j, J, "J");
    // No new label: the group stays "/", now three members, equal.
    assert_eq!(units(v, &j), vec!["Be2c4+nd5f6+rh8c8:equal:/".to_string()]);
    assert_eq!(groups(&j), 1);
    assert!(!v.in_check(&j));
}

/// N18 — DE "Weitere können sich anschließen" (page 2) / FR "D'autres
/// peuvent se joindre" (page 2).
///
/// "Als nächstes könnte der Läufer von c4 nach d5 ziehen, um zu versuchen,
/// den Springer zu schlagen. Schwarz müsste dann würfeln, und die Figuren
/// würden entweder auf d5-e2-h8 oder f6-d5-c8 landen." — "Der Läufer würde
/// den Springer jedoch sicher nicht schlagen, da es unmöglich ist, dass beide
/// auf d5 kollabieren."
///
/// Position J (N17).
#[test]
fn n18_capture_inside_the_group() {
    let v = niels();
    let j = fen(v, J);
    let outs = named(v, &j, "Bc4xd5");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    // One unit: one roll, no victim bits.
    assert!(outs.iter().all(|m| victim_branch(m.outcome).is_none()));
    let red = outcome(v, &outs, RED, None);
    let blue = outcome(v, &outs, BLUE, None);
    assert_eq!(v.probability(&j, &red), Ratio::new(1, 2));
    assert_eq!(v.probability(&j, &blue), Ratio::new(1, 2));
    // d5-e2-h8: the bishop was on e2, nothing moves.
    let r = v.play(&j, &red);
    assert_position(v, &r, "7r/6k1/8/3n3P/8/8/4BPP1/6K1 b - - 3 2", "red: d5-e2-h8");
    // f6-d5-c8: the bishop moves to the empty d5 (attacker lands).
    let b = v.play(&j, &blue);
    assert_position(v, &b, "2r5/6k1/5n2/3B3P/8/8/5PP1/6K1 b - - 3 2", "blue: f6-d5-c8");
    // P(knight captured) = 0.
    for p in [&r, &b] {
        assert_eq!(material(v, p, BLACK).get(&'N'), Some(&1));
        assert!(p.spread.is_none() && groups(p) == 0);
    }
}

/// N19 — DE "Nur zwei Diagonalen" / FR "Seulement deux diagonales".
///
/// "1. Der schwarze Turm ist mit dem weißen Läufer verschränkt, was durch
/// ihre Markierungen entlang / angezeigt wird. 2. Der weiße Bauer ist mit
/// dem schwarzen Bauern verschränkt, was durch ihre Markierungen entlang \
/// angezeigt wird." — "Die schwarze Dame darf sich nicht mehr mit der weißen
/// Dame verschränken, da beide Diagonalen bereits verbraucht sind..." —
/// "...aber sie darf sich einer der beiden verschränkten Gruppen
/// anschließen." — "Die schwarze Dame hat sich der Verschränkung der Bauern
/// angeschlossen."
///
/// Position D0 (every square invented, see the constant).
#[test]
fn n19_only_two_diagonals() {
    let v = niels();
    let d0 = fen(v, D0);
    assert_eq!(groups(&d0), 2);
    let ent: Vec<Move> = actions(v, &d0).into_iter().filter(|m| is_entangle(m) && m.from == sq(v, "e7")).collect();
    // No free label: no entangle joins the white queen's single pair.
    assert!(ent.iter().all(|m| attacked_half(m) != sq(v, "g4") && attacked_half(m) != sq(v, "d1")), "{:?}", descs(v, &ent));
    // From e4 she attacks c4 (group \), c2 (group /) and g4 (the queen).
    let e4: BTreeSet<String> = ent.iter().filter(|m| cell_set(v, m) == ["e4".to_string(), "e7".into()]).map(|m| desc(v, m)).collect();
    let want: BTreeSet<String> =
        ["e7>e4|e7~c4", "e7>e7|e4~c4", "e7>e4|e7~c2", "e7>e7|e4~c2"].iter().map(|s| s.to_string()).collect();
    assert_eq!(e4, want);

    let m = one(v, &d0, "Qe4&e7~c4");
    assert_eq!(one(v, &d0, "e7e4&e7~c4"), m, "coordinate form");
    let d1 = v.play(&d0, &m);
    assert_position(v, &d1, D1, "D1");
    // \ has three members and stays equal; the queen is still independent; two groups.
    assert_eq!(
        units(v, &d1),
        unit_list(&["Ba2c2+ra8d8:unequal:/", r"Pc4c3+pb5b7+qe4e7:equal:\", "Qd1g4:equal"])
    );
    assert_eq!(groups(&d1), 2);
}

/// N20 — DE "Lass dies kollabieren!" / FR "Effondre ça !".
///
/// "Der weiße Läufer versucht, die schwarze Dame auf e4 zu schlagen." — "Der
/// Wurf von Schwarz wird die schwarze Dame, den schwarzen Bauern und den
/// weißen Bauern kollabieren lassen (gemäß der „gleich“-Regel). Der Wurf von
/// Weiß wird den weißen Läufer und den schwarzen Turm kollabieren lassen
/// (gemäß der „ungleich“-Regel)." — "Der Schlag gelingt, wenn Weiß entweder
/// eine 5 oder 6 (Blau) würfelt und Schwarz eine gerade Zahl (Rot) würfelt."
/// — "Die weiße Dame wird nicht gestört und bleibt unverändert in
/// Superposition."
///
/// Position D1 (N19; every square invented).
#[test]
fn n20_let_this_collapse() {
    let v = niels();
    let d1 = fen(v, D1);
    let outs = named(v, &d1, "Bc2xe4");
    assert_eq!(outs.len(), 4, "{:?}", descs(v, &outs));
    assert_eq!(total(v, &d1, &outs), Ratio::from_integer(1));
    let rows = [
        // White's die (/, unequal), Black's die (\, equal)
        (RED, RED, Ratio::new(1, 3), "r5k1/5ppp/8/1p6/2P1q1Q1/8/B4PPP/3Q2K1 b - - 2 2 ~ Qd1g4:equal"),
        (RED, BLUE, Ratio::new(1, 3), "r5k1/1p2qppp/8/8/6Q1/2P5/B4PPP/3Q2K1 b - - 2 2 ~ Qd1g4:equal"),
        (BLUE, RED, Ratio::new(1, 6), "3r2k1/5ppp/8/1p6/2P1B1Q1/8/5PPP/3Q2K1 b - - 0 2 ~ Qd1g4:equal"),
        (BLUE, BLUE, Ratio::new(1, 6), "3r2k1/1p2qppp/8/8/4B1Q1/2P5/5PPP/3Q2K1 b - - 2 2 ~ Qd1g4:equal"),
    ];
    for (a, b, p, result) in rows {
        let m = outcome(v, &outs, a, b);
        assert_eq!(v.probability(&d1, &m), p, "{}", desc(v, &m));
        let next = v.play(&d1, &m);
        assert_position(v, &next, result, &desc(v, &m));
        // All five members conventional; the white queen untouched; no group.
        assert_eq!(units(v, &next), vec!["Qd1g4:equal".to_string()]);
        assert_eq!(groups(&next), 0);
    }
    // White 5 or 6 (blue) and Black 2, 4 or 6 (red): the capture, 1/3 × 1/2.
    let capture = outcome(v, &outs, BLUE, RED);
    for (w, b) in [(5, 2), (5, 4), (5, 6), (6, 2), (6, 4), (6, 6)] {
        assert_eq!(one(v, &d1, &format!("Bc2xe4/{w}/{b}")), capture, "faces {w} {b}");
    }
    assert_eq!(one(v, &d1, "Bc2xe4/blue/red"), capture);
}

/// N21 — DE "Null-Risiko Angriff" / "Schachmatt?"; FR "Attaque sans risque" /
/// "Échec et mat ?".
///
/// "Sieht aus wie Schachmatt, oder?" — "Doch die weiße Dame steht in der Nähe
/// des schwarzen Königs, was es dem König erlaubt, sich zu verschränken und
/// zu entkommen..."
///
/// Position Z0. From the text: a white queen half on e8, the black king
/// entangling by staying and moving to f8 (origin g8, derived: the e8 half
/// must attack it only through f8). Invented: the queen's other half a4,
/// equal, the pawns, Kg1.
#[test]
fn n21_zero_risk_attack() {
    let v = niels();
    let z0 = fen(v, Z0);
    assert!(v.in_check(&z0));
    // Exactly one legal action: g8 with the queen's red branch (e8), f8 with
    // blue (a4). In its red world f8 is the king's own blue half, which
    // blocks e8-g8 (R1); in its blue world the queen is on a4 (R2). The other
    // pairing puts the king on f8 next to the queen on e8; Kf8, Kh8 and the
    // king splits meet the e8 world; pawn actions keep the check; a tunnel in
    // check bounces back into it.
    let all = actions(v, &z0);
    assert_eq!(descs(v, &all), vec!["g8>g8|f8~e8".to_string()]);
    let m = one(v, &z0, "Kg8&f8~e8");
    assert_eq!(one(v, &z0, "g8g8&f8~e8"), m, "coordinate form");
    let z1 = v.play(&z0, &m);
    assert_position(v, &z1, Z1, "Z1");
    assert_eq!(units(v, &z1), vec!["Qe8a4+kg8f8:equal:/".to_string()]);
    assert!(!in_check_of(v, &z1, BLACK), "out of check (N22)");
    // Why the reverse pairing fails: its red world has king f8, queen e8.
    assert!(king_attacked_in_world(v, "4Qk2/5ppp/8/8/8/8/5PPP/6K1", BLACK));
    // And why halves must block: without the f8 half the red world is a back-rank mate.
    assert!(king_attacked_in_world(v, "4Q1k1/5ppp/8/8/8/8/5PPP/6K1", BLACK));
}

/// N22 — DE "Kein Schach" (Null-Risiko Angriff) / FR "Pas d'échec".
///
/// "Der schwarze König ist nicht länger in Gefahr, da die weiße Dame keine
/// Chance hat, ihn zu schlagen." — "(Er „attackiert“ die weiße Dame, da e8 in
/// Reichweite der unbestimmten Figur auf f8 liegt.)" — "Als nächstes wäre es
/// ein gültiger Zug, wenn die weiße Dame versuchen würde, den König auf f8 zu
/// schlagen."
///
/// Position Z1 (N21; invented pieces as Z0).
#[test]
fn n22_no_check() {
    let v = niels();
    let z1 = fen(v, Z1);
    assert!(!in_check_of(v, &z1, BLACK));
    assert!(!v.in_check(&z1));
    // The f8 half "attacks" e8.
    assert!(movegen::attacked(&v.game, &v.tables, &z1, sq(v, "e8"), BLACK));
    // Qe8xf8 is legal; one unit, one roll; p(king captured) = 0.
    let outs = named(v, &z1, "Qe8xf8");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    assert!(outs.iter().all(|m| victim_branch(m.outcome).is_none()));
    let red = outcome(v, &outs, RED, None);
    let blue = outcome(v, &outs, BLUE, None);
    assert_eq!(v.probability(&z1, &red), Ratio::new(1, 2));
    assert_eq!(v.probability(&z1, &blue), Ratio::new(1, 2));
    // Red: queen e8, king g8: the queen lands on the empty f8 and checks.
    let r = v.play(&z1, &red);
    assert_position(v, &r, "5Qk1/5ppp/8/8/8/8/5PPP/6K1 b - - 2 2", "red");
    assert!(v.in_check(&r));
    // Blue: queen a4, king f8: nothing moves.
    let b = v.play(&z1, &blue);
    assert_position(v, &b, "5k2/5ppp/8/8/Q7/8/5PPP/6K1 b - - 2 2", "blue");
    for p in [&r, &b] {
        assert_eq!(p.royal_count[BLACK as usize], 1, "the king is never captured");
    }
    // The general form: in a legal position a capture attempt on a king half
    // never takes the king (else the side to move would have been in check),
    // and the outcomes of every action add up to 1. Checked over random legal
    // play from positions with spread kings (Z1; N26b; N9 after the
    // entangle; N27 after the castling split).
    let starts = [
        Z1.to_string(),
        "r3k2r/1ppppppp/p7/8/8/8/PPPPPPPP/R3KK1R w kq - 0 2 ~ Ke1f1:equal".to_string(),
        "k7/8/8/4n3/3n1KK1/4P3/8/8 b - - 1 1 ~ Kg4f4+nd4e5:equal:/".to_string(),
        "r1kr3r/pppp1kpp/4p3/5p2/8/4P3/PPPP1PPP/6K1 w - - 1 2 ~ kc8f7+rd8a8:equal".to_string(),
    ];
    let mut rng = support::Rng(0x9E37_79B9_7F4A_7C15);
    for start in &starts {
        for _game in 0..3 {
            let mut pos = fen(v, start);
            for _ply in 0..30 {
                let all = legal(v, &pos);
                if all.is_empty() {
                    break;
                }
                let them = pos.side ^ 1;
                let mut sums: Vec<(Move, Ratio<u64>)> = Vec::new();
                for m in &all {
                    let p = v.probability(&pos, m);
                    match sums.iter_mut().find(|(d, _)| *d == m.decision()) {
                        Some((_, sum)) => *sum += p,
                        None => sums.push((m.decision(), p)),
                    }
                }
                for (d, sum) in &sums {
                    assert_eq!(*sum, Ratio::from_integer(1), "{} in {}", desc(v, d), v.fen(&pos));
                }
                for m in &all {
                    assert!(v.probability(&pos, m) > Ratio::from_integer(0), "{} has p = 0", desc(v, m));
                    let target = pos.board[m.to as usize];
                    if target != 0 && color_of(target) == them && v.game.kinds[kind_of(target) as usize].royal {
                        let next = v.play(&pos, m);
                        assert!(next.royal_count[them as usize] > 0, "{} captures a king in {}", desc(v, m), v.fen(&pos));
                    }
                }
                pos = v.play(&pos, &all[rng.below(all.len())]);
            }
        }
    }
}

/// N23 — DE "Tunneln" / "Durch die Barriere"; FR "Effet tunnel" / "À travers
/// la barrière" (two pages, the second French only).
///
/// "Eine konventionelle Figur darf zu einem unbesetzten Feld direkt hinter
/// einer gegnerischen konventionellen Figur „tunneln“." — "Schwarz muss eine
/// 6 würfeln, um erfolgreich zu sein; andernfalls „prallt“ der Turm zurück
/// und bleibt auf e7." — FR: "Les Noirs ont lancé un 6." — "La tunnélisation
/// a réussi, et maintenant le roi blanc est en échec."
///
/// Position T1 (see the constant for what is invented).
#[test]
fn n23_tunnelling() {
    let v = niels();
    let t1 = fen(v, T1);
    let tunnels: Vec<Move> = actions(v, &t1).into_iter().filter(is_tunnel).collect();
    assert_eq!(descs(v, &tunnels), vec!["e7^e4".to_string()], "not e3 or e2: not directly behind");
    let outs = named(v, &t1, "Re7^e4");
    assert_eq!(outs.len(), 2);
    let through = *outs.iter().find(|m| m.outcome & spread::THROUGH != 0).expect("through");
    let bounce = *outs.iter().find(|m| m.outcome & spread::BOUNCE != 0).expect("bounce");
    assert_eq!(v.probability(&t1, &through), Ratio::new(1, 6));
    assert_eq!(v.probability(&t1, &bounce), Ratio::new(5, 6));
    // A tunnel is a rook move: the count goes on (R11), a bounce too.
    let t1s = v.play(&t1, &through);
    assert_position(v, &t1s, T1S, "through");
    assert_position(v, &v.play(&t1, &bounce), "6k1/4r3/8/4P3/8/8/3P1P2/4KB2 w - - 1 2", "bounce: only the turn passes");
    // The French face 6.
    let tunnel = v.game.tunnel.as_ref().expect("niels-chess has `tunnel { … }`");
    assert_eq!(tunnel.through_faces, vec![6]);
    assert_eq!(one(v, &t1, "Re7^e4/6"), through);
    assert_eq!(one(v, &t1, "Re7^e4/through"), through);
    assert_eq!(one(v, &t1, "e7^e4/through"), through);
    for face in 1..=5 {
        assert_eq!(one(v, &t1, &format!("Re7^e4/{face}")), bounce);
    }
    assert_san(v, &t1, &through, "Re7^e4/through");
    // "maintenant le roi blanc est en échec" — and White has 23 actions: Kd1,
    // Be2 and the 21 bishop splits with a half on e2 (the other cell g2 h3
    // d3 c4 b5 a6 or f1 × 3 weights). The e2 half blocks in every world (R1).
    assert!(v.in_check(&t1s));
    let all = actions(v, &t1s);
    assert_eq!(all.len(), 23, "{:?}", descs(v, &all));
    let plain: BTreeSet<String> = all.iter().filter(|m| is_plain(m)).map(|m| coordinate(v, m)).collect();
    assert_eq!(plain, ["e1d1", "f1e2"].iter().map(|s| s.to_string()).collect());
    let splits: Vec<&Move> = all.iter().filter(|m| is_split(m)).collect();
    assert_eq!(splits.len(), 21);
    assert!(splits.iter().all(|m| m.from == sq(v, "f1") && (m.to == sq(v, "e2") || m.second == sq(v, "e2"))));
}

/// N24 — DE "Weitere Beispiele" / FR "Autres exemples".
///
/// "Der Bauer auf b2 kann versuchen, nach b4 zu tunneln." — "Der Läufer kann
/// versuchen, nach d7 zu tunneln. (Aber nicht nach c8, da c8 nicht direkt
/// hinter dem Springer liegt.)" — "Der Bauer auf e5 darf nicht nach e7
/// tunneln. (Ein Bauer darf nach seinem ersten Zug nicht mehr zwei Felder
/// nach vorne ziehen.)"
///
/// Position T2. From the text: Pb2 with a black piece on b3 and b4 empty,
/// the knight on e6 (the diagonal c8-d7-e6), the bishop beyond it, Pe5 with
/// e7 empty. Invented: Bh3, the b3 piece a pawn, the kings g1 and h8.
#[test]
fn n24_further_examples() {
    let v = niels();
    let t2 = fen(v, "7k/8/4n3/4P3/8/1p5B/1P6/6K1 w - - 0 1");
    let tunnels: Vec<Move> = actions(v, &t2).into_iter().filter(is_tunnel).collect();
    assert_eq!(descs(v, &tunnels), vec!["b2^b4".to_string(), "h3^d7".to_string()]);
    for t in &tunnels {
        let outs = outcomes_of(v, &t2, t);
        let p: Vec<Ratio<u64>> = outs.iter().map(|m| v.probability(&t2, m)).collect();
        assert_eq!(outs.len(), 2);
        assert!(p.contains(&Ratio::new(1, 6)) && p.contains(&Ratio::new(5, 6)));
    }
    assert!(!legal(v, &t2).iter().any(|m| m.from == sq(v, "e5")), "the e5 pawn has no move at all");
    // A tunnelled double step sets no en-passant target (R14); pawn action: count reset.
    let through = play(v, &t2, "b2^b4/through");
    assert_position(v, &through, "7k/8/4n3/4P3/1P6/1p5B/8/6K1 b - - 0 1", "b2^b4 through");
    assert_eq!(through.ep_len, 0);
    // The bishop's tunnel goes through e6 to d7, never to c8.
    let d7 = play(v, &t2, "Bh3^d7/through");
    assert_eq!(at(v, &d7, "d7"), Some('B'));
    // (Spec R17, invented position:) a king's reach is one square, so it
    // never tunnels, though e3 lies empty behind the black pawn on e2.
    let king = fen(v, "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1");
    assert!(!legal(v, &king).iter().any(is_tunnel));
}

/// N25 — DE "Kein Schach" (Tunneln) / FR "Pas d'échec" (Effet tunnel).
///
/// "Der weiße König steht nicht im Schach." — "Der schwarze Turm darf nicht
/// nach e1 tunneln, da dieses Feld besetzt ist."
///
/// Position: T1s (N23) after 2. Bf1-e2 (the interposition is invented).
#[test]
fn n25_no_tunnel_onto_an_occupied_square() {
    let v = niels();
    let t1s = fen(v, T1S);
    let t1b = play(v, &t1s, "Be2");
    assert_position(v, &t1b, "6k1/8/8/4P3/4r3/8/3PBP2/4K3 b - - 2 2", "T1b");
    assert!(!in_check_of(v, &t1b, WHITE));
    // The same board with White to move is a valid FEN: tunnelling never attacks.
    let white = fen(v, "6k1/8/8/4P3/4r3/8/3PBP2/4K3 w - - 2 2");
    assert!(!v.in_check(&white));
    let tunnels: Vec<Move> = actions(v, &t1b).into_iter().filter(is_tunnel).collect();
    assert_eq!(descs(v, &tunnels), vec!["e4^e6".to_string()], "no e4^e1: e1 is occupied");
    for t in &tunnels {
        assert_eq!(t1b.board[t.to as usize], 0, "a tunnel never captures");
    }
}

/// N26 — DE "Sonderzüge II" / "Rochade" (page 1); FR "Coups spéciaux II" /
/// "Le roque".
///
/// "Rochade ist nicht erlaubt mit einem unbestimmten König oder Turm." —
/// "Eine unbestimmte Figur des Gegners verhindert die Rochade auf die gleiche
/// Weise wie eine konventionelle Figur."
///
/// All positions invented (the text states the rules only).
#[test]
fn n26_castling() {
    let v = niels();
    let castles = |pos: &Position| -> BTreeSet<String> {
        legal(v, pos).iter().filter(|m| m.kind == MoveKind::Castle && is_plain(m)).map(|m| nm(v, m.to)).collect()
    };
    let set = |items: &[&str]| -> BTreeSet<String> { items.iter().map(|s| s.to_string()).collect() };
    // (a) A spread rook: no O-O, for good (R15); O-O-O with the a1 rook stays.
    let a = fen(v, "4k3/pppppppp/8/8/8/8/PPPPPPP1/R3K2R w KQ - 0 1");
    let a = play(v, &play(v, &a, "Rh1&h3"), "a6");
    assert_position(v, &a, "4k3/1ppppppp/p7/8/8/7R/PPPPPPP1/R3K2R w Q - 0 2 ~ Rh1h3:equal", "after Rh1&h3 a6");
    assert_eq!(castles(&a), set(&["c1"]));
    assert!(!legal(v, &a).iter().any(|m| m.kind == MoveKind::Castle && m.to == sq(v, "g1")));
    // Lost for good (R15, X11): 2. Rh3xh7 on the red outcome leaves the rook
    // conventional on h1 (the attacker was not on h3, nothing moves); after
    // 2… a5 O-O is still not there, though f1 and g1 are empty and safe.
    let back = play(v, &a, "Rh3xh7/red");
    assert_position(v, &back, "4k3/1ppppppp/p7/8/8/8/PPPPPPP1/R3K2R b Q - 1 2", "the rook collapsed back to h1");
    let back = play(v, &back, "a5");
    assert_eq!(castles(&back), set(&["c1"]));
    // (b) A spread king: no castling for White; Black's rights untouched.
    let b = fen(v, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let b = play(v, &play(v, &b, "Ke1&f1"), "a6");
    assert_position(v, &b, "r3k2r/1ppppppp/p7/8/8/8/PPPPPPPP/R3KK1R w kq - 0 2 ~ Ke1f1:equal", "after Ke1&f1 a6");
    assert!(!legal(v, &b).iter().any(|m| m.kind == MoveKind::Castle));
    // (c) Enemy halves: the bishop's c4 world attacks f1 (no O-O), the knight's
    // b1 half fills b1 (no O-O-O).
    let c = fen(v, "4k3/ppp1pppp/b1np4/8/2b5/8/PPPP1PPP/Rn2K2R w KQ - 0 1 ~ bc4a6:equal nb1c6:equal");
    assert!(!v.in_check(&c));
    assert_eq!(castles(&c), set(&[]));
    let no_knight = fen(v, "4k3/ppp1pppp/b2p4/8/2b5/8/PPPP1PPP/R3K2R w KQ - 0 1 ~ bc4a6:equal");
    assert_eq!(castles(&no_knight), set(&["c1"]));
    let no_bishop = fen(v, "4k3/ppp1pppp/2np4/8/8/8/PPPP1PPP/Rn2K2R w KQ - 0 1 ~ nb1c6:equal");
    assert_eq!(castles(&no_bishop), set(&["g1"]));
    // "auf die gleiche Weise": conventional pieces on c4 and b1 do the same.
    let conventional = fen(v, "4k3/ppp1pppp/3p4/8/2b5/8/PPPP1PPP/Rn2K2R w KQ - 0 1");
    assert_eq!(castles(&conventional), set(&[]));
}

/// N27 — DE "Rochade" (page 2, German only; no French counterpart).
///
/// "Die Rochade ist ein Zug des Königs. Der König kann durch die Rochade einen
/// Superpositions- oder einen Verschränkungszug machen." — "Hier hat der
/// schwarze König einen Superpositionszug von e8 ausgeführt, indem er
/// gleichzeitig auf c8 rochierte und nach f7 zog."
///
/// Position K27. From the text: Ke8, Ra8 with long castling possible, f7
/// empty and safe. Invented: everything else, the weight (equal, red c8).
/// Reading R16: the rook joins the king's unit, d8 with the castling branch,
/// a8 with the other; no label.
#[test]
fn n27_castling_inside_a_superposition() {
    let v = niels();
    let k27 = fen(v, "r3k2r/pppp2pp/4p3/5p2/8/4P3/PPPP1PPP/6K1 b kq - 0 1");
    let m = one(v, &k27, "O-O-O&f7");
    assert_eq!((m.kind, is_split(&m)), (MoveKind::Castle, true), "{}", desc(v, &m));
    assert_eq!(red_blue(&m), (sq(v, "c8"), sq(v, "f7")));
    assert_eq!(one(v, &k27, "e8a8&f7"), m, "coordinate form");
    let next = v.play(&k27, &m);
    assert_position(v, &next, "r1kr3r/pppp1kpp/4p3/5p2/8/4P3/PPPP1PPP/6K1 w - - 1 2 ~ kc8f7+rd8a8:equal", "after O-O-O&f7");
    // One unit, two members: red (king c8, rook d8), blue (king f7, rook a8);
    // 1/2 each; no label, so no group; Black's castling rights are gone.
    assert_eq!(units(v, &next), vec!["kc8f7+rd8a8:equal".to_string()]);
    assert_eq!(groups(&next), 0);
    assert_eq!(red_probability(v, "equal"), Ratio::new(1, 2));
    assert_eq!(next.castling[BLACK as usize], [NO_CELL; 2]);
    // Castling in a split obeys castling's conditions: a bishop on g5
    // attacking d8 removes every castling to c8.
    let guarded = fen(v, "r3k2r/pppp2pp/4p3/5pB1/8/4P3/PPPP1PPP/6K1 b kq - 0 1");
    assert!(!legal(v, &guarded).iter().any(|m| m.kind == MoveKind::Castle && m.to == sq(v, "c8")));
    assert!(legal(v, &guarded).iter().any(|m| m.kind == MoveKind::Castle && m.to == sq(v, "g8")), "O-O is still there");
}

/// N28 — DE "En passant" (two pages) / FR "Prise en passant".
///
/// "Der „En passant“-Schlag gegen einen unbestimmten Bauern muss so
/// ausgeführt werden, als wäre der Bauer zuvor sowohl auf seiner
/// Ausgangsposition geblieben als auch nur ein Feld nach vorne gezogen." —
/// "gegen den unbestimmten schwarzen Bauern auf e5 …, der gerade von e7 nach
/// e5 (und e6) in einem Superpositionszug gezogen ist..." — "Der unbestimmte
/// schwarze Bauer musste zurückversetzt werden, als hätte sein vorheriger Zug
/// darin bestanden, auf e7 zu bleiben und gleichzeitig nach e6 zu ziehen." —
/// "Der Rückversatz muss erfolgen, ohne die Orientierung der Markierungen zu
/// ändern".
///
/// From the text: a black pawn on e7 that splits, a white pawn that can take
/// en passant (d5 chosen). Invented: the kings, the weight (unequal, to make
/// the re-placement observable).
///
/// The spec departs from the catalogue here (R13, X13): after e7→e5&e6 the
/// passed cell e6 holds the other half, so there is NO en-passant target;
/// White's d5xe6 is the ordinary collision with the e6 half. The text's
/// re-placement ("as if it had stayed on e7 and moved to e6") is the en
/// passant after the stay-and-double-step e7→e5&e7, where e6 is empty: the
/// e5 half goes back to e6 with its colour, e7 stays.
#[test]
fn n28_en_passant() {
    let v = niels();
    let ep0 = fen(v, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
    // The text's split: e5 and e6 (two quiet moves), red e5 in front, unequal.
    let m = one(v, &ep0, "e5>e6");
    assert_eq!((red_blue(&m), weight_of(v, &m)), ((sq(v, "e5"), sq(v, "e6")), "unequal".to_string()));
    let ep1 = v.play(&ep0, &m);
    assert_position(v, &ep1, "4k3/8/4p3/3Pp3/8/8/8/4K3 w - - 0 2 ~ pe5e6:unequal", "EP1: no target, e6 is held");
    assert_eq!(ep1.ep_len, 0);
    assert!(!legal(v, &ep1).iter().any(|m| m.kind == MoveKind::EnPassant));
    // d5xe6 collides with the blue half on e6: P(capture) = 1/3.
    let outs = named(v, &ep1, "dxe6");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    let taken = outcome(v, &outs, None, BLUE);
    let missed = outcome(v, &outs, None, RED);
    assert_eq!(v.probability(&ep1, &taken), Ratio::new(1, 3));
    assert_eq!(v.probability(&ep1, &missed), Ratio::new(2, 3));
    assert_position(v, &v.play(&ep1, &taken), "4k3/8/4P3/8/8/8/8/4K3 b - - 0 2", "blue: taken on e6");
    assert_position(v, &v.play(&ep1, &missed), "4k3/8/4P3/4p3/8/8/8/4K3 b - - 0 2", "red: the pawn lands on e6, e5 stays");

    // The re-placement: after e7→e5&e7 (unequal, red e5) e6 is empty and the target.
    let st = play(v, &ep0, "e5>e7");
    assert_position(v, &st, "4k3/4p3/8/3Pp3/8/8/8/4K3 w - e6 0 2 ~ pe5e7:unequal", "after e5>e7");
    let outs = named(v, &st, "dxe6");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    assert!(outs.iter().all(|m| m.kind == MoveKind::EnPassant));
    // The e5 half (red, 2/3) is re-placed onto e6 keeping its colour; e7 (blue) stays.
    let taken = outcome(v, &outs, None, RED);
    let missed = outcome(v, &outs, None, BLUE);
    assert_eq!(v.probability(&st, &taken), Ratio::new(2, 3), "a swapped re-placement would give 1/3");
    assert_eq!(v.probability(&st, &missed), Ratio::new(1, 3));
    assert_position(v, &v.play(&st, &taken), "4k3/8/4P3/8/8/8/8/4K3 b - - 0 2", "red: taken on e6");
    assert_position(v, &v.play(&st, &missed), "4k3/4p3/4P3/8/8/8/8/4K3 b - - 0 2", "blue: the pawn on e7, White lands on e6");
    // The right lasts one ply.
    let later = play(v, &play(v, &st, "Kd2"), "Kd8");
    assert!(!legal(v, &later).iter().any(|m| m.kind == MoveKind::EnPassant));
}

/// N29 — DE "Schlussbemerkungen" / "Unsere Empfehlungen"; FR "Remarques
/// finales" / "Nos suggestions".
///
/// "Im hier gezeigten Spiel waren die ersten vier Züge dieselben wie in der
/// Partie Carlsen vs. Ernst, 2004. Dann ergab sich im 5. Zug die Möglichkeit
/// für Weiß, Schwarz plötzlich mit einem Superpositionszug von e4 auf sowohl
/// d6 als auch f6 schachmatt zu setzen."
///
/// From the text (the game, Wijk aan Zee 2004): 1. e4 c6 2. d4 d5 3. Nc3
/// dxe4 4. Nxe4 Bf5. Invented: reading "vier Züge" as four full moves with
/// the game's 4… Bf5; the weight (all three mate).
#[test]
fn n29_carlsen_ernst() {
    let v = niels();
    let mut pos = v.start().expect("setup");
    for text in ["e4", "c6", "d4", "d5", "Nc3", "dxe4", "Nxe4", "Bf5"] {
        let m = one(v, &pos, text);
        assert!(is_plain(&m) && !m.is_chance(), "{text} is an ordinary move");
        pos = v.play(&pos, &m);
    }
    assert_position(v, &pos, "rn1qkbnr/pp2pppp/2p5/5b2/3PN3/8/PPP2PPP/R1BQKBNR w KQkq - 1 5", "after 4… Bf5");
    // The mating actions are exactly the three weights of Ne4→d6&f6.
    let mates = mating_actions(v, &pos);
    let got: BTreeSet<String> = mates.iter().map(|m| desc(v, m)).collect();
    let want: BTreeSet<String> =
        ["e4>d6&f6:equal", "e4>d6|f6:unequal", "e4>f6|d6:unequal"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
    let m = one(v, &pos, "Nd6&f6");
    assert_san(v, &pos, &m, "Nd6&f6");
    let mated = v.play(&pos, &m);
    assert_position(v, &mated, "rn1qkbnr/pp2pppp/2pN1N2/5b2/3P4/8/PPP2PPP/R1BQKBNR b KQkq - 2 5 ~ Nd6f6:equal", "after 5. Nd6&f6");
    assert!(v.in_check(&mated));
    assert!(legal(v, &mated).is_empty(), "{:?}", descs(v, &legal(v, &mated)));
    assert!(is_mate(v, &mated));
    // Why the captures fail: each leaves the other half's world checking e8.
    assert!(king_attacked_in_world(v, "rn1qkbnr/pp3ppp/2pp1N2/5b2/3P4/8/PPP2PPP/R1BQKBNR", BLACK), "exd6, knight on f6");
    assert!(king_attacked_in_world(v, "rn2kbnr/pp2pppp/2pq1N2/5b2/3P4/8/PPP2PPP/R1BQKBNR", BLACK), "Qxd6, knight on f6");
    assert!(king_attacked_in_world(v, "rn1qkb1r/pp2pppp/2pN1n2/5b2/3P4/8/PPP2PPP/R1BQKBNR", BLACK), "Nxf6, knight on d6");
    // Kd7 meets the f6 world; the king entangle Ke8&d7~d6 fails in both
    // pairings (e8 stays with the half of its own branch).
    assert!(king_attacked_in_world(v, "rn1q1bnr/pp1kpppp/2p2N2/5b2/3P4/8/PPP2PPP/R1BQKBNR", BLACK));
    assert!(king_attacked_in_world(v, "rn1qkbnr/pp2pppp/2pN4/5b2/3P4/8/PPP2PPP/R1BQKBNR", BLACK));
    // The tunnel Bf5^b1 (through c2) exists but is illegal in check.
    // (Control, invented: the same board without the knight, Black not in check.)
    assert!(!legal(v, &mated).iter().any(is_tunnel));
    let quiet = fen(v, "rn1qkbnr/pp2pppp/2p5/5b2/3P4/8/PPP2PPP/R1BQKBNR b KQkq - 2 5");
    assert!(legal(v, &quiet).iter().any(|m| is_tunnel(m) && m.from == sq(v, "f5") && m.to == sq(v, "b1")));
    // Controls: the conventional checks can be met.
    let nd6 = play(v, &pos, "Nd6");
    for text in ["exd6", "Qxd6", "Kd7"] {
        one(v, &nd6, text);
    }
    let nf6 = play(v, &pos, "Nf6");
    for text in ["exf6", "gxf6", "Nxf6"] {
        one(v, &nf6, text);
    }
}

// ======================================================================
// Supplementary tests (catalogue §3)
// ======================================================================

/// S1 — split targets must be empty. DE "WICHTIG: d4 und g5 müssen unbesetzt
/// sein, damit dieser Quantenzug möglich ist." (N2)
///
/// G0 with the g7 pawn on g5 (invented).
#[test]
fn s01_split_targets_empty() {
    let v = niels();
    let pos = fen(v, "2b3k1/r2r1p1r/b7/2p3p1/8/1q3N2/PP4PP/2B1R1QK w - - 0 1 ~ ra7d7:unequal bc8a6:equal");
    let knight: Vec<Move> = legal(v, &pos).into_iter().filter(|m| m.from == sq(v, "f3")).collect();
    let g5 = sq(v, "g5");
    assert!(knight.iter().filter(|m| is_split(m) || is_entangle(m)).all(|m| m.to != g5 && m.second != g5));
    let take = one(v, &pos, "Nxg5");
    assert!(is_plain(&take) && !take.is_chance(), "an ordinary capture of a conventional pawn");
    // Every split cell is empty: no split combines a capture with a quiet move.
    for m in knight.iter().filter(|m| is_split(m)) {
        for c in [m.to, m.second] {
            assert!(c == m.from || pos.board[c as usize] == 0, "{}", desc(v, m));
        }
    }
}

/// S2 — no third square. DE "Das Besetzen von drei oder mehr Feldern ist in
/// diesem Spiel nicht erlaubt". Position G1 with White to move (invented side).
#[test]
fn s02_no_third_square() {
    let v = niels();
    let pos = fen(v, G1_WHITE);
    let halves: Vec<Move> = legal(v, &pos).into_iter().filter(|m| m.from == sq(v, "d4") || m.from == sq(v, "g5")).collect();
    assert!(!halves.is_empty());
    assert!(halves.iter().all(is_plain), "{:?}", descs(v, &halves));
    // No spread piece ever stands on a third cell after any legal move.
    for m in legal(v, &pos) {
        let next = v.play(&pos, &m);
        if let Some(s) = next.spread.as_deref() {
            let mut cells: Vec<Cell> = s.pairs.iter().flat_map(|p| [p.red, p.blue]).collect();
            let n = cells.len();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), n, "a cell in two pairs after {}", desc(v, &m));
        }
    }
}

/// S3 — different colours. DE "die beiden beteiligten Figuren müssen
/// unterschiedliche Farben haben." E0 with the knight made white (invented).
#[test]
fn s03_entangle_needs_an_enemy_half() {
    let v = niels();
    let pos = fen(v, "2r5/6k1/5N2/3N3P/8/8/4BPP1/6K1 w - - 0 1 ~ Nd5f6:equal");
    assert!(!legal(v, &pos).iter().any(is_entangle));
}

/// S4 — the entangle's moved-to square must be empty. DE "WICHTIG: c4 muss
/// unbesetzt sein, damit dieser Quantenzug möglich ist". E0 plus a white pawn
/// on c4 (invented).
#[test]
fn s04_entangle_target_empty() {
    let v = niels();
    let pos = fen(v, "2r5/6k1/5n2/3n3P/2P5/8/4BPP1/6K1 w - - 0 1 ~ nd5f6:equal");
    let bishop: Vec<Move> = actions(v, &pos).into_iter().filter(|m| m.from == sq(v, "e2")).collect();
    assert!(bishop.iter().all(|m| m.to != sq(v, "c4") && m.second != sq(v, "c4")));
    let ent: BTreeSet<String> = bishop.iter().filter(|m| is_entangle(m)).map(|m| desc(v, m)).collect();
    let want: BTreeSet<String> = ["e2>e2|f3~d5", "e2>f3|e2~d5"].iter().map(|s| s.to_string()).collect();
    assert_eq!(ent, want);
}

/// S5 — only conventional pieces tunnel. DE "In diesem Spiel sind nur
/// konventionelle Figuren an einem Tunnelzug beteiligt." Both variants of T1
/// invented: (a) the rook spread e7/a7, (b) the barrier a spread bishop.
#[test]
fn s05_only_conventional_pieces_tunnel() {
    let v = niels();
    let a = fen(v, "6k1/r3r3/8/4P3/8/8/3P1P2/4KB2 b - - 0 1 ~ re7a7:equal");
    assert!(!legal(v, &a).iter().any(is_tunnel), "a spread rook does not tunnel");
    let b = fen(v, "6k1/4r3/8/4B3/8/8/1B1P1P2/4KB2 b - - 0 1 ~ Be5b2:equal");
    assert!(!legal(v, &b).iter().any(is_tunnel), "a half is no barrier");
    assert_eq!(named(v, &b, "Rxe5").len(), 2, "the half can be attacked instead");
}

/// S6 — the die tables. DE "Bei gleicher Superposition bedeutet eine gerade
/// Zahl Rot und eine ungerade Zahl Blau." — "Bei ungleicher Superposition
/// bedeutet eine Zahl von 1, 2, 3 oder 4 Rot, während 5 oder 6 Blau
/// bedeutet." — "Schwarz muss eine 6 würfeln, um erfolgreich zu sein".
#[test]
fn s06_die_tables() {
    let v = niels();
    for face in 1..=6u8 {
        assert_eq!(face_branch(v, "equal", face), if face % 2 == 0 { Branch::Red } else { Branch::Blue });
        assert_eq!(face_branch(v, "unequal", face), if face <= 4 { Branch::Red } else { Branch::Blue });
    }
    assert_eq!(red_probability(v, "equal"), Ratio::new(1, 2));
    assert_eq!(red_probability(v, "unequal"), Ratio::new(2, 3));
    let tunnel = v.game.tunnel.as_ref().expect("tunnel");
    assert_eq!((tunnel.through_faces.clone(), v.game.dice[tunnel.die].faces), (vec![6], 6));
    // Every face replays through the notation (unequal rook, N7's position).
    let g1 = fen(v, G1);
    for face in 1..=6u8 {
        let m = one(v, &g1, &format!("Rd7xd4/{face}/1"));
        assert_eq!(attacker_branch(m.outcome), Some(face_branch(v, "unequal", face)), "face {face}");
        assert_eq!(victim_branch(m.outcome), BLUE);
    }
}

/// S7 — castling as an entangle, stay-and-castle, castle-and-castle (DE only:
/// "Der König kann durch die Rochade einen Superpositions- oder einen
/// Verschränkungszug machen."). From K27 (invented). Spec R16: castling may
/// be one of a split's two moves, with a quiet king move or with stay, at
/// most one castling per split; R9: the move part of an entangle may be
/// castling.
#[test]
fn s07_castling_splits_and_entangles() {
    let v = niels();
    let k27 = fen(v, "r3k2r/pppp2pp/4p3/5p2/8/4P3/PPPP1PPP/6K1 b kq - 0 1");
    let castle_splits: Vec<Move> = actions(v, &k27).into_iter().filter(|m| m.kind == MoveKind::Castle && is_split(m)).collect();
    // Stay and castle long exists.
    assert!(castle_splits.iter().any(|m| m.to == sq(v, "c8") && m.second == sq(v, "e8")), "{:?}", descs(v, &castle_splits));
    // No split castles both ways.
    assert!(!castle_splits.iter().any(|m| [m.to, m.second].contains(&sq(v, "c8")) && [m.to, m.second].contains(&sq(v, "g8"))));
    // The king's other cell may not be where the castled rook stands (d8 for
    // O-O-O, f8 for O-O): one cell cannot hold two halves.
    assert!(!castle_splits.iter().any(|m| m.to == sq(v, "c8") && m.second == sq(v, "d8")));
    assert!(!castle_splits.iter().any(|m| m.to == sq(v, "g8") && m.second == sq(v, "f8")));
    // The castling entangle: a white knight half on f8 next to e8 (invented).
    let pos = fen(v, "r3kN1r/pppp2pp/4p3/5p2/7N/4P3/PPPP1PPP/6K1 b kq - 0 1 ~ Nf8h4:equal");
    let ent: Vec<Move> = actions(v, &pos).into_iter().filter(|m| m.kind == MoveKind::Castle && is_entangle(m)).collect();
    assert_eq!(ent.len(), 2, "stay on e8, castle to c8, both pairings: {:?}", descs(v, &ent));
    assert!(ent.iter().all(|m| attacked_half(m) == sq(v, "f8") && cell_set(v, m) == ["c8".to_string(), "e8".into()]));
    // The king and its rook join the knight's unit, which becomes the group
    // "/": the rook stands on d8 in the castling branch and on a8 in the
    // stay branch (R16), with the king's colours.
    for m in &ent {
        let (r, b) = red_blue(m);
        let rook = |king: Cell| if king == sq(v, "c8") { "d8" } else { "a8" };
        let want = format!("Nf8h4+k{}{}+r{}{}:equal:/", nm(v, r), nm(v, b), rook(r), rook(b));
        assert_eq!(units(v, &v.play(&pos, m)), vec![want]);
    }
}

/// S8 — en passant after a stay-and-double-step, and after an entangle. DE
/// "als wäre der Bauer zuvor sowohl auf seiner Ausgangsposition geblieben als
/// auch nur ein Feld nach vorne gezogen" — "ohne die Orientierung der
/// Markierungen zu ändern, selbst wenn der Bauer zuvor einen
/// Verschränkungszug ausgeführt hatte." Positions invented.
#[test]
fn s08_en_passant_replacement() {
    let v = niels();
    let ep0 = fen(v, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
    let st = play(v, &ep0, "e5&e7");
    assert_position(v, &st, "4k3/4p3/8/3Pp3/8/8/8/4K3 w - e6 0 2 ~ pe5e7:equal", "after e5&e7");
    let outs = named(v, &st, "dxe6");
    assert_eq!(outs.len(), 2);
    let taken = outcome(v, &outs, None, RED);
    assert_eq!(v.probability(&st, &taken), Ratio::new(1, 2));
    assert_position(v, &v.play(&st, &taken), "4k3/8/4P3/8/8/8/8/4K3 b - - 0 2", "red: taken on e6");
    assert_position(v, &v.play(&st, &outcome(v, &outs, None, BLUE)), "4k3/4p3/4P3/8/8/8/8/4K3 b - - 0 2", "blue: e7 stays");

    // Entangled: the pawn's stay-and-double-step attacks the white knight's
    // red half f4 from e5; red forward: e5 with red (X5), one action.
    let pos = fen(v, "4k3/4p3/8/3P4/5N2/8/8/N3K3 b - - 0 1 ~ Nf4a1:equal");
    let ent: Vec<Move> = actions(v, &pos).into_iter().filter(|m| is_entangle(m) && m.from == sq(v, "e7")).collect();
    assert_eq!(descs(v, &ent), vec!["e7>e5|e7~f4".to_string()]);
    let g = play(v, &pos, "e5&e7~f4");
    assert_position(v, &g, "4k3/4p3/8/3Pp3/5N2/8/8/N3K3 w - e6 0 2 ~ Nf4a1+pe5e7:equal:/", "the group");
    let outs = named(v, &g, "dxe6");
    assert_eq!(outs.len(), 2, "{:?}", descs(v, &outs));
    // The re-placed e6 half keeps red and the group: red takes the pawn and puts the knight on f4.
    let red = outcome(v, &outs, None, RED);
    let blue = outcome(v, &outs, None, BLUE);
    assert_eq!(v.probability(&g, &red), Ratio::new(1, 2));
    assert_position(v, &v.play(&g, &red), "4k3/8/4P3/8/5N2/8/8/4K3 b - - 0 2", "red: pawn taken, knight f4");
    assert_position(v, &v.play(&g, &blue), "4k3/4p3/4P3/8/8/8/8/N3K3 b - - 0 2", "blue: pawn e7, knight a1");
}

/// S9 — promotion edge cases (X8). Spec R12: a pawn may not split onto its
/// promotion zone; a half that is the real attacker of a collision onto the
/// zone promotes. Positions invented.
#[test]
fn s09_promotion_edge_cases() {
    let v = niels();
    let pos = fen(v, "8/3P4/7k/8/8/8/8/1K6 w - - 0 1");
    assert!(!legal(v, &pos).iter().any(|m| m.from == sq(v, "d7") && !is_plain(m)), "no d8&d7 split");
    assert_eq!(legal(v, &pos).iter().filter(|m| m.from == sq(v, "d7")).count(), 4);
    // A capturing half: c7 (red, 2/3) / c5 takes on d8.
    let pos = fen(v, "3r4/2P5/7k/2P5/8/8/8/1K6 w - - 0 1 ~ Pc7c5:unequal");
    let tries: Vec<Move> = actions(v, &pos).into_iter().filter(|m| m.from == sq(v, "c7") && m.to == sq(v, "d8")).collect();
    assert_eq!(tries.len(), 4, "=Q =R =B =N: {:?}", descs(v, &tries));
    let outs = named(v, &pos, "c7xd8=Q");
    assert_eq!(outs.len(), 2);
    let real = outcome(v, &outs, RED, None);
    assert_eq!(v.probability(&pos, &real), Ratio::new(2, 3));
    assert_position(v, &v.play(&pos, &real), "3Q4/8/7k/8/8/8/8/1K6 b - - 0 1", "red: takes and promotes");
    assert_position(v, &v.play(&pos, &outcome(v, &outs, BLUE, None)), "3r4/8/7k/2P5/8/8/8/1K6 b - - 0 1", "blue: the pawn stays on c5");
}

/// S10 — labels are freed (X4, R8). After N20's red/red outcome no group is
/// left and a new entangle takes "/" again; a new group takes the first free
/// label even when "\" is in use. Positions from N20 (invented) and D0
/// without the "/" group (invented).
#[test]
fn s10_labels_are_freed() {
    let v = niels();
    let after = fen(v, "r5k1/5ppp/8/1p6/2P1q1Q1/8/B4PPP/3Q2K1 b - - 2 2 ~ Qd1g4:equal");
    let next = play(v, &after, "Qe5&e4~g4");
    assert_eq!(units(v, &next), vec!["Qd1g4+qe5e4:equal:/".to_string()]);
    let pos = fen(v, r"6k1/1p2qppp/8/1p6/2P3Q1/2P5/5PPP/3Q2K1 b - - 0 1 ~ Pc4c3+pb5b7:equal:\ Qd1g4:equal");
    let next = play(v, &pos, "Qe4&e7~g4");
    assert_eq!(units(v, &next), unit_list(&[r"Pc4c3+pb5b7:equal:\", "Qd1g4+qe4e7:equal:/"]));
    assert_eq!(groups(&next), 2);
}

/// S11 — perft(1) from the start. DE "Niel's Chess beginnt in der gleichen
/// Anfangsstellung wie das konventionelle Schach." Spec R5: 20 chess moves +
/// 8 pawns × 3 cell sets × 2 weights + 2 knights × 3 sets × 3 weights = 86;
/// an equal split is one action whatever its colours.
#[test]
fn s11_perft_one() {
    let v = niels();
    let start = v.start().expect("setup");
    let all = legal(v, &start);
    assert_eq!(all.len(), 86);
    assert_eq!(actions(v, &start).len(), 86);
    assert!(all.iter().all(|m| !m.is_chance()));
    assert_eq!(all.iter().filter(|m| is_plain(m)).count(), 20);
    assert_eq!(all.iter().filter(|m| is_split(m) && m.piece == v.game.kind_by_letter('P').unwrap()).count(), 48);
    assert_eq!(all.iter().filter(|m| is_split(m) && m.piece == v.game.kind_by_letter('N').unwrap()).count(), 18);
}

/// S12 — fifty-move rule, repetition, the bounce as a move (X7, X9). The text
/// is silent; spec R11: every action is a move, the count resets on a capture
/// or a pawn action, a bounce counts. T1 (invented pieces as N23).
#[test]
fn s12_counters_and_bounce() {
    let v = niels();
    let t1 = fen(v, T1);
    let bounce = one(v, &t1, "Re7^e4/bounce");
    let b = v.play(&t1, &bounce);
    assert_eq!((b.halfmove, b.fullmove, b.side), (1, 2, WHITE));
    // Repetition: bounce, Be2, bounce, Bf1, bounce, Be2, bounce, Bf1 → T1 a third time.
    let mut history = vec![t1.clone()];
    let mut pos = t1.clone();
    for text in ["Re7^e4/bounce", "Be2", "Re7^e4/bounce", "Bf1", "Re7^e4/bounce", "Be2", "Re7^e4/bounce", "Bf1"] {
        pos = play(v, &pos, text);
        history.push(pos.clone());
    }
    assert_eq!(v.repetition_key(&pos), v.repetition_key(&t1));
    let earlier = &history[..history.len() - 1];
    if v.game.end.repetition == Some(3) {
        assert_eq!(v.status_in_game(&pos, earlier), Status::Repetition);
    }
    // Fifty moves: a bounce at 99 half-moves reaches 100.
    if v.game.end.fifty_move == Some(50) {
        let late = fen(v, "6k1/4r3/8/4P3/8/8/3P1P2/4KB2 b - - 99 80");
        let after = play(v, &late, "Re7^e4/bounce");
        assert_eq!(after.halfmove, 100);
        assert_eq!(v.status_in_game(&after, &[]), Status::FiftyMoves);
    }
    // A split counts (N1), a pawn split resets (N4), a collision that takes
    // nothing counts (N5: 3), one that takes resets (N5: 0) — asserted there.
}

// ======================================================================
// Issue 12: a castling split's unit joined by entangling
// ======================================================================

/// The position of issue 12 (found by an independent implementation):
/// Black's castling split c8/e8 with the rook d8/a8 (no label, R16), the
/// knights b1/h3 and h6/f5 in group "/", the pawns b4/b3 and g6/g7 in group
/// "\". White: Rd1 and Kg1 conventional.
const CASTLED_TWO_GROUPS: &str =
    r"r1krk3/6pp/6pn/5n2/1P6/1P5N/8/1N1R2K1 w - - 0 1 ~ kc8e8+rd8a8:equal Nb1h3+nh6f5:equal:/ Pb4b3+pg6g7:equal:\";

/// Issue 12 / R16, R8, R9 — DE "Die schwarze Dame darf sich nicht mehr mit
/// der weißen Dame verschränken, da beide Diagonalen bereits verbraucht
/// sind... ...aber sie darf sich einer der beiden verschränkten Gruppen
/// anschließen." R16: a castling split's unit "takes no label, unless it
/// forms or joins one by entangling": entangling with it forms a new group,
/// which needs a free label, and both are in use here.
///
/// White's actions, counted by hand (the independent count of issue 12 is
/// 211):
/// - Kg1: f1 h1 f2 g2 h2, none attacked (the black rooks' files are a and d,
///   the knight halves h6/f5 reach no square next to g1): 5 moves; splits
///   onto C(5,2) = 10 pairs of them or one and stay (5): 15 cell sets × 3
///   (equal, unequal red on either cell) = 45. 50.
/// - Rd1: quiet c1 (b1 holds the knight half), e1 f1 (g1 the king), d2–d7:
///   9 moves; d1xd8 against the rook half d8, a collision with the castling
///   unit: 2 outcomes. Splits: C(9,2) = 36 pairs + 9 stays = 45 sets × 3 =
///   135. Entangles (stay on d1 and move, two pairings each) joining a
///   labelled group: from d5 or f1 the knight half f5 ("/"), from d6 the pawn
///   half g6 and from d7 g7 ("\"): 4 × 2 = 8. From c1, d2–d7, e1 and f1 the
///   rook also attacks c8, d8 or e8 (the castling unit): those 9 × 2 = 18
///   entangles would form a third group and are not moves. No tunnel (the
///   only enemy piece on its lines, d8, is a half). 9 + 2 + 135 + 8 = 154.
/// - The knight halves: b1 to a3, c3, d2; h3 to f2, f4, g5: 6.
/// - The pawn halves: b4-b5 (b3 is blocked by b4; nothing to take): 1.
///
/// 50 + 154 + 6 + 1 = 211, none of them a chance move but the collision.
#[test]
fn i12_no_entangle_with_a_castling_unit_without_a_free_label() {
    let v = niels();
    let pos = fen(v, CASTLED_TWO_GROUPS);
    assert_eq!(groups(&pos), 2);
    let all = legal(v, &pos);
    let ent: Vec<Move> = all.iter().copied().filter(is_entangle).collect();
    let castling_unit = [sq(v, "c8"), sq(v, "d8"), sq(v, "e8")];
    let offending: Vec<String> = ent.iter().filter(|m| castling_unit.contains(&attacked_half(m))).map(|m| desc(v, m)).collect();
    assert!(offending.is_empty(), "entangles with the castling unit, no label free: {offending:?}");
    let want: BTreeSet<String> = [
        "d1>d1|d5~f5", "d1>d5|d1~f5", "d1>d1|f1~f5", "d1>f1|d1~f5",
        "d1>d1|d6~g6", "d1>d6|d1~g6", "d1>d1|d7~g7", "d1>d7|d1~g7",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(ent.iter().map(|m| desc(v, m)).collect::<BTreeSet<_>>(), want);
    refused(v, &pos, "d1d1&d2~d8");
    refused(v, &pos, "Rc1&d1~d8");
    let count = |piece: char| all.iter().filter(|m| piece_letter(v, pos.board[m.from as usize]) == piece).count();
    assert_eq!((count('K'), count('R'), count('N'), count('P')), (50, 154, 6, 1));
    assert_eq!(all.len(), 211);
    assert_eq!(rulebook_interpreter::engine::perft::perft(v, &pos, 1), 211);
}

/// Issue 12 with a label free: without the pawn group, the rook may entangle
/// with the castling unit, and the joined unit is a new group that takes
/// the free label "/" (R16: "unless it forms or joins one by entangling";
/// R8: "A new group takes the first free label").
#[test]
fn i12_a_castling_unit_joined_by_entangling_takes_a_free_label() {
    let v = niels();
    // The knights are conventional here (two each side); the pawn group "\" stays.
    let pos = fen(v, r"r1krk3/6pp/6pn/5n2/1P6/1P5N/8/1N1R2K1 w - - 0 1 ~ kc8e8+rd8a8:equal Pb4b3+pg6g7:equal:\");
    assert_eq!(groups(&pos), 1);
    let next = play(v, &pos, "d1d1&d2~d8");
    assert_eq!(units(v, &next), unit_list(&[r"Pb4b3+pg6g7:equal:\", "Rd1d2+kc8e8+rd8a8:equal:/"]));
    assert_eq!(groups(&next), 2);
    // The other pairing (red c1 with the king's red branch) likewise.
    let again = play(v, &pos, "Rc1&d1~d8");
    assert_eq!(units(v, &again), unit_list(&[r"Pb4b3+pg6g7:equal:\", "Rc1d1+kc8e8+rd8a8:equal:/"]));
}

/// Issue 12 from the start: a line in which both labels come into use (each
/// side's a- and h-pawn halves entangled by the other's pawn), White castles
/// short as a split with Kd2 (`e1h1&d2`, R16), and Black may then not join
/// that unit: `c3&c4~d2` (the pawn c4 stays and steps to c3, attacking the
/// king half d2) and the queen's and the knight's entangles with it would
/// form a third group. The queen still joins group "\" (the pawn half a4).
#[test]
fn i12_the_castling_unit_from_the_start() {
    let v = niels();
    let mut pos = v.start().expect("setup");
    let line = [
        "d2d4", "c7c5", "d4d5", "c5c4", "h2h4&h3", "g7g5&g7~h4", "a2a4&a3", "b7b5&b7~a4", "g1f3", "g8f6", "e2e3", "h7h6", "f1e2",
        "a7a6", "e1h1&d2",
    ];
    for m in line {
        pos = play(v, &pos, m);
    }
    assert_eq!(
        units(v, &pos),
        unit_list(&["Kg1d2+Rf1h1:equal", r"Pa4a3+pb5b7:equal:\", "Ph4h3+pg5g7:equal:/"]),
        "the castling split's unit carries no label; both labels are in use"
    );
    assert_eq!(groups(&pos), 2);
    let castling_unit = [sq(v, "g1"), sq(v, "d2"), sq(v, "f1"), sq(v, "h1")];
    let ent: Vec<Move> = actions(v, &pos).into_iter().filter(is_entangle).collect();
    let offending: Vec<String> = ent.iter().filter(|m| castling_unit.contains(&attacked_half(m))).map(|m| desc(v, m)).collect();
    assert!(offending.is_empty(), "entangles with the castling unit, no label free: {offending:?}");
    refused(v, &pos, "c4c3&c4~d2");
    let want: BTreeSet<String> = ["d8>a5|d8~a4", "d8>d8|a5~a4"].iter().map(|s| s.to_string()).collect();
    assert_eq!(ent.iter().map(|m| desc(v, m)).collect::<BTreeSet<_>>(), want);
}
