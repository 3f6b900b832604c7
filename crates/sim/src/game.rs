//! [`Match`]: one match as a bevy_ecs `World` plus its tick `Schedule`.
//!
//! Call order per server tick: push commands into slots
//! ([`Match::push_cmd`]) and set live settings ([`Match::set_settings`]),
//! then [`Match::step`], then read [`Match::events`] (what happened this
//! tick) and [`Match::state_hash`]. The match never reads a clock, a socket
//! or a global RNG: time is the tick count, randomness comes from the seed.

use bevy_ecs::message::MessageRegistry;
use bevy_ecs::prelude::*;
use quarry_map::{LoadedMap, NotPlayable};
use quarry_movement::UserCmd;

use crate::MapRes;
use crate::accuracy::{AccuracyBook, SlotAccuracy};
use crate::chat::{ChatScope, clean_chat};
use crate::clock::{MatchClock, SimRng};
use crate::combat::DamageQueue;
use crate::components::{Body, Health, Life, Player};
use crate::events::GameEvent;
use crate::hash::TickHash;
use crate::input::PushOutcome;
use crate::rules::{GameType, Phase, RulesState, TeamChangeError, check_team_change, choose_team};
use crate::settings::Settings;
use crate::slots::{AttachError, ClientKind, SlotError, SlotId, SlotState, Slots, Team, UserInfo};
use crate::components::NetIds;
use crate::spawn::SpawnLoadout;
use crate::scoreboard::{ScoreRow, Scoreboard};

/// Why a match could not be created.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The map has nowhere to put players.
    #[error("map '{map}' can't host a match: {reason}")]
    NotPlayable {
        /// Map name.
        map: String,
        /// Why.
        reason: NotPlayable,
    },
    /// The game type needs map entities the map lacks (CTF without both flags).
    #[error("map '{map}' can't host {gametype}: {reason}")]
    GameTypeUnsupported {
        /// Map name.
        map: String,
        /// The game type's name.
        gametype: &'static str,
        /// What is missing.
        reason: String,
    },
}

/// Why a chat line was not sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChatError {
    /// Nothing left after cleaning.
    #[error("empty message")]
    Empty,
    /// The client is sending too fast.
    #[error("you are sending messages too fast")]
    Flood,
    /// No such client.
    #[error(transparent)]
    Slot(#[from] SlotError),
}

/// One match: the world, its schedule, its seed.
pub struct Match {
    world: World,
    schedule: Schedule,
    seed: u64,
    /// Reads every `GameEvent` once, whenever it was written.
    cursor: bevy_ecs::message::MessageCursor<GameEvent>,
    /// What happened during the last step (and since the step before it).
    last_events: Vec<GameEvent>,
}

impl Match {
    /// Whether `map` can host a match of `gametype` (spawn points; both
    /// flags for CTF; the neutral flag and both team flags for One Flag). [`Match::new`] checks the same; a server checks first
    /// so a refused map change leaves the running match untouched.
    pub fn check_hostable(map: &LoadedMap, gametype: GameType) -> Result<(), MatchError> {
        map.check_playable().map_err(|reason| MatchError::NotPlayable { map: map.name().to_owned(), reason })?;
        crate::modes::check_map(map, gametype).map_err(|reason| MatchError::GameTypeUnsupported { map: map.name().to_owned(), gametype: gametype.name(), reason })?;
        Ok(())
    }

    /// A match on `map` with `slots` carried over (all of them re-enter),
    /// seeded with `seed`, ticking at `hz`.
    pub fn new(
        map: LoadedMap,
        data: &crate::GameData,
        settings: Settings,
        seed: u64,
        mut slots: Slots,
        hz: u32,
    ) -> Result<Self, MatchError> {
        Self::check_hostable(&map, settings.gametype)?;
        let mut world = World::new();
        MessageRegistry::register_message::<GameEvent>(&mut world);
        let gametype = settings.gametype;
        // Everyone carried over re-enters: bodies and scores belong to the old match.
        for (_, s) in slots.iter_mut() {
            s.entity = None;
            s.score = Default::default();
            s.input.reset();
        }
        world.insert_resource(MatchClock { tick: 0, hz: hz.max(1) });
        world.insert_resource(SimRng::new(seed));
        world.insert_resource(RulesState::new(gametype));
        world.insert_resource(crate::modes::rules_for(gametype));
        world.insert_resource(settings);
        world.insert_resource(slots);
        world.insert_resource(MapRes(map));
        world.insert_resource(DamageQueue::default());
        world.insert_resource(AccuracyBook::default());
        world.insert_resource(TickHash::default());
        world.insert_resource(NetIds::default());
        world.insert_resource(SpawnLoadout::default());
        let mut schedule = crate::schedule::build_schedule();
        crate::install_modules(&mut world, &mut schedule, data);
        let mut m = Self { world, schedule, seed, cursor: Default::default(), last_events: Vec::new() };
        m.seat_carried_over();
        Ok(m)
    }

    /// Puts the clients a new match carries over from the last one on
    /// teams for this game type, in slot order, as [`Match::new`] does.
    /// For a replay that builds a match and then puts the recorded
    /// carried-over clients in its slots: call it before the first tick.
    pub fn seat_carried_over(&mut self) {
        let ids: Vec<SlotId> = self.slots().iter().filter(|(_, s)| s.state == SlotState::InGame).map(|(id, _)| id).collect();
        for id in ids {
            self.place_on_team(id);
        }
    }

    /// The seed the match was created with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Simulates one tick.
    pub fn step(&mut self) {
        self.world.resource_mut::<MatchClock>().tick += 1;
        self.schedule.run(&mut self.world);
        let messages = self.world.resource::<Messages<GameEvent>>();
        self.last_events = self.cursor.read(messages).cloned().collect();
    }

    /// Replaces the live settings (read from cvars by the server each tick).
    /// The game type is fixed for the match's life (it is latched).
    pub fn set_settings(&mut self, mut settings: Settings) {
        settings.gametype = self.world.resource::<RulesState>().gametype;
        let changed = *self.world.resource::<Settings>() != settings;
        if changed {
            self.world.insert_resource(settings);
        }
    }

    /// Changes the tick rate (`sv_fps` changed mid-match); timers already
    /// running keep their tick deadlines.
    pub fn set_hz(&mut self, hz: u32) {
        self.world.resource_mut::<MatchClock>().hz = hz.max(1);
    }

    /// The current settings.
    pub fn settings(&self) -> &Settings {
        self.world.resource::<Settings>()
    }

    /// The tick last simulated.
    pub fn tick(&self) -> u32 {
        self.world.resource::<MatchClock>().tick
    }

    /// Ticks per second.
    pub fn hz(&self) -> u32 {
        self.world.resource::<MatchClock>().hz
    }

    /// The match phase.
    pub fn phase(&self) -> Phase {
        self.world.resource::<RulesState>().phase
    }

    /// The rules' state (game type, phase, team scores, end reason).
    pub fn rules(&self) -> &RulesState {
        self.world.resource::<RulesState>()
    }

    /// The hash of the state after the last tick.
    pub fn state_hash(&self) -> u64 {
        self.world.resource::<TickHash>().value
    }

    /// The last tick's hash step by step: each step's name with the
    /// running hash after it (the last is [`Match::state_hash`]).
    pub fn hash_steps(&self) -> Vec<(&'static str, u64)> {
        self.world.resource::<TickHash>().step_hashes()
    }

    /// The map.
    pub fn map(&self) -> &LoadedMap {
        &self.world.resource::<MapRes>().0
    }

    /// The slots.
    pub fn slots(&self) -> &Slots {
        self.world.resource::<Slots>()
    }

    /// The slots, mutably (userinfo changes, latency updates).
    pub fn slots_mut(&mut self) -> Mut<'_, Slots> {
        self.world.resource_mut::<Slots>()
    }

    /// Read-only access to the world, for observers (bots' view, snapshots).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Mutable world access, for the sim's own tests only (feature
    /// `test-support`): everyone else changes the match through commands.
    #[cfg(any(test, feature = "test-support"))]
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Takes the slots out (for a map change) and ends the match.
    pub fn into_slots(mut self) -> Slots {
        self.world.remove_resource::<Slots>().unwrap_or_else(|| Slots::new(1))
    }

    /// Allocates a slot for a new client: the one path for humans and bots.
    pub fn connect(&mut self, kind: ClientKind, userinfo: UserInfo) -> Result<SlotId, SlotError> {
        let tick = self.tick();
        let slot = self.slots_mut().allocate(kind, userinfo, tick)?;
        self.world.resource_mut::<AccuracyBook>().start_over(slot);
        Ok(slot)
    }

    /// The client finished loading: it enters the game on the team the rules
    /// give it and spawns at the next tick.
    pub fn enter_game(&mut self, slot: SlotId) -> Result<Team, SlotError> {
        {
            let mut slots = self.slots_mut();
            let s = slots.get_mut(slot).ok_or(SlotError::NoSuchSlot(slot.0))?;
            s.state = SlotState::InGame;
        }
        let team = self.place_on_team(slot);
        self.world.write_message(GameEvent::Joined { slot, team });
        Ok(team)
    }

    fn place_on_team(&mut self, slot: SlotId) -> Team {
        let rules = self.world.resource::<RulesState>();
        let (gametype, scores) = (rules.gametype, rules.team_scores);
        let pref = self.slots().get(slot).and_then(|s| s.userinfo.team_pref);
        // Count everyone else: the client's own old team must not sway the choice.
        let mut slots = self.world.resource_mut::<Slots>();
        if let Some(s) = slots.get_mut(slot) {
            s.team = Team::Spectator;
        }
        let team = choose_team(gametype, &slots, pref, scores);
        if let Some(s) = slots.get_mut(slot) {
            s.team = team;
        }
        team
    }

    /// A client leaves: its body is removed and its slot freed.
    pub fn disconnect(&mut self, slot: SlotId) -> Option<crate::slots::Slot> {
        let freed = self.slots_mut().free(slot)?;
        self.world.resource_mut::<AccuracyBook>().start_over(slot);
        if let Some(e) = freed.entity {
            self.world.despawn(e);
        }
        self.world.write_message(GameEvent::Left { slot });
        self.auto_balance();
        Some(freed)
    }

    /// Offers a command to a slot's input queue.
    pub fn push_cmd(&mut self, slot: SlotId, cmd: UserCmd) -> Result<PushOutcome, SlotError> {
        self.slots_mut().push_cmd(slot, cmd)
    }

    /// Moves a client to another team, if the rules allow it. Switching
    /// removes a living body; it respawns on the new side, except during a
    /// live round of Freeze Tag or Clan Arena, where it waits for the next.
    pub fn set_team(&mut self, slot: SlotId, to: Team) -> Result<(), TeamChangeError> {
        let gametype = self.world.resource::<RulesState>().gametype;
        let force = self.settings().team_force_balance;
        let from = self.slots().get(slot).map_or(Team::Spectator, |s| s.team);
        if from == to {
            return Ok(());
        }
        check_team_change(gametype, self.slots(), from, to, force)?;
        let entity = self.slots().get(slot).and_then(|s| s.entity);
        if let Some(e) = entity {
            self.world.despawn(e);
        }
        if let Some(s) = self.slots_mut().get_mut(slot) {
            s.team = to;
            s.entity = None;
            s.joined_tick = 0;
        }
        let tick = self.tick();
        if let Some(s) = self.slots_mut().get_mut(slot) {
            s.joined_tick = tick;
        }
        self.world.write_message(GameEvent::TeamChanged { slot, from, to, forced: false });
        if to == Team::Spectator {
            self.auto_balance();
        }
        Ok(())
    }

    /// Attaches the client in `slot` to the client in `to`, or frees it with
    /// `None`: a client that plays beside another (a companion beside the
    /// player it serves). While the two share a team the automatic team
    /// balance moves neither of them: it moves someone else, or nobody.
    /// Team changes a client asks for are its own; the attachment is
    /// dropped when `to` leaves. A recording journals every attachment
    /// made or dropped, so a replay keeps the same pairs together.
    pub fn attach(&mut self, slot: SlotId, to: Option<SlotId>) -> Result<(), AttachError> {
        if to == Some(slot) {
            return Err(AttachError::Itself(slot.0));
        }
        if let Some(t) = to
            && self.slots().get(t).is_none()
        {
            return Err(AttachError::NoSuchSlot(t.0));
        }
        let mut slots = self.slots_mut();
        let s = slots.get_mut(slot).ok_or(AttachError::NoSuchSlot(slot.0))?;
        s.attached_to = to;
        Ok(())
    }

    /// `g_teamAutoBalance`: after someone left a team, if one team is two or
    /// more larger, its latest joiner (preferring the dead, never a flag
    /// carrier while another choice exists, never one of a pair attached to
    /// each other on that team: [`Match::attach`]) moves to the smaller
    /// team and respawns there.
    fn auto_balance(&mut self) {
        let gametype = self.world.resource::<RulesState>().gametype;
        if !gametype.is_team_game() || !self.settings().team_auto_balance {
            return;
        }
        let (red, blue) = crate::rules::team_counts(self.slots());
        if red.abs_diff(blue) < 2 {
            return;
        }
        let (from, to) = if red > blue { (Team::Red, Team::Blue) } else { (Team::Blue, Team::Red) };
        let world = &self.world;
        let pick = self
            .slots()
            .iter()
            .filter(|(id, s)| s.team == from && !crate::rules::held_together(self.slots(), *id))
            .map(|(id, s)| {
                let carrier = s.entity.is_some_and(|e| crate::mode_rules::ModeRules::balance_exempt(world, e));
                let alive = s.entity.is_some_and(|e| world.get::<Life>(e) == Some(&Life::Alive));
                // Lowest key wins: not carrying, dead, latest joiner, highest slot.
                ((carrier, alive, std::cmp::Reverse(s.joined_tick), std::cmp::Reverse(id)), id)
            })
            .min()
            .map(|(_, id)| id);
        let Some(slot) = pick else { return };
        let entity = self.slots().get(slot).and_then(|s| s.entity);
        if let Some(e) = entity {
            self.world.despawn(e);
        }
        let tick = self.tick();
        let name = match self.slots_mut().get_mut(slot) {
            Some(s) => {
                s.team = to;
                s.entity = None;
                s.joined_tick = tick;
                s.userinfo.name.clone()
            }
            None => return,
        };
        self.world.write_message(GameEvent::TeamChanged { slot, from, to, forced: true });
        self.world.write_message(GameEvent::Print { to: None, text: format!("{name} was moved to {} to balance the teams.", to.name()) });
    }

    /// Runs a command the player in `slot` sent from their client (`team
    /// NAME`, `kill`): see [`crate::client_command`]. Returns the answer.
    pub fn client_command(&mut self, slot: SlotId, line: &str) -> String {
        crate::client_command::run(self, slot, line)
    }

    /// Kills a client's living body by its own request (`kill`); it counts
    /// as a suicide.
    pub fn suicide(&mut self, slot: SlotId) {
        let tick = self.tick();
        crate::combat::kill(&mut self.world, slot, None, crate::events::MeansOfDeath::Suicide, tick);
    }

    /// Sends chat from a client (`None`: the server console). Team chat goes
    /// to the speaker's team in team games and to everyone otherwise.
    pub fn say(&mut self, from: Option<SlotId>, team_only: bool, text: &str) -> Result<(), ChatError> {
        let (text, _cut) = clean_chat(text).ok_or(ChatError::Empty)?;
        let tick = self.tick();
        let team_game = self.world.resource::<RulesState>().gametype.is_team_game();
        let mut scope = ChatScope::All;
        let mut name = String::new();
        if let Some(id) = from {
            let mut slots = self.slots_mut();
            let s = slots.get_mut(id).ok_or(SlotError::NoSuchSlot(id.0))?;
            if !s.chat.allow(tick) {
                return Err(ChatError::Flood);
            }
            if team_only && team_game && matches!(s.team, Team::Red | Team::Blue) {
                scope = ChatScope::Team(s.team);
            }
            name = s.userinfo.name.clone();
        }
        self.world.write_message(GameEvent::Chat { from, name, scope, text });
        Ok(())
    }

    /// The line everyone reads for a death ([`GameEvent::Kill`]).
    pub fn obituary(&self, killer: Option<SlotId>, victim: SlotId, means: crate::events::MeansOfDeath) -> String {
        let table = self.world.resource::<crate::weapons::WeaponTable>();
        crate::obituary::obituary(self.slots(), table, killer, victim, means)
    }

    /// The table name of weapon number `n` (`rocket_launcher`).
    pub fn weapon_name(&self, n: u8) -> Option<&str> {
        self.world.resource::<crate::weapons::WeaponTable>().get(n).map(|w| w.name.as_str())
    }

    /// Who receives a chat line of `scope`.
    pub fn chat_recipients(&self, scope: ChatScope) -> Vec<SlotId> {
        self.slots()
            .iter()
            .filter(|(_, s)| match scope {
                ChatScope::All => true,
                ChatScope::Team(t) => s.team == t,
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// Publishes a server line to everyone.
    pub fn print(&mut self, text: &str) {
        self.world.write_message(GameEvent::Print { to: None, text: text.to_owned() });
    }

    /// What happened during the last [`Match::step`], including what was
    /// caused between steps (chat, joins, leaves), each event exactly once.
    pub fn events(&self) -> Vec<GameEvent> {
        self.last_events.clone()
    }

    /// The objective state of the game type: flags, bases, frozen players, rounds.
    pub fn mode_state(&self) -> crate::modes::view::ModeState {
        crate::modes::view::mode_state(&self.world)
    }

    /// What the objective modes counted this match: rounds and how they
    /// ended, thaws, captures and returns, per team.
    pub fn mode_stats(&self) -> crate::modes::ModeStats {
        self.world.get_resource::<crate::modes::ModeStats>().cloned().unwrap_or_default()
    }

    /// Every entity a client is shown this tick, sorted by id (for snapshots).
    pub fn entity_views(&self) -> Vec<crate::view::EntityView> {
        crate::view::entity_views(&self.world)
    }

    /// A slot's own full state (for its snapshot), if it has a body.
    pub fn own_view(&self, slot: SlotId) -> Option<crate::view::OwnView> {
        crate::view::own_view(&self.world, slot)
    }

    /// Position, health and life of a slot's body, for tests and status.
    pub fn player_view(&self, slot: SlotId) -> Option<PlayerView> {
        let e = self.slots().get(slot)?.entity?;
        let body = self.world.get::<Body>(e)?;
        let health = self.world.get::<Health>(e)?;
        let life = self.world.get::<Life>(e)?;
        let _ = self.world.get::<Player>(e)?;
        Some(PlayerView { origin: body.0.origin, velocity: body.0.velocity, on_ground: body.0.on_ground(), health: health.hp, alive: *life == Life::Alive })
    }

    /// A slot's shots, hits, splash hits and damage this match per weapon
    /// and range band ([`crate::accuracy`]); zeros for an empty slot.
    pub fn accuracy(&self, slot: SlotId) -> &SlotAccuracy {
        self.world.resource::<AccuracyBook>().slot(slot)
    }

    /// Every slot's accuracy, for a reader that follows its changes.
    pub fn accuracy_book(&self) -> &AccuracyBook {
        self.world.resource::<AccuracyBook>()
    }

    /// The scoreboard: every non-spectator by frags (then fewer deaths, then slot).
    pub fn scoreboard(&self) -> Scoreboard {
        let rules = self.world.resource::<RulesState>();
        let mut rows: Vec<ScoreRow> = self
            .slots()
            .iter()
            .filter(|(_, s)| s.team != Team::Spectator)
            .map(|(id, s)| ScoreRow {
                slot: id,
                name: s.userinfo.name.clone(),
                team: s.team,
                bot: s.kind == ClientKind::Bot,
                score: s.score,
            })
            .collect();
        rows.sort_by(|a, b| b.score.frags.cmp(&a.score.frags).then(a.score.deaths.cmp(&b.score.deaths)).then(a.slot.cmp(&b.slot)));
        Scoreboard {
            gametype: rules.gametype,
            phase: rules.phase,
            team_scores: rules.gametype.is_team_game().then_some(rules.team_scores),
            end_reason: rules.end_reason.clone(),
            rows,
        }
    }
}

/// A snapshot of one player for tests and status lines.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerView {
    /// Box origin.
    pub origin: glam::Vec3,
    /// Velocity, units/s.
    pub velocity: glam::Vec3,
    /// Standing on ground.
    pub on_ground: bool,
    /// Health.
    pub health: i32,
    /// Alive.
    pub alive: bool,
}

#[cfg(test)]
mod tests {
    use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings};

    use super::*;

    /// No two systems of any game type's schedule touch the same data in an
    /// order the schedule leaves open: the order of everything that affects
    /// the outcome is fixed, whatever bevy's topological sort picks.
    #[test]
    fn no_schedule_has_an_ambiguous_order() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/q_ctf1.map");
        let map = quarry_map::load(&path, &quarry_map::LoadOptions::default()).expect("shipped map loads");
        for name in GameType::NAMES {
            let gametype = GameType::parse(name).expect("listed names parse");
            let settings = Settings { gametype, ..Settings::default() };
            let mut m = Match::new(map.clone(), &crate::GameData::default(), settings, 1, Slots::new(4), 60).expect("match");
            m.schedule.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..ScheduleBuildSettings::default() });
            if let Err(e) = m.schedule.initialize(&mut m.world) {
                panic!("{name}: {}", e.to_string(m.schedule.graph(), &m.world));
            }
        }
    }
}
