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
                    let inner = c.into_inner().find(|p| matches!(p.as_rule(), Rule::effect_compel | Rule::effect_no_capture | Rule::effect_only_capture | Rule::effect_forbid | Rule::effect_oblige | Rule::effect_lose_right | Rule::effect_result));
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
        if pair.as_rule() == Rule::effect_compel {
            return Ok(Effect::CompelCaptures);
        }
        if pair.as_rule() == Rule::effect_no_capture {
            let mut names = pair.into_inner().filter(|p| p.as_rule() == Rule::name).map(|p| ident(&p));
            let by = self.need(names.next(), span, "missing capturing piece")?;
            let of = self.need(names.next(), span, "missing captured piece")?;
            return Ok(Effect::NoCapture { by, of });
        }
        if pair.as_rule() == Rule::effect_only_capture {
            let children: Vec<_> = pair.into_inner().collect();
            let piece = children.iter().find(|p| p.as_rule() == Rule::name).map(ident);
            let checking = children.iter().any(|p| p.as_rule() == Rule::only_checking);
            return Ok(Effect::OnlyCaptures { piece: self.need(piece, span, "missing piece")?, checking });
        }
        if pair.as_rule() == Rule::effect_lose_right {
            let set = pair.into_inner().find(|p| p.as_rule() == Rule::piece_set);
            return Ok(Effect::LoseRight(self.piece_set(self.need(set, span, "missing pieces")?)?));
        }
        if pair.as_rule() == Rule::effect_forbid {
            let cond = pair.into_inner().find(|p| p.as_rule() == Rule::cond);
            return Ok(Effect::Forbid(self.cond(self.need(cond, span, "missing condition")?)?));
        }
        if pair.as_rule() == Rule::effect_oblige {
            let steps = pair.into_inner().filter(|p| p.as_rule() == Rule::oblige_step).map(|p| self.oblige_step(p)).collect::<Res<Vec<_>>>()?;
            return Ok(Effect::Oblige(steps));
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

    fn oblige_step(&self, pair: Pair<'_, Rule>) -> Res<ObligeStep> {
        let span = span_of(&pair);
        let mut player = None;
        let mut action = None;
        let mut compulsory = true;
        for c in pair.into_inner() {
            let c_span = span_of(&c);
            match c.as_rule() {
                Rule::player_ref => player = Some(self.player_ref(c)?),
                Rule::oblige_mode => compulsory = c.into_inner().any(|p| p.as_rule() == Rule::kw_must),
                Rule::kw_activate => action = Some(ObligeAction::Activate),
                Rule::oblige_return => action = Some(ObligeAction::Return),
                Rule::oblige_exile => {
                    let (mut own, mut enemy, mut axis, mut except, mut to_owner) = (false, false, None, Vec::new(), false);
                    for r in c.into_inner() {
                        match r.as_rule() {
                            Rule::exile_set => {
                                for w in r.into_inner() {
                                    match w.as_rule() {
                                        Rule::kw_own => own = true,
                                        Rule::kw_enemy => enemy = true,
                                        _ => {}
                                    }
                                }
                            }
                            Rule::axis_name => axis = Some(ident(&r)),
                            Rule::name => except.push(ident(&r)),
                            Rule::exile_missed => to_owner = true,
                            _ => {}
                        }
                    }
                    action = Some(ObligeAction::Exile { own, enemy, axis: self.need(axis, c_span, "missing axis")?, except, to_owner });
                }
                Rule::oblige_relocate => {
                    let (mut what, mut safe, mut only_if) = (None, false, None);
                    for r in c.into_inner() {
                        let r_span = span_of(&r);
                        match r.as_rule() {
                            Rule::relocate_inner => {
                                let axis = r.into_inner().find(|p| p.as_rule() == Rule::axis_name);
                                what = Some(RelocateWhat::Inner { axis: ident(&self.need(axis, r_span, "missing axis")?) });
                            }
                            Rule::relocate_set => {
                                let (mut pieces, mut except, mut slices) = (None, Vec::new(), Vec::new());
                                for p in r.into_inner() {
                                    match p.as_rule() {
                                        Rule::piece_set => pieces = Some(self.piece_set(p)?),
                                        Rule::name => except.push(ident(&p)),
                                        Rule::slice_count => slices.push(self.slice_count(p)?),
                                        _ => {}
                                    }
                                }
                                let mut slices = slices.into_iter();
                                let from = self.need(slices.next(), r_span, "missing source slice")?;
                                let to = self.need(slices.next(), r_span, "missing target slice")?;
                                what = Some(RelocateWhat::Pieces { pieces: self.need(pieces, r_span, "missing pieces")?, except, from, to });
                            }
                            Rule::phase_safe => safe = true,
                            Rule::cond => only_if = Some(self.cond(r)?),
                            _ => {}
                        }
                    }
                    action = Some(ObligeAction::Relocate { what: self.need(what, c_span, "missing pieces")?, safe, only_if });
                }
                _ => {}
            }
        }
        Ok(ObligeStep { player: self.need(player, span, "missing player")?, compulsory, action: self.need(action, span, "missing action")?, span })
    }

    fn slice_count(&self, pair: Pair<'_, Rule>) -> Res<SliceCount> {
        let span = span_of(&pair);
        let (mut axis, mut compare, mut pieces) = (None, None, None);
        for c in pair.into_inner() {
            match c.as_rule() {
                Rule::axis_name => axis = Some(ident(&c)),
                Rule::comparison => compare = Some(self.compare(c)?),
                Rule::piece_set => pieces = Some(self.piece_set(c)?),
                _ => {}
            }
        }
        Ok(SliceCount {
            axis: self.need(axis, span, "missing axis")?,
            compare: self.need(compare, span, "missing comparison")?,
            pieces: self.need(pieces, span, "missing pieces")?,
        })
    }

    pub(super) fn cond(&self, pair: Pair<'_, Rule>) -> Res<Cond> {
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
            Rule::cond_checks_given => {
                let n = children.iter().find(|p| p.as_rule() == Rule::number);
                CondAtom::ChecksGiven { player: player()?, times: self.number(self.need(n, span, "missing number")?)? }
            }
            Rule::cond_to_move => CondAtom::ToMove(player()?),
            Rule::cond_passed => CondAtom::Passed(player()?),
            Rule::cond_full => CondAtom::BoardFull,
            Rule::cond_has_only => {
                let kinds = children.iter().filter(|p| p.as_rule() == Rule::name).map(ident).collect();
                CondAtom::HasOnly { player: player()?, kinds }
            }
            Rule::cond_can_move => CondAtom::CanMove { pieces: set(0)?, onto: zone()? },
            Rule::cond_attacks => CondAtom::Attacks { pieces: set(0)?, target: set(1)? },
            Rule::cond_attacked => CondAtom::Attacked(set(0)?),
            Rule::cond_faces => {
                let axis = children.iter().find(|p| p.as_rule() == Rule::axis_name);
                let through = children.iter().any(|p| p.as_rule() == Rule::faces_through);
                CondAtom::Faces { pieces: set(0)?, target: set(1)?, axis: ident(self.need(axis, span, "missing axis")?), through }
            }
            Rule::cond_coloured => {
                let sq = children.iter().find(|p| p.as_rule() == Rule::square);
                CondAtom::Coloured { pieces: set(0)?, like: ident(self.need(sq, span, "missing square")?) }
            }
            Rule::cond_on => CondAtom::On { pieces: set(0)?, zone: zone()? },
            Rule::cond_exiled => CondAtom::Exiled { pieces: set(0)?, onto: if sets.len() > 1 { Some(set(1)?) } else { None } },
            Rule::cond_phase_ends => {
                let n = children.iter().find(|p| p.as_rule() == Rule::name);
                CondAtom::PhaseEnds(ident(self.need(n, span, "missing phase")?))
            }
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

#[cfg(test)]
mod tests {
    use crate::ast::*;
    use crate::parser::parse;

    fn rule(src: &str) -> RuleDef {
        let file = parse("t.rules", src).unwrap_or_else(|d| panic!("{src}: {d:?}"));
        match file.items.into_iter().next() {
            Some(Item::Rule(r)) => r,
            other => panic!("not a rule: {other:?}"),
        }
    }

    fn atoms(c: &Cond) -> Vec<Vec<(bool, &CondAtom)>> {
        c.any_of.iter().map(|conj| conj.all_of.iter().map(|l| (l.negated, &l.atom.node)).collect()).collect()
    }

    #[test]
    fn a_ply_end_rule_with_or_and_not() {
        let src = "rule \"hill\" {\n  on ply-end\n  if own King on square d4 or square e4 and not white to move or line 3..4 own Pawn along file rank level\n  then owner wins\n}\n";
        let r = rule(src);
        assert_eq!(r.name.node, "hill");
        assert_eq!(r.trigger.node, Trigger::PlyEnd);
        assert!(matches!(&r.effect.node, Effect::Wins(p) if p.node == PlayerRef::Owner));
        let guard = r.guard.as_ref().expect("guard");
        let a = atoms(guard);
        // `and` binds tighter than `or`: two alternatives; the zone keeps its own `or`.
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].len(), 2);
        let (false, CondAtom::On { pieces, zone }) = a[0][0] else { panic!("{:?}", a[0][0]) };
        assert_eq!(pieces.party.node, PlayerRef::Own);
        assert_eq!(pieces.kind.as_ref().map(|k| k.node.as_str()), Some("King"));
        assert_eq!(zone.any_of.len(), 2);
        assert!(matches!(a[0][1], (true, CondAtom::ToMove(p)) if p.node == PlayerRef::Named("white".into())));
        let (false, CondAtom::Line { min, max, axes, .. }) = a[1][0] else { panic!("{:?}", a[1][0]) };
        assert_eq!((min.node, max.as_ref().map(|m| m.node)), (3, Some(4)));
        assert_eq!(axes.iter().map(|x| x.node.as_str()).collect::<Vec<_>>(), ["file", "rank", "level"]);
        assert_eq!(&src[r.span.start..r.span.end], src.trim_end());
    }

    #[test]
    fn an_offer_rule_and_every_atom() {
        let r = rule("rule \"r\" { on offer if mover in check then forbid moves after which enemy in check }");
        assert_eq!(r.trigger.node, Trigger::Offer);
        let Effect::Forbid(after) = &r.effect.node else { panic!("{:?}", r.effect) };
        assert!(matches!(atoms(after)[0][0], (false, CondAtom::InCheck(p)) if p.node == PlayerRef::Enemy));
        let r = rule(
            "rule \"r\" { on ply-end if fewer than 2 own pieces on some level and at least 1 enemy Queen on every file \
             and no own Pawn on rank 8 and distance own King to enemy King at most 1 and black has only King Bishop Bishop \
             and black's King can move onto rank 8 and mover's Rook attacks opponent's King and own Queen attacked \
             and own Bishop coloured like a1 and exactly 2 own piece and more than 3 enemy pieces then draw }",
        );
        assert_eq!(r.effect.node, Effect::Draw);
        let a = atoms(r.guard.as_ref().expect("guard"));
        assert_eq!(a.len(), 1);
        let kinds: Vec<&str> = a[0]
            .iter()
            .map(|(_, atom)| match atom {
                CondAtom::Count { compare, scope, .. } => match (compare.node, scope) {
                    (Compare::Fewer(2), Some(Scope::Some(x))) if x.node == "level" => "fewer-some",
                    (Compare::AtLeast(1), Some(Scope::Every(x))) if x.node == "file" => "least-every",
                    (Compare::No, Some(Scope::Zone(_))) => "no-zone",
                    (Compare::Exactly(2), None) => "exactly",
                    (Compare::More(3), None) => "more",
                    _ => "count?",
                },
                CondAtom::Distance { compare, .. } if compare.node == Compare::AtMost(1) => "distance",
                CondAtom::HasOnly { kinds, .. } if kinds.len() == 3 => "has-only",
                CondAtom::CanMove { pieces, .. } if pieces.party.node == PlayerRef::Named("black".into()) => "can-move",
                CondAtom::Attacks { pieces, target } if pieces.party.node == PlayerRef::Mover && target.party.node == PlayerRef::Opponent => "attacks",
                CondAtom::Attacked(_) => "attacked",
                CondAtom::Coloured { like, .. } if like.node == "a1" => "coloured",
                _ => "?",
            })
            .collect();
        assert_eq!(
            kinds,
            ["fewer-some", "least-every", "no-zone", "distance", "has-only", "can-move", "attacks", "attacked", "coloured", "exactly", "more"]
        );
    }

    #[test]
    fn an_oblige_effect_with_two_steps() {
        let r = rule(
            "rule \"group\" {\n  on ply-end\n  if line 3..4 own Pawn along file rank level\n  then owner must relocate inner pieces to another level,\n    placed piece attacks no enemy and is not attacked, only if not line 3 own Pawn along file rank level\n  then owner must activate\n}\n",
        );
        let Effect::Oblige(steps) = &r.effect.node else { panic!("{:?}", r.effect) };
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0].player.node, PlayerRef::Owner);
        let ObligeAction::Relocate { what: RelocateWhat::Inner { axis }, safe, only_if } = &steps[0].action else { panic!("{:?}", steps[0]) };
        assert_eq!(axis.node, "level");
        assert!(steps[0].compulsory);
        assert!(*safe);
        let only_if = only_if.as_ref().expect("only if");
        assert!(matches!(atoms(only_if)[0][0], (true, CondAtom::Line { .. })));
        assert_eq!(steps[1].action, ObligeAction::Activate);
        // Without guards; a named player.
        let r = rule("rule \"r\" { on ply-end if line 3 own Pawn along file then white must relocate inner pieces to another rank }");
        let Effect::Oblige(steps) = &r.effect.node else { panic!("{:?}", r.effect) };
        assert!(matches!(&steps[0].action, ObligeAction::Relocate { safe: false, only_if: None, .. }));
        assert_eq!(steps[0].player.node, PlayerRef::Named("white".into()));
        assert!(parse("t.rules", "rule \"r\" { on ply-end then owner must castle }").is_err());
    }

    #[test]
    fn optional_steps_exile_return_and_relocating_a_set() {
        let r = rule(
            "rule \"big\" {\n  on ply-end\n  if line 4 own Pawn along file\n  then owner must activate\n  then owner may exile own and enemy piece from activated level except King, missed: enemy piece to owner\n}\n",
        );
        let Effect::Oblige(steps) = &r.effect.node else { panic!("{:?}", r.effect) };
        assert!(steps[0].compulsory && !steps[1].compulsory);
        let ObligeAction::Exile { own, enemy, axis, except, to_owner } = &steps[1].action else { panic!("{:?}", steps[1]) };
        assert!(*own && *enemy && *to_owner);
        assert_eq!(axis.node, "level");
        assert_eq!(except.iter().map(|e| e.node.as_str()).collect::<Vec<_>>(), ["King"]);
        let r = rule("rule \"x\" { on ply-end if exiled mover's piece can return then mover may exile enemy piece from activated level }");
        let Effect::Oblige(steps) = &r.effect.node else { panic!("{:?}", r.effect) };
        assert!(matches!(&steps[0].action, ObligeAction::Exile { own: false, enemy: true, to_owner: false, .. }));
        assert!(matches!(atoms(r.guard.as_ref().expect("guard"))[0][0], (false, CondAtom::Exiled { onto: None, .. })));
        let r = rule("rule \"r\" { on ply-end if exiled own piece can return onto enemy King then mover may return exiled piece }");
        let Effect::Oblige(steps) = &r.effect.node else { panic!("{:?}", r.effect) };
        assert_eq!(steps[0].action, ObligeAction::Return);
        assert!(matches!(atoms(r.guard.as_ref().expect("guard"))[0][0], (false, CondAtom::Exiled { onto: Some(_), .. })));
        let r = rule(
            "rule \"e\" { on ply-end if opening ends and fewer than 2 black's pieces on some level\n then white may relocate black's piece except King from level with more than 2 black's pieces to level with fewer than 2 black's pieces, only if not white in check }",
        );
        assert!(matches!(atoms(r.guard.as_ref().expect("guard"))[0][0], (false, CondAtom::PhaseEnds(_))));
        let Effect::Oblige(steps) = &r.effect.node else { panic!("{:?}", r.effect) };
        let ObligeAction::Relocate { what: RelocateWhat::Pieces { except, from, to, .. }, only_if: Some(_), .. } = &steps[0].action else { panic!("{:?}", steps[0]) };
        assert_eq!(except.len(), 1);
        assert_eq!((from.compare.node, to.compare.node), (Compare::More(2), Compare::Fewer(2)));
        assert!(parse("t.rules", "rule \"r\" { on ply-end then owner may exile from activated level }").is_err());
    }

    #[test]
    fn errors_say_how_rules_are_written() {
        let d = parse("t.rules", "rule \"r\" { on ply-end if white King on rank 8 then white wins }").expect_err("bad");
        assert_eq!(d.code, "E0001");
        assert!(d.help.as_deref().is_some_and(|h| h.contains("`white's King on rank 8`")), "{d:?}");
        let d = parse("t.rules", "rule \"r\" { on ply-end if own King on rank 8 then own side wins }").expect_err("bad");
        assert!(d.help.as_deref().is_some_and(|h| h.contains("`PLAYER wins`")), "{d:?}");
        // Keywords of rules are reserved: `line` cannot name a piece.
        assert!(parse("t.rules", "piece line L { move W }").is_err());
    }
}
