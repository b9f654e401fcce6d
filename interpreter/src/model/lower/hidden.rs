//! The `hidden` item: pieces that stand face down.

use super::*;

/// Whether `name`, listed by `item`, was removed by a later `without piece`
/// and not defined again: then it is left out of the list.
pub(super) fn is_dropped<T>(cx: &Cx, item: &Dropping<T>, name: &str) -> bool {
    item.dropped.contains(&name) && !cx.pieces.iter().any(|p| p.node.name.node == name)
}

/// The `hidden` block: its kinds must exist (`E0105`), not be royal
/// (`E0130`) and be listed once, and the block needs a `pieces` line and at
/// most one `captured seen by` line (`E0129`). Kinds a later `without piece`
/// removed are left out.
pub(super) fn lower_hidden(cx: &mut Cx, h: &Dropping<ast::Hidden>, kinds: &[PieceKind]) -> HiddenRules {
    let file = h.item.file;
    let block = h.item.node;
    let mut listed: Vec<(KindId, Span)> = Vec::new();
    let mut pieces_line = false;
    let mut seen_by: Option<(ast::SeenBy, Span)> = None;
    for rule in &block.rules {
        match &rule.node {
            ast::HiddenRule::Pieces(names) => {
                pieces_line = true;
                for name in names {
                    if is_dropped(cx, h, &name.node) {
                        continue;
                    }
                    let Some(k) = cx.kind(file, name) else { continue };
                    if let Some(&(_, first)) = listed.iter().find(|(q, _)| *q == k) {
                        cx.diags.push(
                            Diagnostic::error("E0129", file, name.span, format!("`{}` is listed twice", name.node), "listed again here")
                                .with_note(first, "first listed here")
                                .with_help("list each kind that stands face down once"),
                        );
                        continue;
                    }
                    if kinds.get(k as usize).is_some_and(|kind| kind.royal) {
                        cx.diags.push(
                            Diagnostic::error("E0130", file, name.span, format!("`{}` is royal and cannot stand face down", name.node), "a royal piece")
                                .with_help("royal pieces must stand open: the game tracks them"),
                        );
                        continue;
                    }
                    listed.push((k, name.span));
                }
            }
            ast::HiddenRule::CapturedSeenBy(who) => match seen_by {
                Some((_, first)) => cx.diags.push(
                    Diagnostic::error("E0129", file, rule.span, "`captured seen by` is given twice", "given again here")
                        .with_note(first, "first given here")
                        .with_help("say once who sees a captured face-down piece: `capturer`, `both` or `nobody`"),
                ),
                None => seen_by = Some((who.node, rule.span)),
            },
        }
    }
    if !pieces_line {
        // The block starts with its keyword.
        let keyword = Span::new(block.span.start, (block.span.start + "hidden".len()).min(block.span.end));
        cx.diags.push(
            Diagnostic::error("E0129", file, keyword, "this `hidden` block has no `pieces` line", "no `pieces` line in this block")
                .with_help("list the kinds that stand face down in the setup: `hidden { pieces Queen Rook Bishop Knight Pawn }`"),
        );
    }
    let seen_by = match seen_by.map(|s| s.0) {
        None | Some(ast::SeenBy::Capturer) => SeenBy::Capturer,
        Some(ast::SeenBy::Both) => SeenBy::Both,
        Some(ast::SeenBy::Nobody) => SeenBy::Nobody,
    };
    HiddenRules { kinds: listed.into_iter().map(|(k, _)| k).collect(), seen_by, span: block.span, file: file.to_string() }
}
