//! The diagrams of every shipped rules file parse as XML and draw what the
//! setup holds; movement diagrams mark the cells counted by hand.

use rulebook_book::svg::{self, Marks};
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::Variant;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Loads a rules file (relative to the repository's root), panicking with its diagnostics' codes.
fn variant(rel: &str) -> Variant {
    let path = root().join(rel);
    match load(&path) {
        Ok((game, _)) => Variant::new(Arc::new(game)),
        Err((diags, _)) => {
            let codes: Vec<String> = diags.iter().map(|d| format!("{} {}", d.code, d.message)).collect();
            panic!("{rel} does not load: {codes:?}")
        }
    }
}

/// Parses `svg` and checks what every diagram must be: one standalone
/// `<svg>` with the SVG namespace, a positive width and height and a viewBox.
fn check_document(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    for dim in ["width", "height"] {
        let v: f64 = root.attribute(dim).and_then(|v| v.parse().ok()).unwrap_or(0.0);
        assert!(v > 0.0, "{dim} must be positive");
    }
    assert!(root.attribute("viewBox").is_some());
    doc
}

/// The elements whose class has the word `class` and that stand on a cell
/// (`data-cell`): so legend swatches are not counted.
fn on_cells<'a>(doc: &'a roxmltree::Document<'a>, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.split_whitespace().any(|w| w == class)))
        .filter(|n| n.attribute("data-cell").is_some())
        .collect()
}

/// The cells named by the elements of `class`, sorted.
fn cells_of(doc: &roxmltree::Document<'_>, class: &str) -> Vec<String> {
    let mut cells: Vec<String> = on_cells(doc, class).iter().filter_map(|n| n.attribute("data-cell")).map(String::from).collect();
    cells.sort();
    cells
}

/// Per shipped file: its squares, the pieces its setup puts on the board and
/// those it puts in hand, counted by hand from its `board` and `setup`.
const SETUPS: &[(&str, usize, usize, usize)] = &[
    // 8 files × 8 ranks × 7 levels, no holes; the tower starts empty, each
    // side's 16 chess pieces in hand: [KQRRBBNNPPPPPPPPkqrrbbnnpppppppp].
    ("rules/4d-schach.rules", 448, 0, 32),
    // 10 × 8; two full ranks of 10 per side.
    ("rules/capablanca.rules", 80, 40, 0),
    ("rules/chess.rules", 64, 32, 0),
    // bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR: 7+5+3+1+1+2+6+7.
    ("rules/chess960.rules", 64, 32, 0),
    // The chess setup with empty hands ([]).
    ("rules/crazyhouse.rules", 64, 32, 0),
    // Chess plus a rank of 8 grasshoppers per side.
    ("rules/grasshopper.rules", 64, 48, 0),
    ("rules/heisenberg.rules", 64, 32, 0),
    // 6 × 6: rnqknr/pppppp/6/6/PPPPPP/RNQKNR.
    ("rules/losalamos.rules", 36, 24, 0),
    ("rules/nebelschach.rules", 64, 32, 0),
    ("rules/niels-chess.rules", 64, 32, 0),
    // 5 × 5 × 5; levels A, B (white) and D, E (black) hold 10 pieces each.
    ("rules/raumschach.rules", 125, 40, 0),
    ("rules/fairy/kingofthehill.rules", 64, 32, 0),
    // Pawns on the board, [KQRRBBNNkqrrbbnn] in hand.
    ("rules/fairy/placement.rules", 64, 16, 16),
    // 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ.
    ("rules/fairy/racingkings.rules", 64, 16, 0),
    // 16 pawns on the board, [KFRRSSNNkfrrssnn] in hand.
    ("rules/fairy/sittuyin.rules", 64, 16, 16),
    ("rules/fairy/atomic.rules", 64, 32, 0),
    // The fairy boards other than 8 × 8, counted from each setup.
    // 10 × 8; rcnbqkbncr and ten pawns a side.
    ("rules/fairy/centaur.rules", 80, 40, 0),
    // 9 × 9; nine pieces and nine pawns a side.
    ("rules/fairy/chancellor.rules", 81, 36, 0),
    // 12 × 8; rnebmk1wbenr (11), 9 pawns on rank 7, f on rank 6, 3 pawns on rank 5.
    ("rules/fairy/courier.rules", 96, 48, 0),
    ("rules/fairy/embassy.rules", 80, 40, 0),
    // 10 × 10; r8r (2), 1nbqkcabn1 (8), ten pawns a side.
    ("rules/fairy/grand.rules", 100, 40, 0),
    // 10 × 8 less a2–a7 and j2–j7; arnbqkbnra (10) and eight pawns a side.
    ("rules/fairy/gustav3.rules", 68, 36, 0),
    ("rules/fairy/janus.rules", 80, 40, 0),
    // 9 × 9; nine knights a side.
    ("rules/fairy/jesonmor.rules", 81, 18, 0),
    ("rules/fairy/modern.rules", 81, 36, 0),
    // 12 × 10 less the 36 edge cells but the four corners; w (1+1), crnbqkbnrc, ten pawns a side.
    ("rules/fairy/omicron.rules", 84, 44, 0),
    // 10 × 10; rw6wr (4), clbnqknbla (10), ten pawns a side.
    ("rules/fairy/opulent.rules", 100, 48, 0),
    // 10 × 10; c8c (2), ernbqkbnre (10), ten pawns a side.
    ("rules/fairy/shako.rules", 100, 44, 0),
    // 10 × 10; 2cwamwc2 (6), 1rnbqkbnr1 (8), ten pawns a side.
    ("rules/fairy/tencubed.rules", 100, 48, 0),
    // 10 × 10 less 8+4+2+2+0+0+2+2+4+8 holes; qk, rnbbnr and eight pawns a side.
    ("rules/fairy/troitzky.rules", 68, 32, 0),
    // 8 × 10; qwfrbbnk, pssppssp, 1pp2pp1 (4) a side.
    ("rules/fairy/wolf.rules", 80, 40, 0),
    // The shogi family, hands empty ([-]). 3 × 4: gle/1c1/1C1/ELG, 3+1 per side.
    ("rules/fairy/dobutsu.rules", 12, 8, 0),
    // 5 × 5: p+nks+l/5/5/5/+LSK+NP, five per side.
    ("rules/fairy/kyotoshogi.rules", 25, 10, 0),
    // 4 × 5: kb+r+l/p3/4/3P/+L+RBK, 4+1 per side.
    ("rules/fairy/micro.rules", 20, 10, 0),
    // 5 × 5: rbsgk/4p/5/P4/KGSBR, 5+1 per side.
    ("rules/fairy/minishogi.rules", 25, 12, 0),
    // 9 × 9: lnsgkgsnl/1r5b1/ppppppppp, 9+2+9 per side.
    ("rules/fairy/shogi.rules", 81, 40, 0),
    // 9 × 9: lnsgkgsnl/1r2e2b1/ppppppppp, 9+3+9 per side.
    ("rules/fairy/shoshogi.rules", 81, 42, 0),
    // 7 × 7: rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR, 7+1+7+1 per side.
    ("rules/fairy/torishogi.rules", 49, 32, 0),
    // 7 × 9: rnnkbbr/7/ppppppp/…/PPPPPPP/7/RBBKNNR, 7+7 per side.
    ("rules/fairy/yarishogi.rules", 63, 28, 0),
    // 9 × 10: rnbakabnr/9/1c5c1/p1p1p1p1p, 9+2+5 per side.
    ("rules/fairy/xiangqi.rules", 90, 32, 0),
    // 9 × 10: rnba1abnr/4k4/1c5c1/p1p1p1p1p, 8+1+2+5 per side.
    ("rules/fairy/janggi.rules", 90, 32, 0),
    // Xiangqi's black (16) against P1P1P1P1P/9/9/M1BAKAB2 (5+6).
    ("rules/fairy/manchu.rules", 90, 27, 0),
    // 10 × 10: 3q2q3/10/10/q8q/…/Q8Q/10/10/3Q2Q3, four amazons each.
    ("rules/fairy/amazons.rules", 100, 8, 0),
    // 7 × 7: P5p/7/7/7/7/7/p5P, two stones each.
    ("rules/fairy/ataxx.rules", 49, 4, 0),
    // 10 × 10: the centre's four discs, 50 in each hand.
    ("rules/fairy/flipello10.rules", 100, 4, 100),
    // 5 × 6, every cell a stone, alternating: 30.
    ("rules/fairy/clobber.rules", 30, 30, 0),
    // 6 × 6 less the 4 holes c3 d3 c4 d4; rn3k … RN3K.
    ("examples/holes.rules", 32, 6, 0),
    // 8 × 8 × 7: l3k2r on the top level, L3K2R on the bottom one.
    ("examples/tall-3d.rules", 448, 6, 0),
];

#[test]
fn every_shipped_setup_is_drawn() {
    for &(rel, squares, pieces, in_hand) in SETUPS {
        let v = variant(rel);
        let pos = v.start().unwrap_or_else(|d| panic!("{rel}: {}", d.message));
        let text = svg::board(&v, &pos, &Marks::new());
        let doc = check_document(&text);
        assert_eq!(on_cells(&doc, "square").len(), squares, "{rel}: squares");
        assert_eq!(on_cells(&doc, "piece").len(), pieces, "{rel}: pieces on the board");
        let hand: usize = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.split_whitespace().any(|w| w == "hand")))
            .filter_map(|n| n.attribute("data-count")?.parse::<usize>().ok())
            .sum();
        assert_eq!(hand, in_hand, "{rel}: pieces in hand");
        assert_eq!(text, svg::board(&v, &pos, &Marks::new()), "{rel}: deterministic");
    }
}

/// Every file of rules/ has its row, and every file of rules/fairy/ whose
/// board is not chess's 64 cells (the others draw chess's board).
#[test]
fn the_table_covers_every_file_in_rules() {
    for dir in ["rules", "rules/fairy"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).expect("rules folder").flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "rules")) {
            let rel = format!("{dir}/{}", path.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
            if dir == "rules/fairy" && variant(&rel).game.geometry.board_cells().count() == 64 {
                continue;
            }
            assert!(SETUPS.iter().any(|s| s.0 == rel), "{rel} has no row in SETUPS");
        }
    }
}

#[test]
fn every_piece_of_every_file_has_a_movement_diagram() {
    for &(rel, ..) in SETUPS {
        let v = variant(rel);
        for kind in 0..v.game.kinds.len() {
            let text = svg::movement(&v, kind as u8);
            if v.game.kinds[kind].parts.is_empty() {
                // A piece that never moves (othello's disc) has no movement diagram.
                assert!(text.is_none(), "{rel}: {} never moves", v.game.kinds[kind].name);
                continue;
            }
            let text = text.unwrap_or_else(|| panic!("{rel}: no diagram for {}", v.game.kinds[kind].name));
            let doc = check_document(&text);
            assert_eq!(on_cells(&doc, "piece").len(), 1, "{rel}: one piece");
        }
    }
}

#[test]
fn a_2d_board_has_coordinates_and_a_3d_board_has_a_caption_per_level() {
    let chess = svg::board(&variant("rules/chess.rules"), &variant("rules/chess.rules").start().expect("setup"), &Marks::new());
    let doc = check_document(&chess);
    let texts = |doc: &roxmltree::Document<'_>, class: &str| -> Vec<String> {
        doc.descendants().filter(|n| n.attribute("class") == Some(class)).filter_map(|n| n.text()).map(String::from).collect()
    };
    assert_eq!(texts(&doc, "file"), ["a", "b", "c", "d", "e", "f", "g", "h"]);
    assert_eq!(texts(&doc, "rank"), ["1", "2", "3", "4", "5", "6", "7", "8"]);
    let v = variant("rules/raumschach.rules");
    let text = svg::board(&v, &v.start().expect("setup"), &Marks::new());
    let doc = check_document(&text);
    assert_eq!(texts(&doc, "caption"), ["level A", "level B", "level C", "level D", "level E"]);
    assert_eq!(texts(&doc, "file").len(), 25, "5 files under each of 5 levels");
}

#[test]
fn marks_highlight_cells_and_name_them_in_the_legend() {
    let v = variant("rules/chess.rules");
    let game = &v.game;
    let rule = &game.promotions[0];
    let marks = Marks::new().add("promotion zone (white)", rule.zone[0].clone()).add("promotion zone (black)", rule.zone[1].clone());
    let text = svg::board(&v, &v.start().expect("setup"), &marks);
    let doc = check_document(&text);
    assert_eq!(on_cells(&doc, "mark").len(), 16, "ranks 8 and 1");
    assert_eq!(legend(&doc), "promotion zone (white) promotion zone (black)");
}

/// The legend's text, its lines joined by spaces.
fn legend(doc: &roxmltree::Document<'_>) -> String {
    let lines: Vec<&str> = doc.descendants().filter(|n| n.attribute("class") == Some("key-text")).filter_map(|n| n.text()).collect();
    lines.join(" ")
}

/// The movement diagram of the piece called `name` in `rel`.
fn movement(rel: &str, name: &str) -> String {
    let v = variant(rel);
    let kind = v.game.kind_by_name(name).unwrap_or_else(|| panic!("{rel} has no {name}"));
    svg::movement(&v, kind).expect("a diagram")
}

/// `(quiet, capture, both, initial)` markers of a movement diagram, and where the piece stands.
fn markers(svg: &str) -> ((usize, usize, usize, usize), String) {
    let doc = check_document(svg);
    let n = |class| on_cells(&doc, class).len();
    let at = cells_of(&doc, "piece").join(" ");
    ((n("quiet"), n("capture"), n("both"), n("initial")), at)
}

#[test]
fn chess_pieces_from_d4_reach_the_cells_counted_by_hand() {
    // Rook: 3 left, 4 right, 3 down, 4 up. Bishop: 3 + 3 + 3 + 4 diagonal
    // cells. Queen: both. Knight and king: 8 each (castling is not movement).
    for (name, both) in [("Rook", 14), ("Bishop", 13), ("Queen", 27), ("Knight", 8), ("King", 8)] {
        let text = movement("rules/chess.rules", name);
        assert_eq!(markers(&text), ((0, 0, both, 0), "d4".to_string()), "{name}");
    }
    let text = movement("rules/chess.rules", "Rook");
    let doc = check_document(&text);
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("ride")).count(), 4, "a line per direction");
}

#[test]
fn the_pawn_is_drawn_from_its_start_rank_with_its_double_step() {
    let text = movement("rules/chess.rules", "Pawn");
    assert_eq!(markers(&text), ((1, 2, 0, 1), "d2".to_string()));
    let doc = check_document(&text);
    assert_eq!(cells_of(&doc, "quiet"), ["d3"]);
    assert_eq!(cells_of(&doc, "capture"), ["c3", "e3"]);
    assert_eq!(cells_of(&doc, "initial"), ["d4"]);
    assert!(text.contains("Pawn on d2, in its start zone"));
}

#[test]
fn the_raumschach_rook_from_the_centre_reaches_twelve_cells_on_five_levels() {
    // From Cc3: 4 along its file, 4 along its rank (level C), and 4 up and
    // down its column (levels A, B, D, E): every level is shown.
    let text = movement("rules/raumschach.rules", "Rook");
    assert_eq!(markers(&text), ((0, 0, 12, 0), "Cc3".to_string()));
    let doc = check_document(&text);
    assert_eq!(on_cells(&doc, "square").len(), 125);
    assert_eq!(cells_of(&doc, "both").iter().filter(|c| !c.starts_with('C')).count(), 4);
}

#[test]
fn a_3d_pawn_steps_forward_and_up() {
    // The Raumschach pawn steps forward (Cc4) and up (Dc3), and captures on
    // Cb4, Cd4 and Db3, Dd3: it leaves its level, so all five are drawn.
    let text = movement("rules/raumschach.rules", "Pawn");
    assert_eq!(markers(&text), ((2, 4, 0, 0), "Cc3".to_string()));
    let doc = check_document(&text);
    assert_eq!(cells_of(&doc, "quiet"), ["Cc4", "Dc3"]);
    // A chess board has one level.
    let text = movement("rules/chess.rules", "Knight");
    let doc = check_document(&text);
    assert_eq!(on_cells(&doc, "square").len(), 64);
}

#[test]
fn hops_are_lines_without_markers_and_leaps_via_a_step_mark_the_cell_passed() {
    let text = movement("rules/grasshopper.rules", "Grasshopper");
    let doc = check_document(&text);
    assert_eq!(markers(&text).0, (0, 0, 0, 0));
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("hop")).count(), 8);
    assert!(legend(&doc).contains("landing on the cell just beyond it"));
    // Heisenberg's knight leaps `via step`: seen on the orthogonal neighbour
    // of its first long step, d5, c4, e4 and d3 from d4.
    let text = movement("rules/heisenberg.rules", "Knight");
    let doc = check_document(&text);
    assert_eq!(cells_of(&doc, "via"), ["c4", "d3", "d5", "e4"]);
}

#[test]
fn holes_are_gaps_and_stop_rides() {
    // The centre cells are holes: the rook stands on c2, the nearest cell to
    // the centre (first by index among those as near): b2 a2, d2 e2 f2, c1;
    // c3 is a hole. The threeleaper jumps it: f2 and c5.
    let text = movement("examples/holes.rules", "Rook");
    assert_eq!(markers(&text), ((0, 0, 6, 0), "c2".to_string()));
    let text = movement("examples/holes.rules", "Threeleaper");
    let doc = check_document(&text);
    assert_eq!(cells_of(&doc, "both"), ["c5", "f2"]);
    assert_eq!(on_cells(&doc, "square").len(), 32);
}

/// Loads a rules file written by the test, saved under the temporary directory.
fn variant_from_text(tag: &str, text: &str) -> Variant {
    let dir = std::env::temp_dir().join(format!("rulebook-book-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{tag}.rules"));
    std::fs::write(&path, text).expect("write");
    let rel = path.to_str().expect("UTF-8 path").to_string();
    let (game, _) = load(Path::new(&rel)).unwrap_or_else(|_| panic!("{tag} does not load"));
    Variant::new(Arc::new(game))
}

#[test]
fn a_3d_piece_that_keeps_to_its_level_is_drawn_on_that_level_alone() {
    let v = variant_from_text(
        "flat",
        r#"variant "Flat mover"
board { files a b c  ranks 1 2 3  levels A B C }
players { white: forward +rank, up +level
          black: forward -rank, up -level }
piece King K { royal  move W }
piece Slider S { move ride (1,0,0) mirror file }
setup "k2/3/3|3/3/3|3/3/K2 w - - 0 1"
"#,
    );
    let kind = v.game.kind_by_name("Slider").expect("Slider");
    let text = svg::movement(&v, kind).expect("a diagram");
    let doc = check_document(&text);
    // From Bb2, along its rank only: Ba2 and Bc2, on level B's 9 squares.
    assert_eq!(cells_of(&doc, "both"), ["Ba2", "Bc2"]);
    assert_eq!(on_cells(&doc, "square").len(), 9);
}

#[test]
fn a_level_pulled_out_of_the_shaft_is_drawn_where_it_stands() {
    // Level II of the 4×4×3 tower pulled out 2 files; the shaft (where the
    // levels stand at rest) is outlined on every level.
    let v = variant("examples/sliding-levels.rules");
    let pos = v.parse_fen("k3/1p2/p1p1/4|4/4/4/4|4/1PP1/3P/K3 w - - 0 1 {frame=II:+2<+2*}", "<test>").expect("position");
    let text = svg::board(&v, &pos, &Marks::new());
    let doc = check_document(&text);
    assert_eq!(on_cells(&doc, "square").len(), 48);
    assert_eq!(on_cells(&doc, "piece").len(), 8);
    // The shaft's outline per level, in level order: where a1 stands at rest.
    let shafts: Vec<f64> =
        doc.descendants().filter(|n| n.attribute("class") == Some("shaft")).filter_map(|n| n.attribute("x")?.parse().ok()).collect();
    assert_eq!(shafts.len(), 3);
    let x = |cell: &str| -> f64 {
        let n = on_cells(&doc, "square").into_iter().find(|n| n.attribute("data-cell") == Some(cell));
        n.and_then(|n| n.attribute("x")?.parse().ok()).unwrap_or(f64::NAN)
    };
    let square = x("Ib1") - x("Ia1");
    assert!(square > 0.0);
    assert_eq!(x("Ia1"), shafts[0], "level I stands in the shaft");
    assert!((x("IIa1") - shafts[1] - 2.0 * square).abs() < 0.2, "level II is 2 files out");
    assert_eq!(x("IIIa1"), shafts[2], "level III stands in the shaft");
}

#[test]
fn a_wall_is_drawn_in_its_square() {
    // Duck chess after 1. e4 with the duck on e5: a wall on e5, and 32 pieces.
    let v = variant("rules/fairy/duck.rules");
    let pos = v.parse_fen("rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "<test>").expect("reads");
    let text = svg::board(&v, &pos, &Marks::new());
    let doc = check_document(&text);
    assert_eq!(on_cells(&doc, "piece").len(), 32);
    assert!(text.contains("class=\"wall\"") && text.contains("data-cell=\"e5\""), "{text}");
}
