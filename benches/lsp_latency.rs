//! Latency of the language server's diagnostics after an edit: `rulebook
//! lsp` runs as a child process (the release binary), a client on its stdin
//! and stdout opens a rules file and then changes one word of it many times;
//! each time, the time from sending the change to receiving the file's
//! diagnostics is measured. Prints the first publication (everything parsed
//! and compiled once) and the median and slowest of the edits.
//!
//! Run: `cargo bench --bench lsp_latency` (default file
//! rules/niels-chess.rules; name others as arguments).

use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::notification::{DidChangeTextDocument, DidOpenTextDocument, Exit, Initialized, Notification as _, PublishDiagnostics};
use lsp_types::request::{Initialize, Request as _, Shutdown};
use lsp_types::*;
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Edits per file.
const EDITS: usize = 40;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let files = if args.is_empty() { vec!["rules/niels-chess.rules".to_string()] } else { args };
    println!("{:<26} {:>9} {:>22} {:>22}", "", "open", "comment letter", "name letter");
    println!("{:<26} {:>9} {:>11} {:>10} {:>11} {:>10}", "file", "", "median", "slowest", "median", "slowest");
    for file in files {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
        match measure(&path) {
            Ok((first, comment, name)) => println!(
                "{file:<26} {:>6.1} ms {:>8.2} ms {:>7.2} ms {:>8.2} ms {:>7.2} ms",
                ms(first),
                ms(comment.0),
                ms(comment.1),
                ms(name.0),
                ms(name.1)
            ),
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(1);
            }
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The first publication after opening, and the median and slowest after
/// each kind of edit.
type Timings = (Duration, (Duration, Duration), (Duration, Duration));

fn measure(path: &Path) -> Result<Timings, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let mut output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut send = |m: Message| m.write(&mut input).map_err(|e| e.to_string()).and_then(|()| input.flush().map_err(|e| e.to_string()));
    send(Message::Request(Request::new(RequestId::from(1), Initialize::METHOD.into(), InitializeParams::default())))?;
    read_until(&mut output, |m| matches!(m, Message::Response(_)))?;
    send(Message::Notification(Notification::new(Initialized::METHOD.into(), InitializedParams {})))?;
    let uri = Uri::from_str(&format!("file://{}", path.display())).map_err(|e| e.to_string())?;
    let start = Instant::now();
    send(Message::Notification(Notification::new(
        DidOpenTextDocument::METHOD.into(),
        DidOpenTextDocumentParams { text_document: TextDocumentItem { uri: uri.clone(), language_id: "rules".into(), version: 1, text: text.clone() } },
    )))?;
    read_until(&mut output, is_publication)?;
    let first = start.elapsed();
    // The first comment's first letter after `# ` (an ASCII letter, replaced by one).
    let comment_at = text.find("# ").ok_or("the file has no comment")? + 2;
    if !text.as_bytes().get(comment_at).is_some_and(u8::is_ascii_alphanumeric) {
        return Err("the first comment does not start with a letter".into());
    }
    let name_at = text.find("variant \"").ok_or("the file has no variant name")? + "variant \"".len();
    let mut version = 1;
    let mut edit = |send: &mut dyn FnMut(Message) -> Result<(), String>, output: &mut BufReader<std::process::ChildStdout>, edited: String| -> Result<Duration, String> {
        version += 1;
        let start = Instant::now();
        send(Message::Notification(Notification::new(
            DidChangeTextDocument::METHOD.into(),
            DidChangeTextDocumentParams {
                text_document: VersionedTextDocumentIdentifier { uri: uri.clone(), version },
                content_changes: vec![TextDocumentContentChangeEvent { range: None, range_length: None, text: edited }],
            },
        )))?;
        read_until(output, is_publication)?;
        Ok(start.elapsed())
    };
    let mut comment = Vec::new();
    let mut name = Vec::new();
    for i in 0..EDITS {
        // The letter after the first `#` retyped (x or y): same length, same tree.
        let letter = if i % 2 == 0 { "x" } else { "y" };
        let edited = format!("{}{letter}{}", &text[..comment_at], &text[comment_at + 1..]);
        comment.push(edit(&mut send, &mut output, edited)?);
    }
    for i in 0..EDITS {
        // A letter typed at the start of the variant's name, or taken away.
        let edited = if i % 2 == 0 { format!("{}X{}", &text[..name_at], &text[name_at..]) } else { text.clone() };
        name.push(edit(&mut send, &mut output, edited)?);
    }
    send(Message::Request(Request::new(RequestId::from(2), Shutdown::METHOD.into(), ())))?;
    read_until(&mut output, |m| matches!(m, Message::Response(_)))?;
    send(Message::Notification(Notification::new(Exit::METHOD.into(), ())))?;
    let _ = child.wait();
    let spread = |mut t: Vec<Duration>| {
        t.sort();
        (t[t.len() / 2], t[t.len() - 1])
    };
    Ok((first, spread(comment), spread(name)))
}

fn is_publication(m: &Message) -> bool {
    matches!(m, Message::Notification(n) if n.method == PublishDiagnostics::METHOD)
}

fn read_until(output: &mut BufReader<std::process::ChildStdout>, done: impl Fn(&Message) -> bool) -> Result<(), String> {
    loop {
        match Message::read(output).map_err(|e| e.to_string())? {
            Some(m) if done(&m) => return Ok(()),
            Some(_) => {}
            None => return Err("the server closed its output".into()),
        }
    }
}
