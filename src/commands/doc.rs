//! `rulebook doc`: a variant's rulebook generated from its rules file
//! (Markdown and/or HTML, with SVG diagrams), or those of every rules file
//! of a folder with an index page that compares them.

use super::{load, open, Context, Loaded};
use crate::cli::{DocArgs, DocFormat};
use crate::db;
use crate::report::{Failure, EXIT_USAGE};
use rulebook_book::book::Findings;
use rulebook_book::{Book, Inputs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What the index says of one variant.
struct Entry {
    /// Its folder under the output folder.
    folder: String,
    /// The rulebook.
    book: Book,
}

/// Runs `rulebook doc`.
pub fn run(args: &DocArgs, cx: Context) -> Result<u8, Failure> {
    let started = Instant::now();
    if args.rules.is_dir() {
        let files = rules_files(&args.rules)?;
        if files.is_empty() {
            return Err(Failure::usage(format!("no `.rules` file in `{}`", args.rules.display())));
        }
        let mut entries = Vec::new();
        for file in &files {
            let relative = file.strip_prefix(&args.rules).unwrap_or(file);
            let folder = relative.with_extension("").to_string_lossy().replace('\\', "/");
            entries.push(write_one(args, file, &folder, cx)?);
        }
        write_index(args, &entries)?;
        eprintln!("wrote {} rulebooks and an index to {} in {:.1} s", entries.len(), args.out.display(), started.elapsed().as_secs_f64());
    } else {
        let folder = args.rules.file_stem().map_or("rulebook".to_string(), |s| s.to_string_lossy().to_string());
        write_one(args, &args.rules, &folder, cx)?;
        eprintln!("wrote {} to {} in {:.1} s", folder, args.out.display(), started.elapsed().as_secs_f64());
    }
    Ok(0)
}

/// The `.rules` files under `dir`, sorted, subfolders included.
fn rules_files(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| Failure::usage(format!("cannot read the folder `{}`: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rules_files(&path)?);
        } else if path.extension().is_some_and(|e| e == "rules") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Writes the rulebook of `file` into `OUT/folder`.
fn write_one(args: &DocArgs, file: &Path, folder: &str, cx: Context) -> Result<Entry, Failure> {
    eprintln!("{}: …", file.display());
    let loaded = load(file, cx)?;
    let v = &loaded.variant;
    let (statuses, findings) = if args.no_check {
        (BTreeMap::new(), None)
    } else {
        let (s, f) = verdicts(v, Duration::from_secs(args.check_seconds));
        (s, Some(f))
    };
    let claim_status = |name: &str| statuses.get(name).cloned();
    let inputs = Inputs {
        file: file.display().to_string(),
        extends: extends(&loaded, file)?,
        hash: super::play::rules_hash(&loaded, file)?,
        claim_status: &claim_status,
        source_text: &|name: &str| loaded.source(name),
        findings,
        perft_depth: args.perft_depth,
        perft_time: Duration::from_secs(args.perft_seconds),
    };
    let book = rulebook_book::build(v, &inputs);
    let diagrams = rulebook_book::diagrams(v);
    let dir = args.out.join(folder);
    std::fs::create_dir_all(&dir).map_err(|e| write_failure(&dir, e))?;
    let render_failure = |e: rulebook_book::render::Error| Failure::usage(format!("cannot render the rulebook of `{}`: {e}", file.display()));
    if args.format != DocFormat::Html {
        let text = rulebook_book::markdown(&book, &diagrams).map_err(render_failure)?;
        write(&dir.join("rulebook.md"), &text)?;
        for (name, svg) in &diagrams {
            write(&dir.join(rulebook_book::render::diagram_file(name)), svg)?;
        }
    }
    if args.format != DocFormat::Md {
        let page = rulebook_book::html(&book, &diagrams).map_err(render_failure)?;
        write(&dir.join("rulebook.html"), &page)?;
    }
    Ok(Entry { folder: folder.to_string(), book })
}

/// The files `file` extends, nearest first.
fn extends(loaded: &Loaded, file: &Path) -> Result<Vec<String>, Failure> {
    let source = open(&loaded.db, file)?;
    Ok(db::chain(&loaded.db, source).into_iter().skip(1).map(|f| f.name(&loaded.db)).collect())
}

/// The verifier's verdict on each claim of `v`, and its findings, within `time`.
fn verdicts(v: &rulebook_interpreter::Variant, time: Duration) -> (BTreeMap<String, String>, Findings) {
    let options = rulebook_checker::Options {
        query_timeout: time.min(Duration::from_secs(20)),
        total_timeout: time,
        ..rulebook_checker::Options::default()
    };
    let report = rulebook_checker::check(v, &options, &mut |_| {});
    let mut findings = Findings::default();
    for d in &report.diagnostics {
        let line = format!("`{}` {}", d.code, d.message);
        match d.severity {
            rulebook_grammar::Severity::Note => {
                // `settled by ruling "NAME" (SOURCE): READING`: the name.
                let by = d.details.iter().find_map(|t| t.strip_prefix("settled by ruling \"").and_then(|r| r.split('"').next()));
                findings.settled.push(match by {
                    Some(r) => format!("{line}: ruling “{r}”"),
                    None => line,
                });
            }
            _ => findings.open.push(line),
        }
    }
    let verdicts = report
        .claims
        .iter()
        .map(|c| {
            let mut label = c.verdict.label(c.depth);
            if let Some(x) = &c.counterexample {
                let line = if x.line.is_empty() { "the setup".to_string() } else { format!("`{}`", x.line.join(" ")) };
                match &x.mv {
                    Some(mv) => label.push_str(&format!(": the move `{mv}` after {line}")),
                    None => label.push_str(&format!(": after {line}")),
                }
            }
            (c.name.clone(), label)
        })
        .collect();
    (verdicts, findings)
}

/// Writes the index of `entries` (Markdown and/or HTML).
fn write_index(args: &DocArgs, entries: &[Entry]) -> Result<(), Failure> {
    let rows: Vec<rulebook_book::index::Row> = entries.iter().map(|e| rulebook_book::index::row(&e.book, &e.folder)).collect();
    if args.format != DocFormat::Html {
        write(&args.out.join("index.md"), &rulebook_book::index::markdown(&rows))?;
    }
    if args.format != DocFormat::Md {
        let page = rulebook_book::index::html(&rows).map_err(|e| Failure::usage(format!("cannot render the index: {e}")))?;
        write(&args.out.join("index.html"), &page)?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| write_failure(path, e))
}

fn write_failure(path: &Path, e: std::io::Error) -> Failure {
    let mut f = Failure::usage(format!("cannot write `{}`: {e}", path.display()));
    f.code = EXIT_USAGE;
    f.kind = "output";
    f
}
