//! Builds the `rule` item (issue 13): triggers, conditions and effects.

use super::*;

impl Builder<'_> {
    pub(super) fn rule_def(&self, pair: Pair<'_, Rule>) -> Res<RuleDef> {
        let span = span_of(&pair);
        let (mut name, mut trigger, mut guard, mut effect) = (None, None, None, None);
        for c in pair.into_inner() {
            let c_span = span_of(&c);
            match c.as_rule() {
                Rule::string => name = Some(self.string(c)?),
                Rule::rule_trigger => {
                    let t = c.into_inner().find(|p| matches!(p.as_rule(), Rule::kw_ply_end | Rule::kw_offer));
                    let t = self.need(t, c_span, "missing trigger")?;
                    let node = if t.as_rule() == Rule::kw_offer { Trigger::Offer } else { Trigger::PlyEnd };
                    trigger = Some(Spanned::new(node, span_of(&t)));
                }
                Rule::rule_guard => {
                    let cond = c.into_inner().find(|p| p.as_rule() == Rule::cond);
                    guard = Some(self.cond(self.need(cond, c_span, "missing condition")?)?);
                }
                Rule::rule_effect => {
                    let inner = c.into_inner().find(|p| matches!(p.as_rule(), Rule::effect_forbid | Rule::effect_result));
                    let inner = self.need(inner, c_span, "missing effect")?;
                    let e_span = span_of(&inner);
                    effect = Some(Spanned::new(self.effect(inner, e_span)?, e_span));
                }
                _ => {}
            }
        }
        Ok(RuleDef {
            name: self.need(name, span, "missing rule name")?,
            trigger: self.need(trigger, span, "missing trigger")?,
            guard,
            effect: self.need(effect, span, "missing effect")?,
            span,
        })
    }

    fn effect(&self, pair: Pair<'_, Rule>, span: Span) -> Res<Effect> {
        if pair.as_rule() == Rule::effect_forbid {
            let cond = pair.into_inner().find(|p| p.as_rule() == Rule::cond);
            return Ok(Effect::Forbid(self.cond(self.need(cond, span, "missing condition")?)?));
        }
        let mut player = None;
        let mut wins = None;
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::kw_draw => return Ok(Effect::Draw),
                Rule::player_ref => player = Some(self.player_ref(c)?),
                Rule::kw_wins => wins = Some(true),
                Rule::kw_loses => wins = Some(false),
                _ => {}
            }
        }
        let player = self.need(player, span, "missing player")?;
        Ok(if self.need(wins, span, "missing wins/loses")? { Effect::Wins(player) } else { Effect::Loses(player) })
    }

    fn cond(&self, pair: Pair<'_, Rule>) -> Res<Cond> {
        let span = span_of(&pair);
        let mut any_of = Vec::new();
        for conj in pair.into_inner().filter(|p| p.as_rule() == Rule::cond_conj) {
            let conj_span = span_of(&conj);
            let mut all_of = Vec::new();
            for lit in conj.into_inner().filter(|p| p.as_rule() == Rule::cond_lit) {
                let lit_span = span_of(&lit);
                let mut negated = false;
                let mut atom = None;
                for c in lit.into_inner() {
                    match c.as_rule() {
                        Rule::cond_not => negated = true,
                        Rule::cond_atom => {
                            let a_span = span_of(&c);
                            let inner = self.need(first_inner(c), a_span, "empty condition")?;
                            atom = Some(Spanned::new(self.cond_atom(inner, a_span)?, a_span));
                        }
                        _ => {}
                    }
                }
                all_of.push(CondLit { negated, atom: self.need(atom, lit_span, "missing condition")? });
            }
            any_of.push(CondConj { all_of, span: conj_span });
        }
        Ok(Cond { any_of, span })
    }

    fn cond_atom(&self, pair: Pair<'_, Rule>, span: Span) -> Res<CondAtom> {
        let rule = pair.as_rule();
        let children: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
        let sets: Vec<&Pair<'_, Rule>> = children.iter().filter(|p| p.as_rule() == Rule::piece_set).collect();
        let set = |i: usize| -> Res<PieceSet> { self.piece_set((*self.need(sets.get(i), span, "missing pieces")?).clone()) };
        let zone = || -> Res<Zone> {
            let z = children.iter().find(|p| p.as_rule() == Rule::zone);
            self.zone(self.need(z, span, "missing zone")?.clone())
        };
        let compare = || -> Res<Spanned<Compare>> {
            let c = children.iter().find(|p| p.as_rule() == Rule::comparison);
            self.compare(self.need(c, span, "missing comparison")?.clone())
        };
        let player = || -> Res<Spanned<PlayerRef>> {
            let p = children.iter().find(|p| p.as_rule() == Rule::player_ref);
            self.player_ref(self.need(p, span, "missing player")?.clone())
        };
        Ok(match rule {
            Rule::cond_line => {
                let range = children.iter().find(|p| p.as_rule() == Rule::count_range);
                let numbers: Vec<Pair<'_, Rule>> =
                    self.need(range, span, "missing count")?.clone().into_inner().filter(|p| p.as_rule() == Rule::number).collect();
                let min = self.number(self.need(numbers.first(), span, "missing count")?)?;
                let max = numbers.get(1).map(|n| self.number(n)).transpose()?;
                let axes = children.iter().filter(|p| p.as_rule() == Rule::axis_name).map(ident).collect();
                CondAtom::Line { min, max, pieces: set(0)?, axes }
            }
            Rule::cond_count => {
                let scope = match children.iter().find(|p| p.as_rule() == Rule::count_scope) {
                    None => None,
                    Some(s) => {
                        let s_span = span_of(s);
                        let inner = s.clone().into_inner().find(|p| p.as_rule() != Rule::kw_on);
                        let inner = self.need(inner, s_span, "missing scope")?;
                        Some(match inner.as_rule() {
                            Rule::scope_some | Rule::scope_every => {
                                let axis = inner.clone().into_inner().find(|p| p.as_rule() == Rule::axis_name);
                                let axis = ident(&self.need(axis, s_span, "missing axis")?);
                                if inner.as_rule() == Rule::scope_some { Scope::Some(axis) } else { Scope::Every(axis) }
                            }
                            Rule::zone => Scope::Zone(self.zone(inner)?),
                            _ => return Err(self.internal(s_span, "unknown scope")),
                        })
                    }
                };
                CondAtom::Count { compare: compare()?, pieces: set(0)?, scope }
            }
            Rule::cond_distance => CondAtom::Distance { from: set(0)?, to: set(1)?, compare: compare()? },
            Rule::cond_in_check => CondAtom::InCheck(player()?),
            Rule::cond_to_move => CondAtom::ToMove(player()?),
            Rule::cond_has_only => {
                let kinds = children.iter().filter(|p| p.as_rule() == Rule::name).map(ident).collect();
                CondAtom::HasOnly { player: player()?, kinds }
            }
            Rule::cond_can_move => CondAtom::CanMove { pieces: set(0)?, onto: zone()? },
            Rule::cond_attacks => CondAtom::Attacks { pieces: set(0)?, target: set(1)? },
            Rule::cond_attacked => CondAtom::Attacked(set(0)?),
            Rule::cond_coloured => {
                let sq = children.iter().find(|p| p.as_rule() == Rule::square);
                CondAtom::Coloured { pieces: set(0)?, like: ident(self.need(sq, span, "missing square")?) }
            }
            Rule::cond_on => CondAtom::On { pieces: set(0)?, zone: zone()? },
            _ => return Err(self.internal(span, "unknown condition")),
        })
    }

    fn compare(&self, pair: Pair<'_, Rule>) -> Res<Spanned<Compare>> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty comparison")?;
        let rule = inner.as_rule();
        if rule == Rule::kw_no {
            return Ok(Spanned::new(Compare::No, span));
        }
        let n = inner.into_inner().find(|p| p.as_rule() == Rule::number);
        let n = self.number(&self.need(n, span, "missing number")?)?.node;
        let node = match rule {
            Rule::cmp_fewer => Compare::Fewer(n),
            Rule::cmp_more => Compare::More(n),
            Rule::cmp_at_least => Compare::AtLeast(n),
            Rule::cmp_at_most => Compare::AtMost(n),
            Rule::cmp_exactly => Compare::Exactly(n),
            _ => return Err(self.internal(span, "unknown comparison")),
        };
        Ok(Spanned::new(node, span))
    }

    fn piece_set(&self, pair: Pair<'_, Rule>) -> Res<PieceSet> {
        let span = span_of(&pair);
        let mut party = None;
        let mut kind = None;
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::party => {
                    let p_span = span_of(&c);
                    let inner = self.need(first_inner(c), p_span, "empty party")?;
                    let node = match inner.as_rule() {
                        Rule::kw_own => PlayerRef::Own,
                        Rule::kw_enemy => PlayerRef::Enemy,
                        Rule::possessive => {
                            let who = self.need(first_inner(inner), p_span, "empty possessive")?;
                            match who.as_rule() {
                                Rule::kw_mover => PlayerRef::Mover,
                                Rule::kw_opponent => PlayerRef::Opponent,
                                _ => PlayerRef::Named(who.as_str().to_string()),
                            }
                        }
                        _ => return Err(self.internal(p_span, "unknown party")),
                    };
                    party = Some(Spanned::new(node, p_span));
                }
                Rule::name => kind = Some(ident(&c)),
                _ => {}
            }
        }
        Ok(PieceSet { party: self.need(party, span, "missing party")?, kind, span })
    }

    fn player_ref(&self, pair: Pair<'_, Rule>) -> Res<Spanned<PlayerRef>> {
        let span = span_of(&pair);
        let inner = self.need(first_inner(pair), span, "empty player")?;
        let node = match inner.as_rule() {
            Rule::kw_own => PlayerRef::Own,
            Rule::kw_enemy => PlayerRef::Enemy,
            Rule::kw_mover => PlayerRef::Mover,
            Rule::kw_opponent => PlayerRef::Opponent,
            Rule::kw_owner => PlayerRef::Owner,
            Rule::name => PlayerRef::Named(inner.as_str().to_string()),
            _ => return Err(self.internal(span, "unknown player")),
        };
        Ok(Spanned::new(node, span))
    }
}
