//! The command line: clap types. Their doc comments are the help text.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// The deepest perft the CLI accepts (the counts overflow long before, and the
/// interpreter allocates one move buffer per ply).
pub use rulebook_interpreter::text::epd::MAX_DEPTH;

/// Exit statuses, shared by all commands (also shown in `--help`).
const EXIT_STATUS: &str = "\
Exit status:
  0  success
  1  a check failed: a perft suite count did not match, `check` found errors,
     or `replay` found the record invalid (an illegal move, a wrong result)
  2  usage error, unreadable file, or input that cannot be used (rules, FEN, EPD)
  3  `perft` stopped by --max-nodes or --time (no count is given)

With --json, a command that fails prints {\"error\": {\"kind\", \"message\",
\"exit_code\", \"diagnostics\"}} on stdout (the text report still goes to stderr).";

/// rulebook: run chess variants written in the rules language.
///
/// A rules file describes a variant (board, pieces, moves, promotion,
/// castling, setup, how the game ends); `extends` builds one variant on
/// another. These commands check a rules file and execute it.
#[derive(Debug, Parser)]
#[command(name = "rulebook", version, after_help = EXIT_STATUS, arg_required_else_help = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the positions DEPTH plies ahead (perft), or run a perft suite (--epd).
    ///
    /// Counts the leaf positions DEPTH plies below a position, the number engine
    /// authors compare move generators by (draws by rule are ignored, as in
    /// published tables). The last line of the output is the count alone;
    /// --divide first lists each legal move (coordinate notation, SAN) with the
    /// count below it.
    ///
    /// With --epd, runs every check of a perft suite instead: one line per check
    /// (`ok   ID DEPTH NODES` or `FAIL ID DEPTH expected N got M`), then a
    /// summary. Exits with status 1 if any count differs, 2 if the suite cannot
    /// be read or has errors (nothing is run then).
    Perft(PerftArgs),
    /// List the legal moves of a position.
    ///
    /// One move a line: coordinate notation (e2e4, e7e8q, castling as
    /// king-takes-rook e1h1, drops as N@f3), then SAN with + for check and # for
    /// mate, sorted by the coordinate text. The last line gives their number, or
    /// says checkmate or stalemate when there are none.
    Moves(MovesArgs),
    /// Check a rules file: syntax, meaning, claims, ambiguities, well-formedness.
    ///
    /// Checks the file and every file it extends: syntax, names, moves, zones,
    /// castling, and the setup position; then the verifier (Z3 and a bounded
    /// search from the setup) proves or refutes each `claim`, finds rules that
    /// never apply and rules that conflict (with a witness position), and
    /// checks that the game is playable, terminates, and can be won by each
    /// side. Exits with status 1 if errors were found or a claim is refuted,
    /// 2 if the file cannot be read or the arguments are wrong.
    Check(CheckArgs),
    /// Play a game: against a random opponent, hot-seat, or a scripted line.
    ///
    /// On a terminal (or with moves piped to standard input), prints the
    /// board from the side to move's point of view before each of your
    /// moves and reads one line: a move in the variant's notation, `moves`
    /// (the legal moves), `board`, `undo` (take back your last move and the
    /// reply to it), `help`, `quit` or `resign`. The side you do not play
    /// (--as) makes random legal moves. Chance outcomes (a face-down piece's
    /// identity, a collision's roll) are drawn with the seeded random number
    /// generator, never chosen: a typed outcome (h4D) is refused. Without
    /// --seed a seed is taken from the clock and printed, so the game can be
    /// played again. The game stops when it ends by rule, on `quit` or
    /// `resign`, when the input ends, or on Ctrl-C (status 130; the record
    /// is saved first).
    ///
    /// With --moves, plays that line instead (a move that leaves its chance
    /// outcome open is drawn with the seed), prints each move as recorded and
    /// the final board, and stops; a bad move ends it with status 2.
    /// --record writes the game as a record (see `replay`) when it stops.
    /// Status 2 when the record cannot be written.
    Play(PlayArgs),
    /// Replay a game record and check it.
    ///
    /// Reads a record written by `play --record` (PGN-like: tags such as
    /// [Rules "…"] and [Seed "…"], then the moves), finds the rules file from
    /// its Rules tag (next to the record, then in the current directory)
    /// unless --rules is given, warns when the rules' hash differs from the
    /// RulesHash tag, and replays every move: each must be legal and name
    /// its chance outcome. When the game ended by rule, the Result tag must
    /// say how. Prints the moves and the final board. Exits with status 1 if
    /// the record is invalid (an illegal or incomplete move, a wrong result),
    /// 2 if it cannot be read or used.
    Replay(ReplayArgs),
    /// Format rules files: canonical indentation and alignment, comments kept.
    ///
    /// Rewrites each FILE in place (a folder: every .rules file below it,
    /// sorted): two spaces per brace level and two more on a statement's
    /// continuation lines, one space between tokens (two where two or more
    /// were written), the keys of a block and the trailing comments of
    /// consecutive lines aligned, no trailing whitespace, at most one blank
    /// line. Strings and comments are never changed. A file that does not
    /// parse gets only the line rules, with a note on stderr. --check writes
    /// nothing, prints each file that would change with its first differing
    /// line, and exits with status 1 if any would; status 2 when a file
    /// cannot be read, written or formatted.
    Fmt(FmtArgs),
    /// Write a variant's rulebook: its rules in plain language, diagrams, rulings, claims, perft.
    ///
    /// Generated from the model the interpreter plays: every item of the
    /// rules file (pieces, promotion, castling, hand, chance, spread,
    /// observation, sliding levels, phases, rules, the end) in words, the
    /// author's `##` doc comments beside the item they precede, the setup and
    /// each piece's movement as SVG, the rulings with their quotes, the claims
    /// with the verifier's verdicts (within --check-seconds), and the perft
    /// table of the setup (within --perft-depth and --perft-seconds). Given a
    /// folder, writes every rules file in it (and its subfolders) and an index
    /// that compares them. Markdown goes to NAME/rulebook.md with the SVGs
    /// beside it; HTML to NAME/rulebook.html, one page with everything inline.
    Doc(DocArgs),
    /// Run the language server for editors (Language Server Protocol over stdin and stdout).
    ///
    /// Diagnostics as you type (syntax, semantic, and the setup's quick
    /// checks, with the codes and help of `rulebook check`), the verifier on
    /// save (cancelled when the text changes again), hover, go to definition,
    /// references, document symbols, completion, rename, code actions and
    /// formatting. Started by the editor, not by hand: README.md shows the
    /// client configuration for Neovim, Helix and VS Code.
    Lsp(LspArgs),
}

/// Arguments of `rulebook lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Talk over stdin and stdout (the only transport; accepted because
    /// some clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Arguments of `rulebook doc`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  rulebook doc rules/chess.rules -o site
  rulebook doc rules/ -o site --format html --no-check")]
pub struct DocArgs {
    /// A rules file, or a folder of them.
    pub rules: PathBuf,
    /// Where to write (created if missing).
    #[arg(short = 'o', long, value_name = "DIR", default_value = "doc")]
    pub out: PathBuf,
    /// What to write.
    #[arg(long, value_enum, default_value_t = DocFormat::Both)]
    pub format: DocFormat,
    /// The deepest perft the table shows.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    pub perft_depth: u32,
    /// Seconds the perft table may count, per variant.
    #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub perft_seconds: u64,
    /// Seconds the verifier may spend on the claims, per variant.
    #[arg(long, value_name = "S", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub check_seconds: u64,
    /// Do not run the verifier: claims are listed as not checked.
    #[arg(long)]
    pub no_check: bool,
}

/// The formats `rulebook doc` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DocFormat {
    /// Markdown, with the diagrams as SVG files beside it.
    Md,
    /// One static HTML page per variant (inline CSS and SVG).
    Html,
    /// Both.
    Both,
}

/// Arguments of `rulebook perft`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  rulebook perft rules/chess.rules 5\n  rulebook perft rules/chess.rules 3 --divide --fen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq -'\n  rulebook perft rules/chess.rules --epd tests/perft/chess.epd --max-depth 4"
)]
pub struct PerftArgs {
    /// The variant's rules file, e.g. rules/chess.rules.
    pub rules: PathBuf,
    /// How many plies to look ahead (0 to 40).
    #[arg(
        required_unless_present = "epd",
        conflicts_with = "epd",
        value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64)
    )]
    pub depth: Option<u32>,
    /// Start from this position instead of the variant's setup (FEN; quote it).
    #[arg(long, value_name = "FEN", conflicts_with = "epd")]
    pub fen: Option<String>,
    /// Play these moves first (SAN or coordinate notation, separated by spaces;
    /// move numbers like `1.` are skipped), e.g. --play "e4 e5 Nf3".
    #[arg(long, value_name = "MOVES", conflicts_with = "epd")]
    pub play: Option<String>,
    /// Also show the count below each legal move (coordinate notation, SAN, count).
    #[arg(long, conflicts_with = "epd")]
    pub divide: bool,
    /// Count paths of DEPTH single decisions instead of DEPTH complete plies
    /// (they differ only where a ply holds several decisions: obligations).
    #[arg(long, conflicts_with_all = ["epd", "divide"])]
    pub decisions: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Run a perft suite: lines `id NAME`, `epd FEN` and `perft DEPTH NODES`
    /// (`#` starts a comment), or `FEN ;D1 20 ;D2 400` lines.
    #[arg(long, value_name = "FILE")]
    pub epd: Option<PathBuf>,
    /// With --epd: skip the checks deeper than this.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Threads to count with [default: the number of CPUs].
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<NonZeroUsize>,
    /// Stop once more than N leaves were counted (exit status 3, no count:
    /// an incomplete count would be a wrong one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds (decimals allowed; exit status 3, no count).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<std::time::Duration>,
    /// Count with a transposition table of MB megabytes, shared by the
    /// threads: a position met again at the same depth is counted once
    /// (64-bit keys; LANGUAGE.md §7 gives the chance of a wrong count).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: Option<u64>,
}

/// Parses `--time`: a positive number of seconds, at most a year.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = text.trim().parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 366.0 * 86400.0) {
        return Err(format!("`{text}` seconds: give a number above 0 and at most a year"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// Arguments of `rulebook moves`.
#[derive(Debug, Args)]
#[command(after_help = "Example:
  rulebook moves rules/chess.rules --fen 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2'")]
pub struct MovesArgs {
    /// The variant's rules file, e.g. rules/chess.rules.
    pub rules: PathBuf,
    /// The position (FEN; quote it) [default: the variant's setup].
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Play these moves first (SAN or coordinate notation, separated by spaces;
    /// move numbers like `1.` are skipped), e.g. --play "e4 e5 Nf3".
    #[arg(long, value_name = "MOVES")]
    pub play: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `rulebook check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The variant's rules file, e.g. rules/chess.rules.
    pub rules: PathBuf,
    /// Print one JSON object (the diagnostics, the summary and the verifier's report) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Seconds each solver query may take (the whole check gets six times as long).
    #[arg(long, value_name = "SECONDS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// Plies from the setup searched exhaustively for counterexamples (bounded model checking).
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=12))]
    pub depth: u32,
    /// Check only the claim with this name (the other analyses still run).
    #[arg(long, value_name = "NAME")]
    pub claim: Option<String>,
    /// Only the syntax and meaning checks (no verifier).
    #[arg(long)]
    pub quick: bool,
    /// Report every gap the verifier finds as open, as the rulebook alone
    /// leaves it: the file's rulings do not settle findings.
    #[arg(long)]
    pub without_rulings: bool,
    /// Verify the mutants of the file in DIR (the `.rules` files there that
    /// extend it, each weakening a rule) and report each claim of the file
    /// that none refutes as possibly vacuous (C0241). With `--quick`, only
    /// the mutants are verified.
    #[arg(long, value_name = "DIR")]
    pub mutants: Option<PathBuf>,
}

/// Which side a human plays, or whose view is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// The first player.
    White,
    /// The second player.
    Black,
    /// Both players (hot-seat); for a view, the arbiter's (everything).
    Both,
}

/// Arguments of `rulebook play`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  rulebook play rules/chess.rules --as white --seed 7
  rulebook play rules/chess.rules --moves 'e4 e5 Nf3' --record game.pgn")]
pub struct PlayArgs {
    /// The variant's rules file, e.g. rules/chess.rules.
    pub rules: PathBuf,
    /// Seed of the random number generator (chance outcomes, the random
    /// opponent) [default: from the clock, printed].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The side you play (`both`: hot-seat, each side sees its own view). With
    /// --moves: whose view the moves and the final board are shown in
    /// [default: white; with --moves, the arbiter's view].
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
    /// Play this line instead of reading moves (separated by spaces; move
    /// numbers like `1.` are skipped), e.g. --moves "e4 e5 Nf3".
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Write the game to FILE as a record when it stops: a regular file is
    /// replaced at once, never left half-written (a symlink's target is
    /// replaced, a FIFO or device written in place); the rules files played
    /// are refused.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Write and read moves in this letter set of the variant (e.g. `de`;
    /// `en`: the FEN letters only) [default: the FEN letters for writing;
    /// any set for reading].
    #[arg(long, value_name = "NAME")]
    pub letters: Option<String>,
    /// Start from this position instead of the variant's setup (FEN; quote it).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
}

/// Arguments of `rulebook replay`.
#[derive(Debug, Args)]
#[command(after_help = "Example:
  rulebook replay game.pgn --as black")]
pub struct ReplayArgs {
    /// The record, e.g. game.pgn.
    pub record: PathBuf,
    /// The rules file [default: the record's Rules tag, next to the record or
    /// in the current directory].
    #[arg(long, value_name = "RULES")]
    pub rules: Option<PathBuf>,
    /// Whose view the final board shows [default: the arbiter's, `both`].
    #[arg(long = "as", value_enum, value_name = "SIDE")]
    pub side: Option<Side>,
}

/// Arguments of `rulebook fmt`.
#[derive(Debug, Args)]
#[command(after_help = "Example:
  rulebook fmt --check rules examples")]
pub struct FmtArgs {
    /// The rules files, or folders to format every .rules file below.
    #[arg(required = true, value_name = "FILE")]
    pub paths: Vec<PathBuf>,
    /// Write nothing; list the files that would change and exit with status 1 if any would.
    #[arg(long)]
    pub check: bool,
}

impl Cli {
    /// Checks what clap's declarations cannot express: `--max-depth` needs
    /// `--epd` (a `requires` would be waived because DEPTH conflicts with
    /// `--epd`). The error is clap's own, with the subcommand's usage.
    pub fn validate(&self) -> Result<(), clap::Error> {
        use clap::CommandFactory;
        if let Command::Perft(args) = &self.command {
            if args.max_depth.is_some() && args.epd.is_none() {
                let mut cmd = Cli::command();
                let perft = cmd
                    .find_subcommand_mut("perft")
                    .map(|c| c.clone().bin_name("rulebook perft"));
                let mut cmd = perft.unwrap_or(cmd);
                return Err(cmd.error(
                    clap::error::ErrorKind::MissingRequiredArgument,
                    "--max-depth <D> limits a perft suite: give the suite with --epd <FILE>, or use DEPTH alone",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
