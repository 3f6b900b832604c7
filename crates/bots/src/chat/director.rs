//! [`ChatDirector`]: when bots speak. Pure logic over ticks, fed with chat
//! events and incoming chat, producing due lines; it never touches a match.
//!
//! Call order per server tick: [`ChatDirector::on_event`] for each event
//! of each bot and [`ChatDirector::on_chat`] for each chat line heard (in
//! slot order, for determinism), then [`ChatDirector::poll_due`] and say
//! every returned line through the bot's own `CmdSink`. When a bot leaves,
//! [`ChatDirector::farewell`] (say it before disconnecting) then
//! [`ChatDirector::forget`].
//!
//! A line goes out only if, in this order: `bot_chat` is on; the bot's
//! chatiness roll (times the event's weight) passes; a usable line exists
//! (no silence is ever filled with an invented line); the throttles allow
//! it. Only then is it queued, and both throttles are stamped. It is said
//! after a typing delay. An event line replaces a bot's pending line; a
//! reply never does.
//!
//! Throttles: per bot [`BOT_THROTTLE_MS`]; server-wide
//! [`GLOBAL_THROTTLE_MS`] between any two lines and [`EVENT_GAP_MS`] before
//! an event line (so unprompted chatter stays at a few lines a minute
//! however busy the match, while a person still gets a prompt answer); all
//! halved at `bot_chat 2`; and no bot says two lines within
//! [`MIN_SEND_GAP_MS`]. The sim refuses more than a burst
//! of 4 and then 1 line/s per client (`quarry_sim::chat::ChatLimiter`);
//! these are far stricter, so no bot line is ever dropped there, and every
//! client's reliable channel sees at most one bot line per 2 s on average.

use std::collections::BTreeMap;

use quarry_sim::{SlotId, Team};

use super::bank::{ChatBank, Heard, pick_line};
use super::event::{ChatEvent, ChatTokens};
use super::text::{contains_phrase, normalize, visible_len};
use crate::rng::{BotRng, mix64};
use crate::view::BotClock;

/// Per-bot throttle between queued lines, ms.
pub const BOT_THROTTLE_MS: f32 = 8000.0;
/// Server-wide throttle between queued lines of any bot, ms.
pub const GLOBAL_THROTTLE_MS: f32 = 2000.0;
/// Server-wide quiet before an event line (replies need only
/// [`GLOBAL_THROTTLE_MS`]), ms: at most ~8 unprompted lines a minute.
pub const EVENT_GAP_MS: f32 = 7000.0;
/// After a reply to a speaker, their messages trigger no reply for this long, ms.
pub const REPLY_COOLDOWN_MS: f32 = 8000.0;
/// Least time between two lines said by one bot, ms (the sim refills one
/// chat token a second).
pub const MIN_SEND_GAP_MS: f32 = 1500.0;
/// Typing delay bounds, ms.
pub const DELAY_RANGE_MS: (f32, f32) = (750.0, 5000.0);
/// Random extra on the typing delay, ms.
pub const DELAY_JITTER_MS: f32 = 600.0;
/// Extra chatiness at `bot_chat 2`.
pub const CHATTY_BONUS: f32 = 0.35;
/// Chance that someone answers a message: from a person (unaddressed,
/// addressed), from a bot (unaddressed, addressed). Bot-to-bot talk is
/// deliberately rare.
pub const REPLY_CHANCE: [(f32, f32); 2] = [(0.45, 0.85), (0.12, 0.30)];
/// How long a reply's own echo is remembered, ms.
const ECHO_MS: f32 = 3000.0;

/// The chat cvars, read live.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChatSettings {
    /// `bot_chat`: 0 silent, 1 normal, 2 chatty (halved throttles).
    pub mode: u8,
    /// `bot_chatDelay`: thinking pause before typing, ms.
    pub delay_ms: f32,
    /// `bot_chatCPM`: typing speed, visible characters per minute.
    pub cpm: f32,
}

impl Default for ChatSettings {
    fn default() -> Self {
        Self { mode: 1, delay_ms: 600.0, cpm: 900.0 }
    }
}

impl ChatSettings {
    fn halve(&self, ms: f32) -> f32 {
        if self.mode >= 2 { ms * 0.5 } else { ms }
    }
}

/// The typing delay of `text`, ms: (pause + visible length at `cpm`) x
/// `scale` + `jitter01` x [`DELAY_JITTER_MS`], within [`DELAY_RANGE_MS`].
pub fn typing_delay_ms(text: &str, s: &ChatSettings, scale: f32, jitter01: f32) -> f32 {
    let typing = visible_len(text) as f32 * 60_000.0 / s.cpm.max(1.0);
    let raw = (s.delay_ms.max(0.0) + typing) * scale + jitter01.clamp(0.0, 1.0) * DELAY_JITTER_MS;
    if raw.is_nan() { DELAY_RANGE_MS.0 } else { raw.clamp(DELAY_RANGE_MS.0, DELAY_RANGE_MS.1) }
}

/// One bot as the chat layer sees it.
#[derive(Debug, Clone, Copy)]
pub struct ChatBot<'a> {
    /// Its slot.
    pub slot: SlotId,
    /// Its name as the server knows it.
    pub name: &'a str,
    /// Its team (spectators never answer).
    pub team: Team,
    /// Its character's voice (`None`: silent).
    pub bank: Option<&'a ChatBank>,
    /// The `chatiness` trait.
    pub chatiness: f32,
    /// The `chatDelayScale` trait.
    pub delay_scale: f32,
}

/// A chat line heard.
#[derive(Debug, Clone, Copy)]
pub struct Incoming<'a> {
    /// Speaker (`None`: the server, never answered).
    pub from: Option<SlotId>,
    /// Speaker's server-side name.
    pub from_name: &'a str,
    /// Whether a bot said it.
    pub from_bot: bool,
    /// `Some(team)` for team chat.
    pub team: Option<Team>,
    /// The text.
    pub text: &'a str,
}

/// What a line was said for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// An event.
    Event(ChatEvent),
    /// A reply to someone.
    Reply,
}

/// A line to say now.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    /// The bot.
    pub slot: SlotId,
    /// Team chat.
    pub team: bool,
    /// The text.
    pub text: String,
    /// Why.
    pub kind: LineKind,
    /// What a team call carries to teammates when it is said.
    pub attach: Option<crate::team::Attachment>,
}

/// What bots said in a match.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ChatFigures {
    /// Lines said.
    pub lines: u32,
    /// Of those, replies.
    pub replies: u32,
    /// Lines said per event name.
    pub by_event: BTreeMap<String, u32>,
    /// Lines that were the same text as the bot's previous line.
    pub back_to_back_repeats: u32,
    /// Lines a throttle held back.
    pub throttled: u32,
    /// Lines the match refused (flood limit, slot gone).
    pub refused: u32,
}

#[derive(Debug, Clone)]
struct Pending {
    out: Outgoing,
    template: String,
    send_at: u32,
}

#[derive(Debug, Clone)]
struct BotState {
    slot: SlotId,
    rng: BotRng,
    pending: Option<Pending>,
    next_allowed: u32,
    last_sent_at: Option<u32>,
    last_template: Option<String>,
    last_text: Option<String>,
    last_event_line: [Option<usize>; ChatEvent::ALL.len()],
    last_rule_line: BTreeMap<String, usize>,
}

/// When and what bots say; see the module docs.
#[derive(Debug, Clone)]
pub struct ChatDirector {
    seed: u64,
    rng: BotRng,
    bots: Vec<BotState>,
    next_global: u32,
    next_event: u32,
    cooldowns: BTreeMap<SlotId, u32>,
    echoes: Vec<(SlotId, String, u32)>,
    figures: ChatFigures,
}

impl Default for ChatDirector {
    fn default() -> Self {
        Self::new(0)
    }
}

impl ChatDirector {
    /// A director for a match seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: BotRng::from_seed(mix64(seed ^ 0x6368_6174)),
            bots: Vec::new(),
            next_global: 0,
            next_event: 0,
            cooldowns: BTreeMap::new(),
            echoes: Vec::new(),
            figures: ChatFigures::default(),
        }
    }

    /// What was said so far.
    pub fn figures(&self) -> &ChatFigures {
        &self.figures
    }

    /// The match went live: throttles and reply cooldowns start over.
    pub fn clear_throttles(&mut self) {
        self.next_global = 0;
        self.next_event = 0;
        self.cooldowns.clear();
        for b in &mut self.bots {
            b.next_allowed = 0;
        }
    }

    /// Forgets what each bot said last per event and rule (after a reload
    /// the indices mean other lines); the no-repeat memory stays.
    pub fn forget_line_indices(&mut self) {
        for b in &mut self.bots {
            b.last_event_line = Default::default();
            b.last_rule_line.clear();
        }
    }

    /// A bot left: its pending line and memory go.
    pub fn forget(&mut self, slot: SlotId) {
        self.bots.retain(|b| b.slot != slot);
        self.cooldowns.remove(&slot);
    }

    /// Team calls waiting to be said by bots that `dead` says died since:
    /// dropped (a bound call is pressed a reaction time after the bot
    /// decides; one that died first never pressed it).
    pub fn drop_calls(&mut self, dead: impl Fn(SlotId) -> bool) {
        for b in &mut self.bots {
            if dead(b.slot) {
                b.pending.take_if(|p| p.out.attach.is_some());
            }
        }
    }

    /// Whether `slot` has a line waiting to be said.
    pub fn is_typing(&self, slot: SlotId) -> bool {
        self.bots.iter().any(|b| b.slot == slot && b.pending.is_some())
    }

    fn state(&mut self, slot: SlotId) -> &mut BotState {
        let at = self.bots.partition_point(|b| b.slot < slot);
        if self.bots.get(at).is_none_or(|b| b.slot != slot) {
            let state = BotState {
                slot,
                rng: BotRng::for_slot(self.seed, slot.0, 99),
                pending: None,
                next_allowed: 0,
                last_sent_at: None,
                last_template: None,
                last_text: None,
                last_event_line: Default::default(),
                last_rule_line: BTreeMap::new(),
            };
            self.bots.insert(at, state);
        }
        &mut self.bots[at]
    }

    /// Whether the throttles let `slot` queue a line now (an event line
    /// if `event`); counts a refusal.
    fn throttle_allows(&mut self, slot: SlotId, now: u32, event: bool) -> bool {
        let ok = now >= self.next_global && (!event || now >= self.next_event) && now >= self.state(slot).next_allowed;
        if !ok {
            self.figures.throttled += 1;
        }
        ok
    }

    fn stamp(&mut self, slot: SlotId, clock: BotClock, s: &ChatSettings) {
        self.next_global = clock.after_ms(s.halve(GLOBAL_THROTTLE_MS));
        self.next_event = clock.after_ms(s.halve(EVENT_GAP_MS));
        self.state(slot).next_allowed = clock.after_ms(s.halve(BOT_THROTTLE_MS));
    }

    /// `bot` may comment on `event`; whether a line was queued.
    pub fn on_event(&mut self, clock: BotClock, s: &ChatSettings, bot: &ChatBot<'_>, event: ChatEvent, tokens: &ChatTokens) -> bool {
        let Some(bank) = bot.bank.filter(|_| s.mode > 0) else { return false };
        let st = self.state(bot.slot);
        // A team call waiting to be said is not replaced by small talk.
        if st.pending.as_ref().is_some_and(|p| p.out.attach.is_some()) {
            return false;
        }
        let chatiness = (bot.chatiness + if s.mode >= 2 { CHATTY_BONUS } else { 0.0 }).min(1.0);
        if !st.rng.chance(chatiness * event.weight()) {
            return false;
        }
        let last = st.last_event_line[event.index()];
        let Some((i, text)) = pick_line(bank.lines(event), tokens, last, st.last_template.as_deref(), &mut st.rng) else {
            return false;
        };
        // Farewells and the end of a match are rare occasions: they need
        // only the short server-wide gap.
        let occasion = matches!(event, ChatEvent::Farewell | ChatEvent::MatchWin | ChatEvent::MatchLose);
        if !self.throttle_allows(bot.slot, clock.tick, !occasion) {
            return false;
        }
        let template = bank.lines(event).get(i).map(|l| l.text.clone()).unwrap_or_default();
        self.queue(clock, s, bot, Outgoing { slot: bot.slot, team: false, text, kind: LineKind::Event(event), attach: None }, template);
        self.state(bot.slot).last_event_line[event.index()] = Some(i);
        true
    }

    /// A team call the team layer let through: `bot` says `event` to its
    /// team, carrying `attach`. No chatiness roll and no social throttle
    /// (the team layer has its own); one team call waits at a time per bot
    /// (an order's answer replaces it).
    /// `delay_ms` replaces the typing delay (an order's answer has waited
    /// already). Whether a line was queued (a bank without a usable line
    /// stays silent).
    #[expect(clippy::too_many_arguments, reason = "one call with everything it says")]
    pub fn on_team(
        &mut self,
        clock: BotClock,
        s: &ChatSettings,
        bot: &ChatBot<'_>,
        event: ChatEvent,
        tokens: &ChatTokens,
        attach: Option<crate::team::Attachment>,
        delay_ms: Option<f32>,
    ) -> bool {
        let Some(bank) = bot.bank else { return false };
        let st = self.state(bot.slot);
        // An order's answer goes before anything waiting; other calls wait
        // their turn.
        let answer = matches!(event, ChatEvent::OrderAck | ChatEvent::OrderRefuse);
        if !answer && st.pending.as_ref().is_some_and(|p| p.out.attach.is_some()) {
            return false;
        }
        let last = st.last_event_line[event.index()];
        let Some((i, text)) = pick_line(bank.lines(event), tokens, last, st.last_template.as_deref(), &mut st.rng) else {
            return false;
        };
        let template = bank.lines(event).get(i).map(|l| l.text.clone()).unwrap_or_default();
        let jitter = st.rng.unit();
        let delay = delay_ms.unwrap_or_else(|| typing_delay_ms(&text, s, bot.delay_scale, jitter));
        let out = Outgoing { slot: bot.slot, team: true, text, kind: LineKind::Event(event), attach };
        st.pending = Some(Pending { out, template, send_at: clock.after_ms(delay) });
        st.last_event_line[event.index()] = Some(i);
        true
    }

    fn queue(&mut self, clock: BotClock, s: &ChatSettings, bot: &ChatBot<'_>, out: Outgoing, template: String) {
        self.stamp(bot.slot, clock, s);
        let st = self.state(bot.slot);
        let jitter = st.rng.unit();
        let delay = typing_delay_ms(&out.text, s, bot.delay_scale, jitter);
        st.pending = Some(Pending { out, template, send_at: clock.after_ms(delay) });
    }

    /// `bot` is leaving: the pending line is dropped and a farewell, if the
    /// roll, a line and the throttles allow, is returned to say at once.
    pub fn farewell(&mut self, clock: BotClock, s: &ChatSettings, bot: &ChatBot<'_>, tokens: &ChatTokens) -> Option<Outgoing> {
        self.state(bot.slot).pending = None;
        if !self.on_event(clock, s, bot, ChatEvent::Farewell, tokens) {
            return None;
        }
        let st = self.state(bot.slot);
        let p = st.pending.take()?;
        Some(self.sent(bot.slot, p, clock.tick))
    }

    /// Someone said something: at most one bot takes it up. Returns the
    /// bot that queued a reply.
    pub fn on_chat(&mut self, clock: BotClock, s: &ChatSettings, msg: &Incoming<'_>, bots: &[ChatBot<'_>], map: &str) -> Option<SlotId> {
        let now = clock.tick;
        let horizon = clock.ticks_ms(ECHO_MS);
        self.echoes.retain(|e| now.saturating_sub(e.2) <= horizon);
        let from = msg.from?;
        // A reply is never answered: its echo comes back as chat from the bot.
        if let Some(at) = self.echoes.iter().position(|e| e.0 == from && e.1 == msg.text.trim()) {
            self.echoes.remove(at);
            return None;
        }
        if s.mode == 0 || self.cooldowns.get(&from).is_some_and(|&until| now < until) {
            return None;
        }
        let text = normalize(msg.text);
        let mut cands: Vec<(usize, bool, usize)> = Vec::new();
        for (k, b) in bots.iter().enumerate() {
            if b.slot == from || b.team == Team::Spectator || msg.team.is_some_and(|t| t != b.team) {
                continue;
            }
            let Some(bank) = b.bank else { continue };
            let addressed = contains_phrase(&text, &normalize(b.name));
            if let Some(rule) = bank.best_rule(Heard { text: &text, from_bot: msg.from_bot, addressed }) {
                cands.push((k, addressed, rule));
            }
        }
        if cands.iter().any(|c| c.1) {
            cands.retain(|c| c.1);
        }
        let addressed = cands.first()?.1;
        let (unaddr, addr) = REPLY_CHANCE[usize::from(msg.from_bot)];
        if !self.rng.chance(if addressed { addr } else { unaddr }) {
            return None;
        }
        let (k, _, rule_index) = *cands.get(self.rng.below(cands.len() as u32) as usize)?;
        let bot = bots.get(k)?;
        let rule = bot.bank?.rules.get(rule_index)?;
        let st = self.state(bot.slot);
        let chatiness = (bot.chatiness + if s.mode >= 2 { CHATTY_BONUS } else { 0.0 }).min(1.0);
        if !st.rng.chance(chatiness) || st.pending.is_some() {
            return None;
        }
        let tokens = ChatTokens {
            self_name: bot.name.to_owned(),
            other: Some(msg.from_name.to_owned()),
            map: map.to_owned(),
            ..ChatTokens::default()
        };
        let last = st.last_rule_line.get(&rule.name).copied();
        let (i, line) = pick_line(&rule.responses, &tokens, last, st.last_template.as_deref(), &mut st.rng)?;
        if !self.throttle_allows(bot.slot, now, false) {
            return None;
        }
        let template = rule.responses.get(i).map(|l| l.text.clone()).unwrap_or_default();
        let out = Outgoing { slot: bot.slot, team: msg.team.is_some(), text: line, kind: LineKind::Reply, attach: None };
        self.queue(clock, s, bot, out, template);
        self.state(bot.slot).last_rule_line.insert(rule.name.clone(), i);
        self.cooldowns.insert(from, clock.after_ms(s.halve(REPLY_COOLDOWN_MS)));
        Some(bot.slot)
    }

    /// Lines whose typing delay is over, in slot order; each is counted as
    /// said (report a refusal with [`ChatDirector::refused`]).
    #[must_use = "each line must be said through the bot's CmdSink"]
    pub fn poll_due(&mut self, clock: BotClock) -> Vec<Outgoing> {
        let gap = clock.ticks_ms(MIN_SEND_GAP_MS);
        let mut due = Vec::new();
        for b in &mut self.bots {
            let ready = b.pending.as_ref().is_some_and(|p| p.send_at <= clock.tick)
                && b.last_sent_at.is_none_or(|t| clock.tick.saturating_sub(t) >= gap);
            if let Some(p) = b.pending.take_if(|_| ready) {
                due.push((b.slot, p));
            }
        }
        due.into_iter().map(|(slot, p)| self.sent(slot, p, clock.tick)).collect()
    }

    fn sent(&mut self, slot: SlotId, p: Pending, now: u32) -> Outgoing {
        let st = self.state(slot);
        let repeat = st.last_text.as_deref() == Some(p.out.text.as_str());
        st.last_sent_at = Some(now);
        st.last_template = Some(p.template);
        st.last_text = Some(p.out.text.clone());
        let f = &mut self.figures;
        f.lines += 1;
        f.back_to_back_repeats += u32::from(repeat);
        match p.out.kind {
            LineKind::Reply => {
                f.replies += 1;
                let echo = quarry_sim::chat::clean_chat(&p.out.text).map_or_else(|| p.out.text.clone(), |c| c.0);
                self.echoes.push((slot, echo, now));
            }
            LineKind::Event(e) => *f.by_event.entry(e.name().to_owned()).or_default() += 1,
        }
        p.out
    }

    /// The match refused a line the director handed out.
    pub fn refused(&mut self) {
        self.figures.refused += 1;
    }
}
