//! `rulebook moves`: the legal moves of a position.

use super::{load, play_line, position, Context};
use crate::cli::MovesArgs;
use crate::report::{emit, emit_json, Failure};
use rulebook_interpreter::flow::Action;
use rulebook_interpreter::model::Outcome;
use rulebook_interpreter::{text::notation, Status};
use serde::Serialize;

/// One legal move in `--json`.
#[derive(Debug, Serialize)]
struct MoveJson {
    /// Coordinate notation.
    #[serde(rename = "move")]
    coordinate: String,
    /// SAN with check marks.
    san: String,
    /// For a chance outcome: its exact probability once the move is chosen (`n/d`).
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<String>,
}

/// The `--json` output.
#[derive(Debug, Serialize)]
struct MovesJson {
    variant: String,
    fen: String,
    /// The side to move.
    side: String,
    in_check: bool,
    moves: Vec<MoveJson>,
    count: usize,
    /// `ongoing`, `checkmate`, `stalemate`, a draw by rule, or `rule "NAME"` (a `rule` item ended the game).
    status: String,
    /// For the side to move when the game is over: `win`, `lose` or `draw`.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
}

/// The word for an outcome.
fn outcome_word(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Lose => "lose",
        Outcome::Draw => "draw",
    }
}

/// Runs `rulebook moves`.
pub fn run(args: &MovesArgs, cx: Context) -> Result<u8, Failure> {
    let mut loaded = load(&args.rules, cx)?;
    let start = position(&mut loaded, args.fen.as_deref(), cx)?;
    let (pos, earlier) = play_line(&mut loaded, start, args.play.as_deref(), cx)?;
    let v = &loaded.variant;
    // The decisions of the player whose decision it is: in chess the legal
    // moves; in a phase or a ply in progress also placements, activations,
    // relocations and passes (LANGUAGE §6.5).
    let actions = v.actions(&pos);
    let legal: Vec<_> = actions.iter().filter_map(|a| a.as_move().copied()).collect();
    let mut moves: Vec<MoveJson> = actions
        .iter()
        .map(|a| match a {
            Action::Move(m) => MoveJson {
                coordinate: notation::coordinate(v, m),
                san: notation::san(v, &pos, m, &legal),
                probability: m.is_chance().then(|| v.probability(&pos, m).to_string()),
            },
            other => MoveJson {
                coordinate: notation::action::action_coordinate(v, other),
                san: notation::action::action_san(v, &pos, other, &legal, None),
                probability: None,
            },
        })
        .collect();
    moves.sort_by(|a, b| a.coordinate.cmp(&b.coordinate));
    // Whose decision it is (mid-ply: the obligation's player).
    let side = v.game.players[v.decider(&pos) as usize].name.clone();
    let noun = if legal.len() == actions.len() { "legal move" } else { "legal decision" };
    // The FEN's clock or the played line can already have reached a draw rule.
    let (status, outcome) = match v.status_in_game(&pos, &earlier) {
        Status::Ongoing => ("ongoing".to_string(), None),
        Status::Checkmate(o) => ("checkmate".to_string(), Some(o)),
        Status::Stalemate(o) => ("stalemate".to_string(), Some(o)),
        Status::FiftyMoves => ("draw by the fifty-move rule".to_string(), Some(Outcome::Draw)),
        Status::Repetition => ("draw by repetition".to_string(), Some(Outcome::Draw)),
        Status::Rule { rule, outcome } => (format!("rule \"{}\"", v.game.rules.get(rule).map_or("", |r| r.name.as_str())), Some(outcome)),
    };
    if args.json {
        let count = moves.len();
        emit_json(&MovesJson {
            variant: v.game.name.clone(),
            fen: v.fen(&pos),
            side,
            in_check: v.in_check(&pos),
            moves,
            count,
            status,
            outcome: outcome.map(outcome_word),
        })?;
        return Ok(0);
    }
    let width = moves
        .iter()
        .map(|m| m.coordinate.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let san_width = moves.iter().map(|m| m.san.chars().count()).max().unwrap_or(0);
    for m in &moves {
        match &m.probability {
            // A chance outcome: its probability in a third column.
            Some(p) => out.push_str(&format!("{:<width$}  {:<san_width$}  {p}\n", m.coordinate, m.san)),
            None => out.push_str(&format!("{:<width$}  {}\n", m.coordinate, m.san)),
        }
    }
    let decisions = actions.iter().map(|a| a.as_move().map(|m| Action::Move(m.decision())).unwrap_or(*a)).collect::<std::collections::HashSet<_>>().len();
    match outcome {
        None if moves.len() == 1 => out.push_str(&format!("1 {noun}\n")),
        None if decisions != moves.len() => out.push_str(&format!(
            "{} {noun}s: {decisions} choices, counted with each chance outcome\n",
            moves.len()
        )),
        None => out.push_str(&format!("{} {noun}s\n", moves.len())),
        Some(o) => {
            let result = match o {
                Outcome::Win => format!("{side} wins"),
                Outcome::Lose => format!("{side} loses"),
                Outcome::Draw => "draw".to_string(),
            };
            let n = moves.len();
            let counted = if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") };
            out.push_str(&format!("{counted}: {status}, {side} to move; {result}\n"));
        }
    }
    emit(&out)?;
    Ok(0)
}
