//! A variant's generated rulebook as data: its chapters of sections, in
//! the order a reader needs them, built from the model ([`build`]), then
//! rendered as Markdown or HTML ([`crate::render`]).

use crate::describe::{self, Section};
use crate::perft_table::{self, PerftTable};
use rulebook_interpreter::model::Game;
use rulebook_interpreter::Variant;
use serde::Serialize;
use std::time::Duration;

/// What the caller knows beyond the model: where the file is, its text's
/// hash, the verifier's verdicts, and how long perft may count.
pub struct Inputs<'a> {
    /// The rules file, as given on the command line.
    pub file: String,
    /// The files it extends, nearest first.
    pub extends: Vec<String>,
    /// A hash of the text of the file and its ancestors (hex).
    pub hash: String,
    /// The verifier's status of each claim by name (`None`: not checked).
    pub claim_status: &'a dyn Fn(&str) -> Option<String>,
    /// The text of a rules file by the name the model gives it (for the
    /// line each item is written on; `None`: no line is given).
    pub source_text: &'a dyn Fn(&str) -> Option<String>,
    /// The verifier's findings, each `CODE message` (`None`: not checked):
    /// the open ones (warnings and errors), then those rulings settle.
    pub findings: Option<Findings>,
    /// The deepest perft the table may show.
    pub perft_depth: u32,
    /// How long the perft table may count.
    pub perft_time: Duration,
}

/// What the verifier found beyond the claims' verdicts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Findings {
    /// Warnings and errors: what the rulebook leaves open.
    pub open: Vec<String>,
    /// Findings a ruling of the file settles, with the ruling's name.
    pub settled: Vec<String>,
}

/// A generated rulebook.
#[derive(Clone, Debug, Serialize)]
pub struct Book {
    /// The variant's name.
    pub name: String,
    /// The rules file.
    pub file: String,
    /// The files it extends, nearest first.
    pub extends: Vec<String>,
    /// The hash of its text.
    pub hash: String,
    /// The author's doc comments on the `variant` item: the introduction.
    pub intro: Vec<String>,
    /// The chapters, in order.
    pub chapters: Vec<Chapter>,
    /// The perft table of the setup.
    pub perft: PerftTable,
    /// The command lines that play it.
    pub play: Vec<String>,
    /// The board in a few words (`8×8, 64 cells`), for the index.
    pub board: String,
    /// How many kinds of piece, for the index.
    pub pieces: usize,
    /// The mechanisms beyond moving and capturing it uses, for the index.
    pub mechanisms: Vec<String>,
}

/// A chapter: a heading and its sections.
#[derive(Clone, Debug, Serialize)]
pub struct Chapter {
    /// The heading.
    pub title: String,
    /// Its sections (a chapter without any is left out).
    pub sections: Vec<Section>,
}

/// Builds the rulebook of `v` from its model.
pub fn build(v: &Variant, inputs: &Inputs) -> Book {
    let game: &Game = &v.game;
    let mut chapters = Vec::new();
    let mut chapter = |title: &str, sections: Vec<Section>| {
        if !sections.is_empty() {
            chapters.push(Chapter { title: title.to_string(), sections });
        }
    };
    // Every field of the model, each to its chapter: a new field does not
    // compile until it is placed here (and so described or said to need no text).
    let Game {
        name: _,
        geometry: _,
        players: _,
        kinds: _,
        promotions: _,
        promotion_moves: _,
        castling: _,
        hand: _,
        end: _,
        setup: _,
        rulings: _,
        claims: _,
        hidden: _,
        letter_sets,
        dice: _,
        spread: _,
        tunnel: _,
        slide: _,
        observe: _,
        explosion: _,
        phases: _,
        rules: _,
        docs,
        examples,
    } = game;
    let mut game_sections = vec![describe::setup::board(game), describe::setup::players(game), describe::pieces::table(game)];
    if !letter_sets.is_empty() {
        game_sections.push(describe::setup::letters(game));
    }
    game_sections.push(describe::setup::setup(game));
    chapter("The game", game_sections);
    chapter("How the pieces move", describe::pieces::movements(game));
    let special: Vec<Section> = [describe::promotion::promotion(game), describe::castling::castling(game), describe::hand::hand(game), describe::explosion::explosion(game)]
        .into_iter()
        .flatten()
        .collect();
    chapter("Special moves", special);
    let mut chance: Vec<Section> = [describe::chance::dice(game), describe::chance::hidden(game)].into_iter().flatten().collect();
    chance.extend(describe::spread::spread(game));
    chance.extend(describe::chance::tunnel(game));
    chapter("Chance and hidden information", chance);
    let mut changing: Vec<Section> = describe::observe::observe(game).into_iter().collect();
    changing.extend(describe::slide::slide(game));
    chapter("Observation and moving geometry", changing);
    chapter("Phases before play", describe::phases::phases(game));
    chapter("Rules of play", describe::rules::rules(game));
    chapter("End of the game", vec![describe::end::end(game)]);
    chapter("Rulings", describe::rulings::rulings(game));
    if !examples.is_empty() {
        chapter("Worked examples", describe::examples::examples(v));
    }
    let status = |name: &str| (inputs.claim_status)(name);
    let mut verified: Vec<Section> = describe::claims::claims(game, &status).into_iter().collect();
    verified.push(describe::claims::findings(inputs.findings.as_ref()));
    chapter("Claims and findings", verified);
    // The author's words beside the item they precede, and the line each is written on.
    let mut texts: std::collections::BTreeMap<String, Option<String>> = std::collections::BTreeMap::new();
    for section in chapters.iter_mut().flat_map(|c| c.sections.iter_mut()) {
        if let Some(item) = &section.item {
            section.docs.extend(docs.iter().filter(|d| &d.item == item).map(|d| d.text.clone()));
        }
        if let Some(source) = &mut section.source {
            let text = texts.entry(source.file.clone()).or_insert_with(|| (inputs.source_text)(&source.file));
            match text {
                Some(t) => source.resolve(t),
                None => section.source = None,
            }
        }
    }
    let intro = docs.iter().filter(|d| d.item == rulebook_interpreter::model::doc::ItemRef::Variant).map(|d| d.text.clone()).collect();
    let perft = perft_table::setup(v, inputs.perft_depth, inputs.perft_time);
    let play = vec![
        format!("rulebook play {}", inputs.file),
        format!("rulebook moves {}", inputs.file),
        format!("rulebook perft {} 4", inputs.file),
        format!("rulebook check {}", inputs.file),
    ];
    Book {
        name: game.name.clone(),
        file: inputs.file.clone(),
        extends: inputs.extends.clone(),
        hash: inputs.hash.clone(),
        intro,
        chapters,
        perft,
        play,
        board: board_words(game),
        pieces: game.kinds.len(),
        mechanisms: mechanisms(game),
    }
}

/// `8×8, 64 cells`.
fn board_words(game: &Game) -> String {
    let geo = &game.geometry;
    let sizes: Vec<String> = geo.axes.iter().map(|a| a.labels.len().to_string()).collect();
    format!("{}, {} cells", sizes.join("×"), geo.board_cells().count())
}

/// The mechanisms of `game` beyond moving and capturing, by name.
fn mechanisms(game: &Game) -> Vec<String> {
    let has: [(&str, bool); 14] = [
        ("promotion", !game.promotions.is_empty() || !game.promotion_moves.is_empty()),
        ("castling", game.castling.is_some()),
        ("drops", game.hand.is_some()),
        ("dice", !game.dice.is_empty()),
        ("hidden pieces", game.hidden.is_some()),
        ("spread pieces", game.spread.is_some()),
        ("entanglement", game.spread.as_ref().is_some_and(|s| s.entangle.is_some())),
        ("tunnelling", game.tunnel.is_some()),
        ("observation", game.observe.is_some()),
        ("explosions", game.explosion.is_some()),
        ("sliding levels", game.slide.is_some()),
        ("phases", !game.phases.is_empty()),
        ("rules of play", !game.rules.is_empty()),
        ("hops", game.kinds.iter().flat_map(|k| &k.parts).any(|p| p.kind == rulebook_interpreter::model::StepKind::Hop)),
    ];
    has.iter().filter(|(_, yes)| *yes).map(|(name, _)| name.to_string()).collect()
}
