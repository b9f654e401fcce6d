//! Lowering doc comments: every file's `##` comments, with the item each
//! documents, the root ancestor's first.

use super::*;
use crate::model::doc::{ItemDoc, ItemRef};

/// The item `item` refers to.
pub(super) fn item_ref(item: &ast::Item) -> ItemRef {
    match item {
        ast::Item::Variant(_) => ItemRef::Variant,
        ast::Item::Extends(_) => ItemRef::Extends,
        ast::Item::Board(_) => ItemRef::Board,
        ast::Item::Players(_) => ItemRef::Players,
        ast::Item::Piece(p) => ItemRef::Piece(p.name.node.clone()),
        ast::Item::Promotion(_) => ItemRef::Promotion,
        ast::Item::Castling(_) => ItemRef::Castling,
        ast::Item::Setup(_) => ItemRef::Setup,
        ast::Item::End(_) => ItemRef::End,
        ast::Item::Hand(_) => ItemRef::Hand,
        ast::Item::Ruling(r) => ItemRef::Ruling(r.name.node.clone()),
        ast::Item::Without(w) => ItemRef::Without(match &w.node {
            ast::Without::Piece(n) => format!("piece {}", n.node),
            ast::Without::Claim(n) => format!("claim {}", n.node),
            ast::Without::Castling => "castling".into(),
            ast::Without::Promotion => "promotion".into(),
            ast::Without::Hand => "hand".into(),
            ast::Without::Hidden => "hidden".into(),
            ast::Without::Spread => "spread".into(),
            ast::Without::Entangle => "entangle".into(),
            ast::Without::Tunnel => "tunnel".into(),
            ast::Without::Explosion => "explosion".into(),
        }),
        ast::Item::Claim(c) => ItemRef::Claim(c.name.node.clone()),
        ast::Item::Hidden(_) => ItemRef::Hidden,
        ast::Item::Letters(l) => ItemRef::Letters(l.name.node.clone()),
        ast::Item::Die(d) => ItemRef::Die(d.name.node.clone()),
        ast::Item::Spread(_) => ItemRef::Spread,
        ast::Item::Entangle(_) => ItemRef::Entangle,
        ast::Item::Tunnel(_) => ItemRef::Tunnel,
        ast::Item::Slide(_) => ItemRef::Slide,
        ast::Item::Observe(_) => ItemRef::Observe,
        ast::Item::Explosion(_) => ItemRef::Explosion,
        ast::Item::Phase(p) => ItemRef::Phase(p.name.node.clone()),
        ast::Item::Rule(r) => ItemRef::Rule(r.name.node.clone()),
        ast::Item::Example(e) => ItemRef::Example(e.name.node.clone()),
    }
}

/// The doc comments of every file of the chain, ancestors' first, each file's
/// in file order. Docs of items a later file replaces or removes are kept
/// (with their file): the model keeps what each author wrote.
pub(super) fn lower_docs(chain: &[SourceTree]) -> Vec<ItemDoc> {
    let mut out = Vec::new();
    for src in chain {
        for d in &src.tree.docs {
            let Some(item) = src.tree.items.get(d.item) else { continue };
            out.push(ItemDoc { item: item_ref(item), text: d.text.clone(), span: d.span, file: src.name.to_string() });
        }
    }
    out
}
