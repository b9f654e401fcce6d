//! Which ruling settles a finding. A finding about a gap of the rulebook
//! (two readings, a case no rule covers, an obligation that cannot be met,
//! a process without bound: [`GAP_CODES`]) points at the items of the file
//! it is about (its primary span and its notes). A ruling whose `settles`
//! names every one of those items (and the finding's code, where it names
//! codes) settles it: the report shows the finding
//! as a note with the ruling (the most specific rulings: those that settle
//! the fewest other items), instead of as a warning. `check
//! --without-rulings` leaves every finding open, so that a reader sees what
//! the rulebook alone leaves open.

use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::{Ruling, Settles};
use rulebook_interpreter::Variant;

/// The codes of findings about gaps of the rulebook, which a ruling can
/// settle (the model's list, which `settles` is checked against).
pub use rulebook_interpreter::model::GAP_CODES;

/// Marks each finding of `diagnostics` that a ruling of `v` settles: a note
/// with the ruling's name, source and reading, instead of a warning.
pub fn settle(v: &Variant, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics.iter_mut().filter(|d| GAP_CODES.contains(&d.code)) {
        let items = items_of(v, d);
        if items.is_empty() {
            continue;
        }
        let code = Settles::Finding(d.code.to_string());
        let names_codes = |r: &Ruling| r.settles.iter().any(|s| matches!(s, Settles::Finding(_)));
        // A ruling that names codes settles findings of those codes only.
        let rulings: Vec<&Ruling> = v
            .game
            .rulings
            .iter()
            .filter(|r| items.iter().all(|i| r.settles.contains(i)) && (!names_codes(r) || r.settles.contains(&code)))
            .collect();
        // The most specific: those that name the finding's code, if any do,
        // and among them those that settle the fewest other items.
        let rulings: Vec<&Ruling> = if rulings.iter().any(|r| names_codes(r)) { rulings.into_iter().filter(|r| names_codes(r)).collect() } else { rulings };
        let Some(least) = rulings.iter().map(|r| r.settles.len()).min() else { continue };
        let rulings: Vec<&Ruling> = rulings.into_iter().filter(|r| r.settles.len() == least).collect();
        let mut settled = d.clone().note();
        for r in rulings {
            let source = r.source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
            settled = settled.with_detail(format!("settled by ruling \"{}\"{source}: {}", r.name, reading(&r.reading)));
        }
        *d = settled;
    }
}

/// The reading itself: the text after the translation of the passage
/// (`… Reading: …`), or the whole text.
fn reading(text: &str) -> &str {
    text.find("Reading: ").map_or(text, |i| &text[i + "Reading: ".len()..])
}

/// The items of the file a diagnostic points at (primary span and notes).
pub fn items_of(v: &Variant, d: &Diagnostic) -> Vec<Settles> {
    let game = &v.game;
    let spans: Vec<Span> = std::iter::once(d.span).chain(d.notes.iter().map(|n| n.span)).collect();
    let at = |file: &str, span: Span| file == d.file && spans.iter().any(|s| overlaps(*s, span));
    let mut out = Vec::new();
    let mut add = |item: Settles| {
        if !out.contains(&item) {
            out.push(item);
        }
    };
    for r in &game.rules {
        if at(&r.file, r.span) {
            add(Settles::Rule(r.name.clone()));
        }
    }
    for p in &game.phases {
        if at(&p.file, p.span) {
            add(Settles::Phase(p.name.clone()));
        }
    }
    for k in &game.kinds {
        if at(&k.file, k.span) {
            add(Settles::Piece(k.name.clone()));
        }
    }
    if game.end.spans.iter().any(|(_, s)| at(&game.end.file, *s)) {
        add(Settles::Item("end".into()));
    }
    // The blocks, each by its keyword, where it was written.
    let blocks: [(&str, Option<(&str, Span)>); 6] = [
        ("slide", game.slide.as_ref().map(|b| (b.file.as_str(), b.span))),
        ("castling", game.castling.as_ref().map(|b| (b.file.as_str(), b.span))),
        ("hidden", game.hidden.as_ref().map(|b| (b.file.as_str(), b.span))),
        ("spread", game.spread.as_ref().map(|b| (b.file.as_str(), b.span))),
        ("tunnel", game.tunnel.as_ref().map(|b| (b.file.as_str(), b.span))),
        ("observe", game.observe.as_ref().map(|b| (b.file.as_str(), b.span))),
    ];
    for (keyword, written) in blocks {
        if written.is_some_and(|(file, span)| at(file, span)) {
            add(Settles::Item(keyword.into()));
        }
    }
    if game.promotions.iter().any(|p| at(&p.file, p.span)) {
        add(Settles::Item("promotion".into()));
    }
    out
}

/// Do two spans share a byte, or is one empty and inside the other?
fn overlaps(a: Span, b: Span) -> bool {
    (a.start < b.end && b.start < a.end) || (a.start == a.end && b.start <= a.start && a.start <= b.end)
}
