//! [`ChatHost`]: the chat layer as the manager drives it. It turns a
//! tick's [`BotView`] into chat events and heard lines for the
//! [`ChatDirector`], fills `$tokens` from the match (server-side names,
//! readable weapon and item names, the map), and hands back the lines due
//! now. It reads the match and the brains; it writes nothing: the manager
//! says each line through the bot's own `CmdSink`.

use std::path::Path;

use quarry_sim::events::GameEvent;
use quarry_sim::weapons::{WeaponKind, WeaponTable};
use quarry_sim::{Match, SlotId, Team};

use super::director::{ChatBot, ChatDirector, ChatFigures, ChatSettings, Incoming, Outgoing};
use super::event::{ChatEvent, ChatTokens, readable_item};
use super::signals::{ChatSignals, Signal, SignalInput, item_denied};
use crate::brain::Brain;
use crate::content::ContentTraitSource;
use crate::view::{BotClock, BotView};

/// The chat director and event derivation of one server.
#[derive(Debug, Clone, Default)]
pub struct ChatHost {
    pub(super) director: ChatDirector,
    signals: ChatSignals,
    /// Team calls and orders (see [`crate::team`]).
    pub(super) team: crate::team::TeamHost,
}

/// The map's name as `$map` says it: the file stem (`q_dm1`).
pub fn map_token(game: &Match) -> String {
    let name = game.map().name();
    Path::new(name).file_stem().and_then(|s| s.to_str()).unwrap_or(name).to_owned()
}

pub(super) fn name_of(game: &Match, slot: SlotId) -> Option<String> {
    game.slots().get(slot).map(|s| s.userinfo.name.clone())
}

/// The chat view of one bot; `content` is `None` when bots are silent.
pub(super) fn chat_bot<'a>(game: &Match, brain: &dyn Brain, name: &'a str, content: Option<&'a ContentTraitSource>) -> ChatBot<'a> {
    let profile = brain.profile();
    let t = &profile.resolved.traits;
    ChatBot {
        slot: profile.slot,
        name,
        team: game.slots().get(profile.slot).map_or(Team::Spectator, |s| s.team),
        bank: content.and_then(|c| c.chat_bank(&profile.identity.name)),
        chatiness: t.chatiness,
        delay_scale: t.chat_delay_scale,
    }
}

impl ChatHost {
    /// A new match (map change, restart): everything starts over.
    pub fn new_match(&mut self, seed: u64) {
        self.director = ChatDirector::new(seed);
        self.signals.reset();
        self.team.new_match(seed);
    }

    /// A team fact was said.
    pub fn team_delivered(&mut self, fact: &crate::team::TeamFact, clock: &crate::view::BotClock) {
        self.team.delivered(fact, clock);
    }

    /// A bot said an order request (an escort).
    pub fn team_said_order(&mut self, from: SlotId, kind: crate::team::OrderKind) {
        self.team.said_order(from, kind);
    }

    /// What the team layer did in this match.
    pub fn team_figures(&self) -> &crate::team::TeamFigures {
        self.team.figures()
    }

    /// What bots said in this match.
    pub fn figures(&self) -> &ChatFigures {
        self.director.figures()
    }

    /// The director (tests, status).
    pub fn director(&self) -> &ChatDirector {
        &self.director
    }

    /// The match refused a line.
    pub fn refused(&mut self) {
        self.director.refused();
    }

    /// Content was reloaded: line indices are stale.
    pub fn reloaded(&mut self) {
        self.director.forget_line_indices();
    }

    /// A bot left (after its farewell).
    pub fn forget(&mut self, slot: SlotId) {
        self.director.forget(slot);
        self.signals.forget(slot);
        self.team.forget(slot);
    }

    fn say_event(&mut self, clock: BotClock, s: &ChatSettings, game: &Match, brain: &dyn Brain, content: Option<&ContentTraitSource>, sig: &Signal) {
        let Some(me) = name_of(game, brain.slot()) else { return };
        let bot = chat_bot(game, brain, &me, content);
        if bot.bank.is_none() {
            return;
        }
        let table = game.world().get_resource::<WeaponTable>();
        let tokens = ChatTokens {
            self_name: me.clone(),
            other: sig.other.and_then(|o| name_of(game, o)),
            weapon: sig.weapon.and_then(|w| table?.get(w)).map(|d| d.name.replace('_', " ")),
            map: map_token(game),
            item: sig.item.map(|class| match table.and_then(|t| t.weapon_for_class(class)) {
                Some(d) => d.name.replace('_', " "),
                None => readable_item(class),
            }),
            ..ChatTokens::default()
        };
        let _ = self.director.on_event(clock, s, &bot, sig.event, &tokens);
    }

    /// A bot joined: its `entergame` line, maybe.
    pub fn entered(&mut self, game: &Match, brain: &dyn Brain, content: Option<&ContentTraitSource>, s: &ChatSettings) {
        let clock = BotClock { tick: game.tick(), hz: game.hz() };
        let sig = Signal { bot: brain.slot(), event: ChatEvent::EnterGame, other: None, weapon: None, item: None };
        self.say_event(clock, s, game, brain, content, &sig);
    }

    /// A bot is leaving: its farewell, to say before it disconnects.
    pub fn farewell(&mut self, game: &Match, brain: &dyn Brain, content: Option<&ContentTraitSource>, s: &ChatSettings) -> Option<Outgoing> {
        let clock = BotClock { tick: game.tick(), hz: game.hz() };
        let me = name_of(game, brain.slot())?;
        let bot = chat_bot(game, brain, &me, content);
        bot.bank?;
        let tokens = ChatTokens { self_name: me.clone(), map: map_token(game), ..ChatTokens::default() };
        self.director.farewell(clock, s, &bot, &tokens)
    }

    /// One tick: chat events from the view's game events and scoreboard,
    /// replies to what was said. Call before the brains think.
    pub fn hear(&mut self, view: &BotView<'_>, game: &Match, brains: &[&dyn Brain], content: Option<&ContentTraitSource>, s: &ChatSettings) {
        let clock = view.clock;
        let slots: Vec<SlotId> = brains.iter().map(|b| b.slot()).collect();
        let team_of = |slot: SlotId| game.slots().get(slot).map_or(Team::Spectator, |s| s.team);
        let is_melee = |w: u8| view.weapons.get(w).is_some_and(|d| d.kind == WeaponKind::Melee);
        let board = || game.scoreboard();
        let input = SignalInput {
            tick: clock.tick,
            hz: clock.hz,
            events: &view.events,
            bots: &slots,
            phase: game.phase(),
            team_game: view.team_game,
            team_of: &team_of,
            is_melee: &is_melee,
            scoreboard: &board,
        };
        let mut signals = self.signals.observe(&input);
        signals.extend(brains.iter().filter_map(|b| item_denied(view, b.slot(), b.goal())));
        if signals.iter().any(|g| g.event == ChatEvent::LevelStart) {
            self.director.clear_throttles();
        }
        if s.mode == 0 || content.is_none() {
            return;
        }
        for sig in &signals {
            let Some(brain) = brains.iter().find(|b| b.slot() == sig.bot) else { continue };
            self.say_event(clock, s, game, *brain, content, sig);
        }
        let names: Vec<String> = brains.iter().map(|b| name_of(game, b.slot()).unwrap_or_default()).collect();
        let bots: Vec<ChatBot<'_>> = brains.iter().zip(&names).map(|(b, n)| chat_bot(game, *b, n, content)).collect();
        let map = map_token(game);
        for ev in &view.events {
            let GameEvent::Chat { from: Some(from), scope, text, .. } = ev else { continue };
            let Some(speaker) = game.slots().get(*from) else { continue };
            let team = match scope {
                quarry_sim::chat::ChatScope::Team(t) => Some(*t),
                quarry_sim::chat::ChatScope::All => None,
            };
            // A person's order to the team is answered by the bot taking it
            // (the team layer), not with small talk.
            if team.is_some() && speaker.kind != quarry_sim::ClientKind::Bot && crate::team::parse_order(text).is_some() {
                continue;
            }
            let msg = Incoming {
                from: Some(*from),
                from_name: &speaker.userinfo.name,
                from_bot: speaker.kind == quarry_sim::ClientKind::Bot,
                team,
                text,
            };
            let _ = self.director.on_chat(clock, s, &msg, &bots, &map);
        }
    }

    /// The lines due now; team calls of bots that `dead` says died before
    /// saying them are dropped.
    #[must_use = "each line must be said through the bot's CmdSink"]
    pub fn due(&mut self, clock: BotClock, dead: impl Fn(SlotId) -> bool) -> Vec<Outgoing> {
        self.director.drop_calls(dead);
        self.director.poll_due(clock)
    }
}
