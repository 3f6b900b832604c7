//! What a vote may be called on, and the console commands a passed vote
//! runs. A `callvote` comes from a player's client, so every argument is
//! checked here against a narrow shape before it can become a command:
//! map names are plain names (no paths), numbers are in range, a kick
//! names a player who is there.

use quarry_sim::rules::GameType;

/// The longest argument a vote takes (a map or player name).
pub const MAX_ARG_CHARS: usize = 32;

/// The most bots a `bots N` vote may ask for (the slot table's size).
const MAX_BOTS: u32 = quarry_sim::slots::MAX_SLOTS as u32;

/// Every kind of vote, as `g_voteKinds` names them.
pub const KIND_NAMES: [&str; 7] = ["map", "nextmap", "g_gametype", "kick", "bots", "bot_skill", "map_restart"];

/// A vote's subject, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoteKind {
    /// Load a map by name.
    Map(String),
    /// Load the pool's (or rotation's) next map.
    NextMap,
    /// Switch game type and restart.
    GameType(GameType),
    /// Kick the player in a slot (their name when called).
    Kick {
        /// The slot.
        slot: u8,
        /// The name it had.
        name: String,
    },
    /// Top the server up to this many players with bots (server-wide).
    Bots(u32),
    /// Set the bots' skill (1-5).
    BotSkill(u32),
    /// Restart the match.
    MapRestart,
}

/// Why a `callvote` was refused (the caller is told).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VoteError {
    /// `g_allowVote 0`.
    #[error("voting is off on this server")]
    Disabled,
    /// No kind given, or one not known.
    #[error("usage: callvote KIND [ARG]; allowed here: {0}")]
    Usage(String),
    /// A known kind the server does not allow.
    #[error("'{kind}' votes are not allowed here (allowed: {allowed})")]
    NotAllowed {
        /// The kind asked for.
        kind: String,
        /// What `g_voteKinds` allows.
        allowed: String,
    },
    /// A bad argument.
    #[error("{0}")]
    BadArgument(String),
    /// Another vote is running.
    #[error("a vote is already in progress: {0}")]
    InProgress(String),
    /// The caller called one too recently.
    #[error("you called a vote recently; wait {0} s")]
    Cooldown(u64),
    /// `vote` with no vote running.
    #[error("no vote is in progress")]
    NoVote,
    /// `vote` with something other than yes or no.
    #[error("usage: vote yes|no")]
    VoteUsage,
    /// A second ballot.
    #[error("you already voted")]
    AlreadyVoted,
}

impl VoteKind {
    /// Parses `callvote`'s words after the command; `player` finds a
    /// player's slot and name by name or slot number.
    pub fn parse(words: &[&str], player: &dyn Fn(&str) -> Option<(u8, String)>) -> Result<Self, VoteError> {
        let [kind, args @ ..] = words else { return Err(VoteError::Usage(String::new())) };
        if args.len() > 1 || args.iter().any(|a| a.chars().count() > MAX_ARG_CHARS) {
            return Err(VoteError::BadArgument(format!("a vote takes at most one argument of at most {MAX_ARG_CHARS} characters")));
        }
        let arg = args.first().copied();
        let need = |what: &str| VoteError::BadArgument(format!("callvote {kind} needs {what}"));
        let number = |max: u32| -> Result<u32, VoteError> {
            let a = arg.ok_or_else(|| need(&format!("a number 0-{max}")))?;
            a.parse::<u32>().ok().filter(|n| *n <= max).ok_or_else(|| VoteError::BadArgument(format!("'{}' is not a number 0-{max}", clip(a))))
        };
        let none = |k: VoteKind| if arg.is_some() { Err(VoteError::BadArgument(format!("callvote {kind} takes no argument"))) } else { Ok(k) };
        match kind.to_ascii_lowercase().as_str() {
            "map" => {
                let name = arg.ok_or_else(|| need("a map name"))?;
                if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                    return Err(VoteError::BadArgument(format!("'{}' is not a map name (letters, digits, _ and -)", clip(name))));
                }
                Ok(Self::Map(name.to_owned()))
            }
            "nextmap" => none(Self::NextMap),
            "g_gametype" => {
                let name = arg.ok_or_else(|| need("a game type"))?;
                GameType::parse(name).map(Self::GameType).ok_or_else(|| VoteError::BadArgument(format!("'{}' is not a game type ({})", clip(name), GameType::NAMES.join(", "))))
            }
            "kick" => {
                let who = arg.ok_or_else(|| need("a player's name or slot"))?;
                let (slot, name) = player(who).ok_or_else(|| VoteError::BadArgument(format!("no player '{}'", clip(who))))?;
                Ok(Self::Kick { slot, name })
            }
            "bots" => number(MAX_BOTS).map(Self::Bots),
            "bot_skill" => {
                let n = number(5)?;
                if n == 0 { Err(VoteError::BadArgument("bot_skill is 1-5".into())) } else { Ok(Self::BotSkill(n)) }
            }
            "map_restart" => none(Self::MapRestart),
            _ => Err(VoteError::Usage(String::new())),
        }
    }

    /// Its name in `g_voteKinds`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Map(_) => "map",
            Self::NextMap => "nextmap",
            Self::GameType(_) => "g_gametype",
            Self::Kick { .. } => "kick",
            Self::Bots(_) => "bots",
            Self::BotSkill(_) => "bot_skill",
            Self::MapRestart => "map_restart",
        }
    }

    /// What everyone is asked: `map q_dm2`, `kick Wren`.
    pub fn describe(&self) -> String {
        match self {
            Self::Map(m) => format!("map {m}"),
            Self::NextMap => "nextmap".into(),
            Self::GameType(g) => format!("g_gametype {}", g.name()),
            Self::Kick { name, .. } => format!("kick {name}"),
            Self::Bots(n) => format!("bots {n} (fill the server to {n} players)"),
            Self::BotSkill(n) => format!("bot_skill {n}"),
            Self::MapRestart => "map_restart".into(),
        }
    }

    /// The console commands a passed vote runs, in order (name, args).
    pub fn commands(&self) -> Vec<(String, Vec<String>)> {
        let cmd = |name: &str, args: &[&str]| (name.to_owned(), args.iter().map(|a| (*a).to_owned()).collect());
        match self {
            Self::Map(m) => vec![cmd("map", &[m])],
            Self::NextMap => vec![cmd("nextmap", &[])],
            Self::GameType(g) => vec![cmd("set", &["g_gametype", g.name()]), cmd("map_restart", &[])],
            Self::Kick { slot, .. } => vec![cmd("kick", &[&slot.to_string(), "kicked by vote"])],
            Self::Bots(n) => vec![cmd("set", &["bot_minPlayers", &n.to_string()])],
            Self::BotSkill(n) => vec![cmd("set", &["bot_skill", &n.to_string()])],
            Self::MapRestart => vec![cmd("map_restart", &[])],
        }
    }
}

/// A player's text as a message repeats it.
pub(crate) fn clip(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(MAX_ARG_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<VoteKind, VoteError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        VoteKind::parse(&words, &|who| (who == "Wren" || who == "3").then(|| (3, "Wren".to_owned())))
    }

    #[test]
    fn each_kind_becomes_its_commands() {
        assert_eq!(parse("map q_dm1").map(|k| k.commands()), Ok(vec![("map".into(), vec!["q_dm1".into()])]));
        assert_eq!(parse("g_gametype ctf").map(|k| k.commands().len()), Ok(2));
        assert_eq!(parse("kick Wren"), Ok(VoteKind::Kick { slot: 3, name: "Wren".into() }));
        assert_eq!(parse("bots 4").map(|k| k.commands()), Ok(vec![("set".into(), vec!["bot_minPlayers".into(), "4".into()])]));
        assert_eq!(parse("bot_skill 5"), Ok(VoteKind::BotSkill(5)));
        assert_eq!(parse("nextmap"), Ok(VoteKind::NextMap));
        assert_eq!(parse("MAP_RESTART"), Ok(VoteKind::MapRestart));
    }

    #[test]
    fn untrusted_arguments_are_refused_with_a_reason() {
        for bad in ["map ../../etc/passwd", "map q_dm1;quit", "map", "g_gametype soccer", "kick nobody", "bots 999", "bots -1", "bot_skill 0", "bot_skill 6", "nextmap now", "map a b", "rcon_password x", ""] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let long = format!("map {}", "x".repeat(100));
        assert!(matches!(parse(&long), Err(VoteError::BadArgument(m)) if m.contains("at most")));
    }
}
