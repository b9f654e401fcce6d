//! `rulebook play`: a game against a random opponent, hot-seat, or a
//! scripted line, with an optional record written when the game stops.
//! Also what `replay` shares with it: views, end-of-game lines, the rules'
//! hash, and writing files atomically.

use super::{load, open, position, Context, Loaded};
use crate::cli::{PlayArgs, Side};
use crate::db;
use crate::report::{emit, Failure, EXIT_USAGE};
use rulebook_grammar::ast::Span;
use rulebook_grammar::Diagnostic;
use rulebook_interpreter::model::{Color, LetterSet};
use rulebook_interpreter::notation;
use rulebook_interpreter::record::{self, GameResult, Header, RecordedMove};
use rulebook_interpreter::session::{result_of, PlayError, Session};
use rulebook_interpreter::position::NO_KIND;
use rulebook_interpreter::{view, Move, Status};
use sha2::{Digest, Sha256};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Diagnostic code: a move after the game has ended by rule.
pub const GAME_OVER: &str = "E0517";

/// The source name of the `--moves` text in diagnostics.
const MOVES_SOURCE: &str = "<--moves>";
/// The source name of a line typed in interactive play.
const INPUT_SOURCE: &str = "<input>";

/// What interactive play understands besides moves.
const HELP: &str = "\
Type a move in the variant's notation (e4, Nf3, exd5, O-O, e8=Q), or one of:
  moves   list the legal moves
  board   show the board again
  help    this text
  quit    stop the game (the result stays open: *)
  resign  give the game up
";

/// What interactive play adds in variants with face-down pieces.
const HIDDEN_HELP: &str = "\
A face-down piece (R? on the board) moves as its disguise, the letter shown,
and is revealed when it arrives: its identity is drawn at random from its
owner's face-down pieces, as is a captured face-down piece's.
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

/// The letter set `name` of the loaded variant (`None`: the FEN letters); an
/// unknown name is a usage error that lists the variant's sets.
pub fn letter_set(loaded: &Loaded, name: Option<&str>) -> Result<Option<LetterSet>, Failure> {
    let Some(name) = name else { return Ok(None) };
    let game = &loaded.variant.game;
    if let Some(set) = game.letter_set(name) {
        return Ok(Some(set.clone()));
    }
    let known: Vec<&str> = game.letter_sets.iter().map(|s| s.name.as_str()).collect();
    let has = if known.is_empty() {
        format!("{} declares no letter sets (its moves use the FEN letters)", game.name)
    } else {
        format!("{} declares: {}", game.name, known.join(", "))
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
    let line = RecordedMove { number: pos.fullmove, side: pos.side, text: session.san_for(ply, viewer) }.numbered();
    match session.moves().get(ply) {
        Some(m) if m.outcome != 0 => format!("{line} (chance {})", session.variant.probability(pos, m)),
        _ => line,
    }
}

/// How a game that ended by rule ended: the rule, the result in words, and
/// the result (`checkmate`, `Black wins`, `0-1`). `None` while it goes on.
fn ending(session: &Session) -> Option<(&'static str, String, GameResult)> {
    let status = session.status();
    let result = result_of(status, session.position().side)?;
    let what = match status {
        Status::Ongoing => return None,
        Status::Checkmate(_) => "checkmate",
        Status::Stalemate(_) => "stalemate",
        Status::FiftyMoves => "draw by the move limit",
        Status::Repetition => "draw by repetition",
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

/// Writes `text` to `path` atomically: into a temporary file in the same
/// directory, then renamed over `path`, so that `path` is never half written.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: &dyn std::fmt::Display| Failure::usage(format!("cannot write `{}`: {e}", path.display()));
    let dir = directory_of(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".rulebook-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(|e| fail(&e))?;
    tmp.write_all(text.as_bytes()).map_err(|e| fail(&e))?;
    tmp.as_file().sync_all().map_err(|e| fail(&e))?;
    tmp.persist(path).map_err(|e| fail(&e.error))?;
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

/// Runs `rulebook play`.
pub fn run(args: &PlayArgs, cx: Context) -> Result<u8, Failure> {
    if let Some(path) = &args.record {
        let dir = directory_of(path);
        if !dir.is_dir() {
            return Err(Failure::usage(format!(
                "cannot write the record `{}`: there is no directory `{}`",
                path.display(),
                dir.display()
            )));
        }
    }
    let mut loaded = load(&args.rules, cx)?;
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
    let result = match &args.moves {
        Some(line) => scripted(&mut loaded, &mut session, line, args.side, cx)?,
        None => interactive(&mut loaded, &mut session, args.side.unwrap_or(Side::White), cx)?,
    };
    if let Some(path) = &args.record {
        let header = Header {
            variant: session.variant.game.name.clone(),
            rules: args.rules.display().to_string(),
            rules_hash: Some(hash),
            seed: Some(session.seed),
            letters: session.letters.as_ref().map(|s| s.name.clone()),
            fen: args.fen.as_ref().map(|_| session.variant.fen(session.start())),
            result,
        };
        write_atomic(path, &record::write(&header, &session.recorded()))?;
    }
    Ok(0)
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
        let candidates = session
            .candidates(word, MOVES_SOURCE, offset)
            .map_err(|d| fail_with(loaded, d, EXIT_USAGE, cx))?;
        draw(session, &candidates, word)?;
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

/// Reads a line from `lines`; `None` at the end of the input.
fn read_line(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> Result<Option<String>, Failure> {
    match lines.next() {
        None => Ok(None),
        Some(Ok(line)) => Ok(Some(line)),
        Some(Err(e)) => Err(Failure::usage(format!("cannot read the input: {e}"))),
    }
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
    words.sort();
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
    let n = decisions.len();
    out.push_str(&if n == 1 { "1 legal move\n".to_string() } else { format!("{n} legal moves\n") });
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
fn interactive(loaded: &mut Loaded, session: &mut Session, side: Side, cx: Context) -> Result<GameResult, Failure> {
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
    let stdin = std::io::stdin();
    // A prompt only for a person at a terminal; piped moves get none.
    let prompt = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    let result = 'game: loop {
        if let Some(result) = session.result_by_rule() {
            break 'game result;
        }
        let mover = session.position().side;
        if !humans[mover as usize] {
            let m = session.random_move();
            let Some(m) = m else { break 'game GameResult::Unfinished };
            draw(session, &[m], "the random move")?;
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
            let Some(line) = read_line(&mut lines)? else {
                emit(if prompt { "\nThe input ended: the game stops.\n" } else { "The input ended: the game stops.\n" })?;
                break 'game GameResult::Unfinished;
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
                    match session.candidates(text, INPUT_SOURCE, offset) {
                        Err(d) => eprint!("{}", loaded.render(std::slice::from_ref(&d), cx.color)),
                        Ok(candidates) => {
                            // The player decides; chance decides the outcome,
                            // whatever outcome the text may name.
                            let decision = candidates.first().map(Move::decision);
                            let mut branches: Vec<Move> =
                                session.legal().into_iter().filter(|m| Some(m.decision()) == decision).collect();
                            if branches.is_empty() {
                                // An equal split written with its colours the
                                // other way round: not listed as such, no chance.
                                branches = candidates;
                            }
                            draw(session, &branches, text)?;
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
