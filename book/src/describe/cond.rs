//! Conditions in plain language: the `if …` of a rule, a `forbid` condition,
//! a phase's `only if`, and the players and pieces they name
//! ([`rulebook_interpreter::model::cond`]). Every atom has its words, in a
//! positive and a negated form, through an exhaustive match.
//!
//! The words for players are relative, as the model's are: *the player* is
//! the rule's subject (`own`), *the other player* its opponent (`enemy`),
//! *the mover* and *the mover's opponent* the players of the ply in
//! question; the section that uses a condition says who they are there.

pub use super::words::plural;
use super::words::{kind, or_list, player, zone};
use rulebook_interpreter::model::cond::{Atom, Cond, Lit, PieceSet, Range, Scope, Who};
use rulebook_interpreter::model::geometry::Cell;
use rulebook_interpreter::model::{Game, KindId};

/// A condition in words. A conjunction reads `A, and B`; several alternatives
/// read `one of these holds: (1) …; or (2) …`.
pub fn cond(game: &Game, c: &Cond) -> String {
    let alts = alternatives(game, c);
    match alts.as_slice() {
        [] => "never (the condition has no alternative)".to_string(),
        [one] => one.clone(),
        _ => {
            let numbered: Vec<String> = alts.iter().enumerate().map(|(i, a)| format!("({}) {a}", i + 1)).collect();
            format!("one of these holds: {}", numbered.join("; or "))
        }
    }
}

/// Each alternative (`or`) of a condition in words, its literals joined by
/// `, and` (a literal may have an `and` of its own: `one King and one Bishop`).
pub fn alternatives(game: &Game, c: &Cond) -> Vec<String> {
    c.any_of
        .iter()
        .map(|conj| {
            if conj.is_empty() {
                "always".to_string()
            } else {
                conj.iter().map(|l| lit(game, l)).collect::<Vec<_>>().join(", and ")
            }
        })
        .collect()
}

/// A literal: its atom, or the atom's negation in words.
pub fn lit(game: &Game, l: &Lit) -> String {
    atom(game, &l.atom, l.negated)
}

/// A player named in a rule: `the player` (`own`), `the other player`
/// (`enemy`), `the mover`, `the mover's opponent`, or the player's name.
pub fn who(game: &Game, w: Who) -> String {
    match w {
        Who::Own => "the player".to_string(),
        Who::Enemy => "the other player".to_string(),
        Who::Mover => "the mover".to_string(),
        Who::Opponent => "the mover's opponent".to_string(),
        Who::Player(c) => player(game, c as usize),
    }
}

/// The possessive of [`who`]: `White's`, `the player's`.
pub fn whose(game: &Game, w: Who) -> String {
    format!("{}'s", who(game, w))
}

/// A piece set, plural: `White's Pawns`, `the player's pieces`.
pub fn pieces(game: &Game, set: PieceSet) -> String {
    format!("{} {}", whose(game, set.who), kinds(game, set.kind))
}

/// A kind's name in the plural (`Pawns`), or `pieces` for any kind.
pub fn kinds(game: &Game, k: Option<KindId>) -> String {
    match k {
        Some(k) => plural(kind(game, k)),
        None => "pieces".to_string(),
    }
}

/// A kind's name in the singular with its article (`a Pawn`), or `a piece`.
pub fn one_kind(game: &Game, k: Option<KindId>) -> String {
    let name = k.map_or("piece", |k| kind(game, k));
    article(name)
}

/// `a Pawn`, `an Archbishop`.
pub fn article(word: &str) -> String {
    let vowel = word.chars().next().is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}


/// A number a count or distance accepts: `exactly 2`, `at least 3`, `at
/// most 1`, `between 2 and 4`, `any number`.
pub fn range(r: Range) -> String {
    match (r.lo, r.hi) {
        (0, u32::MAX) => "any number".to_string(),
        (lo, u32::MAX) => format!("at least {lo}"),
        (0, hi) => format!("at most {hi}"),
        (lo, hi) if lo == hi => format!("exactly {lo}"),
        (lo, hi) => format!("between {lo} and {hi}"),
    }
}

/// The numbers a range does not accept, when they form one range.
fn complement(r: Range) -> Option<Range> {
    match (r.lo, r.hi) {
        (0, u32::MAX) => None,
        (0, hi) => Some(Range { lo: hi + 1, hi: u32::MAX }),
        (lo, u32::MAX) => Some(Range { lo: 0, hi: lo - 1 }),
        _ => None,
    }
}

/// A count of pieces and whether its verb is singular: `none of White's
/// Pawns` (singular), `at least 2 of the player's pieces` (plural).
fn counted(game: &Game, r: Range, set: PieceSet) -> (String, bool) {
    let of = pieces(game, set);
    let singular = r.hi <= 1 || (r.lo == 1 && r.hi == u32::MAX);
    let text = match (r.lo, r.hi) {
        (0, 0) => format!("none of {of}"),
        (0, u32::MAX) => format!("any number of {of}"),
        (1, u32::MAX) => format!("at least one of {of}"),
        _ => format!("{} of {of}", range(r)),
    };
    (text, singular)
}

/// `stands` or `stand`.
fn stand(singular: bool) -> &'static str {
    if singular {
        "stands"
    } else {
        "stand"
    }
}

/// A line's accepted lengths: `3 or more`, `exactly 3`, `3 to 4`.
fn length(r: Range) -> String {
    match (r.lo, r.hi) {
        (lo, u32::MAX) => format!("{lo} or more"),
        (lo, hi) if lo == hi => format!("exactly {lo}"),
        (lo, hi) => format!("{lo} to {hi}"),
    }
}

/// The name of axis `a` of the board.
pub fn axis(game: &Game, a: usize) -> String {
    game.geometry.axes.get(a).map_or_else(|| "?".to_string(), |x| x.name.clone())
}

/// A set of cells as a place: `on rank 8`, `on d4, e4, d5 or e5`, `on e1`,
/// `anywhere on the board`.
pub fn place(game: &Game, cells: &[Cell]) -> String {
    let z = zone(game, cells);
    if z == "any cell" {
        return "anywhere on the board".to_string();
    }
    let names: Vec<String> = cells.iter().map(|&c| game.geometry.name(c)).collect();
    if cells.len() > 1 && z == names.join(" ") {
        return format!("on {}", or_list(&names));
    }
    if cells.len() > 1 && names.first().is_some_and(|n| z.starts_with(n.as_str())) {
        return format!("on one of the {} cells {z}", cells.len());
    }
    format!("on {z}")
}

/// A zone given per player, for pieces of `owner`: the owner's cells when
/// the owner is known or both players' cells are the same, else both.
pub fn owners_place(game: &Game, owner: Who, cells: &[Vec<Cell>; 2]) -> String {
    match owner {
        Who::Player(c) => place(game, &cells[c as usize & 1]),
        _ if cells[0] == cells[1] => place(game, &cells[0]),
        _ => format!(
            "{} for {}'s pieces, {} for {}'s",
            place(game, &cells[0]),
            player(game, 0),
            place(game, &cells[1]),
            player(game, 1)
        ),
    }
}

/// The kinds of royal pieces, plural, or `royal pieces` when none or several.
fn royals(game: &Game) -> String {
    let names: Vec<String> = game.kinds.iter().filter(|k| k.royal).map(|k| plural(&k.name)).collect();
    match names.as_slice() {
        [one] => one.clone(),
        _ => "royal pieces".to_string(),
    }
}

/// A small number in words (`one` … `ten`), else digits.
fn number(n: u32) -> String {
    const WORDS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n as usize).map_or_else(|| n.to_string(), |w| w.to_string())
}

/// One atom in words, positive or negated.
pub fn atom(game: &Game, a: &Atom, negated: bool) -> String {
    match a {
        Atom::Line { length: len, pieces: set, axes } => {
            let names: Vec<String> = axes.iter().map(|&x| axis(game, x)).collect();
            let along = format!("along the {} axis (one coordinate changing; not diagonally)", or_list(&names));
            let what = if len.hi == u32::MAX {
                format!("an unbroken line of {} of its {}", length(*len), kinds(game, set.kind))
            } else {
                format!(
                    "an unbroken line of {} of its {} that cannot be extended at either end",
                    length(*len),
                    kinds(game, set.kind)
                )
            };
            let has = if negated { "has no" } else { "has" };
            let what = if negated { what.trim_start_matches("an ").to_string() } else { what };
            format!("{} {has} {what} {along}", who(game, set.who))
        }
        Atom::Count { count, pieces: set, scope } => count_words(game, *count, *set, scope, negated),
        Atom::Distance { from, to, distance } => {
            let pos = format!(
                "the least king-step distance (the largest difference of one coordinate) between one of {} and one of {} is {}",
                pieces(game, *from),
                pieces(game, *to),
                range(*distance)
            );
            if negated {
                format!("it is not the case that {pos} (it is the case when either has no piece)")
            } else {
                format!("{pos} (and both have pieces)")
            }
        }
        Atom::ChecksGiven { who: w, times } => {
            let w_name = who(game, *w);
            let n = if *times == 1 { "once".to_string() } else { format!("{times} times") };
            if negated {
                format!("{w_name} has not yet given check {n} (a move gives check when a royal piece of the other player is attacked after it)")
            } else {
                format!("{w_name} has given check {n} in the game (a move gives check when a royal piece of the other player is attacked after it)")
            }
        }
        Atom::InCheck(w) => {
            let w_name = who(game, *w);
            if negated {
                format!("{w_name} is not in check (none of {} {} is attacked)", whose(game, *w), royals(game))
            } else {
                format!("{w_name} is in check (one of {} {} is attacked)", whose(game, *w), royals(game))
            }
        }
        Atom::ToMove(w) => format!("{} is {}to move", who(game, *w), if negated { "not " } else { "" }),
        Atom::BoardFull => format!("the board is {}full", if negated { "not " } else { "" }),
        Atom::Passed(w) => format!("{}'s last move was {}a pass", who(game, *w), if negated { "not " } else { "" }),
        Atom::HasOnly { who: w, counts } => {
            let listed: Vec<String> = counts
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(k, &n)| {
                    let name = kind(game, k as KindId);
                    format!("{} {}", number(u32::from(n)), if n == 1 { name.to_string() } else { plural(name) })
                })
                .collect();
            let w_name = who(game, *w);
            match (listed.is_empty(), negated) {
                (true, false) => format!("{w_name} has no pieces at all, on the board or in hand"),
                (true, true) => format!("{w_name} has some piece, on the board or in hand"),
                (false, false) => format!(
                    "{w_name} has no pieces, on the board or in hand, other than {}",
                    super::words::and_list(&listed)
                ),
                (false, true) => format!(
                    "{w_name} has more, on the board and in hand, than {}",
                    super::words::and_list(&listed)
                ),
            }
        }
        Atom::CanMove { pieces: set, onto } => {
            let owner = who(game, set.who);
            let onto = owners_place(game, set.who, onto);
            let moved = kinds(game, set.kind);
            if negated {
                format!("{owner} is not to move, or has no legal move of one of its {moved} ending {onto}")
            } else {
                format!("{owner} is to move and has a legal move of one of its {moved} ending {onto}")
            }
        }
        Atom::Attacks { pieces: set, target } => {
            if negated {
                format!("none of {} attacks (could capture on the cell of) any of {}", pieces(game, *set), pieces(game, *target))
            } else {
                format!("one of {} attacks (could capture on the cell of) one of {}", pieces(game, *set), pieces(game, *target))
            }
        }
        Atom::Faces { pieces: set, target, axis, through } => {
            let axis = &game.geometry.axes[*axis].name;
            let line = if *through { format!("on one line along the {axis}, whatever stands between them") } else { format!("on one line along the {axis} with no piece between them") };
            if negated {
                format!("no piece of {} stands {line} with one of {}", pieces(game, *set), pieces(game, *target))
            } else {
                format!("one of {} and one of {} stand {line}", pieces(game, *set), pieces(game, *target))
            }
        }
        Atom::Attacked(set) => {
            if negated {
                format!("none of {} is attacked by a piece of its owner's opponent", pieces(game, *set))
            } else {
                format!("one of {} is attacked by a piece of its owner's opponent", pieces(game, *set))
            }
        }
        Atom::Coloured { pieces: set, like } => {
            let cell = game.geometry.name(*like);
            format!(
                "{} of {} stands on a cell of the colour of {cell}",
                if negated { "none" } else { "one" },
                pieces(game, *set)
            )
        }
        Atom::Exiled { pieces: set, onto } => {
            let holder = who(game, set.who);
            let piece = one_kind(game, set.kind);
            match (onto, negated) {
                (None, false) => format!(
                    "{holder} holds {piece} out of play (of either colour, not one taken out in the ply in progress) that may now return onto one of its return cells"
                ),
                (None, true) => format!(
                    "{holder} holds no piece out of play (of the kind named, either colour, not taken out in the ply in progress) that may now return onto one of its return cells"
                ),
                (Some(target), false) => format!(
                    "one of {} stands on a return cell of {piece} out of play that {holder} holds, of the other colour than that piece (a threat from out of play)",
                    pieces(game, *target)
                ),
                (Some(target), true) => format!(
                    "none of {} stands on a return cell of {piece} out of play that {holder} holds and of the other colour than it",
                    pieces(game, *target)
                ),
            }
        }
        Atom::PhaseEnds(i) => {
            let name = game.phases.get(*i).map_or("?", |p| p.name.as_str());
            format!(
                "the ply now ending {} the {name} phase (the position is in it and both hands are empty)",
                if negated { "does not complete" } else { "completes" }
            )
        }
    }
}

/// A `Count` atom in words.
fn count_words(game: &Game, count: Range, set: PieceSet, scope: &Scope, negated: bool) -> String {
    let on = |r: Range| {
        let (text, one) = counted(game, r, set);
        match scope {
            Scope::Board => format!("{text} {} on the board", stand(one)),
            Scope::Zone(cells) => format!("{text} {} {}", stand(one), owners_place(game, set.who, cells)),
            Scope::Some(_) | Scope::Every(_) => text,
        }
    };
    let empty = |a: usize, r: Range| if r.lo == 0 { format!(" (an empty {} holds none)", axis(game, a)) } else { String::new() };
    match (scope, negated) {
        (Scope::Some(a), false) => format!("some {} holds {}{}", axis(game, *a), on(count), empty(*a, count)),
        (Scope::Some(a), true) => format!("no {} holds {}{}", axis(game, *a), on(count), empty(*a, count)),
        (Scope::Every(a), false) => format!("every {} holds {}{}", axis(game, *a), on(count), empty(*a, count)),
        (Scope::Every(a), true) => match complement(count) {
            Some(c) => format!("some {} holds {}{}", axis(game, *a), on(c), empty(*a, c)),
            None => format!("not every {} holds {}", axis(game, *a), on(count)),
        },
        (Scope::Board | Scope::Zone(_), false) => on(count),
        (Scope::Board | Scope::Zone(_), true) => match complement(count) {
            Some(c) => on(c),
            None => format!("it is not the case that {}", on(count)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rulebook_interpreter::model::load::load;
    use std::path::Path;

    fn game(rel: &str) -> Game {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
        match load(&path) {
            Ok((g, _)) => g,
            Err((d, _)) => panic!("{rel} does not load: {d:?}"),
        }
    }

    fn guard(g: &Game, name: &str) -> String {
        let r = g.rules.iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no rule {name}"));
        cond(g, r.guard.as_ref().expect("a guard"))
    }

    #[test]
    fn four_d_schach_conditions() {
        let g = game("rules/4d-schach.rules");
        // `if line 4 own Pawn along file rank level      # 4 or more: the big castling`
        let big = guard(&g, "big castling");
        assert!(big.starts_with("the player has an unbroken line of 4 or more of its Pawns along the file, rank or level axis"), "{big}");
        // `if own in check and not line 3 own Pawn along file rank level`
        let check = guard(&g, "no group while in check");
        assert!(check.starts_with("the player is in check (one of the player's Kings is attacked), and the player has no unbroken line of 3 or more of its Pawns along the file, rank or level axis"), "{check}");
        // `if opening ends and fewer than 2 black's pieces on some level`
        let entropy = guard(&g, "entropy correction of Black");
        assert!(entropy.starts_with("the ply now ending completes the opening phase"), "{entropy}");
        assert!(entropy.contains(", and some level holds at most 1 of Black's pieces (an empty level holds none)"), "{entropy}");
        // `if white has only King and black has only King`
        let dead = guard(&g, "dead position");
        assert_eq!(
            dead,
            "White has no pieces, on the board or in hand, other than one King, and Black has no pieces, on the board or in hand, other than one King"
        );
        // `if exiled own piece can return onto enemy King`
        let hyper = guard(&g, "mate from hyperspace");
        assert!(hyper.starts_with("one of the other player's Kings stands on a return cell of a piece out of play that the player holds"), "{hyper}");
        // `if exiled mover's piece can return`
        let back = guard(&g, "resurrection");
        assert!(back.starts_with("the mover holds a piece out of play"), "{back}");
    }

    #[test]
    fn zones_alternatives_and_negations() {
        let g = game("rules/fairy/kingofthehill.rules");
        // `if own King on square d4 or square e4 or square d5 or square e5`
        assert_eq!(guard(&g, "king of the hill"), "at least one of the player's Kings stands on d4, e4, d5 or e5");
        let g = game("rules/fairy/racingkings.rules");
        // `if white's King on rank 8 and not black's King can move onto rank 8`
        assert_eq!(
            guard(&g, "white's king on rank 8 and black cannot follow"),
            "at least one of White's Kings stands on rank 8, and Black is not to move, or has no legal move of one of its Kings ending on rank 8"
        );
        // `if black's King on rank 8 and not white's King on rank 8`
        assert!(guard(&g, "black's king first on rank 8").ends_with(", and none of White's Kings stands on rank 8"));
        let g = game("examples/dead-material.rules");
        // `or own has only King Bishop and enemy has only King Bishop
        //     and not own Bishop coloured like a1 and not enemy Bishop coloured like a1`
        let dead = guard(&g, "no mating material");
        assert!(dead.starts_with("one of these holds: (1) the player has no pieces"), "{dead}");
        assert!(dead.contains("; or (5) "), "{dead}");
        assert!(dead.ends_with("none of the player's Bishops stands on a cell of the colour of a1, and none of the other player's Bishops stands on a cell of the colour of a1"), "{dead}");
    }

    #[test]
    fn words() {
        assert_eq!(plural("Pawn"), "Pawns");
        assert_eq!(plural("Fers"), "Ferses");
        assert_eq!(article("Archbishop"), "an Archbishop");
        assert_eq!(range(Range { lo: 3, hi: u32::MAX }), "at least 3");
        assert_eq!(range(Range { lo: 0, hi: 1 }), "at most 1");
        assert_eq!(complement(Range { lo: 0, hi: 1 }), Some(Range { lo: 2, hi: u32::MAX }));
    }
}
