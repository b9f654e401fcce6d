//! `rulebook play`: a game against a random opponent, hot-seat, or a
//! scripted line, with an optional record written when the game stops (also
//! when it is interrupted: SIGINT, SIGTERM or SIGHUP save it first).
//! Also what `replay` shares with it: views, end-of-game lines, the rules'
//! hash, and writing records.
//!
//! Where a record goes: a new path or a regular file is replaced atomically
//! (a temporary file beside it, renamed over it), a new file with the mode
//! the user's umask leaves of 0666, an existing one keeping its mode. A
//! symlink is followed: the file it names is what is replaced (the link
//! stays), and a link to nothing is written through, creating its target.
//! Anything else (a FIFO, a device such as `/dev/stdout`) is written in
//! place. The rules file being played and the files it extends are refused,
//! however they are named, before the game starts.

use super::{load, open, position, Context, Loaded};
use crate::cli::{PlayArgs, Side};
use crate::db;
use crate::report::{emit, Failure, EXIT_USAGE};
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::{Color, LetterSet};
use rulebook_interpreter::text::notation;
use rulebook_interpreter::text::record::{self, GameResult, Header, RecordedMove, Roster};
use rulebook_interpreter::play::session::{letter_set_named, result_of, PlayError, Session, FEN_LETTERS};
use rulebook_interpreter::engine::position::NO_KIND;
use rulebook_interpreter::{play::view, Move, Status};
use sha2::{Digest, Sha256};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Diagnostic code: a move after the game has ended by rule.
pub const GAME_OVER: &str = "E0517";
/// Diagnostic code: a move typed in interactive play names its chance outcome.
pub const TYPED_OUTCOME: &str = "E0522";

/// The exit status after an interrupt (SIGINT, SIGTERM, SIGHUP): 128 + SIGINT.
pub const EXIT_INTERRUPTED: i32 = 130;
/// The longest line interactive play reads; a longer one stops the game.
pub const MAX_LINE: usize = 64 * 1024;
/// The name of the player that makes random moves, in a record's roster.
const RANDOM_PLAYER: &str = "rulebook (random moves)";

/// The source name of the `--moves` text in diagnostics.
const MOVES_SOURCE: &str = "<--moves>";
/// The source name of a line typed in interactive play.
const INPUT_SOURCE: &str = "<input>";

/// What interactive play understands besides moves.
const HELP: &str = "\
Type a move in the variant's notation (e4, Nf3, exd5, O-O, e8=Q), or one of:
  moves   list the legal moves
  board   show the board again
  undo    take back your last move (and the reply to it)
  help    this text
  quit    stop the game (the result stays open: *)
  resign  give the game up
";

/// What interactive play adds in variants with face-down pieces.
const HIDDEN_HELP: &str = "\
A face-down piece (R? on the board) moves as its disguise, the letter shown,
and is revealed when it arrives: its identity is drawn at random from its
owner's face-down pieces, as is a captured face-down piece's. Outcomes are
drawn, never chosen: type the move without its outcome (h4, not h4D).
";

/// The viewer `--as` means for a view: white, black, or (for `both` or no
/// option) the arbiter, who sees everything.
pub fn viewer(side: Option<Side>) -> Option<Color> {
    match side {
        Some(Side::White) => Some(0),
        Some(Side::Black) => Some(1),
        Some(Side::Both) | None => None,
    }
}

/// The letter set `name` of the loaded variant (`None`: the FEN letters,
/// read in any set; `en`: the FEN letters only); an unknown name is a usage
/// error that lists the variant's sets.
pub fn letter_set(loaded: &Loaded, name: Option<&str>) -> Result<Option<LetterSet>, Failure> {
    let Some(name) = name else { return Ok(None) };
    let game = &loaded.variant.game;
    if let Some(set) = letter_set_named(game, name) {
        return Ok(Some(set));
    }
    let known: Vec<&str> = game.letter_sets.iter().map(|s| s.name.as_str()).collect();
    let has = if known.is_empty() {
        format!("{} declares no letter sets (its moves use the FEN letters)", game.name)
    } else {
        format!("{} declares: {} (and `{FEN_LETTERS}`, the FEN letters)", game.name, known.join(", "))
    };
    Err(Failure::usage(format!("no letter set `{name}`: {has}")))
}

/// `sha256:` and the SHA-256 (hex) of the texts of the rules file at `path`
/// and every file it extends, concatenated in the order they are loaded (the
/// file itself first). For a file that extends nothing this is what
/// `sha256sum` prints for it.
pub fn rules_hash(loaded: &Loaded, path: &Path) -> Result<String, Failure> {
    let file = open(&loaded.db, path)?;
    let mut hasher = Sha256::new();
    for f in db::chain(&loaded.db, file) {
        hasher.update(f.text(&loaded.db).as_bytes());
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("sha256:{hex}"))
}

/// What interactive play adds in variants with spread pieces or tunnels.
const SPREAD_HELP: &str = "\
A piece may split onto two squares: Nf3&h3 (equal weight), Nf3>h3 (red, the
first square, likelier); a pawn's red half is the front one (e4&e3). A half
on the board (Nr&, nb>) moves from its own square: Nf3xe5. Entangle with an
enemy half: Be2&c4~d5. Castling may be half of a king's split: O-O&f1.
Tunnel through an enemy piece: Ra7^a4. Collisions and tunnels are decided by
a roll, shown after the move (/red, /blue, /through, /bounce).
";

/// Paint the board for this output? Only a terminal, and not with `NO_COLOR` set.
fn paint() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The board as `viewer` sees it now, with what it knows of face-down pieces.
pub fn board(session: &Session, viewer: Option<Color>) -> String {
    view::render_styled(
        &session.variant,
        session.position(),
        viewer,
        session.letters.as_ref(),
        Some(&session.knowledge(viewer)),
        paint(),
    )
}

/// Move `ply` with its number, as `viewer` knows it (`1. e4`, `1... e5`).
/// The outcome of a collision or tunnel comes with its probability
/// (`3. Nf3xe5/red (chance 1/2)`).
pub fn move_line(session: &Session, ply: usize, viewer: Option<Color>) -> String {
    let pos = &session.positions()[ply];
    // Mid-ply the decision is the obligation's player's.
    let line = RecordedMove { number: pos.fullmove, side: session.variant.decider(pos), text: session.san_for(ply, viewer) }.numbered();
    match session.moves().get(ply) {
        Some(rulebook_interpreter::flow::Action::Move(m)) if m.outcome != 0 => format!("{line} (chance {})", session.variant.probability(pos, m)),
        _ => line,
    }
}

/// How a game that ended by rule ended: the rule, the result in words, and
/// the result (`checkmate`, `Black wins`, `0-1`). `None` while it goes on.
fn ending(session: &Session) -> Option<(String, String, GameResult)> {
    let status = session.status();
    let result = result_of(status, session.position().side)?;
    let what = match status {
        Status::Ongoing => return None,
        Status::Checkmate(_) => "checkmate".to_string(),
        Status::Stalemate(_) => "stalemate".to_string(),
        Status::FiftyMoves => "draw by the move limit".to_string(),
        Status::Repetition => "draw by repetition".to_string(),
        Status::Rule { rule, .. } => format!("rule \"{}\"", session.variant.game.rules.get(rule).map_or("", |r| r.name.as_str())),
    };
    Some((what, result_words(session, result), result))
}

/// How a game that ended by rule ended: `Game over: checkmate; Black wins (0-1)`.
pub fn end_line(session: &Session) -> Option<String> {
    let (what, words, result) = ending(session)?;
    Some(format!("Game over: {what}; {words} ({})", result.as_str()))
}

/// How a game that ended by rule ended, for a help line: `checkmate: Black wins`.
pub fn end_words(session: &Session) -> String {
    ending(session).map_or_else(String::new, |(what, words, _)| format!("{what}: {words}"))
}

/// `White wins`, `Black wins`, `drawn`, `not finished`.
pub fn result_words(session: &Session, result: GameResult) -> String {
    let game = &session.variant.game;
    match result {
        GameResult::WhiteWins => format!("{} wins", view::player_name(game, 0)),
        GameResult::BlackWins => format!("{} wins", view::player_name(game, 1)),
        GameResult::Draw => "drawn".to_string(),
        GameResult::Unfinished => "not finished".to_string(),
    }
}

/// The error for a move written after the game ended by rule.
pub fn game_over(session: &Session, name: &str, span: Span, text: &str) -> Diagnostic {
    Diagnostic::error(GAME_OVER, name, span, format!("`{text}` comes after the end of the game"), "the game is already over")
        .with_help(format!("the move before it ended the game ({})", end_words(session)))
}

/// The words of a line of moves with their byte offsets, move numbers
/// (`1.`, `12...`, the `1.` of `1.e4`) left out.
pub fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        if !c.is_whitespace() {
            start.get_or_insert(i);
            continue;
        }
        let Some(s) = start.take() else { continue };
        let word = &line[s..i];
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let rest = if word[digits..].starts_with('.') { word[digits..].trim_start_matches('.') } else { word };
        if !rest.is_empty() {
            out.push((i - rest.len(), rest));
        }
    }
    out
}

/// `cannot write the record `PATH`: …`, a usage failure (status 2).
fn cannot_write(path: &Path, why: impl std::fmt::Display) -> Failure {
    Failure::usage(format!("cannot write the record `{}`: {why}", path.display()))
}

/// Writes the record `text` to `path`: atomically (a temporary file beside
/// the target, renamed over it) when the target is a regular file or a new
/// path; a symlink's target is replaced, the link kept; anything else (a
/// FIFO, a device) is written in place. A new file gets the mode the umask
/// leaves of 0666, a replaced one keeps its mode. Every error names the path.
pub fn write_record(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: &dyn std::fmt::Display| cannot_write(path, e);
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    match std::fs::metadata(path) {
        // A link to nothing: written through, which creates its target.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && is_link => write_in_place(path, text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => write_atomic(path, path, text, None),
        Err(e) => Err(fail(&e)),
        Ok(m) if m.is_dir() => Err(fail(&"it is a directory")),
        Ok(m) if m.is_file() => {
            let target = if is_link { std::fs::canonicalize(path).map_err(|e| fail(&e))? } else { path.to_path_buf() };
            write_atomic(path, &target, text, Some(m.permissions()))
        }
        Ok(_) => write_in_place(path, text),
    }
}

/// Writes `text` into what is at `path` (a FIFO, a device, a symlink's
/// missing target), without a temporary file.
fn write_in_place(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: std::io::Error| cannot_write(path, e);
    let mut file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).open(path).map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.flush().map_err(fail)
}

/// Writes `text` to `target` (`path` or the file its symlink names)
/// atomically: into a temporary file in the same directory, then renamed
/// over `target`, so that it is never half written. `keep`: the mode of
/// the file replaced; a new file gets 0666 less the umask.
fn write_atomic(path: &Path, target: &Path, text: &str, keep: Option<std::fs::Permissions>) -> Result<(), Failure> {
    let fail = |e: &dyn std::fmt::Display| cannot_write(path, e);
    let dir = directory_of(target);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".rulebook-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The mode is given to open(2), which takes the umask off it.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(&dir).map_err(|e| fail(&e))?;
    tmp.write_all(text.as_bytes()).map_err(|e| fail(&e))?;
    if let Some(mode) = keep {
        tmp.as_file().set_permissions(mode).map_err(|e| fail(&e))?;
    }
    tmp.as_file().sync_all().map_err(|e| fail(&e))?;
    tmp.persist(target).map_err(|e| fail(&e.error))?;
    Ok(())
}

/// Are `a` and `b` one file (through links and other spellings of the
/// path)? Compared by device and inode, from `stat`: nothing is opened, so
/// a FIFO does not block. `false` when either is not there.
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        x.dev() == y.dev() && x.ino() == y.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (x, y);
        matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(p), Ok(q)) if p == q)
    }
}

/// Refuses, before the game, a record path that cannot be a record: a
/// directory, or one of the rules files `rules` (the file played and those
/// it extends), however named. (A path in a directory that does not exist
/// is refused earlier, before the rules are read.)
fn check_record_path(path: &Path, rules: &[PathBuf]) -> Result<(), Failure> {
    if path.is_dir() {
        return Err(cannot_write(path, "it is a directory"));
    }
    for (i, file) in rules.iter().enumerate() {
        if same_file(path, file) {
            let what = if i == 0 {
                format!("it is the rules file being played (`{}`)", file.display())
            } else {
                format!("it is a rules file that `{}` extends (`{}`)", rules[0].display(), file.display())
            };
            return Err(cannot_write(path, what));
        }
    }
    Ok(())
}

/// The directory a file is in (`.` for a bare file name).
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Renders one diagnostic against the loaded sources as a failure with `code`.
fn fail_with(loaded: &Loaded, d: Diagnostic, code: u8, cx: Context) -> Failure {
    Failure::reports(code, loaded.render(std::slice::from_ref(&d), cx.color))
}

/// What `--record` needs besides the session: where, and the tags that do
/// not come from the session.
struct RecordTo {
    /// The record's path.
    path: PathBuf,
    /// The rules file as given (the `Rules` tag).
    rules: String,
    /// The `RulesHash` tag.
    hash: String,
    /// Was the game started from a `--fen`?
    from_fen: bool,
    /// The roster's players.
    white: String,
    /// The roster's players.
    black: String,
}

impl RecordTo {
    /// The record of `session` so far, with `result`.
    fn text(&self, session: &Session, result: GameResult) -> String {
        let header = Header {
            roster: Roster { white: self.white.clone(), black: self.black.clone(), ..Roster::default() },
            variant: session.variant.game.name.clone(),
            rules: self.rules.clone(),
            rules_hash: Some(self.hash.clone()),
            seed: Some(session.seed),
            letters: Some(session.letters.as_ref().map_or_else(|| FEN_LETTERS.to_string(), |s| s.name.clone())),
            fen: self.from_fen.then(|| session.variant.fen(session.start())),
            result,
        };
        record::write(&header, &session.recorded())
    }
}

/// The record an interrupt saves: its path and its text as of the last
/// move (`None` once the record is written or when there is none).
type Pending = Arc<Mutex<Option<(PathBuf, String)>>>;

/// Saves the pending record when the process is interrupted (SIGINT,
/// SIGTERM, SIGHUP), then exits with [`EXIT_INTERRUPTED`]: the handler runs
/// on its own thread, so it works while play waits for a line.
fn save_on_interrupt(pending: &Pending) {
    let pending = Arc::clone(pending);
    let installed = ctrlc::set_handler(move || {
        let mut guard = lock(&pending);
        match guard.take() {
            Some((path, text)) => match write_record(&path, &text) {
                Ok(()) => eprintln!("\nInterrupted: the game stops; the record is in `{}`.", path.display()),
                Err(f) => eprint!("\nInterrupted: the game stops.\n{}", f.text),
            },
            None => eprintln!("\nInterrupted."),
        }
        // The lock is held to the end: the game cannot write the record meanwhile.
        std::process::exit(EXIT_INTERRUPTED);
    });
    if let Err(e) = installed {
        eprintln!("warning: an interrupt will not save the record: {e}");
    }
}

/// Runs `rulebook play`.
pub fn run(args: &PlayArgs, cx: Context) -> Result<u8, Failure> {
    if let Some(path) = &args.record {
        // The directory first (before the rules are read), as before.
        let dir = directory_of(path);
        if !dir.is_dir() {
            return Err(cannot_write(path, format!("there is no directory `{}`", dir.display())));
        }
    }
    let mut loaded = load(&args.rules, cx)?;
    if let Some(path) = &args.record {
        let file = open(&loaded.db, &args.rules)?;
        let rules: Vec<PathBuf> = db::chain(&loaded.db, file).iter().map(|f| f.path(&loaded.db).clone()).collect();
        check_record_path(path, &rules)?;
    }
    let letters = letter_set(&loaded, args.letters.as_deref())?;
    let start = position(&mut loaded, args.fen.as_deref(), cx)?;
    let hash = rules_hash(&loaded, &args.rules)?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = clock_seed();
            eprintln!("seed: {seed} (give --seed {seed} to play this game again)");
            seed
        }
    };
    let mut session = Session::new(loaded.variant.clone(), start, seed, letters);
    let side = args.side.unwrap_or(Side::White);
    let player = |color: Color| {
        let human = args.moves.is_some() || side == Side::Both || (side == Side::White) == (color == 0);
        if human { "?".to_string() } else { RANDOM_PLAYER.to_string() }
    };
    let to = args.record.as_ref().map(|path| RecordTo {
        path: path.clone(),
        rules: args.rules.display().to_string(),
        hash,
        from_fen: args.fen.is_some(),
        white: player(0),
        black: player(1),
    });
    let pending: Pending = Arc::new(Mutex::new(None));
    let played = match &args.moves {
        // A scripted game that fails writes no record.
        Some(line) => scripted(&mut loaded, &mut session, line, args.side, cx)?,
        None => {
            if to.is_some() {
                save_on_interrupt(&pending);
            }
            // An interactive game that fails (its input or output broke)
            // still writes its record, unfinished, before the error.
            interactive(&mut loaded, &mut session, side, to.as_ref(), &pending, cx)
                .map_err(|f| (f, session.result_by_rule().unwrap_or(GameResult::Unfinished)))
                .map_or_else(|(f, result)| write_then_fail(to.as_ref(), &pending, &session, result, f), Ok)?
        }
    };
    if let Some(to) = &to {
        write_final(to, &pending, &session, played)?;
    }
    Ok(0)
}

/// The pending record, locked (usable even if a thread panicked holding it).
fn lock(pending: &Pending) -> MutexGuard<'_, Option<(PathBuf, String)>> {
    pending.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes the record of `session` with `result` as the game ends. The
/// pending record is dropped and its lock held while writing, so that an
/// interrupt cannot write it at the same time.
fn write_final(to: &RecordTo, pending: &Pending, session: &Session, result: GameResult) -> Result<(), Failure> {
    let mut guard = lock(pending);
    *guard = None;
    write_record(&to.path, &to.text(session, result))
}

/// Writes the record of a game that failed (its result as it stood), then
/// returns the failure `f` (or the write's, when that fails too).
fn write_then_fail(to: Option<&RecordTo>, pending: &Pending, session: &Session, result: GameResult, f: Failure) -> Result<GameResult, Failure> {
    if let Some(to) = to {
        if let Err(w) = write_final(to, pending, session, result) {
            return Err(Failure::reports(f.code, format!("{}{}", f.text, w.text)));
        }
    }
    Err(f)
}

/// A seed from the clock (nanoseconds since 1970, mixed).
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    // SplitMix64's finaliser spreads nearby times over all 64 bits.
    let mut z = (nanos as u64) ^ ((nanos >> 64) as u64) ^ u64::from(std::process::id());
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays the `--moves` line, printing each move as recorded, then the final
/// board, both as `side` knows them (by default the arbiter, who knows all).
/// A bad move is a report into the `<--moves>` text (status 2).
fn scripted(loaded: &mut Loaded, session: &mut Session, line: &str, side: Option<Side>, cx: Context) -> Result<GameResult, Failure> {
    loaded.extra.insert(MOVES_SOURCE, line);
    // Whose view the moves and the board are shown in (the arbiter's: the record's).
    let shown = viewer(side);
    for (offset, word) in words(line) {
        let span = Span::new(offset, offset + word.len());
        if session.status() != Status::Ongoing {
            return Err(fail_with(loaded, game_over(session, MOVES_SOURCE, span, word), EXIT_USAGE, cx));
        }
        // An activation, relocation or pass (LANGUAGE §6.5), else a move.
        if let Some(read) = session.non_move(word, MOVES_SOURCE, offset) {
            let a = read.map_err(|d| fail_with(loaded, d, EXIT_USAGE, cx))?;
            session.play_action(a).map_err(|_| Failure::usage(format!("`{word}` cannot be played here")))?;
        } else {
            let candidates = session
                .candidates(word, MOVES_SOURCE, offset)
                .map_err(|d| fail_with(loaded, d, EXIT_USAGE, cx))?;
            draw(session, &candidates, word)?;
        }
        emit(&format!("{}\n", move_line(session, session.moves().len() - 1, shown)))?;
    }
    let mut out = if session.moves().is_empty() { String::new() } else { "\n".to_string() };
    out.push_str(&board(session, shown));
    if let Some(end) = end_line(session) {
        out.push_str(&end);
        out.push('\n');
    }
    emit(&out)?;
    Ok(session.result_by_rule().unwrap_or(GameResult::Unfinished))
}

/// Draws one of `candidates` with the session's generator and plays it.
fn draw(session: &mut Session, candidates: &[Move], word: &str) -> Result<Move, Failure> {
    let m = session
        .resolve(candidates)
        .ok_or_else(|| Failure::usage(format!("cannot draw the chance outcome of `{word}`")))?;
    session.play(m).map_err(|e| match e {
        PlayError::Illegal => Failure::usage(format!("`{word}` is not a legal move here")),
        PlayError::GameOver(_) => Failure::usage(format!("`{word}` comes after the end of the game")),
    })?;
    Ok(m)
}

/// A line of interactive input.
enum Line {
    /// A line of text (without its line end).
    Text(String),
    /// A line that is not UTF-8: where its first bad byte is, and the byte.
    NotText(usize, u8),
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line of at most [`MAX_LINE`] bytes from `input`.
fn read_line(input: &mut impl BufRead) -> Result<Line, Failure> {
    let mut buf = Vec::new();
    let n = input
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)
        .map_err(|e| Failure::usage(format!("cannot read the input: {e}")))?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > MAX_LINE {
        return Ok(Line::TooLong);
    }
    match String::from_utf8(buf) {
        Ok(text) => Ok(Line::Text(text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Ok(Line::NotText(at, e.as_bytes()[at]))
        }
    }
}

/// The error for a typed move that names its chance outcome: outcomes are
/// drawn, never chosen. `decision` is the move to type instead.
fn typed_outcome(session: &Session, text: &str, offset: usize, decision: &Move) -> Diagnostic {
    let pos = session.position();
    let decisions = session.decisions();
    let plain = notation::san_plain_in(&session.variant, pos, decision, &decisions, session.letters.as_ref());
    Diagnostic::error(
        TYPED_OUTCOME,
        INPUT_SOURCE,
        Span::new(offset, offset + text.len()),
        format!("`{text}` names its chance outcome: outcomes are drawn, never chosen"),
        "the move with an outcome",
    )
    .with_help(format!("type `{plain}`: its outcome is drawn when it is played"))
}

/// How many distinct chance outcomes `moves` have.
fn outcome_count(moves: &[Move]) -> usize {
    let mut seen: Vec<&Move> = Vec::new();
    for m in moves {
        if !seen.iter().any(|s| s.reveal == m.reveal && s.unveil == m.unveil && s.outcome == m.outcome) {
            seen.push(m);
        }
    }
    seen.len()
}

/// Takes back the last move a human (`humans`, by colour) made and every
/// move after it. Returns the moves taken back as `viewer` knows them, in
/// the order they were played; empty when no human has moved.
fn undo(session: &mut Session, humans: [bool; 2], viewer: Option<Color>) -> Vec<String> {
    let Some(last) = (0..session.moves().len()).rev().find(|&ply| humans[session.variant.decider(&session.positions()[ply]) as usize]) else {
        return Vec::new();
    };
    let taken: Vec<String> = (last..session.moves().len()).map(|ply| move_line(session, ply, viewer)).collect();
    while session.moves().len() > last {
        if session.undo().is_none() {
            break;
        }
    }
    taken
}

/// The legal decisions now, as the `moves` command lists them.
fn decisions_text(session: &Session) -> String {
    let v = &session.variant;
    let pos = session.position();
    let decisions = session.decisions();
    let legal = session.legal();
    let mut words: Vec<String> = decisions
        .iter()
        .map(|d| notation::san_plain_in(v, pos, d, &decisions, session.letters.as_ref()))
        .collect();
    // Activations, relocations and passes (a phase or a ply in progress).
    words.extend(
        v.actions(pos)
            .iter()
            .filter(|a| a.as_move().is_none())
            .map(|a| notation::action::action_san(v, pos, a, &legal, session.letters.as_ref())),
    );
    words.sort();
    let words_count = words.len();
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > record::LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    let n = words_count;
    let noun = if n == decisions.len() { "legal move" } else { "legal decision" };
    out.push_str(&if n == 1 { format!("1 {noun}\n") } else { format!("{n} {noun}s\n") });
    if legal.iter().any(|m| m.reveal != NO_KIND || m.unveil != NO_KIND) {
        out.push_str("(a face-down piece that moves is revealed on arrival: its identity is drawn at random)\n");
    }
    if legal.iter().any(|m| m.outcome != 0) {
        out.push_str("(a collision with a spread piece, or a tunnel, is decided by a roll)\n");
    }
    out
}

/// Plays with humans on the sides `side` says (the other side moves at
/// random), reading moves from standard input. Returns the result to record.
/// After every move (and undo) the record an interrupt would save is
/// brought up to date in `pending`.
fn interactive(
    loaded: &mut Loaded,
    session: &mut Session,
    side: Side,
    to: Option<&RecordTo>,
    pending: &Pending,
    cx: Context,
) -> Result<GameResult, Failure> {
    let humans = match side {
        Side::White => [true, false],
        Side::Black => [false, true],
        Side::Both => [true, true],
    };
    // Whose view the game is shown in between moves: the one human's, or
    // the arbiter's once a hot-seat game is over.
    let watcher = match side {
        Side::White => Some(0),
        Side::Black => Some(1),
        Side::Both => None,
    };
    let update = |session: &Session| {
        if let Some(to) = to {
            let result = session.result_by_rule().unwrap_or(GameResult::Unfinished);
            let text = to.text(session, result);
            let mut guard = lock(pending);
            *guard = Some((to.path.clone(), text));
        }
    };
    update(session);
    let stdin = std::io::stdin();
    // A prompt only for a person at a terminal; piped moves get none.
    let prompt = stdin.is_terminal();
    let mut input = stdin.lock();
    let result = 'game: loop {
        if let Some(result) = session.result_by_rule() {
            break 'game result;
        }
        // Mid-ply the decision is the obligation's player's.
        let mover = session.variant.decider(session.position());
        if !humans[mover as usize] {
            match session.random_action() {
                None => break 'game GameResult::Unfinished,
                Some(rulebook_interpreter::flow::Action::Move(m)) => {
                    draw(session, &[m], "the random move")?;
                }
                Some(a) => session.play_action(a).map_err(|_| Failure::usage("the random decision cannot be played".to_string()))?,
            }
            update(session);
            emit(&format!("{}\n", move_line(session, session.moves().len() - 1, watcher)))?;
            continue;
        }
        let me = Some(mover);
        let name = view::player_name(&session.variant.game, mover);
        emit(&format!("\n{}", board(session, me)))?;
        loop {
            if prompt {
                emit(&format!("{name}> "))?;
            }
            let line = match read_line(&mut input)? {
                Line::Text(line) => line,
                Line::NotText(at, byte) => {
                    eprintln!("error: the line is not UTF-8 text (byte 0x{byte:02x} at byte {}): type the move again", at + 1);
                    continue;
                }
                Line::TooLong => {
                    return Err(Failure::usage(format!("a line of more than {MAX_LINE} bytes: the input is not moves; the game stops")));
                }
                Line::End => {
                    emit(if prompt { "\nThe input ended: the game stops.\n" } else { "The input ended: the game stops.\n" })?;
                    break 'game GameResult::Unfinished;
                }
            };
            let text = line.trim();
            match text {
                "" => continue,
                "help" | "?" => {
                    emit(HELP)?;
                    if session.variant.game.hidden.is_some() {
                        emit(HIDDEN_HELP)?;
                    }
                    if session.variant.game.spread.is_some() || session.variant.game.tunnel.is_some() {
                        emit(SPREAD_HELP)?;
                    }
                }
                "moves" => emit(&decisions_text(session))?,
                "board" => emit(&format!("\n{}", board(session, me)))?,
                "undo" => {
                    let taken = undo(session, humans, me);
                    if taken.is_empty() {
                        eprintln!("error: nothing to take back: {name} has not moved yet");
                        continue;
                    }
                    update(session);
                    emit(&format!("Taken back: {}\n", taken.join(" ")))?;
                    continue 'game;
                }
                "quit" | "exit" => {
                    emit("The game stops.\n")?;
                    break 'game GameResult::Unfinished;
                }
                "resign" => {
                    let result = GameResult::win_for(mover ^ 1);
                    emit(&format!("{name} resigns; {} ({})\n", result_words(session, result), result.as_str()))?;
                    break 'game result;
                }
                _ => {
                    let offset = line.len() - line.trim_start().len();
                    loaded.extra.insert(INPUT_SOURCE, line.as_str());
                    // An activation, relocation or pass (LANGUAGE §6.5).
                    if let Some(read) = session.non_move(text, INPUT_SOURCE, offset) {
                        match read.map(|a| session.play_action(a)) {
                            Err(d) => eprint!("{}", loaded.render(std::slice::from_ref(&d), cx.color)),
                            Ok(Err(_)) => eprintln!("error: `{text}` cannot be played here"),
                            Ok(Ok(())) => {
                                update(session);
                                emit(&format!("{}\n", move_line(session, session.moves().len() - 1, me)))?;
                                continue 'game;
                            }
                        }
                        continue;
                    }
                    match session.candidates(text, INPUT_SOURCE, offset) {
                        Err(d) => eprint!("{}", loaded.render(std::slice::from_ref(&d), cx.color)),
                        Ok(candidates) => {
                            // The player decides; chance decides the outcome.
                            let Some(decision) = candidates.first().map(Move::decision) else { continue };
                            let mut branches: Vec<Move> =
                                session.legal().into_iter().filter(|m| m.decision() == decision).collect();
                            if branches.is_empty() {
                                // An equal split written with its colours the
                                // other way round: not listed as such, no chance.
                                branches = candidates.clone();
                            }
                            // A text that names an outcome the draw could
                            // decide otherwise is refused: nothing is played.
                            if outcome_count(&candidates) < outcome_count(&branches) {
                                let d = typed_outcome(session, text, offset, &decision);
                                eprint!("{}", loaded.render(std::slice::from_ref(&d), cx.color));
                                continue;
                            }
                            draw(session, &branches, text)?;
                            update(session);
                            emit(&format!("{}\n", move_line(session, session.moves().len() - 1, me)))?;
                            continue 'game;
                        }
                    }
                }
            }
        }
    };
    let mut out = format!("\n{}", board(session, watcher));
    if let Some(end) = end_line(session) {
        out.push_str(&end);
        out.push('\n');
    }
    emit(&out)?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_skip_move_numbers() {
        let line = "1. e4 e5 2.Nf3  12... Nc6\tO-O 0-0";
        let got: Vec<(usize, &str)> = words(line);
        let texts: Vec<&str> = got.iter().map(|w| w.1).collect();
        assert_eq!(texts, ["e4", "e5", "Nf3", "Nc6", "O-O", "0-0"]);
        for (offset, w) in got {
            assert_eq!(&line[offset..offset + w.len()], w);
        }
    }
}
