//! Claims, `priority` lines and castling sides written twice: what lowering
//! makes of them, the errors it reports, and how `status_in_game` decides
//! when several end conditions hold at once.

use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::{EndCondition, Game, Outcome, Property};
use rulebook_interpreter::text::notation::{coordinate, parse_move};
use rulebook_interpreter::engine::position::MoveKind;
use rulebook_interpreter::{Status, Variant};
use std::sync::Arc;

mod support;

/// Writes `text` (with `CHESS` standing for the shipped chess rules) to a
/// temporary file and loads it.
fn load_text(name: &str, text: &str) -> Result<Game, Vec<Diagnostic>> {
    let dir = std::env::temp_dir().join(format!("rulebook-claims-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let chess = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules").replace('\\', "/");
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text.replace("CHESS", &chess)).expect("temp file");
    load(&path).map(|(game, _)| game).map_err(|(diags, _)| diags)
}

fn variant(name: &str, text: &str) -> Variant {
    match load_text(name, text) {
        Ok(game) => Variant::new(Arc::new(game)),
        Err(d) => panic!("{name}: {d:?}"),
    }
}

/// The codes of the errors `text` gives, with the text each points at.
fn errors(name: &str, text: &str) -> Vec<Diagnostic> {
    match load_text(name, text) {
        Ok(_) => panic!("{name} loaded"),
        Err(d) => d,
    }
}

fn cell_names(game: &Game, cells: &[rulebook_interpreter::model::geometry::Cell]) -> Vec<String> {
    cells.iter().map(|&c| game.geometry.name(c)).collect()
}

// ------------------------------------------------------------------ claims

/// `at rest` and `has N directions` (issue 14): the claims' own forms.
#[test]
fn colour_at_rest_and_directions_claims_are_lowered() {
    let v = variant(
        "at-rest",
        "variant \"At rest\"\nextends \"CHESS\"\nclaim a: Bishop moves keep colour at rest\nclaim b: King has 8 directions\n",
    );
    let game = &v.game;
    let kind = |n: &str| game.kind_by_name(n).expect("kind");
    let at = |name: &str| game.claims.iter().find(|c| c.name == name).map(|c| c.property.clone());
    assert_eq!(at("a"), Some(Property::KeepsColourAtRest { kind: kind("Bishop") }));
    assert_eq!(at("b"), Some(Property::Directions { kind: kind("King"), count: 8 }));
    assert!(at("a").is_some_and(|p| p.is_move_property()));
    assert!(at("b").is_some_and(|p| p.is_model_property() && !p.is_move_property()));
}

#[test]
fn chess_claims_are_lowered_with_relative_zones() {
    let v = support::variant("chess");
    let game = &v.game;
    let names: Vec<&str> = game.claims.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["bishops_keep_colour", "no_pawn_on_first_rank", "kings_never_adjacent", "one_king_each"]);
    let kind = |n: &str| game.kind_by_name(n).expect("kind");
    assert_eq!(game.claims[0].property, Property::KeepsColour { kind: kind("Bishop") });
    let Property::NeverOn { kind: k, zone } = &game.claims[1].property else {
        panic!("{:?}", game.claims[1])
    };
    assert_eq!(*k, kind("Pawn"));
    assert_eq!(cell_names(game, &zone[0]), ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]);
    assert_eq!(cell_names(game, &zone[1]), ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"]);
    assert_eq!(game.claims[2].property, Property::NeverAdjacent { kind: kind("King"), other: kind("King") });
    assert_eq!(game.claims[3].property, Property::AtMost { kind: kind("King"), count: 1 });
    let claim = &game.claims[3];
    assert!(claim.file.ends_with("chess.rules"));
    let text = std::fs::read_to_string(&claim.file).expect("chess.rules");
    assert_eq!(&text[claim.span.start..claim.span.end], "claim one_king_each: at most 1 King");
}

#[test]
fn claims_accumulate_along_the_chain_and_can_be_removed() {
    let v = variant(
        "chain",
        "extends \"CHESS\"\nwithout claim one_king_each\nclaim two_queens: at most 2 Queen\nclaim one_king_each: at most 1 King\n",
    );
    let names: Vec<&str> = v.game.claims.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["bishops_keep_colour", "no_pawn_on_first_rank", "kings_never_adjacent", "two_queens", "one_king_each"]);
    assert!(v.game.claims[0].file.ends_with("chess.rules"));
    assert!(v.game.claims[3].file.ends_with("chain.rules"));
}

#[test]
fn los_alamos_drops_the_bishop_claim() {
    let v = support::variant("losalamos");
    let names: Vec<&str> = v.game.claims.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["no_pawn_on_first_rank", "kings_never_adjacent", "one_king_each"]);
}

#[test]
fn claims_do_not_change_play() {
    let with = support::variant("chess");
    let without = variant(
        "no-claims",
        "extends \"CHESS\"\nwithout claim bishops_keep_colour\nwithout claim no_pawn_on_first_rank\n\
         without claim kings_never_adjacent\nwithout claim one_king_each\n",
    );
    assert!(without.game.claims.is_empty());
    let (a, b) = (with.start().expect("setup"), without.start().expect("setup"));
    assert_eq!(rulebook_interpreter::engine::perft::perft(&with, &a, 3), rulebook_interpreter::engine::perft::perft(&without, &b, 3));
}

#[test]
fn claim_errors() {
    let d = errors("unknown", "extends \"CHESS\"\nclaim x: no Elephant on rank 1\n");
    assert_eq!((d.len(), d[0].code), (1, "E0105"));
    assert_eq!(d[0].message, "unknown piece `Elephant`");

    // The promotion target and the claim both name the removed Bishop.
    let d = errors("removed", "extends \"CHESS\"\nwithout piece Bishop\n");
    let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0105", "E0105"]);
    assert!(d[1].file.ends_with("chess.rules"), "{}", d[1].file);
    assert_eq!(d[1].message, "claim `bishops_keep_colour` is about `Bishop`, which is removed");
    assert!(d[1].help.as_deref().is_some_and(|h| h.contains("without claim bishops_keep_colour")));

    let d = errors("twice", "extends \"CHESS\"\nclaim one_king_each: at most 2 King\n");
    assert_eq!((d.len(), d[0].code), (1, "E0125"));
    assert!(d[0].label.starts_with("already claimed in"), "{}", d[0].label);
    let d = errors("twice-here", "extends \"CHESS\"\nclaim a: at most 2 King\nclaim a: at most 3 King\n");
    assert_eq!((d.len(), d[0].code, d[0].notes.len()), (1, "E0125", 1));

    let d = errors("no-such-claim", "extends \"CHESS\"\nwithout claim one_kings_each\n");
    assert_eq!((d.len(), d[0].code), (1, "E0128"));

    let d = errors("bad-zone", "extends \"CHESS\"\nclaim x: no Pawn on rank 9 or start\n");
    let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0104", "E0124"]);
}

// ------------------------------------------------------------------ priority

/// An end block like chess's, with `extra` added.
fn end_block(extra: &str) -> String {
    format!(
        "extends \"CHESS\"\nend {{\n  checkmate: lose\n  stalemate: draw\n  \
         draw after 50 moves without capture or Pawn move\n  draw on repetition 3\n  {extra}\n}}\n"
    )
}

#[test]
fn priority_pairs_and_spans() {
    let v = support::variant("chess");
    let end = &v.game.end;
    assert_eq!(
        end.priority,
        [(EndCondition::Checkmate, EndCondition::MoveLimit), (EndCondition::Checkmate, EndCondition::Repetition)]
    );
    let text = std::fs::read_to_string(&end.file).expect("chess.rules");
    let spans: Vec<(EndCondition, &str)> = end.spans.iter().map(|&(c, s)| (c, &text[s.start..s.end])).collect();
    assert_eq!(
        spans,
        [
            (EndCondition::Checkmate, "checkmate: lose"),
            (EndCondition::Stalemate, "stalemate: draw"),
            (EndCondition::MoveLimit, "draw after 50 moves without capture or Pawn move"),
            (EndCondition::Repetition, "draw on repetition 3"),
            (EndCondition::Checkmate, "priority checkmate over move-limit, repetition"),
        ]
    );
    let v = variant("chain-priority", &end_block("priority repetition over move-limit priority move-limit over stalemate"));
    assert!(v.game.end.outranks(EndCondition::Repetition, EndCondition::Stalemate));
    assert!(!v.game.end.outranks(EndCondition::Stalemate, EndCondition::Repetition));
}

#[test]
fn priority_errors() {
    let d = errors("itself", &end_block("priority checkmate over checkmate"));
    assert_eq!((d.len(), d[0].code), (1, "E0126"));
    let d = errors("cycle", &end_block("priority checkmate over repetition\n  priority repetition over checkmate"));
    assert_eq!((d.len(), d[0].code), (1, "E0126"), "{d:?}");
    assert_eq!(d[0].message, "priority goes round in a circle: `repetition` over `checkmate` over `repetition`");
    assert_eq!(d[0].notes.len(), 1);
    let d = errors(
        "long-cycle",
        &end_block("priority move-limit over repetition\n  priority repetition over stalemate\n  priority stalemate over move-limit"),
    );
    assert_eq!((d.len(), d[0].code, d[0].notes.len()), (1, "E0126", 2), "{d:?}");
    let d = errors("undefined", "extends \"CHESS\"\nend { checkmate: lose priority checkmate over repetition, move-limit }\n");
    let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0127", "E0127"]);
    // Checkmate and stalemate end the game even when the block leaves out their lines.
    let v = variant("defaults", "extends \"CHESS\"\nend { draw on repetition 3 priority repetition over stalemate }\n");
    assert_eq!(v.game.end.priority, [(EndCondition::Repetition, EndCondition::Stalemate)]);
}

/// White mates with Ra8# on the hundredth half-move without capture or pawn move:
/// both the mate and the move limit hold.
fn mate_at_the_move_limit(v: &Variant) -> Status {
    let pos = v.parse_fen("6k1/8/6K1/8/8/8/8/R7 w - - 99 80", "<test>").expect("FEN");
    let m = parse_move(v, &pos, "Ra8#", "<test>", 0).expect("legal");
    let after = v.play(&pos, &m);
    assert_eq!(after.halfmove, 100, "{}", coordinate(v, &m));
    v.status_in_game(&after, &[])
}

#[test]
fn mate_on_the_move_limit_follows_priority() {
    let mate = Status::Checkmate(Outcome::Lose);
    assert_eq!(mate_at_the_move_limit(&support::variant("chess")), mate);
    // Without a priority line: mate first, as before.
    assert_eq!(mate_at_the_move_limit(&variant("default-order", &end_block(""))), mate);
    let v = variant("limit-first", &end_block("priority move-limit over checkmate"));
    assert_eq!(mate_at_the_move_limit(&v), Status::FiftyMoves);
    // Repetition over mate does not matter when the position has not repeated.
    let v = variant("repetition-first", &end_block("priority repetition over checkmate"));
    assert_eq!(mate_at_the_move_limit(&v), mate);
}

#[test]
fn repetition_over_move_limit() {
    // Knights out and back twice; the clock is near its limit from the FEN.
    let line = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    let play = |v: &Variant| {
        let mut pos = v.parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 92 1", "<test>").expect("FEN");
        let mut earlier = Vec::new();
        for mv in line {
            let m = parse_move(v, &pos, mv, "<test>", 0).expect("legal");
            earlier.push(pos.clone());
            pos = v.play(&pos, &m);
        }
        assert_eq!(pos.halfmove, 100);
        v.status_in_game(&pos, &earlier)
    };
    assert_eq!(play(&support::variant("chess")), Status::FiftyMoves);
    assert_eq!(play(&variant("rep-first", &end_block("priority repetition over move-limit"))), Status::Repetition);
}

// ------------------------------------------------------------------ castling

#[test]
fn a_castling_side_written_twice_shares_its_right() {
    let v = variant(
        "short-twice",
        "extends \"CHESS\"\ncastling King with Rook {\n  short: king to g1, rook to f1\n  short: king to f1, rook to e1\n  \
         long: king to c1, rook to d1\n}\n",
    );
    let rule = v.game.castling.as_ref().expect("castling");
    let slots: Vec<usize> = rule.sides.iter().map(|s| s.slot()).collect();
    assert_eq!(slots, [0, 0, 1]);
    // Both short sides castle with the h1 rook's right; the long side is index 2.
    let pos = v.parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "<test>").expect("FEN");
    let mut castles: Vec<(u8, String)> = v
        .legal_moves(&pos)
        .into_iter()
        .filter(|m| m.kind == MoveKind::Castle)
        .map(|m| (m.side, v.game.geometry.name(v.play(&pos, &m).royal[0])))
        .collect();
    castles.sort();
    assert_eq!(castles, [(0, "g1".to_string()), (1, "f1".to_string()), (2, "c1".to_string())]);
    assert_eq!(v.fen(&pos), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Losing the short right loses both short sides.
    let pos = v.parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "<test>").expect("FEN");
    let n = v.legal_moves(&pos).iter().filter(|m| m.kind == MoveKind::Castle).count();
    assert_eq!(n, 1);
}

#[test]
fn only_a_long_side_uses_the_long_right() {
    let v = variant("long-only", "extends \"CHESS\"\ncastling King with Rook {\n  long: king to c1, rook to d1\n}\nsetup \"r3k2r/8/8/8/8/8/8/R3K2R w Qq - 0 1\"\n");
    let pos = v.parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qq - 0 1", "<test>").expect("FEN");
    assert_eq!(pos.castling[0][1], v.game.geometry.parse_square("a1").expect("a1"));
    assert_eq!(v.fen(&pos), "r3k2r/8/8/8/8/8/8/R3K2R w Qq - 0 1");
    assert!(v.parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1", "<test>").is_err());
}
