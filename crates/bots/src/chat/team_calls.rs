//! The team layer ([`crate::team`]) as the chat host drives it: orders read
//! from humans' team chat, orders answered, and the bots' calls turned
//! into lines in their own voices.

use quarry_sim::events::GameEvent;
use quarry_sim::{ClientKind, Match, SlotId, Team};

use super::director::ChatSettings;
use super::event::{ChatEvent, ChatTokens};
use super::host::{ChatHost, chat_bot, map_token, name_of};
use super::text::{contains_phrase, normalize};
use crate::brain::Brain;
use crate::content::ContentTraitSource;
use crate::team::places::landmark_name;
use crate::team::{Answer, Approved, Attachment, TeamBot, TeamCall, TeamFact, parse_order};
use crate::view::BotView;

/// How long after its answer is due an order's acknowledgement is said, ms
/// (the answer delay stands in for typing it).
const ANSWER_SAY_MS: f32 = 100.0;
/// A call goes out this long plus the speaker's reaction time after it is
/// approved (the key press of a bound team call), ms.
const CALL_BIND_MS: f32 = 100.0;

/// The team view of every bot.
pub fn team_bots(view: &BotView<'_>, brains: &[&dyn Brain]) -> Vec<TeamBot> {
    use quarry_sim::modes::view::FlagStatus;
    brains
        .iter()
        .filter_map(|b| {
            let p = view.player(b.slot())?;
            let t = &b.profile().resolved.traits;
            Some(TeamBot {
                slot: p.slot,
                team: p.team,
                active: p.active(),
                origin: p.origin,
                teamwork: t.teamwork,
                reaction_ms: t.reaction_msec * t.reaction_scale(),
                carrier: view.mode.flags.iter().any(|f| matches!(f.status, FlagStatus::Carried { by } if by == p.slot)),
            })
        })
        .collect()
}

impl ChatHost {
    /// One tick of team chat, after the brains thought: humans' team lines
    /// and bots' escort requests become orders for a bot; orders due are
    /// answered (returned for the manager to hand to the brains, the answer
    /// said when `chatter` allows); `offers` (each bot's call) are weighed
    /// and queued as lines. `chatter` is `bot_teamChatter` and
    /// `bot_teamChatterTeam`. `content` is `None` when bots have no
    /// characters (and so no voice).
    #[expect(clippy::too_many_arguments, reason = "one team tick with everything it reads")]
    pub fn team_tick(
        &mut self,
        view: &BotView<'_>,
        game: &Match,
        brains: &[&dyn Brain],
        offers: &[(SlotId, TeamCall)],
        content: Option<&ContentTraitSource>,
        s: &ChatSettings,
        chatter: (u8, Option<Team>),
    ) -> Vec<Answer> {
        let (chatter, only) = chatter;
        let clock = view.clock;
        let bots = team_bots(view, brains);
        if view.team_game {
            self.read_orders(view, game, brains, &bots);
        }
        let answers = self.team.answers(&clock, &bots);
        if chatter > 0 {
            for a in &answers {
                let Some(brain) = brains.iter().find(|b| b.slot() == a.bot) else { continue };
                let Some(me) = name_of(game, a.bot) else { continue };
                let bot = chat_bot(game, *brain, &me, content);
                let tokens = ChatTokens { self_name: me.clone(), other: name_of(game, a.order.from), map: map_token(game), ..ChatTokens::default() };
                let event = if a.taken { ChatEvent::OrderAck } else { ChatEvent::OrderRefuse };
                let _ = self.director.on_team(clock, s, &bot, event, &tokens, None, Some(ANSWER_SAY_MS));
            }
        }
        if content.is_none() {
            return answers;
        }
        for approved in self.team.calls(view, offers, &bots, chatter, only) {
            let Some(brain) = brains.iter().find(|b| b.slot() == approved.slot) else { continue };
            let Some(me) = name_of(game, approved.slot) else { continue };
            let bot = chat_bot(game, *brain, &me, content);
            let tokens = self.call_tokens(view, game, &me, &approved);
            // A call is a bind, as Quake players bind their team calls
            // (`say_team` with the location filled in): it goes out a
            // reaction time after the bot decides, not typed.
            let bind_ms = bots.iter().find(|b| b.slot == approved.slot).map_or(CALL_BIND_MS, |b| CALL_BIND_MS + b.reaction_ms);
            if self.director.on_team(clock, s, &bot, approved.call.event, &tokens, Some(approved.call.attach), Some(bind_ms)) {
                self.team.queued(view, &approved);
            }
        }
        answers
    }

    /// Orders heard this tick: humans' team lines holding an order phrase
    /// (the bot named in it answers, else the nearest), and the escort
    /// requests bots said.
    fn read_orders(&mut self, view: &BotView<'_>, game: &Match, brains: &[&dyn Brain], bots: &[TeamBot]) {
        for (from, kind) in self.team.take_incoming() {
            let _ = self.team.request(view, from, kind, None, bots);
        }
        for ev in &view.events {
            let GameEvent::Chat { from: Some(from), scope: quarry_sim::chat::ChatScope::Team(_), text, .. } = ev else { continue };
            let Some(speaker) = game.slots().get(*from) else { continue };
            if speaker.kind == ClientKind::Bot || speaker.team == Team::Spectator {
                continue;
            }
            let Some(kind) = parse_order(text) else { continue };
            let text = normalize(text);
            let named = brains
                .iter()
                .map(|b| b.slot())
                .find(|&s| name_of(game, s).is_some_and(|n| contains_phrase(&text, &normalize(&n))));
            let _ = self.team.request(view, *from, kind, named, bots);
        }
    }

    /// The `$tokens` of a call: the enemy's name and weapon, how many, the
    /// place, the item.
    fn call_tokens(&mut self, view: &BotView<'_>, game: &Match, me: &str, a: &Approved) -> ChatTokens {
        let place = self.team.places(view).name(view.map.world(), a.place);
        let mut tokens = ChatTokens { self_name: me.to_owned(), map: map_token(game), place, ..ChatTokens::default() };
        if let Attachment::Fact(f) = a.call.attach {
            tokens.other = f.enemy().and_then(|e| name_of(game, e));
            match f {
                TeamFact::Enemy { count, weapon, .. } => {
                    tokens.weapon = view.weapons.get(weapon).map(|d| d.name.replace('_', " "));
                    tokens.count = (count >= 2).then(|| count.to_string());
                }
                TeamFact::Help { count, .. } | TeamFact::FallingBack { count, .. } => tokens.count = (count >= 2).then(|| count.to_string()),
                TeamFact::GoingFor { item, .. } | TeamFact::ItemTimed { item, .. } => {
                    let name = view.items.iter().find(|i| i.id == item).and_then(|i| landmark_name(i.gift, view.weapons));
                    tokens.place = item_call_place(tokens.place.take(), name.as_deref());
                    tokens.item = name.map(|n| n.trim_start_matches("the ").to_owned());
                    if let TeamFact::ItemTimed { back_at, .. } = f {
                        let ticks = back_at.saturating_sub(view.clock.tick);
                        tokens.seconds = Some(ticks.div_ceil(view.clock.hz.max(1)).to_string());
                    }
                }
                _ => {}
            }
        }
        tokens
    }
}

/// The `$place` of an item call: none when it only names the item again
/// ("the red armor at the red armor"), so a line without a place is said.
fn item_call_place(place: Option<String>, item: Option<&str>) -> Option<String> {
    place.filter(|p| Some(p.as_str()) != item)
}

#[cfg(test)]
mod tests {
    use super::item_call_place;

    #[test]
    fn an_item_call_names_no_place_that_is_the_item_itself() {
        let place = |p: &str| Some(p.to_owned());
        assert_eq!(item_call_place(place("the red armor"), Some("the red armor")), None);
        assert_eq!(item_call_place(place("the railgun"), Some("the red armor")), place("the railgun"));
        assert_eq!(item_call_place(place("Upper Atrium"), Some("the red armor")), place("Upper Atrium"));
        assert_eq!(item_call_place(None, Some("the red armor")), None);
    }
}
