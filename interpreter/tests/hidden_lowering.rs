//! Lowering of face-down pieces (`hidden { … }`), letter sets (`letters NAME
//! { … }`), the fifty-move rule's `or reveal` and the claim `hidden moves
//! onto ZONE only by …`: what the model gets, how inheritance and `without`
//! treat them, and the errors they give.

use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::load::load;
use rulebook_interpreter::model::{Game, Property, SeenBy};
use std::path::{Path, PathBuf};

/// A fresh temporary directory for one test's files.
fn dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-hidden-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Writes the files `(name, text)` into `dir` (with `CHESS` standing for the
/// shipped chess rules) and loads the last one.
fn load_files(dir: &Path, files: &[(&str, &str)]) -> Result<Game, Vec<Diagnostic>> {
    let chess = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/chess.rules").replace('\\', "/");
    let mut last = dir.to_path_buf();
    for (name, text) in files {
        last = dir.join(format!("{name}.rules"));
        std::fs::write(&last, text.replace("CHESS", &chess)).expect("temp file");
    }
    load(&last).map(|(game, _)| game).map_err(|(diags, _)| diags)
}

fn game(test: &str, text: &str) -> Game {
    game_chain(test, &[("variant", text)])
}

fn game_chain(test: &str, files: &[(&str, &str)]) -> Game {
    match load_files(&dir(test), files) {
        Ok(game) => game,
        Err(d) => panic!("{test}: {d:#?}"),
    }
}

/// The errors `text` gives, as (code, the text each points at).
fn errors(test: &str, text: &str) -> Vec<(&'static str, String)> {
    errors_chain(test, &[("variant", text)])
}

fn errors_chain(test: &str, files: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    let dir = dir(test);
    match load_files(&dir, files) {
        Ok(_) => panic!("{test} loaded"),
        Err(diags) => diags
            .iter()
            .map(|d| {
                let text = std::fs::read_to_string(&d.file).unwrap_or_default();
                (d.code, text.get(d.span.start..d.span.end).unwrap_or("").to_string())
            })
            .collect(),
    }
}

fn names(game: &Game, kinds: &[u8]) -> Vec<String> {
    kinds.iter().map(|&k| game.kinds[k as usize].name.clone()).collect()
}

const NEBEL: &str = "extends \"CHESS\"\nhidden {\n  pieces Queen Rook Bishop Knight Pawn\n}\n";

// ------------------------------------------------------------------ hidden

#[test]
fn a_hidden_block_lists_its_kinds_and_who_sees_captures() {
    let g = game("basic", NEBEL);
    let hidden = g.hidden.as_ref().expect("hidden block");
    assert_eq!(names(&g, &hidden.kinds), ["Queen", "Rook", "Bishop", "Knight", "Pawn"]);
    assert_eq!(hidden.seen_by, SeenBy::Capturer, "the default");
    assert!(hidden.file.ends_with("variant.rules"), "{}", hidden.file);
    let text = std::fs::read_to_string(&hidden.file).expect("file");
    assert_eq!(&text[hidden.span.start..hidden.span.end], "hidden {\n  pieces Queen Rook Bishop Knight Pawn\n}");

    for (word, want) in [("capturer", SeenBy::Capturer), ("both", SeenBy::Both), ("nobody", SeenBy::Nobody)] {
        let g = game(
            &format!("seen-{word}"),
            &format!("extends \"CHESS\"\nhidden {{ captured seen by {word}  pieces Knight, Bishop }}"),
        );
        let hidden = g.hidden.as_ref().expect("hidden block");
        assert_eq!(hidden.seen_by, want);
        assert_eq!(names(&g, &hidden.kinds), ["Knight", "Bishop"]);
    }
    // Several `pieces` lines add up.
    let g = game("two-lines", "extends \"CHESS\"\nhidden { pieces Knight  pieces Rook }");
    assert_eq!(names(&g, &g.hidden.as_ref().expect("hidden").kinds), ["Knight", "Rook"]);
}

#[test]
fn chess_has_no_hidden_block_and_no_letter_sets() {
    let g = game("plain", "extends \"CHESS\"\n");
    assert!(g.hidden.is_none());
    assert!(g.letter_sets.is_empty());
    assert!(!g.end.fifty_move_reveal);
}

#[test]
fn hidden_blocks_are_inherited_replaced_and_removed() {
    let parent = ("parent", NEBEL);
    let g = game_chain("inherit", &[parent, ("child", "extends \"parent.rules\"\n")]);
    let hidden = g.hidden.as_ref().expect("inherited");
    assert_eq!(hidden.kinds.len(), 5);
    assert!(hidden.file.ends_with("parent.rules"));

    let g = game_chain(
        "replace",
        &[parent, ("child", "extends \"parent.rules\"\nhidden { pieces Pawn  captured seen by nobody }\n")],
    );
    let hidden = g.hidden.as_ref().expect("replaced");
    assert_eq!(names(&g, &hidden.kinds), ["Pawn"]);
    assert_eq!(hidden.seen_by, SeenBy::Nobody);
    assert!(hidden.file.ends_with("child.rules"));

    let g = game_chain("remove", &[parent, ("child", "extends \"parent.rules\"\nwithout hidden\n")]);
    assert!(g.hidden.is_none());
}

#[test]
fn without_piece_drops_the_kind_from_an_inherited_hidden_block() {
    let child = "extends \"parent.rules\"\nwithout piece Bishop\npromotion { Pawn on rank 8 to Queen Rook Knight }\n\
                 without claim bishops_keep_colour\nsetup \"rnqkqnr1/pppppppp/8/8/8/8/PPPPPPPP/RNQKQNR1 w - - 0 1\"\nwithout castling\n";
    let g = game_chain("drop", &[("parent", NEBEL), ("child", child)]);
    assert_eq!(names(&g, &g.hidden.as_ref().expect("hidden").kinds), ["Queen", "Rook", "Knight", "Pawn"]);

    // Defined again after the removal: it stays in the list.
    let again = format!("{child}piece Bishop B {{ move ride F }}\n");
    let g = game_chain("redefine", &[("parent", NEBEL), ("child", &again)]);
    assert_eq!(names(&g, &g.hidden.as_ref().expect("hidden").kinds), ["Queen", "Rook", "Bishop", "Knight", "Pawn"]);

    // A block written after the removal names a piece that does not exist.
    let own = format!("{child}hidden {{ pieces Knight Bishop }}\n");
    let errs = errors_chain("own-block", &[("parent", NEBEL), ("child", &own)]);
    assert_eq!(errs, [("E0105", "Bishop".to_string())]);
}

#[test]
fn hidden_block_errors() {
    let errs = errors("royal", "extends \"CHESS\"\nhidden { pieces Queen King }");
    assert_eq!(errs, [("E0130", "King".to_string())]);

    let errs = errors("no-pieces", "extends \"CHESS\"\nhidden { captured seen by both }");
    assert_eq!(errs, [("E0129", "hidden".to_string())]);

    let errs = errors("listed-twice", "extends \"CHESS\"\nhidden { pieces Queen Rook Queen }");
    assert_eq!(errs, [("E0129", "Queen".to_string())]);

    let errs = errors("seen-twice", "extends \"CHESS\"\nhidden { pieces Queen captured seen by both captured seen by nobody }");
    assert_eq!(errs, [("E0129", "captured seen by nobody".to_string())]);

    let errs = errors("unknown", "extends \"CHESS\"\nhidden { pieces Queen Dragon }");
    assert_eq!(errs, [("E0105", "Dragon".to_string())]);

    let errs = errors("twice", "extends \"CHESS\"\nhidden { pieces Queen }\nhidden { pieces Rook }");
    assert_eq!(errs, [("E0123", "hidden { pieces Rook }".to_string())]);
}

#[test]
fn hidden_errors_read_well() {
    let dir = dir("messages");
    let diags = load_files(&dir, &[("variant", "extends \"CHESS\"\nhidden { pieces King }")]).expect_err("royal");
    assert_eq!(diags[0].message, "`King` is royal and cannot stand face down");
    assert_eq!(diags[0].help.as_deref(), Some("royal pieces must stand open: the game tracks them"));
    let diags = load_files(&dir, &[("variant", "extends \"CHESS\"\nhidden { }")]).expect_err("empty");
    assert_eq!(diags[0].message, "this `hidden` block has no `pieces` line");
}

// ------------------------------------------------------------------ letters

const GERMAN: &str = "letters de { King K  Queen D  Rook T  Bishop L  Knight S  Pawn B }";

#[test]
fn letter_sets_are_lowered_upper_case() {
    let g = game("letters", &format!("extends \"CHESS\"\n{GERMAN}\nletters fr {{ King r, Queen d; Rook t Bishop f Knight c Pawn p }}"));
    assert_eq!(g.letter_sets.len(), 2);
    let de = g.letter_set("de").expect("de");
    let letters: Vec<(String, char)> = de.letters.iter().map(|&(k, c)| (g.kinds[k as usize].name.clone(), c)).collect();
    let want = [("King", 'K'), ("Queen", 'D'), ("Rook", 'T'), ("Bishop", 'L'), ("Knight", 'S'), ("Pawn", 'B')];
    assert_eq!(letters, want.map(|(n, c)| (n.to_string(), c)));
    assert!(de.file.ends_with("variant.rules"));
    let text = std::fs::read_to_string(&de.file).expect("file");
    assert_eq!(&text[de.span.start..de.span.end], GERMAN);
    let fr = g.letter_set("fr").expect("fr");
    let queen = g.kind_by_name("Queen").expect("Queen");
    assert_eq!(fr.letter(&g, queen), 'D');
    assert_eq!(g.letter_sets[0].name, "de");
    assert_eq!(g.letter_sets[1].name, "fr");

    // A set need not name every kind: the others keep their FEN letter.
    let g = game("partial", "extends \"CHESS\"\nletters x { Queen D }");
    let x = g.letter_set("x").expect("x");
    assert_eq!(x.letters.len(), 1);
    assert_eq!(x.letter(&g, g.kind_by_name("Knight").expect("Knight")), 'N');
}

#[test]
fn letter_sets_are_inherited_and_replaced_by_name() {
    let parent = ("parent", "extends \"CHESS\"\nletters de { Queen D Rook T }\nletters nl { Queen D Rook T Knight P Pawn I }\n");
    let child = ("child", "extends \"parent.rules\"\nletters de { Queen D Rook T Bishop L Knight S Pawn B }\nletters es { Queen D }\n");
    let g = game_chain("sets-chain", &[parent, child]);
    let sets: Vec<(&str, usize)> = g.letter_sets.iter().map(|s| (s.name.as_str(), s.letters.len())).collect();
    assert_eq!(sets, [("de", 5), ("nl", 4), ("es", 1)]);
    assert!(g.letter_sets[0].file.ends_with("child.rules"));
    assert!(g.letter_sets[1].file.ends_with("parent.rules"));

    // `without piece` drops the piece from inherited sets.
    let child = ("child", "extends \"parent.rules\"\nwithout piece Knight\npromotion { Pawn on rank 8 to Queen Rook Bishop }\n\
                           setup \"rb1qkb1r/pppppppp/8/8/8/8/PPPPPPPP/RB1QKB1R w KQkq - 0 1\"\n");
    let g = game_chain("sets-drop", &[parent, child]);
    let nl = g.letter_set("nl").expect("nl");
    assert_eq!(names(&g, &nl.letters.iter().map(|l| l.0).collect::<Vec<_>>()), ["Queen", "Rook", "Pawn"]);
}

#[test]
fn letter_set_errors() {
    let errs = errors("shared", "extends \"CHESS\"\nletters de { Queen D Rook d }");
    assert_eq!(errs, [("E0131", "d".to_string())]);

    let errs = errors("kind-twice", "extends \"CHESS\"\nletters de { Queen D Rook T Queen E }");
    assert_eq!(errs, [("E0131", "Queen".to_string())]);

    // Knight keeps `N` in this set, which Queen takes too.
    let errs = errors("fen-clash", "extends \"CHESS\"\nletters de { Queen N }");
    assert_eq!(errs, [("E0131", "N".to_string())]);
    // Renaming the Knight too is fine, even onto the Queen's FEN letter.
    let g = game("swap", "extends \"CHESS\"\nletters swap { Queen N Knight Q }");
    assert_eq!(g.letter_set("swap").expect("swap").letters.len(), 2);

    let errs = errors("en", "extends \"CHESS\"\nletters en { Queen Q }");
    assert_eq!(errs, [("E0132", "en".to_string())]);

    let errs = errors("set-twice", "extends \"CHESS\"\nletters de { Queen D }\nletters de { Queen D }");
    assert_eq!(errs, [("E0132", "de".to_string())]);

    let errs = errors("unknown-kind", "extends \"CHESS\"\nletters de { Queen D Dame X }");
    assert_eq!(errs, [("E0105", "Dame".to_string())]);
}

// ------------------------------------------------------------------ fifty moves

#[test]
fn fifty_move_rule_or_reveal() {
    let end = |tail: &str| {
        format!("extends \"CHESS\"\n{NEBEL_BODY}end {{\n  checkmate: lose  stalemate: draw\n  draw after 50 moves without capture or Pawn move{tail}\n}}\n")
    };
    let g = game("reveal", &end(" or reveal"));
    assert!(g.end.fifty_move_reveal);
    assert_eq!(g.end.fifty_move, Some(50));
    assert_eq!(g.end.fifty_move_piece, g.kind_by_name("Pawn"));
    let g = game("no-reveal", &end(""));
    assert!(!g.end.fifty_move_reveal);
    assert_eq!(g.end.fifty_move, Some(50));
}

const NEBEL_BODY: &str = "hidden { pieces Queen Rook Bishop Knight Pawn }\n";

// ------------------------------------------------------------------ the claim

#[test]
fn hidden_arrival_claims_resolve_their_zone_per_player() {
    let g = game(
        "claim",
        &format!("{NEBEL}claim arrivals: hidden moves onto rank 3 or rank 4 only by Pawn Knight, Pawn\n"),
    );
    let claim = g.claims.iter().find(|c| c.name == "arrivals").expect("claim");
    let Property::HiddenArrivals { zone, kinds } = &claim.property else {
        panic!("{:?}", claim.property)
    };
    assert_eq!(names(&g, kinds), ["Pawn", "Knight"]);
    let cells = |p: usize| -> Vec<String> { zone[p].iter().map(|&c| g.geometry.name(c)).collect() };
    let ranks = |rs: &[char]| -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for f in 'a'..='h' {
            for r in rs {
                v.push(format!("{f}{r}"));
            }
        }
        v.sort();
        v
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(sorted(cells(0)), ranks(&['3', '4']));
    assert_eq!(sorted(cells(1)), ranks(&['5', '6']));
    assert!(claim.property.is_move_property());
}

#[test]
fn hidden_arrival_claim_errors() {
    let errs = errors("claim-no-hidden", "extends \"CHESS\"\nclaim a: hidden moves onto rank 4 only by Pawn\n");
    assert_eq!(errs, [("E0133", "hidden moves onto rank 4 only by Pawn".to_string())]);

    let errs = errors("claim-unknown", &format!("{NEBEL}claim a: hidden moves onto rank 4 only by Pawn Dragon\n"));
    assert_eq!(errs, [("E0105", "Dragon".to_string())]);

    let errs = errors("claim-zone", &format!("{NEBEL}claim a: hidden moves onto rank 9 only by Pawn\n"));
    assert_eq!(errs, [("E0104", "9".to_string())]);

    // The parent's claim fails when a child removes the hidden block.
    let parent = format!("{NEBEL}claim a: hidden moves onto rank 4 only by Pawn\n");
    let errs = errors_chain("claim-without", &[("parent", &parent), ("child", "extends \"parent.rules\"\nwithout hidden\n")]);
    assert_eq!(errs, [("E0133", "hidden moves onto rank 4 only by Pawn".to_string())]);
    // … until it removes the claim too.
    let g = game_chain(
        "claim-without-both",
        &[("parent", &parent), ("child", "extends \"parent.rules\"\nwithout hidden\nwithout claim a\n")],
    );
    assert!(g.hidden.is_none());
    assert!(!g.claims.iter().any(|c| c.name == "a"));
}

// ------------------------------------------------------------------ the shipped variant

#[test]
fn nebelschach_lowers_its_fog() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/nebelschach.rules");
    let g = match load(&path) {
        Ok((game, _)) => game,
        Err((d, _)) => panic!("nebelschach: {d:#?}"),
    };
    let hidden = g.hidden.as_ref().expect("hidden block");
    assert_eq!(names(&g, &hidden.kinds), ["Queen", "Rook", "Bishop", "Knight", "Pawn"]);
    assert_eq!(hidden.seen_by, SeenBy::Capturer);
    let de = g.letter_set("de").expect("German letters");
    let queen = g.kind_by_name("Queen").expect("Queen");
    assert_eq!(de.letter(&g, queen), 'D');
    assert!(g.end.fifty_move_reveal);
    assert!(g.claims.iter().any(|c| matches!(&c.property, Property::HiddenArrivals { .. })));
}
