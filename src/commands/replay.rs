//! `rulebook replay`: reads a game record, replays it under its rules, and
//! checks it: every move legal and fully specified, the result as the rules
//! say when the game ended by rule.

use super::play::{board, end_line, end_words, game_over, letter_set, move_line, result_words, rules_hash, viewer};
use super::{load, Context, Loaded};
use crate::cli::ReplayArgs;
use crate::report::{self, emit, Failure, EXIT_FAILED, EXIT_USAGE};
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::text::fen::{self, FenSource};
use rulebook_interpreter::text::notation;
use rulebook_interpreter::text::record::{GameResult, Record, Tag};
use rulebook_interpreter::play::session::{Session, FEN_LETTERS};
use std::path::{Path, PathBuf};

/// Diagnostic code: the rules file the `Rules` tag names cannot be found.
pub const RULES_NOT_FOUND: &str = "E0515";
/// Diagnostic code: the `Letters` tag names a letter set the variant does not declare.
pub const UNKNOWN_LETTERS: &str = "E0516";
/// Diagnostic code: a move of the record leaves its chance outcome open.
pub const OPEN_OUTCOME: &str = "E0518";
/// Diagnostic code: the record's result is not how the game ended by rule.
pub const WRONG_RESULT: &str = "E0519";
/// Diagnostic code (warning): the rules' hash is not the `RulesHash` tag's.
pub const HASH_DIFFERS: &str = "E0520";
/// Diagnostic code (warning): the rules' variant is not the `Variant` tag's.
pub const VARIANT_DIFFERS: &str = "E0521";

/// Reads the record at `path` with the one input reader: a regular file of
/// at most 4 MiB of UTF-8 text (LANGUAGE.md §9; a game of ten thousand moves
/// takes about 100 KiB). FIFOs and devices are refused before they are opened.
fn read_record(path: &Path, name: &str) -> Result<String, Failure> {
    rulebook_interpreter::model::load::read_input(path).map_err(|e| Failure::usage(format!("cannot read the record `{name}`: {e}")))
}

/// Runs `rulebook replay`.
pub fn run(args: &ReplayArgs, cx: Context) -> Result<u8, Failure> {
    let name = args.record.display().to_string();
    let text = read_record(&args.record, &name)?;
    let render_record = |diags: &[Diagnostic]| report::render(diags, |n| (n == name).then(|| text.clone()), cx.color);
    let record = Record::parse(&name, &text).map_err(|diags| {
        let n = report::error_count(&diags);
        Failure::reports(
            EXIT_USAGE,
            format!("{}error: cannot use the record `{name}`: {} found\n", render_record(&diags), report::plural(n, "error")),
        )
    })?;
    let rules = match &args.rules {
        Some(path) => path.clone(),
        None => find_rules(&record, &args.record, &name)
            .map_err(|d| Failure::reports(EXIT_USAGE, render_record(std::slice::from_ref(&d))))?,
    };
    let mut loaded = load(&rules, cx)?;
    loaded.extra.insert(name.clone(), text.clone());
    let warnings = warnings(&loaded, &record, &rules, &name)?;
    if !warnings.is_empty() {
        eprint!("{}", loaded.render(&warnings, cx.color));
    }
    let usage = |loaded: &Loaded, d: Diagnostic| Failure::reports(EXIT_USAGE, loaded.render(std::slice::from_ref(&d), cx.color));
    let invalid = |loaded: &Loaded, d: Diagnostic| Failure::reports(EXIT_FAILED, loaded.render(std::slice::from_ref(&d), cx.color));

    let letters = match record.tag("Letters") {
        None => None,
        Some(tag) => match letter_set(&loaded, Some(&tag.value)) {
            Ok(set) => set,
            Err(_) => return Err(usage(&loaded, unknown_letters(&loaded, tag, &name))),
        },
    };
    let v = &loaded.variant;
    let start = match record.tag("FEN") {
        Some(tag) => fen::parse(&v.game, &v.tables, &tag.value, &FenSource { name: &name, offset: tag.value_span.start }),
        None => v.start(),
    }
    .map_err(|d| usage(&loaded, d))?;
    let mut session = Session::new(v.clone(), start, record.seed().unwrap_or(0), letters);
    let untagged = record.tag("Letters").is_none();

    for mv in &record.moves {
        if session.result_by_rule().is_some() {
            return Err(invalid(&loaded, game_over(&session, &name, mv.span, &mv.text)));
        }
        // An activation, relocation or pass (LANGUAGE §6.5), else a move.
        if let Some(read) = session.non_move(&mv.text, &name, mv.span.start) {
            let a = read.map_err(|d| invalid(&loaded, d))?;
            session.play_action(a).map_err(|_| Failure::usage(format!("`{}` cannot be played", mv.text)))?;
            continue;
        }
        let candidates = session.record_candidates(&mv.text, untagged, &name, mv.span.start).map_err(|d| invalid(&loaded, d))?;
        match candidates.as_slice() {
            [m] => {
                session.play(*m).map_err(|_| Failure::usage(format!("`{}` cannot be played", mv.text)))?;
            }
            _ => {
                let pos = session.position();
                let legal = session.legal();
                let options: Vec<String> = candidates
                    .iter()
                    .take(16)
                    .map(|m| notation::san_plain_in(&session.variant, pos, m, &legal, session.letters.as_ref()))
                    .collect();
                let d = Diagnostic::error(
                    OPEN_OUTCOME,
                    &name,
                    mv.span,
                    format!("`{}` leaves its chance outcome open", mv.text),
                    "a record must say what chance decided",
                )
                .with_help(format!("write the outcome that happened, one of: {}", options.join(" ")));
                return Err(invalid(&loaded, d));
            }
        }
    }

    let said = record.result();
    let by_rule = session.result_by_rule();
    if let (Some(actual), Some((said, span))) = (by_rule, said) {
        if actual != said {
            let d = Diagnostic::error(
                WRONG_RESULT,
                &name,
                span,
                format!("the result `{}` is not how the game ended", said.as_str()),
                "not how the game ended",
            )
            .with_help(format!("the last move ended the game ({}): write {}", end_words(&session), actual.as_str()));
            return Err(invalid(&loaded, d));
        }
    }

    let view = viewer(args.side);
    let mut out = String::new();
    for ply in 0..session.moves().len() {
        out.push_str(&move_line(&session, ply, view));
        out.push('\n');
    }
    out.push('\n');
    out.push_str(&board(&session, view));
    match end_line(&session) {
        Some(end) => out.push_str(&format!("{end}\n")),
        None => {
            let said = said.map_or(GameResult::Unfinished, |(r, _)| r);
            out.push_str(&format!(
                "Result: {} ({}; the game did not end by rule)\n",
                said.as_str(),
                result_words(&session, said)
            ));
        }
    }
    let n = session.moves().len();
    out.push_str(&format!("The record is valid: {}.\n", report::plural(n, "move")));
    emit(&out)?;
    Ok(0)
}

/// The rules file the record's `Rules` tag names: next to the record, else
/// relative to the current directory.
fn find_rules(record: &Record, record_path: &Path, name: &str) -> Result<PathBuf, Diagnostic> {
    let Some(tag) = record.tag("Rules") else {
        return Err(Diagnostic::error(
            RULES_NOT_FOUND,
            name,
            rulebook_grammar::ast::Span::new(0, 0),
            "the record does not say which rules it was played with",
            "no Rules tag",
        )
        .with_help("give the rules file with --rules, or add a [Rules \"path\"] tag"));
    };
    let given = PathBuf::from(&tag.value);
    let mut tries = Vec::new();
    if !given.is_absolute() {
        if let Some(dir) = record_path.parent() {
            tries.push(dir.join(&given));
        }
    }
    tries.push(given);
    for path in tries {
        if !tag.value.is_empty() && path.is_file() {
            return Ok(path);
        }
    }
    Err(Diagnostic::error(
        RULES_NOT_FOUND,
        name,
        tag.value_or_tag_span(),
        format!("cannot find the rules file `{}`", tag.value),
        "not next to the record, nor in the current directory",
    )
    .with_help("give the rules file with --rules"))
}

/// Warnings about tags that do not match the rules: `Variant`, `RulesHash`.
fn warnings(loaded: &Loaded, record: &Record, rules: &Path, name: &str) -> Result<Vec<Diagnostic>, Failure> {
    let game = &loaded.variant.game;
    let mut out = Vec::new();
    if let Some(tag) = record.tag("Variant") {
        if tag.value != game.name {
            out.push(
                Diagnostic::error(
                    VARIANT_DIFFERS,
                    name,
                    tag.value_or_tag_span(),
                    format!("the record is of `{}`, the rules are of `{}`", tag.value, game.name),
                    "the variant played",
                )
                .with_help(format!("replaying with `{}` anyway", rules.display()))
                .warning(),
            );
        }
    }
    if let Some(tag) = record.tag("RulesHash") {
        let hash = rules_hash(loaded, rules)?;
        if tag.value != hash {
            out.push(
                Diagnostic::error(
                    HASH_DIFFERS,
                    name,
                    tag.value_or_tag_span(),
                    format!("the rules file `{}` has changed since this game was recorded", rules.display()),
                    "the hash of the rules the game was played with",
                )
                .with_help("replaying with the rules as they are now; moves may no longer mean the same")
                .with_detail(format!("the rules now hash to {hash}"))
                .warning(),
            );
        }
    }
    Ok(out)
}

/// The error for a `Letters` tag that names no letter set of the variant.
fn unknown_letters(loaded: &Loaded, tag: &Tag, name: &str) -> Diagnostic {
    let game = &loaded.variant.game;
    let known: Vec<&str> = game.letter_sets.iter().map(|s| s.name.as_str()).collect();
    let help = if known.is_empty() {
        format!("{} declares no letter sets: write `{FEN_LETTERS}` for the FEN letters", game.name)
    } else {
        format!("{} declares: {} (and `{FEN_LETTERS}`, the FEN letters)", game.name, known.join(", "))
    };
    Diagnostic::error(UNKNOWN_LETTERS, name, tag.value_or_tag_span(), format!("no letter set `{}`", tag.value), "unknown letter set")
        .with_help(help)
}
