//! Obligations created by rules (`then owner must relocate inner pieces …
//! then owner must activate`, issue 13): a line of pawns obliges its owner to
//! relocate the inner pawns and then to pull a level out, before the turn
//! passes. Every count is derived by hand in the comments, from the rules of
//! the small tower below (4 files a..d × 4 ranks 1..4 × 3 levels I..III, the
//! tower of examples/sliding-levels.rules).

mod support;

use rulebook_interpreter::flow::{perft as flow_perft, Action, ActionKind};
use rulebook_interpreter::{Position, Variant};

/// The tower and its pieces, with the group rule of rules/4d-schach.rules.
const TOWER: &str = r#"
variant "Tower with groups"
board { files a..d  ranks 1..4  levels I II III }
players {
  white: forward +rank
  black: forward -rank
}
slide {
  levels I III along rank
  levels II along file
  out at most 3
  swing 1 row per ply, overshoot 1 less each pass
}
piece King K { royal  move W  move F }
piece Rook R { move ride W }
piece Pawn P { quiet W  capture F }
rule "group" {
  on ply-end
  if line 3..4 own Pawn along file rank level
  then owner must relocate inner pieces to another level,
    placed piece attacks no enemy and is not attacked,
    only if not line 3 own Pawn along file rank level
  then owner must activate
}
setup "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1"
end {
  checkmate: lose
  stalemate: draw
}
"#;

fn tower(extra: &str) -> Variant {
    support::variant_from_text("obligations-tower", &format!("{TOWER}{extra}"))
}

fn at(v: &Variant, fen: &str) -> Position {
    v.parse_fen(fen, "<test>").unwrap_or_else(|d| panic!("{fen}: {}", d.message))
}

fn name(v: &Variant, a: &Action) -> String {
    let geo = &v.game.geometry;
    match a {
        Action::Move(m) => format!("{}{}", geo.name(m.from), geo.name(m.to)),
        Action::Relocate { from, to } => format!("{}>{}", geo.name(*from), geo.name(*to)),
        Action::Activate { level, rows } => format!("A{level}:{rows}"),
        Action::Exile { own, enemy } => format!("out:{}", [own, enemy].into_iter().flatten().map(|&c| geo.name(c)).collect::<Vec<_>>().join("+")),
        Action::Return { from, to, .. } => format!("in:{}>{}", geo.name(*from), geo.name(*to)),
        Action::Pass => "pass".into(),
    }
}

fn find(v: &Variant, pos: &Position, want: &str) -> Action {
    let actions = v.actions(pos);
    *actions.iter().find(|a| name(v, a) == want).unwrap_or_else(|| panic!("{want} not among {:?}", actions.iter().map(|a| name(v, a)).collect::<Vec<_>>()))
}

/// The black king on IIIa4 attacks (one step W or F, no space diagonal):
/// IIIb4, IIIa3, IIa4 (W) and IIIb3, IIb4, IIa3 (F) — 6 cells, all on
/// levels II and III.
const KING_IIIA4_ATTACKS: [&str; 6] = ["IIIb4", "IIIa3", "IIa4", "IIIb3", "IIb4", "IIa3"];

/// White Pd2-d3 makes the line Ib3 Ic3 Id3 along the file axis of level I.
/// White then owes a relocation of the inner pawn Ic3 and an activation;
/// black is to move next.
///
/// Relocation targets of Ic3, by hand: levels II and III have 32 cells, one
/// holds the black king (IIIa4): 31 empty. Not attacked: minus the king's 6
/// cells above: 25. Attacking no enemy: a pawn captures one F step, so it
/// would attack IIIa4 only from IIIb3, IIb4, IIa3 — already gone. Forming no
/// line of 3: the other white pawns are Ib3 and Id3 on level I, not adjacent
/// to each other, and no level-II/III cell lines up with two of them: 25.
///
/// Activations, by hand: `slide` lets each of the 3 levels (all at rest) out
/// by 1, 2 or 3 rows either way: 3 × 6 = 18. None lets the black king reach
/// the white king on Ia1 (it stands on level III at a4, three ranks away), so
/// all 18 are legal, and the turn passes after the activation.
#[test]
fn a_line_of_three_obliges_a_relocation_then_an_activation() {
    let v = tower("");
    let start = at(&v, "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1");
    let d3 = find(&v, &start, "Id2Id3");
    let after = v.apply(&start, &d3);
    assert_eq!(v.decider(&after), 0, "white owes the intermediate moves");
    let queue = &after.flow.as_ref().expect("obligations").queue;
    let geo = &v.game.geometry;
    assert_eq!(queue.len(), 2);
    assert_eq!((queue[0].kind, queue[0].from.map(|c| geo.name(c))), (ActionKind::Relocate, Some("Ic3".to_string())));
    assert_eq!(queue[1].kind, ActionKind::Activate);

    let relocations = v.actions(&after);
    assert_eq!(relocations.len(), 25);
    for a in &relocations {
        let n = name(&v, a);
        let to = n.split_once('>').map(|(f, t)| (f.to_string(), t.to_string())).expect("a relocation");
        assert_eq!(to.0, "Ic3");
        assert!(!to.1.starts_with("I") || to.1.starts_with("II"), "{n}: another level");
        assert!(!KING_IIIA4_ATTACKS.contains(&to.1.as_str()) && to.1 != "IIIa4", "{n}");
    }

    let relocated = v.apply(&after, &find(&v, &after, "Ic3>IIc3"));
    assert_eq!(v.decider(&relocated), 0);
    let activations = v.actions(&relocated);
    assert_eq!(activations.len(), 18);
    assert!(activations.iter().all(|a| matches!(a, Action::Activate { .. })));

    let done = v.apply(&relocated, &activations[0]);
    assert!(done.flow.is_none(), "nothing owed: the ply is over");
    assert_eq!(done.side, 1, "black to move");
    assert!(done.frame.is_some(), "a level is out");
}

/// The position text carries the obligations with the pawn's cell and the
/// rule's step (`/0.0`: rule 0, step 0), and reads back to the same position.
#[test]
fn the_owed_relocation_round_trips_in_the_position_text() {
    let v = tower("");
    let start = at(&v, "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1");
    let after = v.apply(&start, &find(&v, &start, "Id2Id3"));
    let text = v.fen(&after);
    assert!(text.ends_with("{oblige=w:relocate@Ic3/0.0!,w:activate/0.1!}"), "{text}");
    let back = at(&v, &text);
    assert_eq!((back.key(&v.tables), v.fen(&back)), (after.key(&v.tables), text.clone()));
    assert_eq!(v.actions(&back).len(), 25);
}

/// Complete plies against single decisions from the start position.
///
/// White's moves, by hand: the king on Ia1 steps W to Ib1, Ia2, IIa1 and F to
/// Ib2, IIb1, IIa2 (6; none attacked by the king on IIIa4). Pawn Ib3: Ia3,
/// Ib4, Ib2, IIb3 (Ic3 is taken; no level below I) = 4. Pawn Ic3: Id3, Ic4,
/// Ic2, IIc3 = 4. Pawn Id2: Ic2, Id3, Id1, IId2 = 4. No captures. 18 moves,
/// of which one (Id2-Id3) makes a group: 17 plies of one decision, and
/// 25 × 18 = 450 plies through the group. Complete plies: 17 + 450 = 467;
/// single decisions at depth 1: 18; two decisions after Id3: 25 × 18 = 450.
#[test]
fn perft_counts_plies_through_the_group_and_decisions_one_by_one() {
    let v = tower("");
    let start = at(&v, "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1");
    assert_eq!(v.actions(&start).len(), 18);
    assert_eq!(flow_perft::plies(&v, &start, 1), 467);
    assert_eq!(flow_perft::decisions(&v, &start, 1), 18);
    let after = v.apply(&start, &find(&v, &start, "Id2Id3"));
    assert_eq!(flow_perft::decisions(&v, &after, 2), 450);
    assert_eq!(flow_perft::plies(&v, &after, 1), 450);
}

/// A vertical line: White Ic2-Ib2 under IIb2 and IIIb2 makes Ib2 IIb2 IIIb2
/// up the column; the inner pawn IIb2 goes to level I or III.
///
/// By hand: levels I and III have 32 cells; occupied after the move: Ia1 (K),
/// Ib2, IIIb2, IIId4 (black king): 28 empty. The king on IIId4 attacks on
/// those levels IIIc4, IIId3 (W) and IIIc3 (F) (its other cells, IId4, IIc4,
/// IId3, are on level II): 25. A pawn attacking IIId4 would stand on IIIc3,
/// already gone. No target makes a line of 3 (one other white pawn on each
/// of levels I and III, and IIb2 is empty now): 25.
#[test]
fn a_vertical_line_obliges_its_middle_pawn_to_another_level() {
    let v = tower("");
    let start = at(&v, "3k/4/1P2/4|4/4/1P2/4|4/4/2P1/K3 w - - 0 1");
    let after = v.apply(&start, &find(&v, &start, "Ic2Ib2"));
    let queue = &after.flow.as_ref().expect("obligations").queue;
    assert_eq!(queue[0].from.map(|c| v.game.geometry.name(c)), Some("IIb2".to_string()));
    let relocations = v.actions(&after);
    assert_eq!(relocations.len(), 25);
    assert!(relocations.iter().all(|a| {
        let n = name(&v, a);
        n.starts_with("IIb2>I") && !n.starts_with("IIb2>II") || n.starts_with("IIb2>III")
    }));
}

/// A line of 4: Ic2-Ic3 completes Ia3 Ib3 Ic3 Id3. The two inner pawns (Ib3,
/// Ic3) owe a relocation each, then one activation.
///
/// First relocation (Ib3), by hand: levels II and III hold only the black
/// king (IIId4): 31 empty, minus its 6 cells (IIIc4, IIId3, IId4 by W;
/// IIIc3, IIc4, IId3 by F): 25. Take IIIa3. Second (Ic3): 30 empty, minus
/// the 6: 24, minus IIa3, which would make Ia3 IIa3 IIIa3 up the column: 23.
#[test]
fn a_line_of_four_obliges_two_relocations() {
    let v = tower("");
    let start = at(&v, "3k/4/4/4|4/4/4/4|4/PP1P/2P1/K3 w - - 0 1");
    let after = v.apply(&start, &find(&v, &start, "Ic2Ic3"));
    let geo = &v.game.geometry;
    let queue: Vec<(ActionKind, Option<String>)> =
        after.flow.as_ref().expect("obligations").queue.iter().map(|o| (o.kind, o.from.map(|c| geo.name(c)))).collect();
    assert_eq!(
        queue,
        [(ActionKind::Relocate, Some("Ib3".to_string())), (ActionKind::Relocate, Some("Ic3".to_string())), (ActionKind::Activate, None)]
    );
    assert_eq!(v.actions(&after).len(), 25);
    let first = v.apply(&after, &find(&v, &after, "Ib3>IIIa3"));
    let second = v.actions(&first);
    assert_eq!(second.len(), 23);
    assert!(!second.iter().any(|a| name(&v, a) == "Ic3>IIa3"));
    assert_eq!(v.actions(&v.apply(&first, &second[0])).len(), 18);
}

/// `relocate inner pieces` needs a `line` in the rule's condition (E0177).
#[test]
fn a_relocation_without_a_line_is_an_error() {
    let dir = std::env::temp_dir().join(format!("rulebook-obligations-e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bad.rules");
    let src = TOWER.replace("if line 3..4 own Pawn along file rank level", "if own King attacked");
    std::fs::write(&path, src).expect("write");
    let Err((diags, _)) = rulebook_interpreter::model::load::load(&path) else { panic!("loaded") };
    assert!(diags.iter().any(|d| d.code == "E0177"), "{diags:?}");
}

/// Legality of every decision of the ply (LANGUAGE §3.20, ruling
/// "intermediate-check" of rules/4d-schach.rules). White (Ia1) is in check
/// from the black rook on IIIa1, down the column through the empty IIa1.
///
/// Id3-Id2 makes the group Ib2 Ic2 Id2 and leaves the king in check: the
/// relocation and the activation it obliges could cover the king (level II
/// pulled by -2 brings the relocated pawn between rook and king), but a ply
/// may not escape a check through its intermediate moves, so the move is
/// not offered, with or without the rule "no group while in check".
///
/// IIb1-IIa1 blocks the column and makes the group IIa1 IIa2 IIa3 (along the
/// rank axis). The king stands safe after it, so the move is legal unless a
/// rule forbids it. After IIa2 goes to Id4 (another level; not attacked: the
/// rook holds rank 1 and file a of level III and the column a1, the black
/// king IIId4 only its neighbours on levels II and III; attacking nothing; no
/// line of 3: level III has no white pawn), the activations, by hand:
///
/// - level I out by 1..3 either way (6): the king leaves the column a1;
/// - level III out by 1..3 either way (6): the rook leaves the column;
/// - level II out by any amount (0 of 6): IIa1's pawn leaves the column's
///   place, and what stands there instead (IIb1, IIc1, IId1 for -1..-3,
///   empty; a hole for +1..+3) lets the rook through.
///
/// 12 activations end the ply out of check. With the rule "no group while in
/// check", IIb1-IIa1 is not offered (ruling "no-group-in-check").
#[test]
fn a_ply_may_not_escape_check_through_its_intermediate_moves() {
    let v = tower("");
    let exposed = at(&v, "3k/4/4/r3|4/4/4/4|4/3P/1PP1/K3 w - - 0 1");
    assert!(v.in_check(&exposed));
    assert!(!v.actions(&exposed).iter().any(|a| name(&v, a) == "Id3Id2"), "the group does not escape the check");

    let fen = "3k/4/4/r3|4/P3/P3/1P2|4/4/4/K3 w - - 0 1";
    let start = at(&v, fen);
    assert!(v.in_check(&start));
    let after = v.apply(&start, &find(&v, &start, "IIb1IIa1"));
    let queue = &after.flow.as_ref().expect("the group obliges").queue;
    assert_eq!(queue[0].from.map(|c| v.game.geometry.name(c)), Some("IIa2".to_string()));
    let relocated = v.apply(&after, &find(&v, &after, "IIa2>Id4"));
    let activations: Vec<String> = v.actions(&relocated).iter().map(|a| name(&v, a)).collect();
    assert_eq!(activations.len(), 12, "{activations:?}");
    assert!(!activations.iter().any(|a| a.starts_with("A1:")), "{activations:?}");

    let forbidding = tower(
        "rule \"no group while in check\" {\n  on offer\n  if own in check and not line 3 own Pawn along file rank level\n  then forbid moves after which line 3 own Pawn along file rank level\n}\n",
    );
    let start = at(&forbidding, fen);
    assert!(!forbidding.actions(&start).iter().any(|a| name(&forbidding, a) == "IIb1IIa1"));
}

/// An activation may give check (§7: "eine Rochade, um dem Gegner Schach zu
/// bieten, ist erlaubt"). From the first test's position, after Id2-Id3 and
/// Ic3 to IIb3 (not attacked: the king on IIIa4 attacks IIIb4, IIIa3, IIa4,
/// IIIb3, IIb4, IIa3; attacking nothing: its F cells on level III are IIIa3,
/// IIIc3, IIIb2, IIIb4), pulling level III one row north (towards rank 1)
/// brings the black king to the place of IIIa3, which the pawn on IIb3
/// attacks (one F step: file -1, level +1). All 18 activations are legal and
/// this one leaves Black in check.
#[test]
fn an_activation_may_give_check() {
    let v = tower("");
    let start = at(&v, "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1");
    let after = v.apply(&start, &find(&v, &start, "Id2Id3"));
    let relocated = v.apply(&after, &find(&v, &after, "Ic3>IIb3"));
    assert_eq!(v.actions(&relocated).len(), 18);
    let checking = v.apply(&relocated, &find(&v, &relocated, "A2:-1"));
    assert_eq!(checking.side, 1);
    assert!(v.in_check(&checking), "{}", v.fen(&checking));
}

/// `--divide`'s rows add up to the perft of complete plies: the row of the
/// move that makes the group counts the 25 × 18 = 450 plies through it at
/// depth 1, the other 17 moves one each (467, as counted above).
#[test]
fn divide_counts_the_plies_through_a_group() {
    use rulebook_interpreter::engine::perft::{divide, Budget};
    let v = tower("");
    let start = at(&v, "k3/4/4/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1");
    let rows = divide(&v, &start, 1, &Budget::new(None, None), |_, _| {}).expect("no budget");
    let geo = &v.game.geometry;
    let d3: Vec<u64> = rows.iter().filter(|(m, _)| geo.name(m.from) == "Id2" && geo.name(m.to) == "Id3").map(|r| r.1).collect();
    assert_eq!(d3, [450]);
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 467);
    // At depth 2 the rows add up to the library's count of complete plies.
    let rows = divide(&v, &start, 2, &Budget::new(None, None), |_, _| {}).expect("no budget");
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), flow_perft::plies(&v, &start, 2));
}
