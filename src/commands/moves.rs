//! `rulebook moves`: the legal moves of a position.

use super::{load, play_line, position, Context};
use crate::cli::MovesArgs;
use crate::report::{emit, emit_json, Failure};
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
    // In a phase the decisions are the phase's (placements while the hand holds pieces).
    let legal: Vec<_> = if pos.flow.is_some() {
        let actions = v.actions(&pos);
        if actions.iter().any(|a| a.as_move().is_none()) {
            return Err(Failure::usage(
                "this position is a ply in progress whose decisions are not all moves (relocations, activations, passes), which have no notation yet".to_string(),
            ));
        }
        actions.iter().filter_map(|a| a.as_move().copied()).collect()
    } else {
        v.legal_moves(&pos)
    };
    let mut moves: Vec<MoveJson> = legal
        .iter()
        .map(|m| MoveJson {
            coordinate: notation::coordinate(v, m),
            san: notation::san(v, &pos, m, &legal),
            probability: m.is_chance().then(|| v.probability(&pos, m).to_string()),
        })
        .collect();
    moves.sort_by(|a, b| a.coordinate.cmp(&b.coordinate));
    let side = v.game.players[pos.side as usize].name.clone();
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
    let decisions = legal.iter().map(|m| m.decision()).collect::<std::collections::HashSet<_>>().len();
    match outcome {
        None if moves.len() == 1 => out.push_str("1 legal move\n"),
        None if decisions != moves.len() => out.push_str(&format!(
            "{} legal moves: {decisions} choices, counted with each chance outcome\n",
            moves.len()
        )),
        None => out.push_str(&format!("{} legal moves\n", moves.len())),
        Some(o) => {
            let result = match o {
                Outcome::Win => format!("{side} wins"),
                Outcome::Lose => format!("{side} loses"),
                Outcome::Draw => "draw".to_string(),
            };
            let n = moves.len();
            let counted = if n == 1 { "1 legal move".to_string() } else { format!("{n} legal moves") };
            out.push_str(&format!("{counted}: {status}, {side} to move; {result}\n"));
        }
    }
    emit(&out)?;
    Ok(0)
}
