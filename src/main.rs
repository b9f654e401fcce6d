//! `rulebook`: the command-line interface of the rules language. It checks a
//! variant's rules file and executes it: legal moves, perft, perft suites,
//! games played and replayed from records.
//!
//! Rules files go through an incremental salsa database ([`db`]); every
//! problem with user input is a diagnostic rendered by ariadne ([`report`]).

// `Diagnostic` (the project's one error value) is large; results carry it by value everywhere.
#![allow(clippy::result_large_err)]

mod cli;
mod commands;
mod db;
mod lsp;
mod report;

use clap::Parser;
use cli::{Cli, Command};
use commands::Context;
use std::process::ExitCode;

/// Does the command line ask for JSON output? (Read from the raw arguments,
/// so that it also holds when clap rejects them.)
fn wants_json() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// Prints `failure` as a JSON error object on stdout.
fn emit_json_error(failure: &report::Failure) {
    // A closed stdout leaves only the exit status to tell.
    let _ = report::emit_json(&failure.json());
}

fn main() -> ExitCode {
    let json = wants_json();
    let cli = match Cli::try_parse().and_then(|cli| cli.validate().map(|()| cli)) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let informative = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand);
            if json && !informative {
                let text = e.render().to_string();
                let message = text.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
                let mut failure = report::Failure::usage(message);
                failure.code = e.exit_code().clamp(0, 255) as u8;
                emit_json_error(&failure);
            }
            e.exit();
        }
    };
    let cx = Context {
        color: report::stderr_color(),
    };
    let result = match &cli.command {
        Command::Perft(args) => commands::perft::run(args, cx),
        Command::Moves(args) => commands::moves::run(args, cx),
        Command::Check(args) => commands::check::run(args, cx),
        Command::Play(args) => commands::play::run(args, cx),
        Command::Replay(args) => commands::replay::run(args, cx),
        Command::Fmt(args) => commands::fmt::run(args, cx),
        Command::Doc(args) => commands::doc::run(args, cx),
        Command::Lsp(_) => lsp::run(),
    };
    let json = match &cli.command {
        Command::Perft(args) => args.json,
        Command::Moves(args) => args.json,
        Command::Check(args) => args.json,
        Command::Fmt(_) => false,
        Command::Play(_) | Command::Replay(_) | Command::Doc(_) | Command::Lsp(_) => false,
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            // A closed stdout is not an error to report (on stdout, of all places).
            if json && failure.code != report::EXIT_BROKEN_PIPE {
                emit_json_error(&failure);
            }
            eprint!("{}", failure.text);
            ExitCode::from(failure.code)
        }
    }
}
