//! The `rule` items in plain language ([`Game::rules`]): one section per
//! rule, saying when it is checked, for whom, on what condition and what it
//! does. Every trigger, effect, obligation step and relocation has its words
//! through an exhaustive match.

use super::cond::{self, article, axis, pieces, plural, range, who};
use super::words::or_list;
use super::Section;
use rulebook_interpreter::model::cond::{Atom, PieceSet, Cond, Effect, ObligeAction, ObligeStep, RelocateWhat, Rule, SliceCount, Trigger};
use rulebook_interpreter::model::{Game, KindId, Outcome};

/// One section per `rule` item, in file order, titled with the rule's name.
pub fn rules(game: &Game) -> Vec<Section> {
    game.rules.iter().enumerate().map(|(i, r)| rule(game, i, r)).collect()
}

/// Where rule `r` is written: its file (as the model names it) and the byte
/// offset of its start, for [`Section::at`] once the file's text is at hand.
pub fn origin(r: &Rule) -> (&str, usize) {
    (r.file.as_str(), r.span.start)
}

/// `Pawn` → `Pawn`, `the player` → `The player`.
pub fn capital(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// What kind of effect a rule has, for the precedence among rules of one kind.
fn family(e: &Effect) -> &'static str {
    match e {
        Effect::End { .. } => "end the game",
        Effect::Forbid(_) => "forbid moves",
        Effect::CompelCaptures => "compel captures",
        Effect::NoCapture { .. } => "forbid captures",
        Effect::OnlyCaptures { .. } => "limit a piece to captures",
        Effect::Oblige(_) => "oblige",
        Effect::LoseRight(_) => "take first-move rights",
    }
}

/// The section of rule `r`, the `index`-th of the game's rules.
pub fn rule(game: &Game, index: usize, r: &Rule) -> Section {
    let mut s = Section::new(r.name.clone()).describes(rulebook_interpreter::model::doc::ItemRef::Rule(r.name.clone())).at(&r.file, r.span.start);
    // When, and for whom.
    let when = match r.trigger {
        Trigger::PlyEnd => "This rule is checked in the position after every complete ply (and in a position given as text)",
        Trigger::Offer => "This rule is checked on every move offered to the side to move, before the move is made",
    };
    let whom = match (r.trigger, r.per_subject) {
        (Trigger::PlyEnd, true) => {
            ", once for each player, the mover first: *the player* below is the one it is checked for, *the other player* that player's opponent."
        }
        (Trigger::Offer, true) => ": *the player* below is the side to move, *the other player* its opponent.",
        (Trigger::PlyEnd | Trigger::Offer, false) => ", once.",
    };
    let mut intro = format!("{when}{whom}");
    // The text that follows, to see which words need saying.
    let mut body: Vec<(String, Vec<String>)> = Vec::new();
    match &r.guard {
        None => body.push(("It always applies.".to_string(), Vec::new())),
        Some(c) => body.push(condition(
            match r.trigger {
                Trigger::PlyEnd => "It applies when",
                Trigger::Offer => "It applies when, before the move,",
            },
            game,
            c,
        )),
    }
    body.extend(effect(game, r));
    let all: String = body.iter().flat_map(|(p, l)| std::iter::once(p.clone()).chain(l.iter().cloned())).collect::<Vec<_>>().join(" ");
    if all.contains("the mover") {
        intro.push_str(match r.trigger {
            Trigger::PlyEnd => " *The mover* is the player who made that ply.",
            Trigger::Offer => " *The mover* is the side to move.",
        });
    }
    // Precedence among rules of the same kind.
    let earlier: Vec<String> = game.rules[..index.min(game.rules.len())]
        .iter()
        .filter(|o| o.trigger == r.trigger && family(&o.effect) == family(&r.effect))
        .map(|o| format!("\"{}\"", o.name))
        .collect();
    s = s.paragraph(intro);
    for (p, l) in body {
        s = s.paragraph(p).list(l);
    }
    let order = match (&r.effect, earlier.is_empty()) {
        (Effect::End { .. }, true) => Some(
            "A rule that ends the game is looked at before checkmate, stalemate and the draw rules; where several hold, the first in the file decides, and no rule that ends the game comes before this one."
                .to_string(),
        ),
        (Effect::End { .. }, false) => Some(format!(
            "A rule that ends the game is looked at before checkmate, stalemate and the draw rules; where several hold, the first in the file decides: {} {} before this one.",
            or_list(&earlier),
            if earlier.len() == 1 { "comes" } else { "come" }
        )),
        (Effect::Oblige(_), true) => Some(
            "Rules that oblige are checked after every decision that leaves nothing owed, in file order, for the mover first and then for the other player; the first that holds acts, and this is the first of them."
                .to_string(),
        ),
        (Effect::Oblige(_), false) => Some(format!(
            "Rules that oblige are checked after every decision that leaves nothing owed, in file order, for the mover first and then for the other player; the first that holds acts: {} {} before this one.",
            or_list(&earlier),
            if earlier.len() == 1 { "comes" } else { "come" }
        )),
        (Effect::Forbid(_) | Effect::CompelCaptures | Effect::NoCapture { .. } | Effect::OnlyCaptures { .. } | Effect::LoseRight(_), _) => None,
    };
    if let Some(o) = order {
        s = s.paragraph(o);
    }
    s
}

/// A condition after `lead` (`It applies when`): one paragraph, or a lead
/// and a list of its alternatives.
fn condition(lead: &str, game: &Game, c: &Cond) -> (String, Vec<String>) {
    let alts = cond::alternatives(game, c);
    if alts.len() == 1 {
        (format!("{lead} {}.", alts[0]), Vec::new())
    } else if alts.is_empty() {
        (format!("{lead} {}.", cond::cond(game, c)), Vec::new())
    } else {
        (format!("{lead} one of these holds:"), alts)
    }
}

/// What the rule does: paragraphs, each with a list (possibly empty).
fn effect(game: &Game, r: &Rule) -> Vec<(String, Vec<String>)> {
    match &r.effect {
        Effect::End { player, outcome } => {
            let text = match outcome {
                Outcome::Draw => "Then the game ends in a draw.".to_string(),
                Outcome::Win => format!("Then the game ends: {} wins.", who(game, *player)),
                Outcome::Lose => format!("Then the game ends: {} loses.", who(game, *player)),
            };
            vec![(format!("{text} The position is final: it has no legal moves."), Vec::new())]
        }
        Effect::Forbid(c) => {
            vec![condition("Then a move is not legal if, in the position after it,", game, c)]
        }
        Effect::NoCapture { by, of } => vec![(
            format!(
                "Then a {} may not capture a {}: such a move is not legal.",
                game.kinds.get(*by as usize).map_or("?", |k| k.name.as_str()),
                game.kinds.get(*of as usize).map_or("?", |k| k.name.as_str())
            ),
            Vec::new(),
        )],
        Effect::OnlyCaptures { kind, checking } => vec![(
            format!(
                "Then a {} may move only to capture{}: its other moves are not legal.",
                game.kinds.get(*kind as usize).map_or("?", |k| k.name.as_str()),
                if *checking { " a piece that gives check" } else { "" }
            ),
            Vec::new(),
        )],
        Effect::LoseRight(set) => vec![(
            format!(
                "Then {} lose their first-move rights (the right a part written `if unmoved`, and gating, need), for the rest of the game. This is judged after every move.",
                super::cond::pieces(game, *set)
            ),
            Vec::new(),
        )],
        Effect::CompelCaptures => vec![(
            "Then captures are compulsory: while the player to move has a legal move that captures, a move that captures nothing is not legal (castling and drops capture nothing). The moves other rules forbid are left out first.".to_string(),
            Vec::new(),
        )],
        Effect::Oblige(steps) => {
            let items: Vec<String> = steps
                .iter()
                .enumerate()
                .map(|(i, st)| format!("{} {}", if i == 0 { "First," } else { "Then" }, step(game, r.guard.as_ref(), st)))
                .collect();
            let lead = if steps.len() == 1 {
                "Then, before the turn passes, this decision is owed:"
            } else {
                "Then, before the turn passes, these decisions are owed, in this order:"
            };
            vec![
                (lead.to_string(), items),
                (
                    "A step that cannot be met when it comes due is dropped. A step that a player *may* take can be waived by passing; the rule then does not oblige that player again in this ply."
                        .to_string(),
                    Vec::new(),
                ),
            ]
        }
    }
}

/// `not a King`, `not a King or a Queen`; empty when nothing is excepted.
fn except(game: &Game, kinds: &[KindId]) -> String {
    if kinds.is_empty() {
        return String::new();
    }
    let names: Vec<String> = kinds.iter().map(|&k| article(super::words::kind(game, k))).collect();
    format!(" (not {})", or_list(&names))
}

/// A slice across an axis whose count passes: `a level holding at least 3 of Black's pieces`.
fn slice(game: &Game, s: &SliceCount) -> String {
    format!("a {} holding {} of {}", axis(game, s.axis), range(s.count), pieces(game, s.pieces))
}

/// One step of an obligation: `the player must …`.
pub fn step(game: &Game, guard: Option<&Cond>, st: &ObligeStep) -> String {
    let player = who(game, st.player);
    let verb = if st.compulsory { "must" } else { "may" };
    let action = match &st.action {
        ObligeAction::Relocate { what, safe, only_if } => {
            let (head, dropped) = match what {
                RelocateWhat::Inner { axis: a } => {
                    let line = guard.and_then(first_line).map_or_else(
                        || "the lines its condition finds".to_string(),
                        |(lo, set)| format!("every unbroken line of {lo} or more of {} that the condition finds", pieces(game, set)),
                    );
                    (
                        format!(
                            "move each inner piece (every piece but the two ends) of {line}, one decision each, to an empty cell on another {} (no capture, any distance)",
                            axis(game, *a)
                        ),
                        st.compulsory,
                    )
                }
                RelocateWhat::Pieces { pieces: set, except: ex, from, to } => (
                    format!(
                        "move one of {}{} standing on {} to an empty cell on {} (counted before the move), one decision",
                        pieces(game, *set),
                        except(game, ex),
                        slice(game, from),
                        slice(game, to)
                    ),
                    st.compulsory,
                ),
            };
            let mut guards = Vec::new();
            if *safe {
                guards.push("where the moved piece attacks no piece of the other side and is not attacked".to_string());
            }
            if let Some(c) = only_if {
                let text = cond::cond(game, c);
                let note = if text.contains("the player") || text.contains("the other player") {
                    " (*the player* here is the one relocating)"
                } else {
                    ""
                };
                guards.push(format!("only if, afterwards, {text}{note}"));
            }
            let mut text = head;
            if !guards.is_empty() {
                text.push_str(", ");
                text.push_str(&guards.join(", and "));
                text.push_str(match (dropped, *safe && only_if.is_some()) {
                    (true, true) => "; when no cell meets them all, the *only if* condition is dropped, then the other condition",
                    (true, false) => "; when no cell meets it, this condition is dropped",
                    (false, true) => "; no condition is dropped when no cell meets them",
                    (false, false) => "; it is not dropped when no cell meets it",
                });
            }
            text
        }
        ObligeAction::Activate => match &game.slide {
            Some(sl) => format!(
                "pull one {} at rest out of the shaft, by 1 to {} rows in either direction along its slide axis (see the sliding {})",
                axis(game, sl.stack_axis),
                sl.out_max,
                plural(&axis(game, sl.stack_axis))
            ),
            None => "pull a level out of the shaft (this variant has no sliding levels, so the step is dropped when it comes due)".to_string(),
        },
        ObligeAction::Exile { own, enemy, except: ex, to_owner } => {
            let what = match (own, enemy) {
                (true, true) => "one of its own pieces and one of the other side's",
                (true, false) => "one of its own pieces",
                (false, true) => "one of the other side's pieces",
                (false, false) => "no piece",
            };
            let both = if *own && *enemy { " (both or none)" } else { "" };
            let never = if ex.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = ex.iter().map(|&k| article(super::words::kind(game, k))).collect();
                format!(" (never {})", or_list(&names))
            };
            let level = game.slide.as_ref().map_or_else(|| "level".to_string(), |sl| axis(game, sl.stack_axis));
            let returners: Vec<String> = game
                .rules
                .iter()
                .filter(|r| match &r.effect {
                    Effect::Oblige(steps) => steps.iter().any(|s| s.action == ObligeAction::Return),
                    Effect::End { .. } | Effect::Forbid(_) | Effect::CompelCaptures | Effect::NoCapture { .. } | Effect::OnlyCaptures { .. } | Effect::LoseRight(_) => false,
                })
                .map(|r| format!("\"{}\"", r.name))
                .collect();
            let back = match returners.len() {
                0 => "no rule of this variant returns them".to_string(),
                1 => format!("the rule {} lets a holder return them", returners[0]),
                _ => format!("the rules {} let a holder return them", super::words::and_list(&returners)),
            };
            let missed = if *to_owner {
                "An own piece not returned by then stays out for good; a piece of the other side not returned by then passes to its owner, who may return it at any later time."
            } else {
                "A piece not returned by then stays out for good."
            };
            format!(
                "take {what} off the {level} pulled out earlier in this ply and out of play{never}, in one decision{both}. {} holds them until that {level}'s swing ends ({back}). {missed}",
                capital(&player)
            )
        }
        ObligeAction::Return => "put one piece out of play that it holds (not one taken out in this ply) back onto one of its return cells that is empty or holds a piece of the other colour than it, capturing that piece (a royal piece never is)".to_string(),
    };
    let verb = if st.compulsory { verb.to_string() } else { format!("{verb} (or pass)") };
    format!("{player} {verb} {action}")
}

/// The lines a relocation of inner pieces takes them from: the guard's first
/// positive `line` atom, in words.
fn first_line(c: &Cond) -> Option<(u32, PieceSet)> {
    c.any_of.iter().flatten().filter(|l| !l.negated).find_map(|l| {
        if let Atom::Line { length, pieces: set, .. } = &l.atom {
            Some((length.lo, *set))
        } else {
            None
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::describe::Block;
    use rulebook_interpreter::model::load::load;
    use std::path::{Path, PathBuf};

    pub(crate) fn load_game(path: &Path) -> Game {
        match load(path) {
            Ok((g, _)) => g,
            Err((d, _)) => panic!("{} does not load: {d:?}", path.display()),
        }
    }

    fn four_d() -> Game {
        load_game(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/4d-schach.rules")))
    }

    /// Every paragraph and list item of a section, joined.
    pub(crate) fn text(s: &Section) -> String {
        let mut out = vec![s.title.clone()];
        for b in &s.blocks {
            match b {
                Block::Paragraph(p) | Block::Quote(p) => out.push(p.clone()),
                Block::List(items) => out.extend(items.iter().map(|i| format!("- {i}"))),
                Block::Table { head, rows } => {
                    out.push(head.join(" | "));
                    out.extend(rows.iter().map(|r| r.join(" | ")));
                }
            }
        }
        out.join("\n")
    }

    fn section<'a>(sections: &'a [Section], title: &str) -> &'a Section {
        sections.iter().find(|s| s.title == title).unwrap_or_else(|| panic!("no section {title}"))
    }

    /// The rules files of `dir` and its subfolders.
    pub(crate) fn rules_files(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).expect("rules/ reads").flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(rules_files(&p));
            } else if p.extension().is_some_and(|x| x == "rules") {
                out.push(p);
            }
        }
        out.sort();
        out
    }

    #[test]
    fn four_d_schach_rules() {
        let g = four_d();
        let all = rules(&g);
        assert_eq!(all.len(), g.rules.len());
        let titles: Vec<&str> = all.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles[..4], ["dead position", "no group while in check", "big castling", "group"]);

        // rule "big castling" { on ply-end  if line 4 own Pawn along file rank level
        //   then owner must relocate inner pieces to another level,
        //     placed piece attacks no enemy and is not attacked,
        //     only if not line 3 own Pawn along file rank level
        //   then owner must activate
        //   then owner may exile own and enemy piece from activated level except King,
        //     missed: enemy piece to owner }
        let big = text(section(&all, "big castling"));
        assert!(big.contains("after every complete ply"), "{big}");
        assert!(big.contains("once for each player, the mover first"), "{big}");
        assert!(big.contains("It applies when the player has an unbroken line of 4 or more of its Pawns along the file, rank or level axis"), "{big}");
        assert!(big.contains("- First, the player must move each inner piece (every piece but the two ends) of every unbroken line of 4 or more of the player's Pawns that the condition finds, one decision each, to an empty cell on another level"), "{big}");
        assert!(big.contains("where the moved piece attacks no piece of the other side and is not attacked, and only if, afterwards, the player has no unbroken line of 3 or more of its Pawns"), "{big}");
        // `out at most 7` of the slide item gives the activation's amounts.
        assert!(big.contains("- Then the player must pull one level at rest out of the shaft, by 1 to 7 rows"), "{big}");
        assert!(big.contains("- Then the player may (or pass) take one of its own pieces and one of the other side's off the level pulled out earlier in this ply and out of play (never a King), in one decision (both or none). The player holds them until that level's swing ends (the rule \"resurrection\" lets a holder return them)."), "{big}");
        assert!(big.contains("passes to its owner, who may return it at any later time"), "{big}");
        assert!(big.contains("the first that holds acts, and this is the first of them"), "{big}");
        // "group" stands after "big castling" (the comment above it: "A rule that holds first wins").
        let group = text(section(&all, "group"));
        assert!(group.contains("\"big castling\" comes before this one"), "{group}");
        assert!(!group.contains("exile") && !group.contains("out of play"), "{group}");

        // rule "no group while in check" { on offer
        //   if own in check and not line 3 own Pawn along file rank level
        //   then forbid moves after which line 3 own Pawn along file rank level }
        let check = text(section(&all, "no group while in check"));
        assert!(check.contains("on every move offered to the side to move, before the move is made"), "{check}");
        assert!(check.contains("It applies when, before the move, the player is in check"), "{check}");
        assert!(!check.contains("mover"), "{check}");
        assert!(check.contains("Then a move is not legal if, in the position after it, the player has an unbroken line of 3 or more of its Pawns"), "{check}");

        // rule "dead position" { on ply-end  if white has only King and black has only King  then draw }
        let dead = text(section(&all, "dead position"));
        assert!(dead.contains("White has no pieces, on the board or in hand, other than one King, and Black has no pieces"), "{dead}");
        assert!(dead.contains("Then the game ends in a draw."), "{dead}");
        assert!(dead.contains(", once."), "{dead}");

        // rule "entropy correction of Black" { …  then white may relocate black's piece except King
        //   from level with more than 2 black's pieces to level with fewer than 2 black's pieces,
        //   only if not white in check and not black in check }
        let entropy = text(section(&all, "entropy correction of Black"));
        assert!(entropy.contains("White may (or pass) move one of Black's pieces (not a King) standing on a level holding at least 3 of Black's pieces to an empty cell on a level holding at most 1 of Black's pieces"), "{entropy}");
        assert!(entropy.contains("only if, afterwards, White is not in check"), "{entropy}");
        assert!(entropy.contains("White is not in check (none of White's Kings is attacked), and Black is not in check (none of Black's Kings is attacked); it is not dropped when no cell meets it"), "{entropy}");
        assert!(!entropy.contains("*the player*"), "{entropy}");

        // rule "mate from hyperspace" { …  then owner wins }
        let hyper = text(section(&all, "mate from hyperspace"));
        assert!(hyper.contains("Then the game ends: the player wins."), "{hyper}");
        assert!(hyper.contains("\"dead position\" comes before this one"), "{hyper}");
        // rule "resurrection" { on ply-end  if exiled mover's piece can return  then mover may return exiled piece }
        let back = text(section(&all, "resurrection"));
        assert!(back.contains("*The mover* is the player who made that ply."), "{back}");
        assert!(back.contains("the mover may (or pass) put one piece out of play that it holds"), "{back}");
    }

    #[test]
    fn every_rule_of_every_file_has_its_text() {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules"));
        let mut seen = 0;
        for path in rules_files(dir) {
            let g = load_game(&path);
            let sections = rules(&g);
            assert_eq!(sections.len(), g.rules.len(), "{}", path.display());
            for (s, r) in sections.iter().zip(&g.rules) {
                assert_eq!(s.title, r.name);
                assert!(s.blocks.len() >= 3, "{}: {}", path.display(), text(s));
                let t = text(s);
                assert!(!t.contains('?'), "{}: an unknown name in {t}", path.display());
                seen += 1;
            }
        }
        assert!(seen >= 10, "only {seen} rules in rules/");
    }

    #[test]
    fn origin_is_the_rule_item() {
        let g = four_d();
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/4d-schach.rules")).expect("reads");
        for r in &g.rules {
            let (file, start) = origin(r);
            assert!(file.ends_with("4d-schach.rules"));
            assert!(text[start..].starts_with(&format!("rule \"{}\"", r.name)), "{}", r.name);
        }
    }
}
