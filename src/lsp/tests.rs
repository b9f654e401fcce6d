//! Protocol-level tests: a client on an in-memory connection sends
//! `lsp-types` messages to the server running on its own thread, as an
//! editor would, and checks the answers. Expected numbers are counted by
//! hand from the files (each count says how).

use super::serve_with;
use crate::db::Database;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const CHESS: &str = include_str!("../../rules/chess.rules");

/// A client talking to a server thread.
struct Client {
    conn: Connection,
    next: i32,
    /// Notifications received while waiting for responses.
    inbox: Vec<Notification>,
    server: Option<std::thread::JoinHandle<()>>,
}

impl Client {
    fn start(db: Database) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || {
            serve_with(server, db).expect("server runs");
        });
        let mut client = Client { conn, next: 0, inbox: Vec::new(), server: Some(handle) };
        let init = InitializeParams::default();
        let _: serde_json::Value = client.raw_request(req::Initialize::METHOD, serde_json::to_value(init).expect("json"));
        client.notify::<notif::Initialized>(InitializedParams {});
        client
    }

    fn raw_request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn.sender.send(Message::Request(Request { id: id.clone(), method: method.to_string(), params })).expect("send");
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(30)).expect("an answer within 30 s") {
                Message::Response(r) if r.id == id => match r.response_result {
                    Ok(value) => return value,
                    Err(e) => panic!("{method}: error {}: {}", e.code, e.message),
                },
                Message::Notification(n) => self.inbox.push(n),
                _ => {}
            }
        }
    }

    fn request<R: req::Request>(&mut self, params: R::Params) -> R::Result {
        let value = self.raw_request(R::METHOD, serde_json::to_value(params).expect("json"));
        serde_json::from_value(value).expect("result")
    }

    /// A request the server must refuse; its error message.
    fn refused<R: req::Request>(&mut self, params: R::Params) -> String {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn.sender.send(Message::Request(Request { id: id.clone(), method: R::METHOD.to_string(), params: serde_json::to_value(params).expect("json") })).expect("send");
        loop {
            match self.conn.receiver.recv_timeout(Duration::from_secs(30)).expect("an answer") {
                Message::Response(r) if r.id == id => return r.response_result.expect_err("an error").message,
                Message::Notification(n) => self.inbox.push(n),
                _ => {}
            }
        }
    }

    fn notify<N: notif::Notification>(&self, params: N::Params) {
        let n = Notification::new(N::METHOD.to_string(), params);
        self.conn.sender.send(Message::Notification(n)).expect("send");
    }

    /// The next diagnostics published for `uri` (waiting up to `secs`).
    fn diagnostics(&mut self, uri: &Uri, secs: u64) -> Option<Vec<lsp_types::Diagnostic>> {
        let deadline = std::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(i) = self.inbox.iter().position(|n| n.method == notif::PublishDiagnostics::METHOD && published_uri(n) == Some(uri.clone())) {
                let n = self.inbox.remove(i);
                let p: PublishDiagnosticsParams = serde_json::from_value(n.params).expect("params");
                return Some(p.diagnostics);
            }
            let left = deadline.checked_duration_since(std::time::Instant::now())?;
            match self.conn.receiver.recv_timeout(left) {
                Ok(Message::Notification(n)) => self.inbox.push(n),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    fn open(&self, path: &Path, text: &str) -> Uri {
        let uri = super::text::uri_of(path).expect("uri");
        self.notify::<notif::DidOpenTextDocument>(DidOpenTextDocumentParams {
            text_document: TextDocumentItem { uri: uri.clone(), language_id: "rules".into(), version: 1, text: text.to_string() },
        });
        uri
    }

    fn change(&self, uri: &Uri, version: i32, text: &str) {
        self.notify::<notif::DidChangeTextDocument>(DidChangeTextDocumentParams {
            text_document: VersionedTextDocumentIdentifier { uri: uri.clone(), version },
            content_changes: vec![TextDocumentContentChangeEvent { range: None, range_length: None, text: text.to_string() }],
        });
    }

    fn stop(mut self) {
        let _: serde_json::Value = self.raw_request(req::Shutdown::METHOD, serde_json::Value::Null);
        self.notify::<notif::Exit>(());
        if let Some(h) = self.server.take() {
            h.join().expect("server thread");
        }
    }
}

fn published_uri(n: &Notification) -> Option<Uri> {
    serde_json::from_value::<PublishDiagnosticsParams>(n.params.clone()).ok().map(|p| p.uri)
}

/// The position of the `nth` (0-based) occurrence of `needle` in `text`, plus `plus` characters.
fn pos(text: &str, needle: &str, nth: usize, plus: u32) -> Position {
    let offset = text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle");
    let p = super::text::LineIndex::new(text).position(text, offset);
    Position::new(p.line, p.character + plus)
}

fn at(uri: &Uri, position: Position) -> TextDocumentPositionParams {
    TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri: uri.clone() }, position }
}

/// A folder with chess.rules and a variant extending it.
fn chess_and_child(child: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let parent = dir.path().join("chess.rules");
    std::fs::write(&parent, CHESS).expect("write");
    let child_path = dir.path().join("child.rules");
    std::fs::write(&child_path, child).expect("write");
    (dir, parent, child_path)
}

#[test]
fn syntax_errors_appear_as_you_type_and_go_when_fixed() {
    let mut c = Client::start(Database::default());
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("mini.rules");
    let uri = c.open(&path, "piece King { royal }\n");
    let diags = c.diagnostics(&uri, 10).expect("diagnostics on open");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code, Some(NumberOrString::String("E0001".into())));
    // The letter is missing where `{` stands: line 0, column 11.
    assert_eq!(diags[0].range.start, Position::new(0, 11), "{diags:?}");
    assert!(diags[0].message.contains("letter"), "{}", diags[0].message);
    c.change(&uri, 2, "piece King K { royal move W }\n");
    // The syntax error is gone; what is left is the file's lack of a board.
    let diags = c.diagnostics(&uri, 10).expect("diagnostics after the fix");
    let codes: Vec<_> = diags.iter().map(|d| d.code.clone()).collect();
    assert_eq!(codes, [Some(NumberOrString::String("E0101".into()))], "{diags:?}");
    c.stop();
}

#[test]
fn an_unknown_piece_has_a_quick_fix() {
    let child = "extends \"chess.rules\"\nvariant \"Mini\"\npromotion {\n  Pawn on rank 8 to Quen\n}\n";
    let (_dir, _parent, path) = chess_and_child(child);
    let mut c = Client::start(Database::default());
    let uri = c.open(&path, child);
    let diags = c.diagnostics(&uri, 10).expect("diagnostics");
    let unknown: Vec<_> = diags.iter().filter(|d| d.code == Some(NumberOrString::String("E0105".into()))).cloned().collect();
    assert_eq!(unknown.len(), 1, "{diags:?}");
    assert_eq!(unknown[0].range.start, pos(child, "Quen", 0, 0));
    let actions = c.request::<req::CodeActionRequest>(CodeActionParams {
        text_document: TextDocumentIdentifier { uri: uri.clone() },
        range: unknown[0].range,
        context: CodeActionContext { diagnostics: unknown.clone(), only: None, trigger_kind: None },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let titles: Vec<String> = actions
        .unwrap_or_default()
        .into_iter()
        .filter_map(|a| match a {
            CodeActionOrCommand::CodeAction(a) => Some(a.title),
            CodeActionOrCommand::Command(_) => None,
        })
        .collect();
    // `Quen` is one letter from `Queen`; no other chess piece is within two.
    assert_eq!(titles, ["Write `Queen`"]);
    c.stop();
}

#[test]
fn hover_describes_pieces_rulings_and_claims() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chess.rules");
    let mut c = Client::start(Database::default());
    let uri = c.open(&path, CHESS);
    let text = |h: Option<Hover>| match h.expect("a hover").contents {
        HoverContents::Markup(m) => m.value,
        other => panic!("{other:?}"),
    };
    // A rook alone on a central square of an empty 8×8 board: 7 cells along
    // its file and 7 along its rank, each a quiet move and a capture.
    let rook = text(c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, pos(CHESS, "Rook R", 0, 1)), work_done_progress_params: Default::default() }));
    assert!(rook.contains("reaches 14 cells (14 by quiet moves, 14 by captures)"), "{rook}");
    // A knight in the centre: the 8 leaps of (1,2).
    let knight = text(c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, pos(CHESS, "Knight N", 0, 1)), work_done_progress_params: Default::default() }));
    assert!(knight.contains("reaches 8 cells"), "{knight}");
    let ruling = text(c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, pos(CHESS, "quote", 0, 1)), work_done_progress_params: Default::default() }));
    assert!(ruling.contains("> The game is drawn, upon a correct claim by a player having the move"), "{ruling}");
    // `rank 8` of the promotion: White's eighth rank and Black's first, 8 cells each.
    let zone = text(c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, pos(CHESS, "rank 8", 0, 1)), work_done_progress_params: Default::default() }));
    assert!(zone.contains("- white: 8 cells: a8 b8 c8 d8 e8 f8 g8 h8") && zone.contains("- black: 8 cells: a1 b1 c1 d1 e1 f1 g1 h1"), "{zone}");
    let claim = text(c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, pos(CHESS, "bishops_keep_colour", 0, 2)), work_done_progress_params: Default::default() }));
    assert!(claim.contains("Bishop moves keep colour") && claim.contains("save the file"), "{claim}");
    c.stop();
}

#[test]
#[allow(clippy::mutable_key_type)] // lsp-types' `Uri` keys
fn definition_references_and_rename_cross_files() {
    // The child uses `Knight` (defined in chess.rules) twice.
    let child = "extends \"chess.rules\"\nvariant \"Mini\"\nclaim knights: Knight moves keep colour\nclaim few: at most 2 Knight\n";
    let (_dir, parent, path) = chess_and_child(child);
    let mut c = Client::start(Database::default());
    let uri = c.open(&path, child);
    let parent_uri = super::text::uri_of(&parent).expect("uri");
    let def = c.request::<req::GotoDefinition>(GotoDefinitionParams {
        text_document_position_params: at(&uri, pos(child, "Knight", 0, 2)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(GotoDefinitionResponse::Scalar(loc)) = def else { panic!("{def:?}") };
    assert_eq!(loc.uri, parent_uri);
    assert_eq!(loc.range.start, pos(CHESS, "Knight N", 0, 0));
    // The `extends` path leads to the file.
    let def = c.request::<req::GotoDefinition>(GotoDefinitionParams {
        text_document_position_params: at(&uri, pos(child, "chess.rules", 0, 1)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(GotoDefinitionResponse::Scalar(loc)) = def else { panic!("{def:?}") };
    assert_eq!(loc.uri, parent_uri);

    // `Knight` outside comments and strings in chess.rules: `piece Knight N`
    // and the promotion's `to Queen Rook Bishop Knight` (2); in the child 2.
    let refs = c
        .request::<req::References>(ReferenceParams {
            text_document_position: at(&uri, pos(child, "Knight", 1, 0)),
            context: ReferenceContext { include_declaration: true },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        })
        .expect("references");
    assert_eq!(refs.iter().filter(|l| l.uri == parent_uri).count(), 2, "{refs:?}");
    assert_eq!(refs.iter().filter(|l| l.uri == uri).count(), 2, "{refs:?}");

    let edit = c
        .request::<req::Rename>(RenameParams { text_document_position: at(&uri, pos(child, "Knight", 0, 0)), new_name: "Springer".into(), work_done_progress_params: Default::default() })
        .expect("an edit");
    let changes = edit.changes.expect("changes");
    assert_eq!(changes.get(&parent_uri).map(Vec::len), Some(2));
    assert_eq!(changes.get(&uri).map(Vec::len), Some(2));
    assert!(changes.values().flatten().all(|e| e.new_text == "Springer"));
    // A keyword is not a name; `Rook` is taken.
    let why = c.refused::<req::Rename>(RenameParams { text_document_position: at(&uri, pos(child, "Knight", 0, 0)), new_name: "piece".into(), work_done_progress_params: Default::default() });
    assert!(why.contains("not a name"), "{why}");
    let why = c.refused::<req::Rename>(RenameParams { text_document_position: at(&uri, pos(child, "Knight", 0, 0)), new_name: "Rook".into(), work_done_progress_params: Default::default() });
    assert!(why.contains("already defined"), "{why}");
    c.stop();
}

#[test]
fn symbols_and_completion_follow_the_grammar() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chess.rules");
    let mut c = Client::start(Database::default());
    let uri = c.open(&path, CHESS);
    let symbols = c.request::<req::DocumentSymbolRequest>(DocumentSymbolParams {
        text_document: TextDocumentIdentifier { uri: uri.clone() },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let Some(DocumentSymbolResponse::Nested(symbols)) = symbols else { panic!("{symbols:?}") };
    let pieces: Vec<&str> = symbols.iter().filter(|s| s.kind == lsp_types::SymbolKind::CLASS).map(|s| s.name.as_str()).collect();
    assert_eq!(pieces, ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"]);
    // chess.rules's four claims; `forward` under players, once per player.
    assert_eq!(symbols.iter().filter(|s| s.kind == lsp_types::SymbolKind::PROPERTY).count(), 4);
    let players = symbols.iter().find(|s| s.name == "players").expect("players");
    assert_eq!(players.children.as_ref().map(Vec::len), Some(2));

    // Inside a piece's block: its parts' keywords, not the top level's.
    let text = CHESS.replacen("  move N\n", "  move N\n  ro\n", 1);
    c.change(&uri, 2, &text);
    let labels = |r: Option<CompletionResponse>| -> Vec<String> {
        match r {
            Some(CompletionResponse::Array(items)) => items.into_iter().map(|i| i.label).collect(),
            other => panic!("{other:?}"),
        }
    };
    let got = labels(c.request::<req::Completion>(CompletionParams {
        text_document_position: at(&uri, pos(&text, "  ro\n", 0, 4)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    }));
    assert!(got.contains(&"royal".to_string()) && got.contains(&"move".to_string()), "{got:?}");
    assert!(!got.contains(&"board".to_string()) && !got.contains(&"Queen".to_string()), "{got:?}");
    // After `to` in the promotion: the pieces.
    let text = CHESS.replacen("to Queen Rook Bishop Knight", "to ", 1);
    c.change(&uri, 3, &text);
    let got = labels(c.request::<req::Completion>(CompletionParams {
        text_document_position: at(&uri, pos(&text, "rank 8 to ", 0, 10)),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    }));
    assert_eq!(&got[..6], ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"], "{got:?}");
    c.stop();
}

#[test]
fn formatting_rewrites_the_document() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chess.rules");
    let mut c = Client::start(Database::default());
    let messy = CHESS.replace("\n  move ride W\n", "\n        move    ride W\n");
    let uri = c.open(&path, &messy);
    let edits = c
        .request::<req::Formatting>(DocumentFormattingParams {
            text_document: TextDocumentIdentifier { uri: uri.clone() },
            options: FormattingOptions { tab_size: 2, insert_spaces: true, ..FormattingOptions::default() },
            work_done_progress_params: Default::default(),
        })
        .expect("edits");
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].new_text, rulebook_grammar::format::format(&messy).expect("formats"));
    // The queen's part is indented by one level again.
    assert!(!edits[0].new_text.contains("\n        move"), "{}", edits[0].new_text);
    assert!(edits[0].new_text.contains("piece Queen Q {\n  move"), "{}", edits[0].new_text);
    c.stop();
}

/// The queries that ran, by name, since the last call.
fn ran(log: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    std::mem::take(&mut *log.lock().expect("log")).into_iter().map(|l| l.split('(').next().unwrap_or_default().to_string()).collect()
}

#[test]
fn an_edit_reruns_only_what_it_reaches() {
    let child = "extends \"chess.rules\"\nvariant \"Mini\"\n";
    let (_dir, parent, path) = chess_and_child(child);
    let db = Database::with_log();
    let log = db.log_handle().expect("a log");
    let mut c = Client::start(db);
    let uri = c.open(&path, child);
    c.diagnostics(&uri, 10).expect("diagnostics");
    let first = ran(&log);
    // Both files parsed, the variant compiled, the quick checks run.
    assert_eq!(first.iter().filter(|q| *q == "parse").count(), 2, "{first:?}");
    assert!(first.contains(&"compile".to_string()) && first.contains(&"quick_diagnostics".to_string()), "{first:?}");

    // An edit of the child: the child is parsed again and its variant
    // recompiled; the parent (on disk, unchanged) is not parsed again.
    c.change(&uri, 2, "extends \"chess.rules\"\nvariant \"Mini 2\"\n");
    c.diagnostics(&uri, 10).expect("diagnostics");
    let second = ran(&log);
    assert_eq!(second.iter().filter(|q| *q == "parse").count(), 1, "{second:?}");
    assert_eq!(second.iter().filter(|q| *q == "compile").count(), 1, "{second:?}");

    // Hovering twice: the second time nothing runs at all.
    let hover = |c: &mut Client| {
        c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, Position::new(0, 2)), work_done_progress_params: Default::default() })
    };
    hover(&mut c);
    ran(&log);
    hover(&mut c);
    assert_eq!(ran(&log), Vec::<String>::new());

    // Opening the parent as a document and editing it: the child's variant
    // is compiled again from the new parent.
    let parent_uri = c.open(&parent, &CHESS.replace("piece Knight N", "piece Knight N "));
    c.diagnostics(&parent_uri, 10).expect("diagnostics");
    let third = ran(&log);
    assert!(third.contains(&"parse".to_string()) && third.contains(&"compile".to_string()), "{third:?}");
    c.stop();
}

#[test]
fn the_verifier_runs_on_save_and_an_edit_cancels_it() {
    let child = "extends \"chess.rules\"\nvariant \"Chess with a false claim\"\nclaim knights_keep_colour: Knight moves keep colour\n";
    let (_dir, _parent, path) = chess_and_child(child);
    let mut c = Client::start(Database::default());
    let uri = c.open(&path, child);
    let quick = c.diagnostics(&uri, 10).expect("diagnostics");
    assert!(quick.is_empty(), "{quick:?}");
    c.notify::<notif::DidSaveTextDocument>(DidSaveTextDocumentParams { text_document: TextDocumentIdentifier { uri: uri.clone() }, text: None });
    // A knight's leap always changes the colour of its square: the claim is
    // refuted (C0201), on the claim's line (line 2).
    let found = c.diagnostics(&uri, 120).expect("the verifier's findings");
    let refuted: Vec<_> = found.iter().filter(|d| d.code == Some(NumberOrString::String("C0201".into()))).collect();
    assert_eq!(refuted.len(), 1, "{found:?}");
    assert_eq!(refuted[0].range.start.line, 2);
    // The claim's hover now has the verdict.
    let h = c.request::<req::HoverRequest>(HoverParams { text_document_position_params: at(&uri, Position::new(2, 8)), work_done_progress_params: Default::default() });
    let Some(Hover { contents: HoverContents::Markup(m), .. }) = h else { panic!("{h:?}") };
    assert!(m.value.contains("REFUTED"), "{}", m.value);

    // Save, then edit at once: the run is cancelled, and its findings
    // (for the old text) are never published.
    c.notify::<notif::DidSaveTextDocument>(DidSaveTextDocumentParams { text_document: TextDocumentIdentifier { uri: uri.clone() }, text: None });
    c.change(&uri, 2, &format!("{child}\n"));
    let after_edit = c.diagnostics(&uri, 10).expect("quick diagnostics");
    assert!(after_edit.is_empty(), "{after_edit:?}");
    assert_eq!(c.diagnostics(&uri, 15), None, "no findings of the cancelled run");
    c.stop();
}
