//! `rulebook lsp`: the language server, on the same salsa database as the
//! CLI (`lsp-server` for the protocol's transport, `lsp-types` for its
//! messages).
//!
//! One thread owns the database and answers every request in turn; an edit
//! sets the file's text (an input) and the queries that read it run again
//! when next asked ([`analysis`]). The verifier runs on save on a thread of
//! its own ([`verify`]) and its findings come back through a channel.
//!
//! Parts: [`text`] (positions, URIs, identifiers), [`analysis`] (the
//! editor's tracked queries), [`features`] (hover, navigation, completion,
//! code actions), [`verify`] (the verifier on save).

mod analysis;
mod features;
mod text;
mod verify;
#[cfg(test)]
mod tests;

use crate::db::{Database, SourceFile};
use crate::report::{Failure, EXIT_FAILED};
use crossbeam_channel::{select, Receiver, Sender};
use lsp_server::{Connection, ExtractError, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as notif, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionProviderCapability, CompletionOptions, Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, HoverProviderCapability,
    Location, NumberOrString, OneOf, PublishDiagnosticsParams, RenameOptions, SaveOptions, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use rulebook_grammar::{Diagnostic, Severity};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use text::{path_of, uri_of, LineIndex};

/// Runs the server over stdin and stdout until the client says `exit`.
pub fn run() -> Result<u8, Failure> {
    let (connection, io) = Connection::stdio();
    let served = serve(connection);
    let joined = io.join();
    match (served, joined) {
        (Ok(()), Ok(())) => Ok(0),
        (Err(e), _) => Err(Failure::reports(EXIT_FAILED, format!("error: the language server stopped: {e}\n"))),
        (_, Err(e)) => Err(Failure::reports(EXIT_FAILED, format!("error: the language server's input or output failed: {e}\n"))),
    }
}

/// What the server can do, as announced in `initialize`.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
            ..TextDocumentSyncOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions { trigger_characters: Some(vec![" ".into()]), ..CompletionOptions::default() }),
        rename_provider: Some(OneOf::Right(RenameOptions { prepare_provider: Some(true), work_done_progress_options: Default::default() })),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// Serves one client on `connection` (stdio, or an in-memory pair in tests).
pub fn serve(connection: Connection) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    serve_with(connection, Database::default())
}

/// [`serve`] with `db` as the database (a test's, which logs its queries).
pub fn serve_with(connection: Connection, db: Database) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let caps = serde_json::to_value(capabilities())?;
    if let Err(e) = connection.initialize(caps) {
        if e.channel_is_disconnected() {
            return Err("the client closed the connection before `initialize` (an editor starts `rulebook lsp`; see README, Editor support)".into());
        }
        return Err(e.into());
    }
    let (done_tx, done_rx) = crossbeam_channel::unbounded();
    let mut server = Server::new(connection.sender.clone(), done_tx, db);
    server.run(&connection, &done_rx)
}

/// An open document.
struct Doc {
    uri: Uri,
    file: SourceFile,
    version: i32,
}

/// The server's state: the database, the open documents, the verifier's
/// runs and findings, and what was last published.
pub struct Server {
    db: Database,
    sender: Sender<Message>,
    docs: HashMap<PathBuf, Doc>,
    running: HashMap<PathBuf, verify::Running>,
    verified: HashMap<PathBuf, verify::Verified>,
    done: Sender<verify::Verified>,
    /// The URIs diagnostics were last published for (to clear them later).
    published: Vec<Uri>,
}

impl Server {
    /// A server that sends on `sender`, with `db` as its database.
    pub fn new(sender: Sender<Message>, done: Sender<verify::Verified>, db: Database) -> Server {
        Server { db, sender, docs: HashMap::new(), running: HashMap::new(), verified: HashMap::new(), done, published: Vec::new() }
    }

    fn run(&mut self, connection: &Connection, done: &Receiver<verify::Verified>) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        loop {
            select! {
                recv(connection.receiver) -> msg => {
                    let Ok(msg) = msg else { return Ok(()) };
                    match msg {
                        Message::Request(request) => {
                            if connection.handle_shutdown(&request)? {
                                return Ok(());
                            }
                            let response = self.request(request);
                            self.sender.send(Message::Response(response))?;
                        }
                        Message::Notification(n) => {
                            // As for requests: a bug is reported, and the server goes on.
                            let method = n.method.clone();
                            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.notification(n))).is_err() {
                                eprintln!("rulebook lsp: failed while handling `{method}` (a bug)");
                            }
                        }
                        Message::Response(_) => {}
                    }
                }
                recv(done) -> found => {
                    if let Ok(found) = found {
                        self.verified_arrived(found);
                    }
                }
            }
        }
    }

    /// Handles a notification from the client.
    pub fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            notif::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params) else { return };
                let doc = p.text_document;
                self.set_text(doc.uri, doc.version, doc.text);
            }
            notif::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params) else { return };
                // Full synchronisation: the last change holds the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    self.set_text(p.text_document.uri, p.text_document.version, change.text);
                }
            }
            notif::DidSaveTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(n.params) else { return };
                self.saved(&p.text_document.uri);
            }
            notif::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params) else { return };
                if let Some(path) = path_of(&p.text_document.uri) {
                    self.docs.remove(&path);
                    self.cancel(&path);
                    self.verified.remove(&path);
                    // The file on disk is what other files see again.
                    if let Ok(text) = std::fs::read_to_string(&path) {
                        self.db.set_file(&path, text);
                    }
                }
                self.publish();
            }
            _ => {}
        }
    }

    /// A new text for the document at `uri`: the input changes, a verifier
    /// run on the old text is cancelled, diagnostics are published again.
    fn set_text(&mut self, uri: Uri, version: i32, text: String) {
        let Some(path) = path_of(&uri) else { return };
        self.cancel(&path);
        self.verified.remove(&path);
        let file = self.db.set_file(&path, text);
        self.docs.insert(path, Doc { uri, file, version });
        self.publish();
    }

    /// Stops the verifier's run on `path`, if one is going.
    fn cancel(&mut self, path: &PathBuf) {
        if let Some(run) = self.running.remove(path) {
            run.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// On save: the verifier runs on the saved text (when it compiles).
    fn saved(&mut self, uri: &Uri) {
        let Some(path) = path_of(uri) else { return };
        let Some(doc) = self.docs.get(&path) else { return };
        let Ok(game) = crate::db::compile(&self.db, doc.file) else { return };
        let run = verify::start(game.clone(), path.clone(), doc.version, self.done.clone());
        self.cancel(&path);
        self.running.insert(path, run);
    }

    /// The verifier's findings for a document: kept and published when the
    /// document is still at the version they were found for.
    pub fn verified_arrived(&mut self, found: verify::Verified) {
        let current = self.docs.get(&found.path).map(|d| d.version);
        if current != Some(found.version) {
            return;
        }
        self.running.remove(&found.path);
        self.verified.insert(found.path.clone(), found);
        self.publish();
    }

    /// Publishes the diagnostics of every open document (and of the files
    /// they extend, where those have problems), and clears those of files
    /// that have none any more.
    fn publish(&mut self) {
        let mut by_uri: BTreeMap<String, (Uri, Vec<LspDiagnostic>)> = BTreeMap::new();
        // Each named file's text and line index, looked up once.
        let mut sources: HashMap<String, Option<(String, LineIndex)>> = HashMap::new();
        for (path, doc) in &self.docs {
            let mut diags: Vec<Diagnostic> = analysis::quick_diagnostics(&self.db, doc.file).clone();
            if let Some(v) = self.verified.get(path) {
                diags.extend(v.diagnostics.iter().cloned());
            }
            for d in &diags {
                let Some((uri, lsp)) = self.convert(d, &mut sources) else { continue };
                let entry = by_uri.entry(uri.as_str().to_string()).or_insert_with(|| (uri.clone(), Vec::new()));
                if !entry.1.contains(&lsp) {
                    entry.1.push(lsp);
                }
            }
            by_uri.entry(doc.uri.as_str().to_string()).or_insert_with(|| (doc.uri.clone(), Vec::new()));
        }
        let now: Vec<Uri> = by_uri.values().filter(|(_, d)| !d.is_empty()).map(|(u, _)| u.clone()).collect();
        for old in std::mem::take(&mut self.published) {
            if !by_uri.contains_key(old.as_str()) {
                by_uri.insert(old.as_str().to_string(), (old, Vec::new()));
            }
        }
        for (_, (uri, diagnostics)) in by_uri {
            let version = self.docs.values().find(|d| d.uri == uri).map(|d| d.version);
            let params = PublishDiagnosticsParams { uri, diagnostics, version };
            let _ = self.sender.send(Message::Notification(Notification::new(notif::PublishDiagnostics::METHOD.to_string(), params)));
        }
        self.published = now;
    }

    /// A diagnostic in the protocol's terms, with the URI of its file:
    /// the headline and label as the message, then the help and details.
    /// `sources` keeps each file's text and line index for the next diagnostic.
    fn convert(&self, d: &Diagnostic, sources: &mut HashMap<String, Option<(String, LineIndex)>>) -> Option<(Uri, LspDiagnostic)> {
        let source = sources.entry(d.file.clone()).or_insert_with(|| self.db.source_text(&d.file).map(|text| {
            let index = LineIndex::new(&text);
            (text, index)
        }));
        let (text, index) = source.as_ref()?;
        let text = text.as_str();
        let uri = uri_of(&text::absolute(std::path::Path::new(&d.file)))?;
        let mut message = d.message.clone();
        if !d.label.is_empty() {
            message.push_str(&format!("\n{}", d.label));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        for detail in &d.details {
            message.push_str(&format!("\n{detail}"));
        }
        let severity = match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        };
        let related = d
            .notes
            .iter()
            .map(|n| DiagnosticRelatedInformation { location: Location::new(uri.clone(), index.range(text, n.span)), message: n.message.clone() })
            .collect::<Vec<_>>();
        let lsp = LspDiagnostic {
            range: index.range(text, d.span),
            severity: Some(severity),
            code: Some(NumberOrString::String(d.code.to_string())),
            source: Some("rulebook".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..LspDiagnostic::default()
        };
        Some((uri, lsp))
    }

    /// Answers a request.
    /// A bug that panics while answering is an error response, not the end
    /// of the server (the editor keeps its other features).
    pub fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.dispatch(request))) {
            Ok(Ok(value)) => Response { id, response_result: Ok(value) },
            Ok(Err(message)) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, message),
            Err(_) => Response::new_err(id, lsp_server::ErrorCode::InternalError as i32, format!("rulebook lsp failed while answering `{method}` (a bug: please report it with the file)")),
        }
    }

    fn dispatch(&mut self, r: Request) -> Result<serde_json::Value, String> {
        fn params<R: req::Request>(r: Request) -> Result<(RequestId, R::Params), String> {
            r.extract::<R::Params>(R::METHOD).map_err(|e| match e {
                ExtractError::MethodMismatch(r) => format!("not {}: {}", R::METHOD, r.method),
                ExtractError::JsonError { method, error } => format!("bad parameters for {method}: {error}"),
            })
        }
        let json = |v: serde_json::Result<serde_json::Value>| v.map_err(|e| e.to_string());
        match r.method.as_str() {
            req::HoverRequest::METHOD => {
                let (_, p) = params::<req::HoverRequest>(r)?;
                json(serde_json::to_value(features::hover(self, &p.text_document_position_params)))
            }
            req::GotoDefinition::METHOD => {
                let (_, p) = params::<req::GotoDefinition>(r)?;
                json(serde_json::to_value(features::definition(self, &p.text_document_position_params)))
            }
            req::References::METHOD => {
                let (_, p) = params::<req::References>(r)?;
                json(serde_json::to_value(features::references(self, &p.text_document_position, p.context.include_declaration)))
            }
            req::DocumentSymbolRequest::METHOD => {
                let (_, p) = params::<req::DocumentSymbolRequest>(r)?;
                json(serde_json::to_value(features::document_symbols(self, &p.text_document.uri)))
            }
            req::Completion::METHOD => {
                let (_, p) = params::<req::Completion>(r)?;
                json(serde_json::to_value(features::completion(self, &p.text_document_position)))
            }
            req::PrepareRenameRequest::METHOD => {
                let (_, p) = params::<req::PrepareRenameRequest>(r)?;
                json(serde_json::to_value(features::prepare_rename(self, &p)))
            }
            req::Rename::METHOD => {
                let (_, p) = params::<req::Rename>(r)?;
                let edit = features::rename(self, &p.text_document_position, &p.new_name)?;
                json(serde_json::to_value(edit))
            }
            req::CodeActionRequest::METHOD => {
                let (_, p) = params::<req::CodeActionRequest>(r)?;
                json(serde_json::to_value(features::code_actions(self, &p)))
            }
            req::Formatting::METHOD => {
                let (_, p) = params::<req::Formatting>(r)?;
                json(serde_json::to_value(features::formatting(self, &p.text_document.uri)))
            }
            other => Err(format!("`{other}` is not supported")),
        }
    }

    /// The open document at `uri` (its path, input and text).
    fn doc(&self, uri: &Uri) -> Option<(PathBuf, SourceFile, String)> {
        let path = path_of(uri)?;
        let doc = self.docs.get(&path)?;
        Some((path, doc.file, doc.file.text(&self.db).clone()))
    }
}
