//! The manager's roster: adding bots through the same slot path a remote
//! player takes (checks, name and character, connect, brain), removing
//! them with a farewell, and making room for humans.

use quarry_sim::slots::{ClientKind, MAX_NAME_CHARS, SlotError};
use quarry_sim::{Match, SlotId, UserInfo};

use super::*;

impl BotManager {
    /// Adds a bot: a real client slot through `Match::connect`, entering the
    /// game like a remote player that finished loading.
    pub fn add_bot(&mut self, game: &mut Match, req: AddBot) -> Result<SlotId, AddBotError> {
        self.add(game, req, false)
    }

    pub(super) fn add(&mut self, game: &mut Match, req: AddBot, filled: bool) -> Result<SlotId, AddBotError> {
        let max = self.check_add(game, &req)?;
        self.sync_match(game);
        self.nav.set_max_nodes(self.settings.nav_max_nodes);
        self.nav
            .ensure(game, self.settings.nav_cell_size)
            .map_err(|e| AddBotError::NoNavmesh(e.to_string()))?;
        let owner = match &req.owner {
            Some(n) => Some(game.slots().find_by_name(n).ok_or_else(|| AddBotError::UnknownOwner(n.clone()))?),
            None => None,
        };
        // A bot serving an owner plays on its side: asked for that side,
        // unless a team was asked for.
        let owner_side = owner.and_then(|o| game.slots().get(o)).map(|s| (s.team, s.userinfo.name.clone()));
        let side = req.team.or(owner_side.as_ref().map(|(t, _)| *t)).filter(|t| *t != quarry_sim::Team::Free);
        // On the owner's team in a team game, or not at all: checked before
        // the bot takes a slot, as a player asking for that team would be.
        let beside = owner_side.filter(|(t, _)| matches!(t, quarry_sim::Team::Red | quarry_sim::Team::Blue) && side == Some(*t));
        if let Some((team, owner_name)) = &beside {
            let force = game.settings().team_force_balance;
            if quarry_sim::rules::check_team_change(game.rules().gametype, game.slots(), quarry_sim::Team::Spectator, *team, force).is_err() {
                return Err(AddBotError::TeamFull { team: team.name(), owner: owner_name.clone() });
            }
        }
        let (name, character) = match self.explicit_character(req.character.as_deref()) {
            Some(c) => {
                let name = req.name.unwrap_or_else(|| c.clone());
                if req.exact && game.slots().find_by_name(&name).is_some() {
                    return Err(AddBotError::NameTaken(name));
                }
                (name, Some(c))
            }
            None => self.choose_name(game, req.name, req.exact, req.skill)?,
        };
        // The brain: asked for, else the character's; checked before the
        // bot takes a slot.
        let brain = req.brain.or_else(|| self.character_brain(character.as_deref()));
        if let Some(b) = &brain {
            self.check_brain(b)?;
        }
        let slot = connect_bot(game, name, max, side)?;
        if let Some(team) = side
            && game.slots().get(slot).is_some_and(|s| s.team != team)
            && let Err(e) = game.set_team(slot, team)
        {
            if let Some((team, owner_name)) = beside {
                // Checked above; the rules refused after all: not against its owner.
                game.disconnect(slot);
                tracing::info!(target: "quarry_bots", "a bot serving {owner_name} can't join {}: {e}", team.name());
                return Err(AddBotError::TeamFull { team: team.name(), owner: owner_name });
            }
            // Joining balanced the teams the other way; the rules may allow a switch.
            tracing::info!(target: "quarry_bots", "a bot stays off the team it asked for ({}): {e}", team.name());
        }
        // Beside its owner for good: the team balance moves someone else.
        if let Some(o) = owner
            && let Err(e) = game.attach(slot, Some(o))
        {
            tracing::warn!(target: "quarry_bots", "a bot couldn't be attached to its owner: {e}");
        }
        self.admit(game, slot, character, req.skill, filled, brain.as_deref(), owner);
        Ok(slot)
    }

    /// Whether a bot may be added as `req` asks; returns the slot count.
    fn check_add(&self, game: &Match, req: &AddBot) -> Result<usize, AddBotError> {
        if !self.settings.enable {
            return Err(AddBotError::Disabled);
        }
        if let Some(name) = &req.name {
            let len = name.chars().count();
            if len > MAX_NAME_CHARS {
                return Err(AddBotError::NameTooLong {
                    name: name.clone(),
                    len,
                    max: MAX_NAME_CHARS,
                });
            }
        }
        if let Some(s) = req.skill
            && !(s.is_finite() && (1.0..=5.0).contains(&s))
        {
            return Err(AddBotError::UnknownSkill(s.to_string()));
        }
        check_map_hosts_bots(game.map())?;
        let max = game.slots().max();
        if game.slots().iter().count() >= max {
            return Err(AddBotError::Full(max));
        }
        Ok(max)
    }

    /// The name and character of a new bot: the name asked for (its
    /// character, if content has one by that name), else a character and
    /// its name, else a name from the pool.
    fn choose_name(
        &mut self,
        game: &Match,
        asked: Option<String>,
        exact: bool,
        skill: Option<f32>,
    ) -> Result<(String, Option<String>), AddBotError> {
        let characters = self.persona.content.as_ref().filter(|_| self.settings.characters);
        let skill = skill.unwrap_or(self.settings.skill);
        let pick_seed = mix64(self.current.seed ^ (self.serial + 1));
        let taken = |n: &str| game.slots().find_by_name(n).is_some();
        let character;
        let name = match asked {
            Some(n) => {
                if exact && taken(&n) {
                    return Err(AddBotError::NameTaken(n));
                }
                character = characters.and_then(|c| c.choose(Some(&n), skill, pick_seed, &taken));
                n
            }
            None => {
                // The character first, then its name (if nobody has it).
                character = characters.and_then(|c| c.choose(None, skill, pick_seed, &taken));
                match character.clone().filter(|c| !taken(c)) {
                    Some(c) => c,
                    None => {
                        let start = self.name_cursor;
                        let n = pick_name(start, taken).ok_or(AddBotError::NoNames)?;
                        self.name_cursor = start + 1;
                        n
                    }
                }
            }
        };
        Ok((name, character))
    }

    /// The canonical name of the character `AddBot::character` asks for,
    /// when content is loaded and in use and has it.
    fn explicit_character(&self, asked: Option<&str>) -> Option<String> {
        let content = self.persona.content.as_ref().filter(|_| self.settings.characters)?;
        let asked = asked?;
        content.content().characters.iter().find(|c| c.name.eq_ignore_ascii_case(asked)).map(|c| c.name.clone())
    }

    /// The scripted brain a character plays with, if it names one.
    fn character_brain(&self, character: Option<&str>) -> Option<String> {
        let content = self.persona.content.as_ref().filter(|_| self.settings.characters)?;
        content.content().character(character?).and_then(|c| c.brain.clone())
    }

    /// Whether the scripted brain `name` is loaded.
    fn check_brain(&self, name: &str) -> Result<(), AddBotError> {
        let lib = self.scripts.lock().map_err(|_| AddBotError::UnknownBrain("the script library is unavailable".to_owned()))?;
        if lib.get(name).is_some() {
            return Ok(());
        }
        let names = lib.names();
        let known = if names.is_empty() { "none is loaded".to_owned() } else { format!("loaded: {}", names.join(", ")) };
        Err(AddBotError::UnknownBrain(format!("no brain '{name}' ({known}; brains are botfiles/brains/NAME.rhai)")))
    }

    /// A connected bot slot gets its brain (a [`NativeBrain`], or the
    /// scripted `brain`, serving `owner`), its character's traits bound
    /// now, and its greeting.
    #[expect(clippy::too_many_arguments, reason = "one admission with everything it binds")]
    fn admit(&mut self, game: &mut Match, slot: SlotId, character: Option<String>, skill: Option<f32>, filled: bool, brain: Option<&str>, owner: Option<SlotId>) {
        let name = game
            .slots()
            .get(slot)
            .map_or_else(String::new, |s| s.userinfo.name.clone());
        // The variance roll: fixed for the bot's life, from the match seed and slot.
        let skill_roll = BotRng::for_slot(self.current.seed, slot.0, 1).signed();
        let identity = BotIdentity { name, character };
        let scripted = brain.map(|b| crate::script::ScriptedBrain::new(slot, identity.clone(), skill, skill_roll, self.current.seed, b, std::sync::Arc::clone(&self.scripts), owner));
        let mut brain: Box<dyn Brain> = match scripted {
            Some(Ok(s)) => Box::new(s),
            Some(Err(e)) => {
                tracing::warn!(target: "quarry_bots::script", "{}: {e}; it plays on the native brain", identity.name);
                Box::new(NativeBrain::new(slot, identity, skill, skill_roll, self.current.seed))
            }
            None => Box::new(NativeBrain::new(slot, identity, skill, skill_roll, self.current.seed)),
        };
        if let Some(c) = self.persona.content.as_ref().filter(|_| self.settings.characters) {
            // Bind now, so the next add sees the character in use and the
            // first chat line already has the character's traits.
            let settings = self.brain_settings();
            let p = brain.profile_mut();
            p.resolved = c.resolve(&p.identity, p.effective_skill(&settings));
        }
        let chat = self.settings.chat_settings();
        let content = self.persona.content.as_ref().filter(|_| self.settings.characters && self.settings.chat > 0);
        self.chat.entered(game, brain.as_ref(), content, &chat);
        self.serial += 1;
        let entry = BotEntry {
            brain,
            filled,
            serial: self.serial,
        };
        let at = self.bots.partition_point(|b| b.brain.slot() < slot);
        self.bots.insert(at, entry);
    }

    /// Removes the bot named `name` (case-insensitive), or the last one
    /// added; returns its name.
    pub fn remove_bot(&mut self, game: &mut Match, name: Option<&str>) -> Result<String, RemoveBotError> {
        self.prune(game);
        if self.bots.is_empty() {
            return Err(RemoveBotError::NoBots);
        }
        let index = match name {
            Some(n) => self
                .bots
                .iter()
                .position(|b| {
                    game.slots()
                        .get(b.brain.slot())
                        .is_some_and(|s| s.userinfo.name.eq_ignore_ascii_case(n))
                })
                .ok_or_else(|| RemoveBotError::NotFound(n.to_owned()))?,
            None => self.last_added(|_| true).ok_or(RemoveBotError::NoBots)?,
        };
        Ok(self.remove_at(game, index))
    }

    pub(super) fn last_added(&self, filter: impl Fn(&BotEntry) -> bool) -> Option<usize> {
        self.bots
            .iter()
            .enumerate()
            .filter(|(_, b)| filter(b))
            .max_by_key(|(_, b)| b.serial)
            .map(|(i, _)| i)
    }

    pub(super) fn remove_at(&mut self, game: &mut Match, index: usize) -> String {
        let entry = self.bots.remove(index);
        let slot = entry.brain.slot();
        let name = game
            .slots()
            .get(slot)
            .map_or_else(|| entry.brain.profile().identity.name.clone(), |s| s.userinfo.name.clone());
        self.leave(game, entry.brain.as_ref(), true);
        game.disconnect(slot);
        name
    }

    /// A bot is going: its farewell (said now, through its own slot, if
    /// `farewell`), its character released, its chat state dropped.
    fn leave(&mut self, game: &mut Match, brain: &dyn Brain, farewell: bool) {
        if farewell {
            let chat = self.settings.chat_settings();
            let content = self.persona.content.as_ref().filter(|_| self.settings.characters && self.settings.chat > 0);
            if let Some(line) = self.chat.farewell(game, brain, content, &chat) {
                self.say(game, &line);
            }
        }
        let profile = brain.profile();
        self.persona.traits.release(&profile.identity);
        if let Some(c) = &self.persona.content {
            c.release(&profile.identity.name);
        }
        self.chat.forget(profile.slot);
    }

    /// Says `line` through the bot's own slot; whether the match took it.
    pub(super) fn say(&mut self, game: &mut Match, line: &crate::chat::Outgoing) -> bool {
        let team = line.team && game.rules().gametype.is_team_game();
        let result = CmdSink::new(game, line.slot).and_then(|mut sink| sink.say(team, &line.text));
        if let Err(e) = &result {
            self.chat.refused();
            tracing::debug!(target: "quarry_bots", "slot {}: chat refused: {e}", line.slot.0);
        }
        result.is_ok()
    }

    /// Removes every bot; returns how many.
    pub fn kick_all(&mut self, game: &mut Match) -> usize {
        self.prune(game);
        let n = self.bots.len();
        for entry in std::mem::take(&mut self.bots) {
            self.leave(game, entry.brain.as_ref(), true);
            game.disconnect(entry.brain.slot());
        }
        n
    }

    /// A human is connecting to a full server: frees the slot of the
    /// last bot added (a fill bot first) on the team the human will join.
    /// Returns the freed slot. [`BotManager::make_room_for`] with no team
    /// asked for.
    pub fn make_room_for_human(&mut self, game: &mut Match) -> Option<SlotId> {
        self.make_room_for(game, None)
    }

    /// A client asking for team `pref` (if any) is connecting to a full
    /// server: frees the slot of the last bot added, a fill bot first, and
    /// in a team game one from the team the joiner will be put on: the
    /// larger team, or on a tie the one the rules give the joiner. The
    /// teams stay even, so the balance moves nobody, the joiner least of
    /// all. Only when that team has no fill bot does one leave from the
    /// other, and a bot added by hand only when there is no fill bot.
    /// Returns the freed slot.
    pub fn make_room_for(&mut self, game: &mut Match, pref: Option<quarry_sim::Team>) -> Option<SlotId> {
        self.prune(game);
        if game.slots().iter().count() < game.slots().max() {
            return None;
        }
        let rules = game.rules();
        let joins = quarry_sim::rules::choose_team(rules.gametype, game.slots(), pref, rules.team_scores);
        let thin = team_to_thin(game, Some(joins));
        let on_team = |b: &BotEntry| thin.is_none_or(|t| game.slots().get(b.brain.slot()).is_some_and(|s| s.team == t));
        let index = self
            .last_added(|b| b.filled && on_team(b))
            .or_else(|| self.last_added(|b| b.filled))
            .or_else(|| self.last_added(on_team))
            .or_else(|| self.last_added(|_| true))?;
        let slot = self.bots.get(index).map(|b| b.brain.slot())?;
        self.remove_at(game, index);
        Some(slot)
    }
}

/// In a team game, the team a leaving bot keeps the teams even from: the
/// larger of red and blue, or `tie` when they are even (`None`: either
/// does). `None` outside team games.
pub(super) fn team_to_thin(game: &Match, tie: Option<quarry_sim::Team>) -> Option<quarry_sim::Team> {
    if !game.rules().gametype.is_team_game() {
        return None;
    }
    let (red, blue) = quarry_sim::rules::team_counts(game.slots());
    match red.cmp(&blue) {
        std::cmp::Ordering::Greater => Some(quarry_sim::Team::Red),
        std::cmp::Ordering::Less => Some(quarry_sim::Team::Blue),
        std::cmp::Ordering::Equal => tie,
    }
}

/// Connects a bot client named `name` (asking for team `side`, if any) and
/// enters it into the game like a remote player that finished loading
/// (`max`: the slot count, for errors).
fn connect_bot(game: &mut Match, name: String, max: usize, side: Option<quarry_sim::Team>) -> Result<SlotId, AddBotError> {
    let info = UserInfo {
        name,
        model: "bot".into(),
        team_pref: side,
        handicap: 100,
    };
    let slot = game.connect(ClientKind::Bot, info).map_err(|e| match e {
        SlotError::Full { max } => AddBotError::Full(max),
        SlotError::NoSuchSlot(_) | SlotError::Taken(_) => AddBotError::Full(max),
    })?;
    if let Err(e) = game.enter_game(slot) {
        game.disconnect(slot);
        tracing::warn!(target: "quarry_bots", "bot couldn't enter the game: {e}");
        return Err(AddBotError::Full(max));
    }
    Ok(slot)
}
