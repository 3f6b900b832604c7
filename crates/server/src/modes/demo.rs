//! A recording played to one viewer as the network would have served it:
//! `quarry-client play --demo FILE`.
//!
//! A recording holds the commands of a match, not what anyone saw, so the
//! match is built again and stepped as [`super::replay`] does (every stored
//! hash still checked), and after each tick the viewer is handed what a
//! client in the followed player's slot would have been sent: the
//! snapshot (that player's own state, everyone else as entities), the
//! chat and prints that player heard, the objective state and the
//! scoreboard when they change. The client draws it with the same code as
//! a live game. Pacing (real time, pause, speed) is the window's; seeking
//! back builds the match again, as the web view's playback does.

use std::collections::VecDeque;
use std::path::Path;

use quarry_net::handshake::{CS_ITEM_MODELS, CS_MOVEMENT, CS_TIMING, ServerInfo, Welcome, timing_string};
use quarry_net::reliable::{ModeUpdate, Scoreboard, ServerMessage};
use quarry_net::snapshot::SharedSnapshot;
use quarry_net::transport::ClientEvent;
use quarry_record::{Recording, TickRecord};
use quarry_sim::events::GameEvent;
use quarry_sim::slots::SlotState;
use quarry_sim::{Match, SlotId, Team};

use super::replay::{ReplayError, ReplayOptions, build, open, scratch, step};
use crate::feature::{Observer, TickReport};
use crate::network::{convert, events, messages};
use crate::server::Server;

/// The slot number a free camera is welcomed with: no player has it.
pub const FREE_CAMERA_SLOT: u8 = u8::MAX;
/// Ticks between two scoreboards when only rows changed (a new phase is
/// sent at once).
const BOARD_EVERY_TICKS: u32 = 60;
/// Events the viewer has not taken yet, most; older ones are dropped (a
/// window that stops reading must not grow the feed without bound).
const MAX_PENDING: usize = 4096;

/// Where the viewer watches from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewpoint {
    /// A player's eyes: its own state, its chat.
    Player(SlotId),
    /// Flying free: every player an entity, the chat everyone hears.
    Free,
}

/// A player of the match, as the viewer picks whom to follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoPlayer {
    /// The slot.
    pub slot: SlotId,
    /// The name.
    pub name: String,
}

/// Keeps each tick's events for the feed (the replayed server has no
/// network to hand them to).
#[derive(Default)]
struct EventTap {
    events: Vec<GameEvent>,
}

impl Observer for EventTap {
    fn after_tick(&mut self, report: &TickReport<'_>) {
        self.events.clear();
        self.events.extend_from_slice(report.events);
    }
}

/// A recording played for one viewer.
pub struct DemoFeed {
    rec: Recording,
    options: ReplayOptions,
    scratch: tempfile::TempDir,
    server: Server,
    /// The next chunk to decode, and the ticks left of the current one.
    next_chunk: usize,
    pending: VecDeque<TickRecord>,
    played: u64,
    map_name: String,
    map_text: String,
    viewpoint: Option<Viewpoint>,
    /// The item classes the entity states' models index, as last told.
    items: Vec<&'static str>,
    mode_sent: Option<ModeUpdate>,
    board_sent: Option<(Scoreboard, u32)>,
    /// Sounds, shots, hits and hurts for the next snapshot.
    shown: events::PendingEvents,
    out: VecDeque<ClientEvent>,
}

impl std::fmt::Debug for DemoFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoFeed").field("recording", &self.rec).field("played", &self.played).field("viewpoint", &self.viewpoint).finish_non_exhaustive()
    }
}

impl DemoFeed {
    /// Opens `path` and builds its match. The viewer is welcomed once a
    /// viewpoint is set: the first player in the game after a step, or
    /// [`DemoFeed::set_viewpoint`].
    pub fn open(path: &Path, options: &ReplayOptions) -> Result<Self, ReplayError> {
        let rec = open(path, options)?;
        let scratch = scratch()?;
        let server = build(&rec, scratch.path(), options.maps_dir.as_deref())?;
        let (map_name, map_text) = match_map(&server)?;
        let mut feed = DemoFeed {
            rec,
            options: options.clone(),
            scratch,
            server,
            next_chunk: 0,
            pending: VecDeque::new(),
            played: 0,
            map_name,
            map_text,
            viewpoint: None,
            items: Vec::new(),
            mode_sent: None,
            board_sent: None,
            shown: events::PendingEvents::default(),
            out: VecDeque::new(),
        };
        feed.server.state.features.observe(EventTap::default());
        Ok(feed)
    }

    /// The map's name.
    pub fn map_name(&self) -> &str {
        &self.map_name
    }

    /// The map's text, as the match loaded it.
    pub fn map_text(&self) -> &str {
        &self.map_text
    }

    /// The match's tick rate.
    pub fn hz(&self) -> u32 {
        self.rec.header.hz.max(1)
    }

    /// The match tick played last (0 before the first).
    pub fn tick(&self) -> u32 {
        self.game().map_or(0, Match::tick)
    }

    /// The last tick the recording holds.
    pub fn last_tick(&self) -> u32 {
        self.rec.last_tick().unwrap_or(0)
    }

    /// Whether every recorded tick was played.
    pub fn at_end(&self) -> bool {
        self.played >= self.rec.tick_count()
    }

    /// Where the viewer watches from (`None` until the first player is in).
    pub fn viewpoint(&self) -> Option<Viewpoint> {
        self.viewpoint
    }

    /// The players in the game now, by slot (spectators left out).
    pub fn players(&self) -> Vec<DemoPlayer> {
        let Some(game) = self.game() else { return Vec::new() };
        game.slots()
            .iter()
            .filter(|(_, s)| s.state == SlotState::InGame && s.team != Team::Spectator)
            .map(|(slot, s)| DemoPlayer { slot, name: s.userinfo.name.clone() })
            .collect()
    }

    /// The player named `name` (case and colour codes aside), if one plays now.
    pub fn player_named(&self, name: &str) -> Option<SlotId> {
        let want = plain_name(name);
        self.players().into_iter().find(|p| plain_name(&p.name) == want).map(|p| p.slot)
    }

    /// Watches from `viewpoint` from now on: the viewer is welcomed again
    /// (its view starts over) and given the present at once.
    pub fn set_viewpoint(&mut self, viewpoint: Viewpoint) {
        self.viewpoint = Some(viewpoint);
        self.welcome();
        self.present(true);
    }

    /// Plays one recorded tick and queues what the viewer is sent after
    /// it. Returns `false` at the end of the recording.
    pub fn step(&mut self) -> Result<bool, ReplayError> {
        if !self.play_one()? {
            return Ok(false);
        }
        if self.viewpoint.is_none() {
            self.choose_first();
        } else {
            let events = self.tap_events();
            self.tell_events(&events);
            self.present(false);
        }
        Ok(true)
    }

    /// Goes to match tick `to` (within the recording), quietly: the
    /// viewer is welcomed again and sent only the state there. Going back
    /// builds the match again and plays up to `to`.
    pub fn seek(&mut self, to: u32) -> Result<(), ReplayError> {
        if to < self.tick() {
            self.server = build(&self.rec, self.scratch.path(), self.options.maps_dir.as_deref())?;
            self.server.state.features.observe(EventTap::default());
            self.next_chunk = 0;
            self.pending.clear();
            self.played = 0;
        }
        while self.tick() < to && self.play_one()? {}
        // The followed player may not be in the game at this tick.
        let players = self.players();
        if let Some(Viewpoint::Player(slot)) = self.viewpoint
            && !players.iter().any(|p| p.slot == slot)
        {
            self.viewpoint = None;
        }
        if self.viewpoint.is_none() {
            self.viewpoint = players.first().map(|p| Viewpoint::Player(p.slot));
        }
        self.welcome();
        self.present(true);
        Ok(())
    }

    /// Takes what the viewer was sent since the last call, in order.
    pub fn take_events(&mut self) -> Vec<ClientEvent> {
        self.out.drain(..).collect()
    }

    fn game(&self) -> Option<&Match> {
        self.server.state.game.running.as_ref()
    }

    fn play_one(&mut self) -> Result<bool, ReplayError> {
        let Some(t) = self.next_record()? else { return Ok(false) };
        step(&mut self.server, &t)?;
        self.played += 1;
        Ok(true)
    }

    fn next_record(&mut self) -> Result<Option<TickRecord>, ReplayError> {
        loop {
            if let Some(t) = self.pending.pop_front() {
                return Ok(Some(t));
            }
            if self.next_chunk >= self.rec.chunks().len() {
                return Ok(None);
            }
            let chunk = self.rec.chunk(self.next_chunk)?;
            self.next_chunk += 1;
            self.pending = chunk.ticks.into();
        }
    }

    fn tap_events(&mut self) -> Vec<GameEvent> {
        self.server.state.features.get_mut::<EventTap>().map(|t| std::mem::take(&mut t.events)).unwrap_or_default()
    }

    /// Follows the first player in the game, once one is.
    fn choose_first(&mut self) {
        if let Some(first) = self.players().first() {
            self.set_viewpoint(Viewpoint::Player(first.slot));
        }
    }

    fn followed(&self) -> Option<SlotId> {
        match self.viewpoint {
            Some(Viewpoint::Player(slot)) => Some(slot),
            _ => None,
        }
    }

    fn push(&mut self, event: ClientEvent) {
        if self.out.len() == MAX_PENDING {
            self.out.pop_front();
        }
        self.out.push_back(event);
    }

    /// Welcomes the viewer into the followed slot with the match's config
    /// strings; what it was told of the mode and scores is told again.
    fn welcome(&mut self) {
        let Some(game) = self.game() else { return };
        let slot = self.followed().map_or(FREE_CAMERA_SLOT, |s| s.0);
        let hz = u16::try_from(self.hz()).unwrap_or(u16::MAX);
        let slots = game.slots();
        let server_info = ServerInfo {
            hostname: format!("demo: {}", self.map_name),
            gametype: game.rules().gametype.name().to_owned(),
            humans: u16::try_from(slots.humans()).unwrap_or(u16::MAX),
            bots: u16::try_from(slots.bots()).unwrap_or(u16::MAX),
            max_clients: u16::try_from(slots.max()).unwrap_or(u16::MAX),
            extra: Vec::new(),
        };
        let config_strings = vec![
            (CS_ITEM_MODELS, self.items.join(" ")),
            (CS_TIMING, timing_string(hz, hz)),
            (CS_MOVEMENT, game.settings().movement.to_settings_string()),
        ];
        let welcome = Welcome { slot, map: self.map_name.clone(), tick_rate: hz, snapshot_rate: hz, server_info, config_strings };
        self.mode_sent = None;
        self.board_sent = None;
        self.shown = events::PendingEvents::default();
        self.push(ClientEvent::Welcomed(welcome));
    }

    /// The chat and prints of the tick the viewer hears; the sounds,
    /// shots, hits and hurts it is shown queue for the snapshot.
    fn tell_events(&mut self, events: &[GameEvent]) {
        let Some(game) = self.server.state.game.running.as_ref() else { return };
        let slot = self.followed();
        let eye = slot.and_then(|s| game.own_view(s)).map(|v| v.origin);
        self.shown.offer(&events::tick_events(game, events), slot, eye, game.tick());
        let heard: Vec<ServerMessage> = messages::event_messages(game, events)
            .into_iter()
            .filter(|(audience, _)| audience.includes(self.followed()))
            .map(|(_, msg)| msg)
            .collect();
        for msg in heard {
            self.push(ClientEvent::Message(msg));
        }
    }

    /// The objective state and scoreboard when they changed (`fresh`:
    /// always), then the snapshot of the tick.
    fn present(&mut self, fresh: bool) {
        let Some(game) = self.server.state.game.running.as_ref() else { return };
        let tick = game.tick();
        let mode = convert::mode_update(game);
        let board = convert::scoreboard(game, |_| 0);
        let views = game.entity_views();
        let slot = self.followed();
        let own = slot.and_then(|s| game.own_view(s));
        let (team, frags) = slot.and_then(|s| game.slots().get(s)).map_or((Team::Spectator, 0), |s| (s.team, s.score.frags));
        let items_before = self.items.len();
        let entities: Vec<_> = views
            .iter()
            .map(|v| {
                let model = match v.kind {
                    quarry_sim::view::ViewKind::Item { classname, .. } => item_model(&mut self.items, classname),
                    _ => 0,
                };
                convert::entity_state(v, |_| model)
            })
            .collect();
        let snapshot = SharedSnapshot {
            server_tick: tick,
            acked_cmd_tick: 0,
            player: convert::player_state(own.as_ref(), team, frags),
            entities: entities.into(),
            own: own.as_ref().map(|o| o.id),
            events: if fresh { Vec::new() } else { self.shown.take() },
        }
        .to_snapshot();
        if self.items.len() != items_before {
            self.push(ClientEvent::Message(ServerMessage::ConfigString { index: CS_ITEM_MODELS, value: self.items.join(" ") }));
        }
        if fresh || self.mode_sent.as_ref() != Some(&mode) {
            self.mode_sent = Some(mode.clone());
            self.push(ClientEvent::Message(ServerMessage::Mode(mode)));
        }
        let send_board = match &self.board_sent {
            None => true,
            Some((sent, at)) => fresh || sent.phase != board.phase || (*sent != board && tick.saturating_sub(*at) >= BOARD_EVERY_TICKS),
        };
        if send_board {
            self.board_sent = Some((board.clone(), tick));
            self.push(ClientEvent::Message(ServerMessage::Scoreboard(board)));
        }
        self.push(ClientEvent::Snapshot(snapshot));
    }
}

/// The index of `classname` in the item table, added if new.
fn item_model(items: &mut Vec<&'static str>, classname: &'static str) -> u16 {
    let at = items.iter().position(|c| *c == classname).unwrap_or_else(|| {
        items.push(classname);
        items.len() - 1
    });
    u16::try_from(at).unwrap_or(u16::MAX)
}

/// The running map's name and the text it was loaded from.
fn match_map(server: &Server) -> Result<(String, String), ReplayError> {
    let game = server.state.game.running.as_ref().ok_or_else(|| ReplayError::Setup("no match was started".to_owned()))?;
    let name = game.map().name().to_owned();
    let path = server.state.game.map_path.as_deref().ok_or_else(|| ReplayError::Setup("the replayed match has no map file".to_owned()))?;
    let text = std::fs::read_to_string(path).map_err(|e| ReplayError::Setup(format!("the replayed map {}: {e}", path.display())))?;
    Ok((name, text))
}

/// A name without colour codes (`^1`), lower case, for matching.
fn plain_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        if c == '^' {
            chars.next();
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_without_colours_or_case() {
        assert_eq!(plain_name("^1Ra^7zor"), "razor");
        assert_eq!(plain_name("Doom"), "doom");
    }

    #[test]
    fn items_keep_their_numbers() {
        let mut items = Vec::new();
        assert_eq!(item_model(&mut items, "item_armor"), 0);
        assert_eq!(item_model(&mut items, "weapon_rocket"), 1);
        assert_eq!(item_model(&mut items, "item_armor"), 0);
    }
}
