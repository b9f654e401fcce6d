//! Letter sets: a piece letter per kind in another language.

use super::*;

/// The name of a letter set, checked as the file is read: `en` is reserved
/// and a name may be used once per file (`E0132`). Records it in `here`.
pub(super) fn letter_set_name_error<'a>(file: &str, set: &'a ast::LetterSetDef, here: &mut BTreeMap<&'a str, Span>) -> Option<Diagnostic> {
    let name = &set.name;
    if name.node == "en" {
        return Some(
            Diagnostic::error("E0132", file, name.span, "the letter set `en` is reserved", "reserved name")
                .with_help("`en` is the set of FEN letters, given by the `piece` definitions; give this set another name, e.g. the code of its language (`de`, `fr`)"),
        );
    }
    let prev = here.insert(&name.node, name.span)?;
    Some(
        Diagnostic::error("E0132", file, name.span, format!("letter set `{}` is defined twice in this file", name.node), "defined again here")
            .with_note(prev, "first defined here")
            .with_help("give each set its own name; a variant that `extends` another replaces an inherited set by defining one of the same name"),
    )
}

/// A letter set: kinds must exist (`E0105`); each kind gets one letter,
/// stored upper case, and no two kinds share one, counting the FEN letters
/// of the kinds the set does not name (`E0131`). Kinds a later `without
/// piece` removed are left out.
pub(super) fn lower_letter_set(cx: &mut Cx, s: &Dropping<ast::LetterSetDef>, kinds: &[PieceKind]) -> LetterSet {
    let file = s.item.file;
    let set = s.item.node;
    let name = &set.name.node;
    let mut letters: Vec<(KindId, char)> = Vec::new();
    let mut pairs: Vec<&ast::LetterPair> = Vec::new();
    for pair in &set.letters {
        if is_dropped(cx, s, &pair.piece.node) {
            continue;
        }
        let kind = cx.kind(file, &pair.piece);
        let letter = lower_letter(cx, file, &pair.letter);
        let Some(kind) = kind else { continue };
        if letter == '?' {
            continue;
        }
        if let Some(i) = letters.iter().position(|&(k, _)| k == kind) {
            cx.diags.push(
                Diagnostic::error("E0131", file, pair.piece.span, format!("`{}` is given two letters in set `{name}`", pair.piece.node), "given again here")
                    .with_note(pairs[i].span, "first given here")
                    .with_help("a letter set gives each piece one letter"),
            );
            continue;
        }
        if let Some(i) = letters.iter().position(|&(_, c)| c == letter) {
            cx.diags.push(
                Diagnostic::error("E0131", file, pair.letter.span, format!("letter `{letter}` is used by `{}` too in set `{name}`", pairs[i].piece.node), "used twice")
                    .with_note(pairs[i].letter.span, format!("`{}` has it here", pairs[i].piece.node))
                    .with_help("every piece needs its own letter in a set, or notation cannot tell the pieces apart"),
            );
            continue;
        }
        letters.push((kind, letter));
        pairs.push(pair);
    }
    // Kinds the set does not name keep their FEN letter in it.
    for (&(kind, letter), pair) in letters.iter().zip(&pairs) {
        let keeps = kinds
            .iter()
            .enumerate()
            .find(|&(j, other)| j != kind as usize && other.letter == letter && !letters.iter().any(|&(k, _)| k as usize == j));
        if let Some((_, other)) = keeps {
            cx.diags.push(
                Diagnostic::error("E0131", file, pair.letter.span, format!("letter `{letter}` is `{}`'s, which set `{name}` does not rename", other.name), format!("`{}` keeps `{letter}` in this set", other.name))
                    .with_help(format!("give `{}` a letter in this set too, or choose another letter for `{}`", other.name, pair.piece.node)),
            );
        }
    }
    LetterSet { name: name.clone(), letters, span: set.span, file: file.to_string() }
}
