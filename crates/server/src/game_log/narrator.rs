//! Turns a match's events into game log lines, on the tick thread. It
//! remembers who held each slot (a player who left is still named in the
//! records about them) and tallies damage, shots, hits and kills per player
//! and weapon for the summaries at the end; the final scoreboard carries
//! each player's accuracy per weapon and range band from the match
//! ([`Match::accuracy`]). It only reads the match.

use std::collections::BTreeMap;

use quarry_sim::Match;
use quarry_sim::events::{FlagEventKind, GameEvent, SoundKind};
use quarry_sim::slots::{ClientKind, SlotId, Team};

use quarry_sim::accuracy::RangeBand;

use super::line::{AccuracyLine, MatchSettings, PlayerAt, PlayerRef, Line, ScoreLine, TeamScores, WeaponTally};

/// Gives the address hash of a remote client's slot.
pub type AddressOf<'a> = &'a dyn Fn(SlotId) -> Option<String>;

/// One player's running figures.
#[derive(Debug, Default, Clone)]
struct Tally {
    given: u32,
    taken: u32,
    /// By weapon number.
    weapons: BTreeMap<u8, WeaponTally>,
    /// The tick and weapon of the last hit counted, so a shotgun's pellets
    /// (one damage event each) count as one hit.
    last_hit: Option<(u32, u8)>,
}

/// What the narrator knows of a slot's holder.
#[derive(Debug, Clone)]
struct Known {
    player: PlayerRef,
    entered_tick: u32,
}

/// The match's story so far, for the records still to come.
#[derive(Debug, Default)]
pub struct Narrator {
    known: BTreeMap<u8, Known>,
    tallies: BTreeMap<u8, Tally>,
    /// The skill each bot plays at, by slot, as the bot manager last said.
    bot_skills: BTreeMap<u8, f32>,
    /// The match's end was recorded (its results are in).
    ended: bool,
}

impl Narrator {
    /// The skill each bot plays at now, by slot (for the match end's rows,
    /// so a stats tool can set each skill's figures beside people's).
    pub fn set_bot_skills(&mut self, skills: impl IntoIterator<Item = (u8, f32)>) {
        self.bot_skills.clear();
        self.bot_skills.extend(skills.into_iter().filter(|(_, s)| s.is_finite()));
    }

    /// A new match: forgets the last one and names who is already there.
    pub fn match_start(&mut self, game: &Match, map: &str, in_progress: bool) -> Line {
        self.known.clear();
        self.tallies.clear();
        self.ended = false;
        let mut players = Vec::new();
        for (id, slot) in game.slots().iter() {
            let player = player_ref(id, slot);
            players.push(player.clone());
            self.known.insert(id.0, Known { player, entered_tick: game.tick() });
        }
        let s = game.settings();
        Line::MatchStart {
            map: map.to_owned(),
            title: game.map().world_info().message.clone(),
            gametype: game.rules().gametype.name(),
            seed: game.seed(),
            settings: MatchSettings {
                fraglimit: s.fraglimit,
                timelimit_min: s.timelimit_min,
                capturelimit: s.capturelimit,
                roundlimit: s.roundlimit,
                maxclients: game.slots().max(),
                friendly_fire: s.friendly_fire,
                weapon_stay: s.weapon_stay,
                tick_rate: game.hz(),
            },
            in_progress,
            players,
        }
    }

    /// The records for one tick's events, in order.
    pub fn events(&mut self, game: &Match, events: &[GameEvent], address_of: AddressOf<'_>) -> Vec<Line> {
        let mut out = Vec::new();
        for ev in events {
            match ev {
                GameEvent::Joined { slot, .. } => {
                    let player = self.player(game, *slot);
                    self.known.insert(slot.0, Known { player: player.clone(), entered_tick: game.tick() });
                    let address_hash = if player.bot { None } else { address_of(*slot) };
                    out.push(Line::Connect { player, address_hash });
                }
                GameEvent::Left { slot } => {
                    if let Some(known) = self.known.remove(&slot.0) {
                        let seconds = ticks_to_s(game, game.tick().saturating_sub(known.entered_tick));
                        if let Some(tally) = self.tallies.remove(&slot.0) {
                            out.push(damage_record(known.player.clone(), tally));
                        }
                        out.push(Line::Disconnect { player: known.player, seconds });
                    }
                }
                GameEvent::TeamChanged { slot, from, forced, .. } => {
                    let player = self.player(game, *slot);
                    if let Some(k) = self.known.get_mut(&slot.0) {
                        k.player = player.clone();
                    }
                    out.push(Line::TeamChange { player, from: from.name(), forced: *forced });
                }
                GameEvent::Damage { target, attacker, amount, armor, means, .. } => {
                    let lost = u32::try_from(amount.saturating_add(*armor)).unwrap_or(0);
                    self.tally_damage(game, *target, attacker.filter(|a| a != target), lost, means.weapon());
                }
                GameEvent::Sound { kind: SoundKind::Gunfire(w), source: Some(s), .. } => {
                    let tally = self.tallies.entry(s.0).or_default();
                    weapon_tally(tally, game, *w).shots += 1;
                }
                GameEvent::Kill { killer, victim, means } => {
                    if let (Some(k), Some(w)) = (killer.filter(|k| k != victim), means.weapon()) {
                        weapon_tally(self.tallies.entry(k.0).or_default(), game, w).kills += 1;
                    }
                    out.push(self.kill(game, *killer, *victim, *means));
                }
                GameEvent::Flag { kind, team, slot } => out.push(Line::Flag {
                    action: flag_action(*kind),
                    flag: team.name(),
                    player: slot.map(|s| self.player(game, s)),
                }),
                GameEvent::Frozen { slot, by } => {
                    out.push(Line::Frozen { player: self.player(game, *slot), by: by.map(|b| self.player(game, b)) });
                }
                GameEvent::Thawed { slot, by } => {
                    out.push(Line::Thawed { player: self.player(game, *slot), by: by.map(|b| self.player(game, b)) });
                }
                GameEvent::RoundStart { number } => out.push(Line::RoundStart { number: *number }),
                GameEvent::RoundEnd { number, winner, reason } => out.push(Line::RoundEnd {
                    number: *number,
                    winner: winner.map(Team::name),
                    reason: reason.name(),
                }),
                GameEvent::Chat { from, name, scope, text } => {
                    let player = from.map(|s| PlayerRef { name: name.clone(), ..self.player(game, s) });
                    let to = match scope {
                        quarry_sim::chat::ChatScope::All => "all",
                        quarry_sim::chat::ChatScope::Team(t) => t.name(),
                    };
                    out.push(Line::Chat { player, to, text: text.clone() });
                }
                GameEvent::Phase { phase } => {
                    out.push(Line::Phase { phase: phase.name() });
                    let finished = matches!(phase, quarry_sim::rules::Phase::Intermission { .. } | quarry_sim::rules::Phase::Over);
                    if finished && !self.ended {
                        let reason = game.rules().end_reason.clone().unwrap_or_else(|| "match over".to_owned());
                        out.extend(self.match_end(game, &reason));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Damage taken by `target` and given by `attacker` (not themselves),
    /// with the weapon's hit counted once per tick.
    fn tally_damage(&mut self, game: &Match, target: quarry_sim::SlotId, attacker: Option<quarry_sim::SlotId>, lost: u32, weapon: Option<u8>) {
        self.tallies.entry(target.0).or_default().taken += lost;
        let Some(a) = attacker else { return };
        let tally = self.tallies.entry(a.0).or_default();
        tally.given += lost;
        if let Some(w) = weapon {
            let new_hit = tally.last_hit != Some((game.tick(), w));
            tally.last_hit = Some((game.tick(), w));
            let wt = weapon_tally(tally, game, w);
            wt.damage += lost;
            wt.hits += u32::from(new_hit);
        }
    }

    /// The end of the match's records: each player's damage summary, then
    /// the result. Nothing when the end was recorded already.
    pub fn match_end(&mut self, game: &Match, reason: &str) -> Vec<Line> {
        if self.ended {
            return Vec::new();
        }
        self.ended = true;
        let board = game.scoreboard();
        let mut out: Vec<Line> = board
            .rows
            .iter()
            .map(|row| {
                let player = PlayerRef { slot: row.slot.0, name: row.name.clone(), team: row.team.name(), bot: row.bot };
                damage_record(player, self.tallies.get(&row.slot.0).cloned().unwrap_or_default())
            })
            .collect();
        let winner = match board.team_scores {
            Some((r, b)) if r > b => Some("red".to_owned()),
            Some((r, b)) if b > r => Some("blue".to_owned()),
            Some(_) => None,
            None => match board.rows.as_slice() {
                [first, second, ..] if first.score.frags == second.score.frags => None,
                [first, ..] => Some(first.name.clone()),
                [] => None,
            },
        };
        let scoreboard = board
            .rows
            .iter()
            .map(|row| ScoreLine {
                player: PlayerRef { slot: row.slot.0, name: row.name.clone(), team: row.team.name(), bot: row.bot },
                skill: row.bot.then(|| self.bot_skills.get(&row.slot.0).copied()).flatten(),
                score: row.score,
                accuracy: accuracy_lines(game, row.slot),
            })
            .collect();
        out.push(Line::MatchEnd {
            reason: reason.to_owned(),
            seconds: ticks_to_s(game, game.tick()),
            team_scores: board.team_scores.map(|(red, blue)| TeamScores { red, blue }),
            winner,
            scoreboard,
        });
        out
    }

    fn kill(&self, game: &Match, killer: Option<SlotId>, victim: SlotId, means: quarry_sim::events::MeansOfDeath) -> Line {
        let at = |s: SlotId| PlayerAt { player: self.player(game, s), pos: game.player_view(s).map(|v| v.origin.to_array()) };
        let killer = killer.filter(|k| *k != victim).map(at);
        let victim = at(victim);
        let distance = match (killer.as_ref().and_then(|k| k.pos), victim.pos) {
            (Some(a), Some(b)) => Some(glam::Vec3::from(a).distance(glam::Vec3::from(b))),
            _ => None,
        };
        let teamkill = killer.as_ref().is_some_and(|k| k.player.team == victim.player.team && game.rules().gametype.is_team_game());
        Line::Kill {
            killer,
            victim,
            means: means.name(),
            weapon: means.weapon().map(|w| weapon_name(game, w)),
            distance,
            teamkill,
        }
    }

    /// The slot's holder as the match has them now, else as last known.
    fn player(&self, game: &Match, slot: SlotId) -> PlayerRef {
        match game.slots().get(slot) {
            Some(s) => player_ref(slot, s),
            None => self.known.get(&slot.0).map_or_else(
                || PlayerRef { slot: slot.0, name: String::new(), team: Team::Spectator.name(), bot: false },
                |k| k.player.clone(),
            ),
        }
    }
}

fn player_ref(id: SlotId, slot: &quarry_sim::slots::Slot) -> PlayerRef {
    PlayerRef { slot: id.0, name: slot.userinfo.name.clone(), team: slot.team.name(), bot: slot.kind == ClientKind::Bot }
}

fn weapon_name(game: &Match, w: u8) -> String {
    game.weapon_name(w).map_or_else(|| format!("weapon{w}"), str::to_owned)
}

fn weapon_tally<'a>(tally: &'a mut Tally, game: &Match, w: u8) -> &'a mut WeaponTally {
    tally.weapons.entry(w).or_insert_with(|| WeaponTally { weapon: weapon_name(game, w), ..WeaponTally::default() })
}

/// A slot's accuracy per weapon fired, for its scoreboard line.
fn accuracy_lines(game: &Match, slot: SlotId) -> Vec<AccuracyLine> {
    game.accuracy(slot)
        .used()
        .map(|(n, w)| AccuracyLine {
            weapon: weapon_name(game, n),
            close: *w.band(RangeBand::Close),
            mid: *w.band(RangeBand::Mid),
            far: *w.band(RangeBand::Far),
            untargeted: *w.band(RangeBand::Untargeted),
        })
        .collect()
}

fn damage_record(player: PlayerRef, tally: Tally) -> Line {
    Line::Damage { player, given: tally.given, taken: tally.taken, weapons: tally.weapons.into_values().collect() }
}

fn flag_action(kind: FlagEventKind) -> &'static str {
    match kind {
        FlagEventKind::Taken => "taken",
        FlagEventKind::Dropped => "dropped",
        FlagEventKind::Returned => "returned",
        FlagEventKind::Captured => "captured",
    }
}

fn ticks_to_s(game: &Match, ticks: u32) -> f32 {
    ticks as f32 / game.hz().max(1) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_log::line::{Entry, to_json_line};

    #[test]
    fn the_match_end_carries_each_players_accuracy_with_the_bot_flag() {
        let (mut game, human, bot) = crate::test_match::human_and_bot();
        let mut narrator = Narrator::default();
        narrator.match_start(&game, "room", false);
        crate::test_match::run(&mut game, &[human, bot], 60, true);
        let end = narrator.match_end(&game, "test").pop().expect("the match end");
        let Line::MatchEnd { scoreboard, .. } = &end else { panic!("not a match end: {end:?}") };
        assert_eq!(scoreboard.len(), 2);
        for (slot, bot_flag) in [(human, false), (bot, true)] {
            let row = scoreboard.iter().find(|r| r.player.slot == slot.0).expect("a scoreboard row");
            assert_eq!(row.player.bot, bot_flag);
            let [mg] = row.accuracy.as_slice() else { panic!("one weapon fired: {:?}", row.accuracy) };
            assert_eq!(mg.weapon, "machinegun");
            // 400 units apart, aiming at each other: every shot is mid range.
            assert!(mg.mid.shots >= 9 && mg.mid.hits > 0 && mg.mid.damage > 0, "{mg:?}");
            assert_eq!(mg.mid.splash_hits, 0);
            assert!(mg.close.shots + mg.far.shots + mg.untargeted.shots == 0, "{mg:?}");
            assert_eq!(mg.mid.damage, row.score.damage_given, "all of it the machinegun's, at mid range");
        }
        // As a stats tool reads it.
        let line = to_json_line(&Entry { unix_ms: 0, match_id: None, t: 1.0, record: end }).expect("serializes");
        let v: serde_json::Value = serde_json::from_str(&line).expect("parses");
        let rows = v["scoreboard"].as_array().expect("a scoreboard");
        let bot_row = rows.iter().find(|r| r["bot"] == true).expect("the bot's row");
        let human_row = rows.iter().find(|r| r["bot"] == false).expect("the human's row");
        for r in [bot_row, human_row] {
            let w = &r["accuracy"][0];
            assert_eq!(w["weapon"], "machinegun", "{r}");
            for band in ["close", "mid", "far", "untargeted"] {
                for figure in ["shots", "hits", "splash_hits", "damage"] {
                    assert!(w[band][figure].is_u64(), "{band}.{figure} in {w}");
                }
            }
        }
    }
}
