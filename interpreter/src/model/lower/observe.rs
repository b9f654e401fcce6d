//! The `observe` item (issue 15): moving pieces seen by enemy pieces.
//!
//! Diagnostics: `E0105` an unknown piece, `E0165` a piece slowed twice or a
//! `displace` line given twice, `E0166` an `observe` item with neither
//! `slow` nor `displace`.

use super::*;
use crate::model::observe::{Anchor, Observation};

pub(super) fn lower_observe(cx: &mut Cx, o: From<ast::Observe>, kinds: usize) -> Option<Observation> {
    let file = o.file;
    let errors_before = cx.diags.len();
    let mut slow: Vec<Option<KindId>> = vec![None; kinds];
    let mut slowed_at: Vec<Option<Span>> = vec![None; kinds];
    let mut displace: Option<(Anchor, Span)> = None;
    for rule in &o.node.rules {
        match &rule.node {
            ast::ObserveRule::Slow(pairs) => {
                for (from, to) in pairs {
                    let (Some(a), Some(b)) = (cx.kind(file, from), cx.kind(file, to)) else { continue };
                    if let Some(first) = slowed_at[a as usize] {
                        cx.diags.push(
                            Diagnostic::error("E0165", file, from.span, format!("`{}` is slowed twice", from.node), "slowed again here")
                                .with_note(first, "first here")
                                .with_help("a seen piece goes on as one other kind: keep one `PIECE to PIECE` for it"),
                        );
                        continue;
                    }
                    slow[a as usize] = Some(b);
                    slowed_at[a as usize] = Some(from.span);
                }
            }
            ast::ObserveRule::Displace { from_seen } => {
                if let Some((_, first)) = displace {
                    cx.diags.push(
                        Diagnostic::error("E0165", file, rule.span, "`displace` is given twice", "given again here")
                            .with_note(first, "first here")
                            .with_help("keep one `displace by observers from departure` (or `from seen`)"),
                    );
                    continue;
                }
                displace = Some((if *from_seen { Anchor::Seen } else { Anchor::Departure }, rule.span));
            }
        }
    }
    if displace.is_none() && slow.iter().all(Option::is_none) && cx.diags.len() == errors_before {
        cx.diags.push(
            Diagnostic::error("E0166", file, o.node.span, "an `observe` item that changes nothing", "no `slow` and no `displace`")
                .with_help("say what a seen piece may do: `slow Queen to Rook, …` and/or `displace by observers from departure`"),
        );
    }
    (cx.diags.len() == errors_before).then(|| Observation { slow, displace: displace.map(|d| d.0), span: o.node.span, file: file.to_string() })
}
