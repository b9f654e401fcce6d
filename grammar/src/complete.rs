//! What the grammar accepts at a place in a file, for an editor's completion.
//!
//! The text before the place is parsed with a character no rule accepts put
//! right after it: when the parse fails exactly there, pest's list of the
//! rules it tried there is what may come next. Each rule becomes a keyword
//! (its literal, read from `rules.pest`), a name (a piece, a direction, …),
//! or something to type by hand (a string, a number, a square).

use crate::parser::{Rule, RulesParser};
use pest::error::{ErrorVariant, InputLocation};
use pest::Parser;

/// One kind of thing that may come next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A keyword, e.g. `files`.
    Keyword(&'static str),
    /// A name: a piece, a direction word, a die, a letter set, a phase, a claim.
    Name,
}

/// A character that no rule of the grammar accepts.
const STOP: char = '\u{7}';

/// What may stand at byte `offset` of `source` (the start of the word being
/// typed there); `None` when the text before it has a syntax error (then
/// nothing can be said about the place).
pub fn expected_at(source: &str, offset: usize) -> Option<Vec<Expected>> {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let mut text = source[..offset].to_string();
    text.push(STOP);
    let Err(err) = RulesParser::parse(Rule::file, &text) else { return Some(Vec::new()) };
    let at = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if at != offset {
        return None;
    }
    let ErrorVariant::ParsingError { positives, .. } = &err.variant else { return Some(Vec::new()) };
    let mut out = Vec::new();
    for rule in positives {
        for e in meaning(*rule) {
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    Some(out)
}

/// What `rule` stands for in a completion list: the keywords and names
/// that can begin it ([`first`]).
fn meaning(rule: Rule) -> Vec<Expected> {
    let mut out = Vec::new();
    first(&format!("{rule:?}"), &mut Vec::new(), &mut out);
    out
}

/// The grammar's text.
static GRAMMAR: &str = include_str!("../rules.pest");

/// Adds to `out` what can begin the rule called `rule` (its FIRST set, in
/// keywords and names), read from the grammar's text; `seen` stops recursion.
/// Returns whether the rule can match nothing.
fn first(rule: &str, seen: &mut Vec<String>, out: &mut Vec<Expected>) -> bool {
    if rule == "name" {
        push(out, Expected::Name);
        return false;
    }
    if seen.iter().any(|s| s == rule) || seen.len() > 64 {
        return false;
    }
    seen.push(rule.to_string());
    let Some(body) = body_of(rule) else { return false };
    if let Some(word) = keyword_of(body) {
        push(out, Expected::Keyword(word));
        return false;
    }
    let tokens = tokens(body);
    let mut at = 0;
    alternatives(&tokens, &mut at, seen, out)
}

fn push(out: &mut Vec<Expected>, e: Expected) {
    if !out.contains(&e) {
        out.push(e);
    }
}

/// The body of rule `rule` in the grammar (between the braces after `=`).
fn body_of(rule: &str) -> Option<&'static str> {
    let mut rest = GRAMMAR;
    loop {
        let i = rest.find(rule)?;
        let before_ok = i == 0 || rest.as_bytes()[i - 1] == b'\n';
        let after = &rest[i + rule.len()..];
        let trimmed = after.trim_start_matches([' ', '\t']);
        if before_ok && trimmed.starts_with('=') {
            let open = trimmed.find('{')?;
            let body = &trimmed[open + 1..];
            let mut depth = 1;
            let mut in_str = false;
            let bytes = body.as_bytes();
            let mut k = 0;
            while k < bytes.len() {
                let b = bytes[k];
                if in_str {
                    if b == b'\\' {
                        k += 1;
                    } else if b == b'"' {
                        in_str = false;
                    }
                } else if b == b'"' {
                    in_str = true;
                } else if b == b'{' {
                    depth += 1;
                } else if b == b'}' {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&body[..k]);
                    }
                }
                k += 1;
            }
            return None;
        }
        rest = &rest[i + rule.len()..];
    }
}

/// `"word" ~ boundary`: the keyword a rule body stands for.
fn keyword_of(body: &'static str) -> Option<&'static str> {
    let b = body.trim();
    let word = b.strip_prefix('"')?.split('"').next()?;
    (b.contains("boundary") && !word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic() || c == '-')).then_some(word)
}

/// A token of a rule body.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Literal,
    Open,
    Close,
    Alt,
    Seq,
    Optional,
    Not,
}

fn tokens(body: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '"' | '\'' => {
                i += 1;
                while i < chars.len() && chars[i] != c {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                out.push(Tok::Literal);
            }
            '(' => out.push(Tok::Open),
            ')' => out.push(Tok::Close),
            '|' => out.push(Tok::Alt),
            '~' => out.push(Tok::Seq),
            '?' | '*' => out.push(Tok::Optional),
            '!' | '&' => out.push(Tok::Not),
            c if c.is_alphanumeric() || c == '_' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push(Tok::Ident(chars[start..i].iter().collect()));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// FIRST of `a | b | …` from `tokens[*at]` up to a closing `)` or the end;
/// whether it can match nothing.
fn alternatives(tokens: &[Tok], at: &mut usize, seen: &mut Vec<String>, out: &mut Vec<Expected>) -> bool {
    let mut nullable = false;
    loop {
        nullable |= sequence(tokens, at, seen, out);
        match tokens.get(*at) {
            Some(Tok::Alt) => *at += 1,
            Some(Tok::Close) => {
                *at += 1;
                return nullable;
            }
            _ => return nullable,
        }
    }
}

/// FIRST of `t1 ~ t2 ~ …` (up to `|`, `)` or the end); whether it can match nothing.
fn sequence(tokens: &[Tok], at: &mut usize, seen: &mut Vec<String>, out: &mut Vec<Expected>) -> bool {
    let mut still = true; // every term so far can match nothing
    while let Some(t) = tokens.get(*at) {
        if matches!(t, Tok::Alt | Tok::Close) {
            break;
        }
        if matches!(t, Tok::Seq) {
            *at += 1;
            continue;
        }
        let negated = matches!(t, Tok::Not);
        if negated {
            *at += 1;
        }
        let mut sink = Vec::new();
        let target = if still && !negated { &mut *out } else { &mut sink };
        let term_nullable = match tokens.get(*at) {
            Some(Tok::Open) => {
                *at += 1;
                alternatives(tokens, at, seen, target)
            }
            Some(Tok::Ident(name)) => {
                *at += 1;
                let mut inner = seen.clone();
                first(name, &mut inner, target)
            }
            Some(Tok::Literal) => {
                *at += 1;
                false
            }
            _ => {
                *at += 1;
                true
            }
        };
        let optional = matches!(tokens.get(*at), Some(Tok::Optional));
        if optional {
            *at += 1;
        }
        still &= negated || term_nullable || optional;
    }
    still
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_offers_the_item_keywords() {
        let got = expected_at("variant \"X\"\n", 12).expect("no error before");
        assert!(got.contains(&Expected::Keyword("piece")), "{got:?}");
        assert!(got.contains(&Expected::Keyword("board")), "{got:?}");
    }

    #[test]
    fn inside_a_piece_offers_its_parts() {
        let src = "piece King K {\n  ";
        let got = expected_at(src, src.len()).expect("no error before");
        assert!(got.contains(&Expected::Keyword("move")), "{got:?}");
        assert!(got.contains(&Expected::Keyword("royal")), "{got:?}");
        assert!(!got.contains(&Expected::Keyword("board")), "{got:?}");
    }

    #[test]
    fn a_promotion_target_is_a_name() {
        let src = "promotion {\n  Pawn on rank 8 to ";
        let got = expected_at(src, src.len()).expect("no error before");
        assert!(got.contains(&Expected::Name), "{got:?}");
    }

    #[test]
    fn an_error_before_the_place_says_nothing() {
        assert_eq!(expected_at("piece { }\n", 10), None);
    }
}
