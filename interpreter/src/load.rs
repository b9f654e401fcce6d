//! Loading a rules file from disk without a database: parse it, follow its
//! `extends` chain, lower the chain. The CLI goes through the salsa database
//! instead; this is the same pipeline for tests and library users.

use crate::lower::{lower, SourceTree};
use crate::model::Game;
use rulebook_grammar::ast::{self, Span};
use rulebook_grammar::Diagnostic;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The sources read while loading, by the name diagnostics use.
pub type Sources = BTreeMap<String, String>;

/// The `extends` target of a file, if any.
pub fn extends_of(tree: &ast::File) -> Option<&ast::Spanned<String>> {
    tree.items.iter().find_map(|i| match i {
        ast::Item::Extends(p) => Some(p),
        _ => None,
    })
}

/// Resolves an `extends` path against the file that names it.
pub fn resolve(base: &Path, target: &str) -> PathBuf {
    base.parent().unwrap_or(Path::new(".")).join(target)
}

/// Reads, parses and lowers `path` and its ancestors. On failure, returns the
/// diagnostics with the sources needed to render them.
pub fn load(path: &Path) -> Result<(Game, Sources), (Vec<Diagnostic>, Sources)> {
    let mut sources = Sources::new();
    let mut trees: Vec<(String, ast::File)> = Vec::new();
    let mut current = path.to_path_buf();
    let mut from: Option<(String, Span)> = None;
    loop {
        let name = current.display().to_string();
        if trees.iter().any(|(n, _)| *n == name) {
            let (file, span) = from.unwrap_or_default();
            let d = Diagnostic::error("E0117", file, span, "`extends` goes round in a circle", "this file is already being loaded")
                .with_help("a variant cannot extend itself, directly or through others");
            return Err((vec![d], sources));
        }
        let text = match std::fs::read_to_string(&current) {
            Ok(t) => t,
            Err(e) => {
                let d = match &from {
                    Some((file, span)) => Diagnostic::error("E0117", file.clone(), *span, format!("cannot read `{name}`: {e}"), "extended here")
                        .with_help("the path is relative to the file that says `extends`"),
                    None => Diagnostic::error("E0010", name.clone(), Span::default(), format!("cannot read `{name}`: {e}"), "")
                };
                return Err((vec![d], sources));
            }
        };
        sources.insert(name.clone(), text.clone());
        let tree = match rulebook_grammar::parse_all(&name, &text) {
            Ok(t) => t,
            Err(d) => return Err((d, sources)),
        };
        let next = extends_of(&tree).map(|e| (resolve(&current, &e.node), e.span));
        trees.push((name.clone(), tree));
        match next {
            Some((p, span)) => {
                from = Some((name, span));
                current = p;
            }
            None => break,
        }
    }
    trees.reverse();
    let chain: Vec<SourceTree> = trees.iter().map(|(n, t)| SourceTree { name: n, tree: t }).collect();
    match lower(&chain) {
        Ok(g) => Ok((g, sources)),
        Err(d) => Err((d, sources)),
    }
}
