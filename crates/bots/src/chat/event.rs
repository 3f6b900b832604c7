//! Chat events (what makes a bot speak unprompted) and the `$tokens` a
//! line may use, with which event can fill which token.

use std::fmt;

/// Something that happened to a bot that it may comment on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum ChatEvent {
    /// The bot joined the server (once per bot, not per life).
    EnterGame,
    /// The match went live.
    LevelStart,
    /// It killed someone.
    Kill,
    /// It killed someone with a melee weapon.
    KillGauntlet,
    /// It killed someone on a streak (the 3rd kill of a life, then every 3rd).
    KillStreak,
    /// It killed the player who last killed it.
    Revenge,
    /// Another player killed it.
    Death,
    /// It died with no killer: falling, lava, slime, water, the world, suicide.
    DeathAccident,
    /// An enemy took the item it was going for, close to it.
    ItemDenied,
    /// It took the lead (FFA and duel).
    LeadTaken,
    /// It lost the lead (FFA and duel).
    LeadLost,
    /// Its side won the match.
    MatchWin,
    /// Its side lost the match.
    MatchLose,
    /// It is leaving the server.
    Farewell,
    /// Team chat: it spotted an enemy (who, where, with what, how many).
    TeamEnemy,
    /// Team chat: the enemy carrying its team's flag, and where it heads.
    TeamCarrier,
    /// Team chat: its team's flag lies dropped there.
    TeamFlagDropped,
    /// Team chat: it looked into a place and found nobody.
    TeamClear,
    /// Team chat: it is under fire and wants help.
    TeamHelp,
    /// Team chat: it is going for a valuable item (teammates leave it).
    TeamGoingFor,
    /// Team chat: it takes a teammate's order.
    OrderAck,
    /// Team chat: it turns a teammate's order down.
    OrderRefuse,
    /// Team chat: carrying the enemy flag, it asks to be escorted (every
    /// line holds an order phrase: teammates read it as an order).
    OrderEscort,
    /// Team chat: it falls back from a place (how many enemies are there).
    TeamFallBack,
    /// Team chat: an item it saw, heard or made taken, and in how many
    /// seconds it comes back (teammates time it).
    TeamItemTimed,
}

impl ChatEvent {
    /// Every event, in file-documentation order.
    pub const ALL: [ChatEvent; 25] = [
        Self::EnterGame,
        Self::LevelStart,
        Self::Kill,
        Self::KillGauntlet,
        Self::KillStreak,
        Self::Revenge,
        Self::Death,
        Self::DeathAccident,
        Self::ItemDenied,
        Self::LeadTaken,
        Self::LeadLost,
        Self::MatchWin,
        Self::MatchLose,
        Self::Farewell,
        Self::TeamEnemy,
        Self::TeamCarrier,
        Self::TeamFlagDropped,
        Self::TeamClear,
        Self::TeamHelp,
        Self::TeamGoingFor,
        Self::OrderAck,
        Self::OrderRefuse,
        Self::OrderEscort,
        Self::TeamFallBack,
        Self::TeamItemTimed,
    ];

    /// The name used in chat files (`killGauntlet`).
    pub fn name(self) -> &'static str {
        match self {
            Self::EnterGame => "entergame",
            Self::LevelStart => "levelstart",
            Self::Kill => "kill",
            Self::KillGauntlet => "killGauntlet",
            Self::KillStreak => "killStreak",
            Self::Revenge => "revenge",
            Self::Death => "death",
            Self::DeathAccident => "deathAccident",
            Self::ItemDenied => "itemDenied",
            Self::LeadTaken => "leadTaken",
            Self::LeadLost => "leadLost",
            Self::MatchWin => "matchWin",
            Self::MatchLose => "matchLose",
            Self::Farewell => "farewell",
            Self::TeamEnemy => "teamEnemy",
            Self::TeamCarrier => "teamCarrier",
            Self::TeamFlagDropped => "teamFlagDropped",
            Self::TeamClear => "teamClear",
            Self::TeamHelp => "teamHelp",
            Self::TeamGoingFor => "teamGoingFor",
            Self::OrderAck => "orderAck",
            Self::OrderRefuse => "orderRefuse",
            Self::OrderEscort => "orderEscort",
            Self::TeamFallBack => "teamFallBack",
            Self::TeamItemTimed => "teamItemTimed",
        }
    }

    /// Whether it is a team call (said in team chat, carrying what the bot
    /// knows or an order, under the team throttles).
    pub fn is_team(self) -> bool {
        self as usize >= Self::TeamEnemy as usize
    }

    /// Parses an event name, case-insensitively.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name().eq_ignore_ascii_case(name))
    }

    /// Index in [`ChatEvent::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The tokens this event can fill (it may still lack one at run time,
    /// e.g. `$other` of a lead taken from nobody). A line using any other
    /// token could never be said and is rejected at load.
    pub fn tokens(self) -> TokenSet {
        let base = TokenSet::of(&[Token::SelfName, Token::Map]);
        match self {
            Self::Kill | Self::KillGauntlet | Self::KillStreak | Self::Revenge | Self::Death => {
                base.with(Token::Other).with(Token::Weapon)
            }
            Self::ItemDenied => base.with(Token::Other).with(Token::Item),
            Self::LeadTaken | Self::LeadLost => base.with(Token::Other),
            Self::TeamEnemy => base.with(Token::Other).with(Token::Place).with(Token::Weapon).with(Token::Count),
            Self::TeamCarrier => base.with(Token::Other).with(Token::Place),
            Self::TeamFlagDropped | Self::TeamClear | Self::OrderEscort => base.with(Token::Place),
            Self::TeamHelp | Self::TeamFallBack => base.with(Token::Place).with(Token::Count),
            Self::TeamGoingFor => base.with(Token::Item).with(Token::Place),
            Self::TeamItemTimed => base.with(Token::Item).with(Token::Place).with(Token::Seconds),
            Self::OrderAck | Self::OrderRefuse => base.with(Token::Other),
            _ => base,
        }
    }

    /// How likely the bot is to bother, before its `chatiness` (the two
    /// multiply). Frequent events get small weights so an 8-bot server
    /// reads like people talking (a few lines a minute), not a ticker.
    pub fn weight(self) -> f32 {
        match self {
            Self::EnterGame => 0.5,
            Self::LevelStart => 0.35,
            Self::Kill => 0.06,
            Self::KillGauntlet => 0.6,
            Self::KillStreak => 0.25,
            Self::Revenge => 0.3,
            Self::Death => 0.05,
            Self::DeathAccident => 0.3,
            Self::ItemDenied => 0.06,
            Self::LeadTaken => 0.35,
            Self::LeadLost => 0.3,
            Self::MatchWin => 1.0,
            Self::MatchLose => 0.8,
            Self::Farewell => 1.0,
            // Team calls are not social: whether to make one is the team
            // layer's decision (teamwork, bot_teamChatter, its throttles).
            _ => 1.0,
        }
    }
}

impl fmt::Display for ChatEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `$token` of a chat line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    /// `$self`: the bot's own name.
    SelfName,
    /// `$other`: the other player (victim, killer, speaker, new leader...).
    Other,
    /// `$weapon`: the weapon of a kill, readable (`rocket launcher`).
    Weapon,
    /// `$map`: the map name.
    Map,
    /// `$item`: the item of an `itemDenied`, readable (`Red Armor`).
    Item,
    /// `$place`: where, as a noun phrase (`Red Base`, `the railgun`).
    Place,
    /// `$count`: how many enemies (2 or more; a line using it is skipped for one).
    Count,
    /// `$seconds`: whole seconds until an item comes back.
    Seconds,
}

impl Token {
    /// Every token.
    pub const ALL: [Token; 8] = [Self::SelfName, Self::Other, Self::Weapon, Self::Map, Self::Item, Self::Place, Self::Count, Self::Seconds];

    /// The name after the `$`.
    pub fn name(self) -> &'static str {
        match self {
            Self::SelfName => "self",
            Self::Other => "other",
            Self::Weapon => "weapon",
            Self::Map => "map",
            Self::Item => "item",
            Self::Place => "place",
            Self::Count => "count",
            Self::Seconds => "seconds",
        }
    }

    /// Parses a token name (without `$`), case-insensitively.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name))
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenSet(u8);

impl TokenSet {
    /// The set of `tokens`.
    pub fn of(tokens: &[Token]) -> Self {
        Self(tokens.iter().fold(0, |a, t| a | t.bit()))
    }

    /// This set plus `t`.
    pub fn with(self, t: Token) -> Self {
        Self(self.0 | t.bit())
    }

    /// Whether `t` is in the set.
    pub fn has(self, t: Token) -> bool {
        self.0 & t.bit() != 0
    }

    /// Whether every token of `self` is in `other`.
    pub fn within(self, other: TokenSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The tokens in the set.
    pub fn iter(self) -> impl Iterator<Item = Token> {
        Token::ALL.into_iter().filter(move |t| self.has(*t))
    }
}

/// The `$token` names used in `line`, in order: `$` then a run of ASCII
/// letters (a `$` not followed by a letter is plain text).
pub fn token_names(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let end = (i + 1..b.len()).find(|&j| !b[j].is_ascii_alphabetic()).unwrap_or(b.len());
            if end > i + 1 {
                out.push(&line[i + 1..end]);
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The values for one line's tokens; an empty or missing value makes any
/// line that uses the token unusable.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatTokens {
    /// `$self`.
    pub self_name: String,
    /// `$other`.
    pub other: Option<String>,
    /// `$weapon`.
    pub weapon: Option<String>,
    /// `$map`.
    pub map: String,
    /// `$item`.
    pub item: Option<String>,
    /// `$place`.
    pub place: Option<String>,
    /// `$count`.
    pub count: Option<String>,
    /// `$seconds`.
    pub seconds: Option<String>,
}

impl ChatTokens {
    /// The value of `t`, if it has a non-empty one.
    pub fn get(&self, t: Token) -> Option<&str> {
        let v = match t {
            Token::SelfName => Some(self.self_name.as_str()),
            Token::Other => self.other.as_deref(),
            Token::Weapon => self.weapon.as_deref(),
            Token::Map => Some(self.map.as_str()),
            Token::Item => self.item.as_deref(),
            Token::Place => self.place.as_deref(),
            Token::Count => self.count.as_deref(),
            Token::Seconds => self.seconds.as_deref(),
        };
        v.filter(|s| !s.trim().is_empty())
    }

    /// `line` with every token replaced, or `None` if a token it uses has
    /// no value.
    pub fn substitute(&self, line: &str) -> Option<String> {
        let mut out = String::with_capacity(line.len() + 16);
        let mut rest = line;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let len = after.bytes().take_while(u8::is_ascii_alphabetic).count();
            if len == 0 {
                out.push('$');
                rest = after;
                continue;
            }
            let token = Token::parse(&after[..len])?;
            out.push_str(self.get(token)?);
            rest = &after[len..];
        }
        out.push_str(rest);
        Some(out)
    }
}

/// A readable item name from a class name: `item_armor_body` -> `Armor body`,
/// `weapon_rocketlauncher` -> `Rocketlauncher`.
pub fn readable_item(class: &str) -> String {
    let mut s = class;
    for p in ["weapon_", "ammo_", "item_", "powerup_"] {
        if let Some(rest) = s.strip_prefix(p) {
            s = rest;
            break;
        }
    }
    let s = s.replace('_', " ");
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_and_tokens() {
        for e in ChatEvent::ALL {
            assert_eq!(ChatEvent::parse(e.name()), Some(e));
            assert_eq!(ChatEvent::parse(&e.name().to_ascii_uppercase()), Some(e));
            assert_eq!(ChatEvent::ALL[e.index()], e);
            assert!(e.tokens().has(Token::SelfName) && e.tokens().has(Token::Map));
        }
        assert!(ChatEvent::Kill.tokens().has(Token::Weapon));
        assert!(!ChatEvent::LevelStart.tokens().has(Token::Other));
        assert!(ChatEvent::ItemDenied.tokens().has(Token::Item));
        assert_eq!(ChatEvent::parse("teabag"), None);
    }

    #[test]
    fn token_scan_and_substitution() {
        assert_eq!(token_names("hi $other, on $map! $5 $"), vec!["other", "map"]);
        let t = ChatTokens {
            self_name: "Tamsin".into(),
            other: Some("Ann".into()),
            map: "q_dm1".into(),
            ..ChatTokens::default()
        };
        assert_eq!(t.substitute("gg $other on $map, $5").as_deref(), Some("gg Ann on q_dm1, $5"));
        assert_eq!(t.substitute("nice $weapon"), None, "a missing token skips the line");
        assert_eq!(t.substitute("$bogus"), None);
        assert_eq!(readable_item("item_armor_body"), "Armor body");
        assert_eq!(readable_item("weapon_rocketlauncher"), "Rocketlauncher");
    }
}
