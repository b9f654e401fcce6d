//! Tests of the parser: every shipped rules file parses, each construct gives
//! the expected tree with spans on the right text, and bad input gives a
//! diagnostic (never a panic).

use super::parse;
use crate::ast::*;
use crate::render;

fn ok(src: &str) -> File {
    match parse("test.rules", src) {
        Ok(file) => file,
        Err(d) => panic!("parse failed:\n{}", render(&d, src, false)),
    }
}

fn text(src: &str, span: Span) -> &str {
    &src[span.start..span.end]
}

fn pieces(file: &File) -> Vec<&PieceDef> {
    file.items
        .iter()
        .filter_map(|i| {
            if let Item::Piece(p) = i {
                Some(p)
            } else {
                None
            }
        })
        .collect()
}

fn parts(piece: &PieceDef) -> Vec<&MovePart> {
    piece
        .body
        .iter()
        .filter_map(|i| {
            if let PieceItem::Part(p) = i {
                Some(p)
            } else {
                None
            }
        })
        .collect()
}

fn rules_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules")
}

fn read_rules(name: &str) -> String {
    std::fs::read_to_string(rules_dir().join(name)).expect("rules file")
}

/// `rank 2` style zone as (axis, label) pairs per conjunction.
fn zone_words(zone: &Zone) -> Vec<Vec<(String, String)>> {
    zone.any_of
        .iter()
        .map(|c| {
            c.all_of
                .iter()
                .map(|a| match a {
                    ZoneAtom::Coord { axis, label, .. } => (axis.node.clone(), label.node.clone()),
                    ZoneAtom::Square(sq) => ("square".to_string(), sq.node.clone()),
                    ZoneAtom::Start(_) => ("start".to_string(), String::new()),
                })
                .collect()
        })
        .collect()
}

fn zw(pairs: &[&[(&str, &str)]]) -> Vec<Vec<(String, String)>> {
    pairs
        .iter()
        .map(|c| {
            c.iter()
                .map(|(a, l)| (a.to_string(), l.to_string()))
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------- shipped files

#[test]
fn every_shipped_rules_file_parses() {
    let mut count = 0;
    for entry in std::fs::read_dir(rules_dir()).expect("rules dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rules") {
            let src = std::fs::read_to_string(&path).expect("read");
            let file = parse(&path.display().to_string(), &src)
                .unwrap_or_else(|d| panic!("{}", render(&d, &src, false)));
            assert!(!file.items.is_empty(), "{}", path.display());
            assert_eq!(file.span, Span::new(0, src.len()));
            count += 1;
        }
    }
    assert!(count >= 6, "found only {count} rules files");
}

#[test]
fn chess_has_every_item_in_order() {
    let src = read_rules("chess.rules");
    let file = ok(&src);
    let kinds: Vec<&str> = file
        .items
        .iter()
        .map(|i| match i {
            Item::Variant(_) => "variant",
            Item::Extends(_) => "extends",
            Item::Board(_) => "board",
            Item::Players(_) => "players",
            Item::Piece(_) => "piece",
            Item::Promotion(_) => "promotion",
            Item::Castling(_) => "castling",
            Item::Setup(_) => "setup",
            Item::End(_) => "end",
            Item::Hand(_) => "hand",
            Item::Ruling(_) => "ruling",
            Item::Without(_) => "without",
            Item::Claim(_) => "claim",
            Item::Hidden(_) => "hidden",
            Item::Letters(_) => "letters",
            Item::Die(_) => "die",
            Item::Spread(_) => "spread",
            Item::Entangle(_) => "entangle",
            Item::Tunnel(_) => "tunnel",
            Item::Phase(_) => "phase",
            Item::Slide(_) => "slide",
            Item::Observe(_) => "observe",
            Item::Explosion(_) => "explosion",
            Item::Rule(_) => "rule",
            Item::Example(_) => "example",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "variant",
            "board",
            "players",
            "piece",
            "piece",
            "piece",
            "piece",
            "piece",
            "piece",
            "promotion",
            "castling",
            "setup",
            "end",
            "claim",
            "claim",
            "claim",
            "claim",
            "ruling",
            "example",
            "example"
        ]
    );
    // The `##` comments above board, players, promotion, castling, setup and end.
    let documented: Vec<&str> = file.docs.iter().map(|d| kinds[d.item]).collect();
    assert_eq!(documented, ["board", "players", "promotion", "castling", "setup", "end", "example", "example"]);
    let Item::Variant(name) = &file.items[0] else {
        unreachable!()
    };
    assert_eq!(name.node, "Chess");
    assert_eq!(text(&src, name.span), "\"Chess\"");
}

#[test]
fn the_pawn_double_step() {
    let src = read_rules("chess.rules");
    let file = ok(&src);
    let pawn = pieces(&file)
        .into_iter()
        .find(|p| p.name.node == "Pawn")
        .expect("Pawn");
    assert_eq!(pawn.letter.node, "P");
    assert_eq!(text(&src, pawn.letter.span), "P");
    let parts = parts(pawn);
    assert_eq!(parts.len(), 3);
    let double = parts[1];
    assert_eq!(
        text(&src, double.span),
        "quiet ride W forward exactly 2 from rank 2 sets en-passant"
    );
    assert_eq!(double.mode.node, Mode::Quiet);
    assert_eq!(text(&src, double.mode.span), "quiet");
    assert_eq!(double.kind.node, PatternKind::Ride);
    assert_eq!(text(&src, double.kind.span), "ride");
    assert_eq!(double.atom.node, Atom::Letter("W".into()));
    assert_eq!(text(&src, double.atom.span), "W");
    let mods: Vec<&Modifier> = double.modifiers.iter().map(|m| &m.node).collect();
    assert_eq!(mods.len(), 4);
    assert_eq!(mods[0], &Modifier::Direction("forward".into()));
    assert_eq!(mods[1], &Modifier::Exactly(2));
    let Modifier::From(zone) = mods[2] else {
        panic!("{:?}", mods[2])
    };
    assert_eq!(zone_words(zone), zw(&[&[("rank", "2")]]));
    assert_eq!(text(&src, zone.span), "rank 2");
    assert_eq!(mods[3], &Modifier::SetsEnPassant);
    let mod_texts: Vec<&str> = double
        .modifiers
        .iter()
        .map(|m| text(&src, m.span))
        .collect();
    assert_eq!(
        mod_texts,
        ["forward", "exactly 2", "from rank 2", "sets en-passant"]
    );

    // A plain step is a leap; its kind's span is the atom's.
    assert_eq!(parts[0].kind.node, PatternKind::Leap);
    assert_eq!(text(&src, parts[0].kind.span), "W");
    let capture = parts[2];
    assert_eq!(capture.mode.node, Mode::Capture);
    assert_eq!(
        capture
            .modifiers
            .iter()
            .map(|m| m.node.clone())
            .collect::<Vec<_>>(),
        [
            Modifier::Direction("forward".into()),
            Modifier::TakesEnPassant
        ]
    );
}

#[test]
fn royal_and_parts_in_order() {
    let src = "piece King K {\n  royal # comment\n  move W\n  move F\n}";
    let file = ok(src);
    let king = pieces(&file)[0];
    assert_eq!(text(src, king.name.span), "King");
    assert_eq!(text(src, king.span), src);
    assert!(matches!(king.body[0], PieceItem::Royal(s) if text(src, s) == "royal"));
    let parts = parts(king);
    assert_eq!(
        parts.iter().map(|p| text(src, p.span)).collect::<Vec<_>>(),
        ["move W", "move F"]
    );
    assert!(parts
        .iter()
        .all(|p| p.mode.node == Mode::Move && p.modifiers.is_empty()));
}

#[test]
fn keywords_end_a_modifier_list() {
    let src = "piece X X { move W forward quiet F up royal capture N moved; hop W max 3, }";
    let err = parse("t", src);
    // `hop` cannot start a part: it needs a mode first.
    assert!(err.is_err());
    let src = "piece X X { move W forward quiet F up royal capture N moved; move hop W max 3, }";
    let file = ok(src);
    let x = pieces(&file)[0];
    assert_eq!(x.body.len(), 5);
    let parts = parts(x);
    assert_eq!(text(src, parts[0].span), "move W forward");
    assert_eq!(text(src, parts[1].span), "quiet F up");
    // `moved` is not the keyword `move`: it is a direction word.
    assert_eq!(
        parts[2].modifiers[0].node,
        Modifier::Direction("moved".into())
    );
    assert_eq!(parts[3].kind.node, PatternKind::Hop);
    assert_eq!(parts[3].modifiers[0].node, Modifier::Max(3));
}

#[test]
fn vectors_and_mirror() {
    let src = read_rules("raumschach.rules");
    let file = ok(&src);
    let pawn = pieces(&file)
        .into_iter()
        .find(|p| p.name.node == "Pawn")
        .expect("Pawn");
    let pawn_parts = parts(pawn);
    assert_eq!(pawn_parts[2].atom.node, Atom::Vector(vec![1, 1, 0]));
    assert_eq!(text(&src, pawn_parts[2].atom.span), "(1,1,0)");
    let Modifier::Mirror(axes) = &pawn_parts[2].modifiers[0].node else {
        panic!()
    };
    assert_eq!(
        axes.iter().map(|a| text(&src, a.span)).collect::<Vec<_>>(),
        ["file"]
    );

    let src = "piece Y Y { move ride ( -1 , +2,0 ) mirror file rank max 2 }";
    let file = ok(src);
    let part = parts(pieces(&file)[0])[0];
    assert_eq!(part.atom.node, Atom::Vector(vec![-1, 2, 0]));
    let Modifier::Mirror(axes) = &part.modifiers[0].node else {
        panic!()
    };
    assert_eq!(
        axes.iter().map(|a| a.node.as_str()).collect::<Vec<_>>(),
        ["file", "rank"]
    );
    assert_eq!(part.modifiers[1].node, Modifier::Max(2));
}

#[test]
fn board_axes_ranges_and_holes() {
    let src =
        "board {\n  files a..h\n  ranks 1..10\n  levels A B C\n  axis time t1 t2\n  holes d4 e5\n}";
    let file = ok(src);
    let Item::Board(board) = &file.items[0] else {
        panic!()
    };
    let names: Vec<&str> = board.axes.iter().map(|a| a.name.node.as_str()).collect();
    assert_eq!(names, ["file", "rank", "level", "time"]);
    assert_eq!(text(src, board.axes[0].name.span), "files");
    assert_eq!(text(src, board.axes[3].name.span), "time");
    assert_eq!(text(src, board.axes[0].span), "files a..h");
    let Label::Range(lo, hi) = &board.axes[1].labels[0] else {
        panic!()
    };
    assert_eq!((lo.node.as_str(), hi.node.as_str()), ("1", "10"));
    assert_eq!(text(src, hi.span), "10");
    let singles: Vec<&str> = board.axes[2]
        .labels
        .iter()
        .map(|l| match l {
            Label::Single(i) => i.node.as_str(),
            Label::Range(..) => "range",
        })
        .collect();
    assert_eq!(singles, ["A", "B", "C"]);
    assert_eq!(
        board
            .holes
            .iter()
            .map(|h| h.node.as_str())
            .collect::<Vec<_>>(),
        ["d4", "e5"]
    );
    assert_eq!(text(src, board.span), src);
}

#[test]
fn players_and_directions() {
    let src = read_rules("raumschach.rules");
    let file = ok(&src);
    let players = file.items.iter().find_map(|i| {
        if let Item::Players(p) = i {
            Some(p)
        } else {
            None
        }
    });
    let players = players.expect("players");
    assert_eq!(players.players.len(), 2);
    let white = &players.players[0];
    assert_eq!(white.name.node, "white");
    assert_eq!(text(&src, white.span), "white: forward +rank, up +level");
    let decls: Vec<(&str, bool, &str)> = white
        .directions
        .iter()
        .map(|d| (d.word.node.as_str(), d.positive, d.axis.node.as_str()))
        .collect();
    assert_eq!(decls, [("forward", true, "rank"), ("up", true, "level")]);
    assert_eq!(text(&src, white.directions[1].span), "up +level");
    let black = &players.players[1];
    assert!(black.directions.iter().all(|d| !d.positive));
}

#[test]
fn promotion_rules_and_zones() {
    let src = "promotion {\n  Pawn on rank 8 to Queen Rook\n  Soldier on rank 5 and level E or square e4 to General\n}";
    let file = ok(src);
    let Item::Promotion(promo) = &file.items[0] else {
        panic!()
    };
    assert_eq!(promo.rules.len(), 2);
    let first = &promo.rules[0];
    assert_eq!(first.piece.node, "Pawn");
    assert_eq!(
        first
            .targets
            .iter()
            .map(|t| t.node.as_str())
            .collect::<Vec<_>>(),
        ["Queen", "Rook"]
    );
    assert_eq!(text(src, first.span), "Pawn on rank 8 to Queen Rook");
    let second = &promo.rules[1];
    assert_eq!(
        zone_words(&second.zone),
        zw(&[&[("rank", "5"), ("level", "E")], &[("square", "e4")]])
    );
    assert_eq!(
        text(src, second.zone.span),
        "rank 5 and level E or square e4"
    );
    assert_eq!(text(src, second.zone.any_of[0].span), "rank 5 and level E");
    assert_eq!(second.targets.len(), 1);
}

#[test]
fn castling_sides_with_and_without_comma() {
    let src = "castling King with Rook {\n  short: king to g1, rook to f1\n  long: king to c1 rook to d1;\n}";
    let file = ok(src);
    let Item::Castling(c) = &file.items[0] else {
        panic!()
    };
    assert_eq!(
        (c.king.node.as_str(), c.rook.node.as_str()),
        ("King", "Rook")
    );
    let sides: Vec<(&str, &str, &str)> = c
        .sides
        .iter()
        .map(|s| {
            (
                s.name.node.as_str(),
                s.king_to.node.as_str(),
                s.rook_to.node.as_str(),
            )
        })
        .collect();
    assert_eq!(sides, [("short", "g1", "f1"), ("long", "c1", "d1")]);
    assert_eq!(text(src, c.sides[0].span), "short: king to g1, rook to f1");
    assert_eq!(text(src, c.sides[1].rook_to.span), "d1");
}

#[test]
fn end_rules() {
    let src = read_rules("chess.rules");
    let file = ok(&src);
    let end = file
        .items
        .iter()
        .find_map(|i| if let Item::End(e) = i { Some(e) } else { None })
        .expect("end");
    let rules: Vec<&EndRule> = end.rules.iter().map(|r| &r.node).collect();
    assert!(
        matches!(rules[0], EndRule::Checkmate(o) if o.node == Outcome::Lose && text(&src, o.span) == "lose")
    );
    assert!(matches!(rules[1], EndRule::Stalemate(o) if o.node == Outcome::Draw));
    let EndRule::FiftyMove { moves, piece, reveal } = rules[2] else {
        panic!()
    };
    assert_eq!((moves.node, piece.node.as_str()), (50, "Pawn"));
    assert_eq!(*reveal, None);
    assert_eq!(text(&src, moves.span), "50");
    assert_eq!(
        text(&src, end.rules[2].span),
        "draw after 50 moves without capture or Pawn move"
    );
    assert!(matches!(rules[3], EndRule::Repetition(n) if n.node == 3));
    assert!(
        matches!(rules[4], EndRule::Priority { higher, lower } if higher.node == EndCondition::Checkmate && lower.len() == 2)
    );
    let win = ok("end { checkmate: win stalemate: lose }");
    let Item::End(e) = &win.items[0] else {
        panic!()
    };
    assert!(matches!(&e.rules[0].node, EndRule::Checkmate(o) if o.node == Outcome::Win));
}

#[test]
fn hand_rules() {
    let src = read_rules("crazyhouse.rules");
    let file = ok(&src);
    let hand = file
        .items
        .iter()
        .find_map(|i| if let Item::Hand(h) = i { Some(h) } else { None })
        .expect("hand");
    assert_eq!(hand.rules[0].node, HandRule::CaptureToHand);
    assert!(matches!(&hand.rules[1].node, HandRule::DemotePromoted(p) if p.node == "Pawn"));
    assert_eq!(
        hand.rules[2].node,
        HandRule::Drop {
            piece: None,
            only: None,
            except: None,
            per_line: None,
            no_mate: None,
            also_promoted: None,
            compulsory: None,
            unlimited: None,
            next_to_own: None,
            enclosing: None,
            first_filling: None,
        }
    );
    assert_eq!(text(&src, hand.rules[2].span), "drop any on empty");
    let HandRule::Drop {
        piece,
        only,
        except,
        ..
    } = &hand.rules[3].node
    else {
        panic!()
    };
    assert_eq!(piece.as_ref().map(|p| p.node.as_str()), Some("Pawn"));
    assert!(only.is_none());
    assert_eq!(
        zone_words(except.as_ref().expect("except")),
        zw(&[&[("rank", "1")], &[("rank", "8")]])
    );

    let src = "hand { drop Pawn on rank 2 and file a }";
    let file = ok(src);
    let Item::Hand(h) = &file.items[0] else {
        panic!()
    };
    let HandRule::Drop { only, except, .. } = &h.rules[0].node else {
        panic!()
    };
    assert_eq!(
        zone_words(only.as_ref().expect("only")),
        zw(&[&[("rank", "2"), ("file", "a")]])
    );
    assert!(except.is_none());

    // Shogi's limits: two pawns on a file, mate by a dropped pawn, the promoted face.
    let src = "hand { drop Pawn not on rank 9, at most 1 per file, no mate  drop any on empty also promoted }";
    let file = ok(src);
    let Item::Hand(h) = &file.items[0] else {
        panic!()
    };
    let HandRule::Drop { per_line, no_mate, also_promoted, .. } = &h.rules[0].node else {
        panic!()
    };
    let (n, axis) = per_line.as_ref().expect("per file");
    assert_eq!((n.node, axis.node.as_str()), (1, "file"));
    assert_eq!(no_mate.map(|s| text(src, s)), Some("no mate"));
    assert!(also_promoted.is_none());
    let HandRule::Drop { piece, per_line, also_promoted, .. } = &h.rules[1].node else {
        panic!()
    };
    assert!(piece.is_none() && per_line.is_none());
    assert_eq!(also_promoted.map(|s| text(src, s)), Some("also promoted"));
}

#[test]
fn promotion_from_the_zone_capturing_and_promoted_letters() {
    let src = "piece Tokin +P { move W }\npromotion {\n  Silver on or from rank 7 or rank 8 to PromotedSilver Silver\n  Pawn capturing on rank 1 to Knight\n}";
    let file = ok(src);
    let Item::Piece(p) = &file.items[0] else {
        panic!()
    };
    assert_eq!(p.letter.node, "+P");
    let Item::Promotion(pr) = &file.items[1] else {
        panic!()
    };
    let names = |r: &PromotionRule| r.targets.iter().map(|t| t.node.clone()).collect::<Vec<_>>();
    assert_eq!(pr.rules.len(), 2);
    assert!(pr.rules[0].from_too && !pr.rules[0].capturing);
    assert_eq!(names(&pr.rules[0]), ["PromotedSilver", "Silver"]);
    assert!(!pr.rules[1].from_too && pr.rules[1].capturing);
    assert_eq!(names(&pr.rules[1]), ["Knight"]);
}

#[test]
fn promotion_moves_in_place_with_their_limits() {
    let src = "promotion {\n  Pawn on rank 8 and file a or rank 7 and file b becomes Fers in place or with a quiet move, if no own Fers, giving no check, attacking no enemy piece\n  Pawn becomes Fers Rook in place\n  Pawn on rank 8 to Queen\n}";
    let file = ok(src);
    let Item::Promotion(pr) = &file.items[0] else {
        panic!()
    };
    assert_eq!((pr.moves.len(), pr.rules.len()), (2, 1));
    let (a, b) = (&pr.moves[0], &pr.moves[1]);
    assert!(a.zone.is_some() && a.quiet_move && a.guard.is_some() && a.no_check && a.no_attack);
    assert_eq!(a.targets.iter().map(|t| t.node.as_str()).collect::<Vec<_>>(), ["Fers"]);
    assert!(b.zone.is_none() && !b.quiet_move && b.guard.is_none() && !b.no_check && !b.no_attack);
    assert_eq!(b.targets.iter().map(|t| t.node.as_str()).collect::<Vec<_>>(), ["Fers", "Rook"]);
    assert_eq!(text(src, b.span), "Pawn becomes Fers Rook in place");
}

#[test]
fn rulings_in_any_order_with_escapes() {
    let src = r#"ruling "r" { reading "a \"b\" \\ c"  quote "q" }"#;
    let file = ok(src);
    let Item::Ruling(r) = &file.items[0] else {
        panic!()
    };
    assert_eq!(r.name.node, "r");
    assert!(r.source.is_none());
    assert_eq!(r.quote.node, "q");
    assert_eq!(r.reading.node, r#"a "b" \ c"#);
    assert_eq!(text(src, r.reading.span), r#""a \"b\" \\ c""#);

    let src = read_rules("chess.rules");
    let file = ok(&src);
    let r = file
        .items
        .iter()
        .find_map(|i| {
            if let Item::Ruling(r) = i {
                Some(r)
            } else {
                None
            }
        })
        .expect("ruling");
    assert_eq!(
        r.source.as_ref().map(|s| s.node.as_str()),
        Some("FIDE Laws of Chess, 9.2 and 9.3")
    );
}

#[test]
fn without_extends_setup() {
    let src = "extends \"chess.rules\"\nwithout piece Bishop\nwithout castling; without promotion, without hand\nsetup \"8/8 w - - 0 1\"";
    let file = ok(src);
    let got: Vec<&Item> = file.items.iter().collect();
    assert!(matches!(got[0], Item::Extends(s) if s.node == "chess.rules"));
    assert!(
        matches!(got[1], Item::Without(w) if matches!(&w.node, Without::Piece(p) if p.node == "Bishop") && text(src, w.span) == "without piece Bishop")
    );
    assert!(matches!(got[2], Item::Without(w) if w.node == Without::Castling));
    assert!(matches!(got[3], Item::Without(w) if w.node == Without::Promotion));
    assert!(matches!(got[4], Item::Without(w) if w.node == Without::Hand));
    assert!(matches!(got[5], Item::Setup(s) if s.node == "8/8 w - - 0 1"));
}

fn claims(file: &File) -> Vec<&Claim> {
    file.items
        .iter()
        .filter_map(|i| if let Item::Claim(c) = i { Some(c) } else { None })
        .collect()
}

#[test]
fn the_four_claim_forms() {
    let src = "claim bishops_keep_colour: Bishop moves keep colour\n\
               claim no_pawn_on_first_rank: no Pawn on rank 1 or rank 8\n\
               claim kings_never_adjacent: no King next to enemy King\n\
               claim one_king_each: at most 1 King";
    let file = ok(src);
    let got = claims(&file);
    assert_eq!(got.len(), 4);
    assert_eq!(got[0].name.node, "bishops_keep_colour");
    assert_eq!(text(src, got[0].span), "claim bishops_keep_colour: Bishop moves keep colour");
    assert_eq!(text(src, got[0].body.span), "Bishop moves keep colour");
    assert!(matches!(&got[0].body.node, ClaimBody::KeepsColour { piece, at_rest: false } if text(src, piece.span) == "Bishop"));
    let ClaimBody::NeverOn { piece, zone } = &got[1].body.node else {
        panic!("{:?}", got[1].body)
    };
    assert_eq!(piece.node, "Pawn");
    assert_eq!(zone_words(zone), zw(&[&[("rank", "1")], &[("rank", "8")]]));
    assert_eq!(text(src, zone.span), "rank 1 or rank 8");
    assert!(matches!(&got[2].body.node, ClaimBody::NeverAdjacent { piece, other }
        if piece.node == "King" && other.node == "King" && other.span.start > piece.span.start));
    let ClaimBody::AtMost { count, piece } = &got[3].body.node else {
        panic!("{:?}", got[3].body)
    };
    assert_eq!((count.node, piece.node.as_str(), text(src, count.span)), (1, "King", "1"));
    assert_eq!(text(src, got[3].span), "claim one_king_each: at most 1 King");
}

#[test]
fn claims_take_every_zone_and_share_a_line() {
    let src = "claim a: no Pawn on file a and rank 1 claim b: no Queen on square e4; without claim a";
    let file = ok(src);
    let got = claims(&file);
    assert_eq!(got.len(), 2);
    let ClaimBody::NeverOn { zone, .. } = &got[0].body.node else { panic!() };
    assert_eq!(zone_words(zone), zw(&[&[("file", "a"), ("rank", "1")]]));
    let ClaimBody::NeverOn { zone, .. } = &got[1].body.node else { panic!() };
    assert_eq!(zone_words(zone), zw(&[&[("square", "e4")]]));
    assert!(matches!(&file.items[2], Item::Without(w)
        if matches!(&w.node, Without::Claim(n) if n.node == "a") && text(src, w.span) == "without claim a"));
}

#[test]
fn claim_errors_say_what_a_claim_is() {
    let d = err("claim x: no King near enemy King");
    assert_eq!(d.code, "E0001");
    assert_eq!(d.message, "unexpected `near` in claim");
    assert!(d.label.contains("`next`") && d.label.contains("`on`"), "{}", d.label);
    let d = err("claim x: Bishop moves keep color");
    assert_eq!(d.label, "expected `colour` after `keep`");
    assert_eq!(d.help.as_deref(), Some("did you mean `colour`?"));
    let d = err("claim x: at most King");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("at most 1 King")), "{:?}", d.help);
    let d = err("claim: at most 1 King");
    assert_eq!(d.label, "expected a name after `claim`");
    let d = err("claim x: all King");
    assert_eq!(d.label, "expected `moves` or `has`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("`no PIECE on ZONE`")), "{:?}", d.help);
    let d = err("claim x: 3 Kings");
    assert!(d.label.starts_with("expected a claim ("), "{}", d.label);
    // Each broken claim line is its own item for error recovery.
    let all = crate::parse_all("bad.rules", "claim a: no King near enemy King\nclaim b: at most King\nclaim c: at most 1 King\n");
    assert_eq!(all.map_err(|d| d.len()), Err(2));
}

#[test]
fn fifty_move_rule_with_reveal() {
    let src = "end { draw after 50 moves without capture or Pawn move or reveal  draw on repetition 3 }";
    let file = ok(src);
    let Item::End(end) = &file.items[0] else { panic!() };
    assert_eq!(end.rules.len(), 2);
    let EndRule::FiftyMove { moves, piece, reveal } = &end.rules[0].node else {
        panic!("{:?}", end.rules[0])
    };
    assert_eq!((moves.node, piece.node.as_str()), (50, "Pawn"));
    assert_eq!(reveal.map(|r| text(src, r)), Some("or reveal"));
    assert_eq!(
        text(src, end.rules[0].span),
        "draw after 50 moves without capture or Pawn move or reveal"
    );
    let d = err("end { draw after 50 moves without capture or Pawn move or capture }");
    assert_eq!(d.label, "expected `reveal` after `or`");
}

#[test]
fn hidden_blocks() {
    let src = "hidden {\n  pieces Queen Rook Bishop Knight Pawn   # face down\n  captured seen by both\n}";
    let file = ok(src);
    let Item::Hidden(h) = &file.items[0] else { panic!("{:?}", file.items[0]) };
    assert_eq!(text(src, h.span), src);
    assert_eq!(h.rules.len(), 2);
    let HiddenRule::Pieces(names) = &h.rules[0].node else { panic!("{:?}", h.rules[0]) };
    let names: Vec<&str> = names.iter().map(|n| n.node.as_str()).collect();
    assert_eq!(names, ["Queen", "Rook", "Bishop", "Knight", "Pawn"]);
    assert_eq!(text(src, h.rules[0].span), "pieces Queen Rook Bishop Knight Pawn");
    let HiddenRule::CapturedSeenBy(who) = &h.rules[1].node else { panic!("{:?}", h.rules[1]) };
    assert_eq!(who.node, SeenBy::Both);
    assert_eq!(text(src, who.span), "both");
    assert_eq!(text(src, h.rules[1].span), "captured seen by both");

    // Commas and separators; the seen-by line may come first; every answer.
    for (word, want) in [("capturer", SeenBy::Capturer), ("both", SeenBy::Both), ("nobody", SeenBy::Nobody)] {
        let src = format!("hidden {{ captured seen by {word}; pieces Queen, Rook Knight, }}");
        let file = ok(&src);
        let Item::Hidden(h) = &file.items[0] else { panic!() };
        assert!(matches!(&h.rules[0].node, HiddenRule::CapturedSeenBy(w) if w.node == want));
        assert!(matches!(&h.rules[1].node, HiddenRule::Pieces(n) if n.len() == 3));
    }
    // An empty block parses (lowering requires the `pieces` line).
    let file = ok("hidden { }");
    assert!(matches!(&file.items[0], Item::Hidden(h) if h.rules.is_empty()));

    let d = err("hidden { pieces }");
    assert_eq!(d.label, "expected a name after `pieces`");
    let d = err("hidden { captured seen by everybody }");
    assert!(d.label.contains("`capturer`") && d.label.contains("`nobody`"), "{}", d.label);
    assert!(d.help.as_deref().is_some_and(|h| h.contains("captured seen by both")), "{:?}", d.help);
    let d = err("hidden { captured by both }");
    assert_eq!(d.label, "expected `seen` after `captured`");
    let d = err("hidden { peices Queen }");
    assert_eq!(d.message, "unexpected `peices` in hidden block");
    assert_eq!(d.help.as_deref(), Some("did you mean `pieces`?"));
    let d = err("hidden { Queen }");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("pieces Queen Rook")), "{:?}", d.help);
    let d = err("hidden { pieces Queen\n");
    assert!(d.message.contains("the hidden block is not closed"), "{}", d.message);
}

#[test]
fn letter_sets() {
    let src = "letters de { King K  Queen D, Rook T; Bishop l Knight S Pawn B }";
    let file = ok(src);
    let Item::Letters(set) = &file.items[0] else { panic!("{:?}", file.items[0]) };
    assert_eq!(set.name.node, "de");
    assert_eq!(text(src, set.name.span), "de");
    assert_eq!(text(src, set.span), src);
    let pairs: Vec<(&str, &str)> = set.letters.iter().map(|p| (p.piece.node.as_str(), p.letter.node.as_str())).collect();
    assert_eq!(pairs, [("King", "K"), ("Queen", "D"), ("Rook", "T"), ("Bishop", "l"), ("Knight", "S"), ("Pawn", "B")]);
    assert_eq!(text(src, set.letters[1].span), "Queen D");
    assert_eq!(text(src, set.letters[3].letter.span), "l");
    assert!(matches!(&ok("letters x { }").items[0], Item::Letters(s) if s.letters.is_empty()));

    let d = err("letters de { Queen Da }");
    assert_eq!(d.message, "unexpected `Da` in letter set");
    assert!(d.label.contains("the piece's letter"), "{}", d.label);
    let d = err("letters { Queen D }");
    assert_eq!(d.label, "expected a name after `letters`");
    let d = err("letters de Queen D");
    assert_eq!(d.message, "unexpected `Queen` in letters header");
    // Keywords cannot name a set.
    assert!(parse("t", "letters no { Queen D }").is_err());
}

#[test]
fn hidden_arrival_claims() {
    let src = "claim pawns_arrive: hidden moves onto rank 3 or rank 4 only by Pawn, Knight\n\
               claim b: hidden moves onto square e4 only by Queen";
    let file = ok(src);
    let got = claims(&file);
    assert_eq!(got.len(), 2);
    let ClaimBody::HiddenArrivals { zone, pieces } = &got[0].body.node else {
        panic!("{:?}", got[0].body)
    };
    assert_eq!(zone_words(zone), zw(&[&[("rank", "3")], &[("rank", "4")]]));
    assert_eq!(text(src, zone.span), "rank 3 or rank 4");
    let names: Vec<&str> = pieces.iter().map(|p| p.node.as_str()).collect();
    assert_eq!(names, ["Pawn", "Knight"]);
    assert_eq!(text(src, got[0].body.span), "hidden moves onto rank 3 or rank 4 only by Pawn, Knight");
    assert!(matches!(&got[1].body.node, ClaimBody::HiddenArrivals { pieces, .. } if pieces.len() == 1));

    let d = err("claim x: hidden moves to rank 4 only by Pawn");
    assert_eq!(d.message, "unexpected `to` in claim");
    assert_eq!(d.label, "expected `onto` after `moves`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("hidden moves onto ZONE only by PIECE")), "{:?}", d.help);
    let d = err("claim x: hidden moves onto rank 4 by Pawn");
    assert!(d.label.contains("`only`"), "{}", d.label);
    let d = err("claim x: hidden moves onto rank 4 only by");
    assert_eq!(d.label, "expected a name after `by`");
    // A claim about hidden pieces followed by a hidden block: two items.
    let file = ok("claim x: hidden moves onto rank 4 only by Pawn\nhidden { pieces Pawn }");
    assert!(matches!(&file.items[1], Item::Hidden(_)));
    // An error in the claim after `hidden` is still reported as in the claim.
    let d = err("claim x: hidden moves onto rank 4 only Pawn");
    assert_eq!(d.message, "unexpected `Pawn` in claim");
}

#[test]
fn without_hidden() {
    let src = "without hidden; without piece Queen";
    let file = ok(src);
    assert!(matches!(&file.items[0], Item::Without(w) if w.node == Without::Hidden && text(src, w.span) == "without hidden"));
    let d = err("without hiden");
    assert_eq!(d.help.as_deref(), Some("did you mean `hidden`?"));
}

#[test]
fn new_keywords_are_reserved() {
    for kw in ["hidden", "pieces", "captured", "seen", "by", "capturer", "both", "nobody", "letters", "reveal", "only", "onto"] {
        assert!(parse("t", &format!("piece {kw} K {{ move W }}")).is_err(), "{kw} accepted as a piece name");
        assert!(parse("t", &format!("piece {kw}x K {{ move W }}")).is_ok(), "{kw}x rejected");
    }
    // Longer words are not cut at a keyword prefix.
    assert!(parse("t", "piece Queen Q { move W } claim c: at most 1 Queen").is_ok());
}

#[test]
fn recovery_restarts_at_hidden_and_letters() {
    let src = "piece King K { royal jump }\nhidden { pieces Queen }\nletters de { Queen }\nletters fr { Queen D }\n";
    let all = crate::parse_all("bad.rules", src).expect_err("two errors");
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[1].message, "unexpected `}` in letter set");
}

#[test]
fn priority_lines() {
    let src = "end {\n  priority checkmate over move-limit, repetition\n  checkmate: lose\n  priority stalemate over repetition stalemate: draw\n}";
    let file = ok(src);
    let Item::End(end) = &file.items[0] else { panic!() };
    assert_eq!(end.rules.len(), 4);
    let EndRule::Priority { higher, lower } = &end.rules[0].node else {
        panic!("{:?}", end.rules[0])
    };
    assert_eq!(higher.node, EndCondition::Checkmate);
    let lower: Vec<EndCondition> = lower.iter().map(|c| c.node).collect();
    assert_eq!(lower, [EndCondition::MoveLimit, EndCondition::Repetition]);
    assert_eq!(text(src, end.rules[0].span), "priority checkmate over move-limit, repetition");
    assert!(matches!(&end.rules[1].node, EndRule::Checkmate(_)));
    // A condition followed by `:` starts the next rule.
    assert!(matches!(&end.rules[2].node, EndRule::Priority { lower, .. } if lower.len() == 1));
    assert!(matches!(&end.rules[3].node, EndRule::Stalemate(_)));
    let d = err("end { priority checkmate over }");
    assert!(d.label.contains("end condition"), "{}", d.label);
    let d = err("end { priority checkmate move-limit }");
    assert_eq!(d.label, "expected `over` after `checkmate`");
    let d = err("end { priority checkmate over fifty }");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("move-limit")), "{:?}", d.help);
}

#[test]
fn empty_and_comment_only_files() {
    assert!(ok("").items.is_empty());
    assert!(ok("# nothing\n\n  # at all").items.is_empty());
    assert!(ok("\u{FEFF}variant \"x\"").items.len() == 1);
}

// ---------------------------------------------------------------- errors

fn err(src: &str) -> crate::Diagnostic {
    match parse("bad.rules", src) {
        Ok(f) => panic!("parsed: {f:?}"),
        Err(d) => d,
    }
}

#[test]
fn syntax_error_points_at_the_token() {
    let src = "piece King K {\n  royal\n  jump W\n}";
    let d = err(src);
    assert_eq!(d.code, "E0001");
    assert_eq!(text(src, d.span), "jump");
    assert_eq!(d.message, "unexpected `jump` in piece body");
    assert!(
        d.label
            .contains("a movement part (`move`, `quiet`, `capture`)"),
        "{}",
        d.label
    );
    assert!(d.label.contains("`royal`"), "{}", d.label);
    assert!(
        d.help.as_deref().unwrap_or("").contains("move ride W"),
        "{:?}",
        d.help
    );
}

#[test]
fn byte_offsets_after_non_ascii_text() {
    let src = "# Läufer, Türme und Königinnen\nvariant \"Schach für Anfänger\" foo";
    let d = err(src);
    assert_eq!(text(src, d.span), "foo");
    let rendered = render(&d, src, false);
    assert!(rendered.contains(":2:31"), "{rendered}"); // columns count characters
}

#[test]
fn numbers_that_do_not_fit() {
    let src = "piece P P { quiet ride W max 4294967296 }";
    let d = err(src);
    assert_eq!(d.code, "E0003");
    assert_eq!(text(src, d.span), "4294967296");
    assert!(parse("t", "piece P P { quiet ride W max 4294967295 }").is_ok());
    let src = "piece P P { move (1,-2147483649) }";
    let d = err(src);
    assert_eq!(d.code, "E0003");
    assert_eq!(text(src, d.span), "-2147483649");
    assert!(parse("t", "piece P P { move (1,-2147483648) }").is_ok());
    let src = "end { draw on repetition 99999999999999999999999 }";
    assert_eq!(err(src).code, "E0003");
}

#[test]
fn string_errors() {
    let src = "variant \"Chess\nsetup \"x\"";
    let d = err(src);
    assert_eq!(d.code, "E0002");
    assert_eq!(text(src, d.span), "\"Chess");
    let src = "variant \"a\\nb\"";
    let d = err(src);
    assert_eq!(d.code, "E0002");
    assert_eq!(text(src, d.span), "\\n");
    let src = "variant \"Chess";
    assert_eq!(err(src).code, "E0002");
}

#[test]
fn ruling_settles_names_items() {
    let src = r#"ruling "r" { quote "q" reading "a" settles rule "group", slide; settles piece Pawn, phase opening }"#;
    let file = ok(src);
    let Item::Ruling(r) = &file.items[0] else {
        panic!()
    };
    let got: Vec<&Settled> = r.settles.iter().map(|s| &s.node).collect();
    assert_eq!(
        got,
        [
            &Settled::Rule("group".into()),
            &Settled::Item("slide".into()),
            &Settled::Piece("Pawn".into()),
            &Settled::Phase("opening".into()),
        ]
    );
    assert_eq!(text(src, r.settles[0].span), r#"rule "group""#);
    // `settles` wants a target; `settles` is reserved.
    let d = err(r#"ruling "r" { quote "q" reading "a" settles }"#);
    assert_eq!(d.code, "E0001");
    let d = err("piece settles S { move W }");
    assert!(d.message.contains("expected"), "{}", d.message);
}

#[test]
fn ruling_fields_missing_or_twice() {
    let src = "ruling \"r\" { quote \"q\" }";
    let d = err(src);
    assert_eq!(d.code, "E0004");
    assert!(d.message.contains("`reading`"), "{}", d.message);
    assert_eq!(text(src, d.span), "\"r\"");
    let src = "ruling \"r\" { quote \"q\" reading \"a\" quote \"again\" }";
    let d = err(src);
    assert_eq!(d.code, "E0004");
    assert_eq!(text(src, d.span), "quote");
    assert_eq!(d.span.start, src.rfind("quote").unwrap_or(0));
    assert_eq!(text(src, d.notes[0].span), "quote");
}

#[test]
fn unclosed_block_points_at_its_brace() {
    let src = "piece King K {\n  royal\npiece Queen Q { move ride W }";
    let d = err(src);
    assert!(d.message.contains("not closed"), "{}", d.message);
    assert_eq!(text(src, d.span), "piece");
    assert_eq!(d.span.start, src.rfind("piece").unwrap_or(0));
    assert_eq!(text(src, d.notes[0].span), "{");
    assert_eq!(d.notes[0].span.start, 13);
}

#[test]
fn near_miss_keywords_are_suggested() {
    let d = err("variant \"x\"\npeice King K { royal }");
    assert_eq!(d.help.as_deref(), Some("did you mean `piece`?"));
    let d = err("piece King K { royal cpature F }");
    assert_eq!(d.help.as_deref(), Some("did you mean `capture`?"));
}

/// Every prefix of chess.rules, and four shipped files with one word removed,
/// parses or gives a diagnostic whose spans lie inside the text; rendering it
/// does not panic either.
#[test]
fn never_panics_on_broken_input() {
    let mut inputs = Vec::new();
    for name in ["chess.rules", "raumschach.rules", "crazyhouse.rules", "niels-chess.rules"] {
        let mut src = read_rules(name);
        // Niel's Chess: its blocks and claims (the rulings after them are only strings).
        if let Some(rulings) = src.find("\nruling ").filter(|_| name == "niels-chess.rules") {
            src.truncate(rulings);
        }
        if name == "chess.rules" {
            for (i, _) in src.char_indices() {
                inputs.push(src[..i].to_string());
            }
        }
        let words: Vec<(usize, usize)> = src
            .split_whitespace()
            .map(|w| {
                let start = w.as_ptr() as usize - src.as_ptr() as usize;
                (start, start + w.len())
            })
            .collect();
        for (s, e) in words {
            inputs.push(format!("{}{}", &src[..s], &src[e..]));
        }
    }
    inputs.push("piece ü { }".into());
    inputs.push("\"\\".into());
    inputs.push("{{{{}}}}".into());
    inputs.push("}".into());
    inputs.push("piece K K { move (".into());
    for (i, src) in inputs.iter().enumerate() {
        if let Err(d) = parse("fuzz.rules", src) {
            if i % 8 == 0 {
                let _ = render(&d, src, false);
            }
            assert!(
                d.span.start <= d.span.end && d.span.end <= src.len(),
                "{d:?} for {src:?}"
            );
            assert!(src.is_char_boundary(d.span.start) && src.is_char_boundary(d.span.end));
            assert_ne!(d.code, "E0000", "internal error for {src:?}: {d:?}");
        }
    }
}

// ---------------------------------------------------------------- dice, spread, entangle, tunnel

/// The faces of a roll side as (low, high) pairs (a single face is (n, n)).
fn face_pairs(faces: &[Faces]) -> Vec<(u32, u32)> {
    faces
        .iter()
        .map(|f| match f {
            Faces::One(n) => (n.node, n.node),
            Faces::Range(a, b) => (a.node, b.node),
        })
        .collect()
}

const NIELS: &str = r#"die d6 1..6

spread {
  squares at most 2
  weight equal   roll d6 { red 2 4 6  blue 1 3 5 }
  weight unequal roll d6 { red 1..4   blue 5 6 }
  red forward Pawn
  castling splits
}

entangle {
  groups "/" "\\"
}

tunnel {
  roll d6 { through 6  bounce 1..5 }
}

claim no_piece_on_three_squares: spread pieces on at most 2 squares
claim at_most_two_groups: entangled groups at most 2
"#;

#[test]
fn dice_spread_entangle_and_tunnel_as_in_the_spec() {
    let src = NIELS;
    let file = ok(src);
    assert_eq!(file.items.len(), 6);

    let Item::Die(die) = &file.items[0] else { panic!("{:?}", file.items[0]) };
    assert_eq!(die.name.node, "d6");
    assert_eq!((die.low.node, die.high.node), (1, 6));
    assert_eq!(text(src, die.span), "die d6 1..6");
    assert_eq!(text(src, die.high.span), "6");

    let Item::Spread(spread) = &file.items[1] else { panic!("{:?}", file.items[1]) };
    assert!(text(src, spread.span).starts_with("spread {") && text(src, spread.span).ends_with('}'));
    assert_eq!(spread.rules.len(), 5);
    assert!(matches!(&spread.rules[0].node, SpreadRule::SquaresAtMost(n) if n.node == 2));
    assert_eq!(text(src, spread.rules[0].span), "squares at most 2");
    let SpreadRule::Weight(equal) = &spread.rules[1].node else { panic!("{:?}", spread.rules[1]) };
    assert_eq!(equal.name.node, "equal");
    assert_eq!(equal.roll.die.node, "d6");
    assert_eq!(text(src, equal.roll.span), "roll d6 { red 2 4 6  blue 1 3 5 }");
    assert_eq!(text(src, spread.rules[1].span), "weight equal   roll d6 { red 2 4 6  blue 1 3 5 }");
    let sides: Vec<(RollOutcome, Vec<(u32, u32)>)> =
        equal.roll.sides.iter().map(|s| (s.outcome.node, face_pairs(&s.faces))).collect();
    assert_eq!(sides, [(RollOutcome::Red, vec![(2, 2), (4, 4), (6, 6)]), (RollOutcome::Blue, vec![(1, 1), (3, 3), (5, 5)])]);
    assert_eq!(text(src, equal.roll.sides[0].span), "red 2 4 6");
    assert_eq!(text(src, equal.roll.sides[1].outcome.span), "blue");
    let SpreadRule::Weight(unequal) = &spread.rules[2].node else { panic!("{:?}", spread.rules[2]) };
    assert_eq!(unequal.name.node, "unequal");
    assert_eq!(face_pairs(&unequal.roll.sides[0].faces), [(1, 4)]);
    assert_eq!(text(src, unequal.roll.sides[0].faces[0].span()), "1..4");
    assert_eq!(face_pairs(&unequal.roll.sides[1].faces), [(5, 5), (6, 6)]);
    let SpreadRule::RedForward { forward, kinds } = &spread.rules[3].node else { panic!("{:?}", spread.rules[3]) };
    assert_eq!(kinds.iter().map(|k| k.node.as_str()).collect::<Vec<_>>(), ["Pawn"]);
    assert_eq!(text(src, *forward), "forward");
    assert_eq!(text(src, spread.rules[3].span), "red forward Pawn");
    assert!(matches!(spread.rules[4].node, SpreadRule::CastlingSplits));
    assert_eq!(text(src, spread.rules[4].span), "castling splits");

    let Item::Entangle(entangle) = &file.items[2] else { panic!("{:?}", file.items[2]) };
    let EntangleRule::Groups(labels) = &entangle.rules[0].node;
    assert_eq!(labels.iter().map(|l| l.node.as_str()).collect::<Vec<_>>(), ["/", "\\"]);
    assert_eq!(text(src, labels[1].span), "\"\\\\\"");
    assert_eq!(text(src, entangle.rules[0].span), "groups \"/\" \"\\\\\"");

    let Item::Tunnel(tunnel) = &file.items[3] else { panic!("{:?}", file.items[3]) };
    let TunnelRule::Roll(roll) = &tunnel.rules[0].node;
    assert_eq!(roll.die.node, "d6");
    let sides: Vec<(RollOutcome, Vec<(u32, u32)>)> = roll.sides.iter().map(|s| (s.outcome.node, face_pairs(&s.faces))).collect();
    assert_eq!(sides, [(RollOutcome::Through, vec![(6, 6)]), (RollOutcome::Bounce, vec![(1, 5)])]);

    let got = claims(&file);
    assert!(matches!(&got[0].body.node, ClaimBody::SpreadAtMost { squares } if squares.node == 2));
    assert_eq!(text(src, got[0].body.span), "spread pieces on at most 2 squares");
    assert!(matches!(&got[1].body.node, ClaimBody::GroupsAtMost { groups } if groups.node == 2));
    assert_eq!(text(src, got[1].body.span), "entangled groups at most 2");
}

#[test]
fn spread_statements_take_separators_and_any_order() {
    let src = "spread { castling splits; red forward Pawn, Knight Bishop; weight w roll d4 { blue 3..4, red 1, 2 }, squares at most 2 }\n\
               tunnel { roll d4 { bounce 1..3; through 4 } }\nentangle { groups \"a\", \"b\" \"c\" }";
    let file = ok(src);
    let Item::Spread(spread) = &file.items[0] else { panic!() };
    assert!(matches!(spread.rules[0].node, SpreadRule::CastlingSplits));
    assert!(matches!(&spread.rules[1].node, SpreadRule::RedForward { kinds, .. } if kinds.len() == 3));
    let SpreadRule::Weight(w) = &spread.rules[2].node else { panic!() };
    assert_eq!(w.roll.sides[0].outcome.node, RollOutcome::Blue);
    assert_eq!(face_pairs(&w.roll.sides[1].faces), [(1, 1), (2, 2)]);
    assert!(matches!(&spread.rules[3].node, SpreadRule::SquaresAtMost(n) if n.node == 2));
    let Item::Entangle(e) = &file.items[2] else { panic!() };
    assert!(matches!(&e.rules[0].node, EntangleRule::Groups(l) if l.len() == 3));
    // Empty blocks parse (lowering says what they lack).
    for src in ["spread { }", "entangle { }", "tunnel { }", "spread { weight w roll d6 { } }"] {
        ok(src);
    }
    // `forward` stays a direction word everywhere else.
    ok("players { white: forward +rank  black: forward -rank }\npiece P P { quiet W forward }\nspread { red forward P }");
}

#[test]
fn without_spread_entangle_and_tunnel() {
    let src = "without spread\nwithout entangle; without tunnel";
    let file = ok(src);
    let got: Vec<Without> = file
        .items
        .iter()
        .filter_map(|i| if let Item::Without(w) = i { Some(w.node.clone()) } else { None })
        .collect();
    assert_eq!(got, [Without::Spread, Without::Entangle, Without::Tunnel]);
    let d = err("without sprad");
    assert_eq!(d.help.as_deref(), Some("did you mean `spread`?"));
}

#[test]
fn spread_syntax_errors() {
    let d = err("die d6 1 6");
    assert_eq!(d.message, "unexpected `6` in die declaration");
    assert_eq!(d.label, "expected `..`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("die d6 1..6")), "{:?}", d.help);
    let d = err("die 1..6");
    assert_eq!(d.label, "expected a name after `die`");

    let d = err("spread { squares at most two }");
    assert_eq!(d.message, "unexpected `two` in spread block");
    assert_eq!(d.label, "expected a whole number after `most`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("squares at most 2")), "{:?}", d.help);
    let d = err("spread { squares 2 }");
    assert_eq!(d.label, "expected `at` after `squares`");
    let d = err("spread { wieght equal roll d6 { red 2 4 6 blue 1 3 5 } }");
    assert_eq!(d.help.as_deref(), Some("did you mean `weight`?"));
    let d = err("spread { weight equal d6 { red 2 4 6 blue 1 3 5 } }");
    assert_eq!(d.message, "unexpected `d6` in spread block");
    assert_eq!(d.label, "expected `roll`");
    let d = err("spread { weight equal roll d6 { red 2 4 6 green 1 3 5 } }");
    assert_eq!(d.message, "unexpected `green` in roll block");
    assert_eq!(d.label, "expected a face (a number such as `6`, or a range such as `1..4`), `red`, `blue` or `}`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("red 2 4 6  blue 1 3 5")), "{:?}", d.help);
    let d = err("spread { weight equal roll d6 { red even blue odd } }");
    assert_eq!(d.label, "expected a face (a number such as `6`, or a range such as `1..4`) after `red`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("faces are numbers or ranges")), "{:?}", d.help);
    let d = err("spread { red Pawn }");
    assert_eq!(d.label, "expected `forward` after `red`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("red forward Pawn")), "{:?}", d.help);
    let d = err("spread { castling split }");
    assert_eq!(d.label, "expected `splits` after `castling`");
    assert_eq!(d.help.as_deref(), Some("did you mean `splits`?"));
    let d = err("spread { squares at most 2\n");
    assert!(d.message.contains("the spread block is not closed"), "{}", d.message);
    // An unclosed roll: the note points at the roll's brace, not the block's.
    let src = "spread { weight equal roll d6 { red 2 4 6 blue 1 3 5\n";
    let d = err(src);
    assert_eq!(d.message, "missing `}`: the roll block is not closed");
    assert_eq!(d.notes[0].span.start, src.rfind('{').unwrap_or(0));
    // After a closed roll, the block's `{` is the open one again.
    let src = "spread { weight equal roll d6 { red 2 blue 1 }\n";
    let d = err(src);
    assert_eq!(d.message, "missing `}`: the spread block is not closed");
    assert_eq!(d.notes[0].span.start, src.find('{').unwrap_or(0));

    let d = err("tunnel { roll d6 { pass 6 bounce 1..5 } }");
    assert_eq!(d.message, "unexpected `pass` in roll block");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("through 6  bounce 1..5")), "{:?}", d.help);
    let d = err("tunnel { roll d6 { red 6 blue 1..5 } }");
    assert!(d.label.contains("`through`"), "{}", d.label);
    let d = err("tunnel { through 6 }");
    assert_eq!(d.message, "unexpected `through` in tunnel block");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("tunnel { roll d6")), "{:?}", d.help);

    let d = err("entangle { groups / }");
    assert_eq!(d.label, "expected a string in double quotes after `groups`");
    let d = err("entangle { groups \"/\" \"\\\" }");
    assert_eq!(d.code, "E0002");
    let d = err("entangle { labels \"/\" }");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("groups \"/\"")), "{:?}", d.help);
}

#[test]
fn spread_claims_and_their_errors() {
    let d = err("claim x: spread pieces at most 2 squares");
    assert_eq!(d.message, "unexpected `at` in claim");
    assert_eq!(d.label, "expected `on` after `pieces`");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("`spread pieces on at most N squares`")), "{:?}", d.help);
    let d = err("claim x: spread pieces on at most two squares");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("spread pieces on at most 2 squares")), "{:?}", d.help);
    let d = err("claim x: spread pieces on at most 2");
    assert_eq!(d.label, "expected `squares`");
    let d = err("claim x: entangled groups at most many");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("entangled groups at most 2")), "{:?}", d.help);
    let d = err("claim x: entangled pairs at most 2");
    assert_eq!(d.label, "expected `groups` after `entangled`");
    // A spread claim followed by a spread block: two items; an error after
    // `spread` in a claim is still reported as in the claim.
    let file = ok("claim x: spread pieces on at most 2 squares\nspread { squares at most 2 }");
    assert!(matches!(&file.items[1], Item::Spread(_)));
    let d = err("claim x: spread pieces on most 2 squares");
    assert_eq!(d.message, "unexpected `most` in claim");
}

#[test]
fn spread_keywords_are_reserved() {
    for kw in ["die", "spread", "squares", "weight", "roll", "red", "blue", "splits", "entangle", "entangled", "groups", "tunnel", "through", "bounce"] {
        assert!(parse("t", &format!("players {{ white: {kw} +rank }}")).is_err(), "{kw} accepted as a direction word");
        assert!(parse("t", &format!("players {{ white: {kw}x +rank }}")).is_ok(), "{kw}x rejected");
    }
    // `forward` is not reserved, and words that start with a keyword are names.
    assert!(parse("t", "piece forward F { move W } piece squaresX S { move W } piece rolls R { move W }").is_ok());
}

#[test]
fn recovery_restarts_at_spread_items() {
    let src = "die d6 1 6\nspread { squares at most two }\nentangle { groups \"/\" }\ntunnel { roll d6 { thru 6 } }\ndie d4 1..4\n";
    let all = crate::parse_all("bad.rules", src).expect_err("three errors");
    let messages: Vec<&str> = all.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["unexpected `6` in die declaration", "unexpected `two` in spread block", "unexpected `thru` in roll block"]);
}
