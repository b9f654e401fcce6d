//! Spread pieces and entanglement.

use super::words::{and_list, kind};
use super::Section;
use rulebook_interpreter::model::Game;

/// Spread pieces, if the variant has them, and entanglement.
pub fn spread(game: &Game) -> Vec<Section> {
    let Some(s) = game.spread.as_ref() else { return Vec::new() };
    let weights: Vec<String> = s
        .weights
        .iter()
        .map(|w| {
            let die = game.dice.get(w.die);
            let faces = die.map_or(0, |d| d.faces as usize);
            let list = |f: &[u8]| f.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
            format!(
                "`{}`: a roll of `{}`; red on {} ({}/{faces}), blue on {} ({}/{faces}); written with `{}` between the two cells.",
                w.name,
                die.map_or("?", |d| d.name.as_str()),
                list(&w.red_faces),
                w.red_faces.len(),
                list(&w.blue_faces),
                w.blue_faces.len(),
                w.separator
            )
        })
        .collect();
    let mut section = Section::new("Spread pieces")
        .describes(rulebook_interpreter::model::doc::ItemRef::Spread)
        .at(&s.file, s.span.start)
        .paragraph(format!(
            "A conventional piece may split: make two of its quiet moves at once, or one quiet move and stay, and so stand on {} squares at once (a red and a blue half), with one of these weights:",
            s.squares
        ))
        .list(weights)
        .paragraph("Pairs belong to units; a unit collapses on one roll of its weight's die, every member to the half (red or blue) the roll gives. Both halves stand on the board: they block rides and fill squares in every world. A capture attempt that meets a half, or is made by one, first collapses the units involved.");
    if !s.red_forward.is_empty() {
        let kinds: Vec<&str> = s.red_forward.iter().map(|&k| kind(game, k)).collect();
        section = section.paragraph(format!("For a split {}, the red half is the one further forward.", and_list(&kinds)));
    }
    if s.castling_split {
        section = section.paragraph("A royal piece may castle as one of the two moves of a split; its partner then joins its unit.");
    }
    let mut out = vec![section];
    if let Some(e) = &s.entangle {
        let labels: Vec<String> = e.labels.iter().map(|l| format!("`{l}`")).collect();
        out.push(Section::new("Entanglement").describes(rulebook_interpreter::model::doc::ItemRef::Entangle).at(&s.file, e.span.start).paragraph(format!(
            "A split that stays and moves, and so attacks a half of an enemy pair, joins that pair's unit: they collapse on one roll. A unit of two or more pieces is a group and takes a label: {} ({} groups at most at once).",
            and_list(&labels),
            e.labels.len()
        )));
    }
    out
}
