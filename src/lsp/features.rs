//! What the server answers: hover, go to definition, references, document
//! symbols, completion, rename, code actions and formatting. Each works on
//! the database's parse trees and compiled variants ([`super::analysis`]);
//! names are found as identifiers outside strings and comments
//! ([`super::text::identifiers`]) and matched to the definitions of the
//! file's `extends` chain.

use super::analysis::{self, Symbol, SymbolKind};
use super::text::{absolute, identifier_at, identifiers, uri_of, LineIndex};
use super::Server;
use crate::db::{chain, compile, SourceFile};
use lsp_types::{
    CodeAction, CodeActionOrCommand, CodeActionParams, CompletionItem, CompletionItemKind, CompletionResponse, DocumentSymbol, DocumentSymbolResponse,
    GotoDefinitionResponse, Hover, HoverContents, Location, MarkupContent, MarkupKind, NumberOrString, PrepareRenameResponse, Range, TextDocumentPositionParams,
    TextEdit, Uri, WorkspaceEdit,
};
use rulebook_grammar::ast::Span;
use rulebook_grammar::complete::{expected_at, Expected};
use std::collections::HashMap;

/// The open document a position is in, and the byte offset of the position.
struct At {
    file: SourceFile,
    text: String,
    offset: usize,
}

fn at(server: &Server, p: &TextDocumentPositionParams) -> Option<At> {
    let (_, file, text) = server.doc(&p.text_document.uri)?;
    let offset = LineIndex::new(&text).offset(&text, p.position);
    Some(At { file, text, offset })
}

/// The definition of the name `name` seen from `file`: the nearest in its
/// `extends` chain (the file itself first).
fn defined(server: &Server, file: SourceFile, name: &str) -> Option<(SourceFile, Symbol)> {
    chain(&server.db, file)
        .into_iter()
        .find_map(|f| analysis::symbols(&server.db, f).iter().find(|s| s.kind.is_name() && s.name == name).map(|s| (f, s.clone())))
}

/// The location of `span` in `file`.
fn location(server: &Server, file: SourceFile, span: Span) -> Option<Location> {
    let text = file.text(&server.db);
    let uri = uri_of(&absolute(file.path(&server.db)))?;
    Some(Location::new(uri, LineIndex::new(text).range(text, span)))
}

fn markdown(value: String) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range: None }
}

/// Hover: on a piece's name, its movement in words (the text of `rulebook
/// doc`) and how many cells it reaches from the central cell of an empty
/// board; on another name, its declaration; inside a ruling, its quote and
/// reading; inside a claim, what it says and the verifier's last verdict.
pub fn hover(server: &Server, p: &TextDocumentPositionParams) -> Option<Hover> {
    let at = at(server, p)?;
    let db = &server.db;
    if let Some(token) = identifier_at(&at.text, at.offset) {
        if let Some((def_file, sym)) = defined(server, at.file, token.text).filter(|(_, s)| s.kind != SymbolKind::Claim) {
            return Some(markdown(describe_name(server, at.file, def_file, &sym)));
        }
    }
    let tree = analysis::partial_tree(db, at.file).as_ref()?;
    let inside = |span: Span| span.start <= at.offset && at.offset <= span.end;
    if let Some(zone) = analysis::zones(tree).into_iter().filter(|z| inside(z.span)).min_by_key(|z| z.span.end - z.span.start) {
        return zone_hover(server, at.file, &at.text, zone);
    }
    for item in &tree.items {
        match item {
            rulebook_grammar::ast::Item::Ruling(r) if inside(r.span) => {
                let mut text = format!("**ruling \"{}\"**", r.name.node);
                if let Some(source) = &r.source {
                    text.push_str(&format!(" — {}", source.node));
                }
                text.push_str(&format!("\n\n> {}\n\n{}", r.quote.node, r.reading.node));
                return Some(markdown(text));
            }
            rulebook_grammar::ast::Item::Claim(c) if inside(c.span) => {
                let path = server.docs.iter().find(|(_, d)| d.file == at.file).map(|(p, _)| p.clone());
                let status = path
                    .and_then(|p| server.verified.get(&p))
                    .and_then(|v| v.claims.iter().find(|(n, _)| *n == c.name.node).map(|(_, s)| s.clone()))
                    .unwrap_or_else(|| "not verified since the last edit: save the file to run the verifier".to_string());
                let says = at.text.get(c.body.span.start..c.body.span.end).unwrap_or_default();
                return Some(markdown(format!("**claim `{}`**: {says}\n\nlast status: {status}", c.name.node)));
            }
            _ => {}
        }
    }
    None
}

/// The cells of a zone, for each player (a zone is relative to its owner).
fn zone_hover(server: &Server, file: SourceFile, text: &str, zone: &rulebook_grammar::ast::Zone) -> Option<Hover> {
    let game = compile(&server.db, file).as_ref().ok()?;
    let cells = rulebook_interpreter::model::lower::zone_cells(game, zone)?;
    let written = text.get(zone.span.start..zone.span.end).unwrap_or_default();
    let mut out = format!("**zone** `{written}` (relative to the piece's owner)\n");
    for (player, cells) in game.players.iter().zip(&cells) {
        let names: Vec<String> = cells.iter().map(|&c| game.geometry.name(c)).collect();
        let list = if names.len() > 24 { format!("{} … {} ", names[..12].join(" "), names[names.len() - 4..].join(" ")) } else { names.join(" ") };
        out.push_str(&format!("\n- {}: {} cells: {list}", player.name, cells.len()));
    }
    Some(markdown(out))
}

/// The hover text of a defined name.
fn describe_name(server: &Server, from: SourceFile, def_file: SourceFile, sym: &Symbol) -> String {
    let db = &server.db;
    let where_ = format!("defined in `{}`", def_file.path(db).file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default());
    if sym.kind == SymbolKind::Piece {
        if let Ok(game) = compile(db, from) {
            if let Some((k, kind)) = game.kinds.iter().enumerate().find(|(_, k)| k.name == sym.name) {
                let section = rulebook_book::describe::pieces::movement(game, kind);
                let mut text = format!("**{}** — {where_}\n", section.title);
                for block in &section.blocks {
                    text.push('\n');
                    text.push_str(&block_markdown(block));
                }
                if let Some(origin) = rulebook_book::svg::reach::origin(game, k as u8) {
                    let r = rulebook_book::svg::reach::reach(game, k as u8, origin);
                    let quiet = r.targets.values().filter(|t| t.quiet).count();
                    let capture = r.targets.values().filter(|t| t.capture).count();
                    text.push_str(&format!(
                        "\nFrom {} on an empty board it reaches {} cells ({quiet} by quiet moves, {capture} by captures).",
                        game.geometry.name(origin),
                        r.targets.len()
                    ));
                }
                return text;
            }
        }
    }
    let def_text = def_file.text(db);
    let declaration: String = def_text.get(sym.span.start..sym.span.end).unwrap_or_default().lines().take(8).collect::<Vec<_>>().join("\n");
    format!("**{} `{}`** — {where_}\n\n```\n{declaration}\n```", sym.kind.word(), sym.name)
}

/// One block of a rulebook section as Markdown.
fn block_markdown(block: &rulebook_book::describe::Block) -> String {
    use rulebook_book::describe::Block;
    match block {
        Block::Paragraph(p) => format!("{p}\n"),
        Block::List(items) => items.iter().map(|i| format!("- {i}\n")).collect(),
        Block::Quote(q) => format!("> {q}\n"),
        Block::Table { head, rows } => {
            let mut t = format!("| {} |\n|{}|\n", head.join(" | "), head.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
            for row in rows {
                t.push_str(&format!("| {} |\n", row.join(" | ")));
            }
            t
        }
    }
}

/// Go to definition: from a name to its definition (in the file or a file
/// it extends); from the path of an `extends` to that file.
pub fn definition(server: &Server, p: &TextDocumentPositionParams) -> Option<GotoDefinitionResponse> {
    let at = at(server, p)?;
    let db = &server.db;
    if let Some(tree) = analysis::partial_tree(db, at.file) {
        if let Some(ext) = analysis::extends_at(tree, at.offset) {
            let target = rulebook_interpreter::model::load::resolve(at.file.path(db), &ext.node);
            let uri = uri_of(&absolute(&target))?;
            return Some(GotoDefinitionResponse::Scalar(Location::new(uri, Range::default())));
        }
    }
    let token = identifier_at(&at.text, at.offset)?;
    let (def_file, sym) = defined(server, at.file, token.text)?;
    location(server, def_file, sym.name_span).map(GotoDefinitionResponse::Scalar)
}

/// The files a name defined in `def_file` can be used in: that file, and
/// every file between an open document and it in the document's chain.
fn scope(server: &Server, def_file: SourceFile) -> Vec<SourceFile> {
    let mut out = vec![def_file];
    for doc in server.docs.values() {
        let files = chain(&server.db, doc.file);
        if let Some(i) = files.iter().position(|f| *f == def_file) {
            for f in &files[..i] {
                if !out.contains(f) {
                    out.push(*f);
                }
            }
        }
    }
    out
}

/// Every use of the name at `p` (and its definition with `declaration`),
/// across the files that see the definition.
fn uses(server: &Server, p: &TextDocumentPositionParams, declaration: bool) -> Option<(Symbol, Vec<(SourceFile, Span)>)> {
    let at = at(server, p)?;
    let token = identifier_at(&at.text, at.offset)?;
    let (def_file, sym) = defined(server, at.file, token.text)?;
    let mut out = Vec::new();
    for f in scope(server, def_file) {
        // A file that defines the name again uses its own definition.
        if f != def_file && analysis::symbols(&server.db, f).iter().any(|s| s.kind.is_name() && s.name == sym.name) {
            continue;
        }
        for t in identifiers(f.text(&server.db)) {
            if t.text == sym.name && (declaration || f != def_file || t.span != sym.name_span) {
                out.push((f, t.span));
            }
        }
    }
    Some((sym, out))
}

/// Find references.
pub fn references(server: &Server, p: &lsp_types::TextDocumentPositionParams, declaration: bool) -> Option<Vec<Location>> {
    let (_, found) = uses(server, p, declaration)?;
    Some(found.into_iter().filter_map(|(f, span)| location(server, f, span)).collect())
}

/// The document's items (pieces, rules, rulings, claims, …), the direction
/// words under `players`.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written.
pub fn document_symbols(server: &Server, uri: &Uri) -> Option<DocumentSymbolResponse> {
    let (_, file, text) = server.doc(uri)?;
    let index = LineIndex::new(&text);
    let mut out: Vec<DocumentSymbol> = Vec::new();
    for s in analysis::symbols(&server.db, file) {
        let kind = match s.kind {
            SymbolKind::Piece => lsp_types::SymbolKind::CLASS,
            SymbolKind::Direction => lsp_types::SymbolKind::ENUM_MEMBER,
            SymbolKind::Rule => lsp_types::SymbolKind::FUNCTION,
            SymbolKind::Claim => lsp_types::SymbolKind::PROPERTY,
            SymbolKind::Ruling => lsp_types::SymbolKind::STRING,
            SymbolKind::Phase => lsp_types::SymbolKind::EVENT,
            SymbolKind::Example => lsp_types::SymbolKind::OBJECT,
            SymbolKind::Die | SymbolKind::Letters => lsp_types::SymbolKind::CONSTANT,
            SymbolKind::Variant | SymbolKind::Extends => lsp_types::SymbolKind::FILE,
            SymbolKind::Block => lsp_types::SymbolKind::NAMESPACE,
        };
        let symbol = DocumentSymbol {
            name: if s.name.is_empty() { s.kind.word().to_string() } else { s.name.clone() },
            detail: Some(s.kind.word().to_string()),
            kind,
            tags: None,
            deprecated: None,
            range: index.range(&text, s.span),
            selection_range: index.range(&text, s.name_span),
            children: None,
        };
        // A direction word belongs under the `players` block before it.
        if s.kind == SymbolKind::Direction {
            if let Some(players) = out.iter_mut().rev().find(|d| d.name == "players") {
                players.children.get_or_insert_with(Vec::new).push(symbol);
                continue;
            }
        }
        out.push(symbol);
    }
    Some(DocumentSymbolResponse::Nested(out))
}

/// Completion: what the grammar accepts where the word being typed starts
/// (keywords, and names where a name may stand), or every name when the
/// text before has a syntax error.
pub fn completion(server: &Server, p: &TextDocumentPositionParams) -> Option<CompletionResponse> {
    let at = at(server, p)?;
    let bytes = at.text.as_bytes();
    let mut start = at.offset.min(bytes.len());
    while start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_' || bytes[start - 1] == b'-') {
        start -= 1;
    }
    let expected = expected_at(&at.text, start);
    let mut items = Vec::new();
    let names = expected.as_ref().is_none_or(|e| e.contains(&Expected::Name));
    if names {
        let mut seen = Vec::new();
        for f in chain(&server.db, at.file) {
            for s in analysis::symbols(&server.db, f).iter().filter(|s| s.kind.is_name()) {
                if seen.contains(&s.name) {
                    continue;
                }
                seen.push(s.name.clone());
                let kind = if s.kind == SymbolKind::Piece { CompletionItemKind::CLASS } else { CompletionItemKind::ENUM_MEMBER };
                // Pieces first, then the other names, each in file order.
                let rank = if s.kind == SymbolKind::Piece { 0 } else { 1 };
                items.push(CompletionItem {
                    label: s.name.clone(),
                    kind: Some(kind),
                    detail: Some(s.kind.word().to_string()),
                    sort_text: Some(format!("{rank}{:04}", items.len())),
                    ..CompletionItem::default()
                });
            }
        }
    }
    for e in expected.unwrap_or_default() {
        if let Expected::Keyword(word) = e {
            items.push(CompletionItem {
                label: word.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                sort_text: Some(format!("2{word}")),
                ..CompletionItem::default()
            });
        }
    }
    items.sort_by(|a, b| a.sort_text.cmp(&b.sort_text));
    Some(CompletionResponse::Array(items))
}

/// Rename, first step: the name at the position, when it is one that can
/// be renamed (a piece, direction word, die, letter set, phase or claim).
pub fn prepare_rename(server: &Server, p: &TextDocumentPositionParams) -> Option<PrepareRenameResponse> {
    let at = at(server, p)?;
    let token = identifier_at(&at.text, at.offset)?;
    defined(server, at.file, token.text)?;
    Some(PrepareRenameResponse::Range(LineIndex::new(&at.text).range(&at.text, token.span)))
}

/// Rename: every use of the name and its definition, across the files that
/// see it. The new name must be a name the grammar accepts there and not
/// the name of another definition of the chain.
// lsp-types keys its edits by `Uri`, which clippy takes for mutable (it is not).
#[allow(clippy::mutable_key_type)]
pub fn rename(server: &Server, p: &TextDocumentPositionParams, new_name: &str) -> Result<Option<WorkspaceEdit>, String> {
    let Some((sym, found)) = uses(server, p, true) else { return Ok(None) };
    let probe = format!("piece {new_name} Z {{ }}\n");
    let valid = new_name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && new_name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && rulebook_grammar::parse("<rename>", &probe).is_ok();
    if !valid {
        return Err(format!("`{new_name}` is not a name: a letter or `_`, then letters, digits or `_`, and not a keyword"));
    }
    let at = at(server, p).ok_or("the document is not open")?;
    if new_name != sym.name && defined(server, at.file, new_name).is_some() {
        return Err(format!("`{new_name}` is already defined"));
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (f, span) in found {
        if let Some(loc) = location(server, f, span) {
            changes.entry(loc.uri).or_default().push(TextEdit::new(loc.range, new_name.to_string()));
        }
    }
    Ok(Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }))
}

/// Code actions: a diagnostic whose help says `did you mean `X`?` offers
/// to write X in its place; an unknown piece (`E0105`) offers the defined
/// pieces whose names are closest.
#[allow(clippy::mutable_key_type)]
pub fn code_actions(server: &Server, p: &CodeActionParams) -> Option<Vec<CodeActionOrCommand>> {
    let (_, file, _) = server.doc(&p.text_document.uri)?;
    let mut out = Vec::new();
    for d in &p.context.diagnostics {
        let mut fixes: Vec<String> = Vec::new();
        if let Some(word) = d.message.split("did you mean `").nth(1).and_then(|r| r.split('`').next()) {
            fixes.push(word.to_string());
        }
        if d.code == Some(NumberOrString::String("E0105".into())) {
            let wrong = d.message.split('`').nth(1).unwrap_or_default();
            let mut close: Vec<(usize, String)> = chain(&server.db, file)
                .into_iter()
                .flat_map(|f| analysis::symbols(&server.db, f).clone())
                .filter(|s| s.kind == SymbolKind::Piece)
                .map(|s| (distance(&wrong.to_lowercase(), &s.name.to_lowercase()), s.name))
                .filter(|(d, name)| *d <= 2.max(name.len() / 3))
                .collect();
            close.sort();
            close.dedup();
            fixes.extend(close.into_iter().take(3).map(|(_, n)| n));
        }
        for fix in fixes {
            let edit = WorkspaceEdit { changes: Some(HashMap::from([(p.text_document.uri.clone(), vec![TextEdit::new(d.range, fix.clone())])])), ..WorkspaceEdit::default() };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Write `{fix}`"),
                kind: Some(lsp_types::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(edit),
                is_preferred: Some(true),
                ..CodeAction::default()
            }));
        }
    }
    Some(out)
}

/// Edit distance between two words (Levenshtein).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j])).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// Document formatting: the whole text as `rulebook fmt` writes it (no
/// edit when it is formatted already, none when it cannot be formatted).
pub fn formatting(server: &Server, uri: &Uri) -> Option<Vec<TextEdit>> {
    let (_, _, text) = server.doc(uri)?;
    let formatted = rulebook_grammar::format::format(&text).ok()?;
    if formatted == text {
        return Some(Vec::new());
    }
    let index = LineIndex::new(&text);
    let whole = Range::new(lsp_types::Position::new(0, 0), index.position(&text, text.len()));
    Some(vec![TextEdit::new(whole, formatted)])
}
