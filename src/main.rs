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
mod report;

use clap::Parser;
use cli::{Cli, Command};
use commands::Context;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = cli.validate() {
        e.exit();
    }
    let cx = Context {
        color: report::stderr_color(),
    };
    let result = match &cli.command {
        Command::Perft(args) => commands::perft::run(args, cx),
        Command::Moves(args) => commands::moves::run(args, cx),
        Command::Check(args) => commands::check::run(args, cx),
        Command::Play(args) => commands::play::run(args, cx),
        Command::Replay(args) => commands::replay::run(args, cx),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            eprint!("{}", failure.text);
            ExitCode::from(failure.code)
        }
    }
}
