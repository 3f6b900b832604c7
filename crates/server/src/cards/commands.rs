//! The cards' cvar and console commands: `g_cardDifficulty`, `cardinfo`
//! (read-only: a card and where players stand on it) and `cardreset` (the
//! one way progress is forgotten, and only when asked by name).

use quarry_console::{CommandDef, Console, ConsoleError, CvarDef, CvarError, CvarFlags, CvarSet};

use super::manifest::{Card, CardContext, CardMatch, card_names, card_path};
use super::progress::{Progress, ProgressStore};
use super::live::LiveCard;

/// What the card commands reach of the server.
pub struct CardAccess<'a> {
    /// The card match being played, if one is.
    pub live: Option<&'a mut LiveCard>,
    /// The bots (the characters a card may name).
    pub bots: &'a quarry_bots::BotManager,
    /// Where maps are looked up.
    pub maps_dir: &'a std::path::Path,
}

/// The difficulty cvar's name.
pub const DIFFICULTY_CVAR: &str = "g_cardDifficulty";
/// The difficulty's range: two skill levels either way.
pub const DIFFICULTY_RANGE: (f64, f64) = (-2.0, 2.0);

/// Registers `g_cardDifficulty`, `cardinfo` and `cardreset`; `access`
/// reaches the card's part of the server from the console's context.
pub fn register<C: 'static>(console: &mut Console<C>, access: fn(&mut C) -> CardAccess<'_>) -> Result<(), CvarError> {
    console.register_cvar(
        CvarDef::float(
            DIFFICULTY_CVAR,
            0.0,
            DIFFICULTY_RANGE.0,
            DIFFICULTY_RANGE.1,
            "match cards: added to every card bot's skill (tier base + this + the bot's offset, clamped to 1-5); read when a card match's bots join",
        )
        .flags(CvarFlags::ARCHIVE),
    )?;
    console.register_command(
        CommandDef::new(
            "cardinfo",
            "cardinfo [CARD] [PLAYER]",
            "show a match card (tiers, matches, bots with their skills at g_cardDifficulty) and where players stand on it (PLAYER: one player's match by match); no CARD: the card being played, or the cards there are",
            move |host: &mut C, console: &mut Console<C>, args: &[String]| cardinfo(access(host), console, args),
        )
        .complete_with(|console, args, partial| if args.is_empty() { card_names(console.config_dir()).into_iter().filter(|n| n.starts_with(partial)).collect() } else { Vec::new() }),
    )?;
    console.register_command(CommandDef::new(
        "cardreset",
        "cardreset CARD [PLAYER]",
        "forget PLAYER's progress on CARD (without PLAYER: everyone's on CARD); written to card_progress.json atomically",
        move |host: &mut C, console: &mut Console<C>, args: &[String]| cardreset(access(host), console, args),
    ))?;
    Ok(())
}

/// The difficulty in force.
pub fn difficulty(cvars: &CvarSet) -> f32 {
    cvars.find(DIFFICULTY_CVAR).map_or(0.0, |c| c.value().as_float() as f32)
}

fn fail(command: &str, message: impl ToString) -> ConsoleError {
    ConsoleError::Command { command: command.into(), message: message.to_string() }
}

/// The characters the server's bots can wear.
fn characters(bots: &quarry_bots::BotManager) -> Vec<String> {
    bots.content().map(|c| c.content().characters.iter().map(|c| c.name.clone()).collect()).unwrap_or_default()
}

fn cardinfo<C>(access: CardAccess<'_>, console: &mut Console<C>, args: &[String]) -> Result<(), ConsoleError> {
    let live = access.live.as_ref().map(|c| c.card().name.clone());
    let (name, player) = match args {
        [] => match live {
            Some(n) => (n, None),
            None => {
                let names = card_names(console.config_dir());
                let list = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
                console.print(format!("cards in {}: {list} (cardinfo CARD shows one)", console.config_dir().join("cards").display()));
                return Ok(());
            }
        },
        [card] => (card.clone(), None),
        [card, player] => (card.clone(), Some(player.clone())),
        _ => return Err(ConsoleError::Usage { usage: "cardinfo [CARD] [PLAYER]".into() }),
    };
    let chars = characters(access.bots);
    let ctx = CardContext { maps_dir: access.maps_dir, characters: &chars };
    let card = Card::load(console.config_dir(), &name, &ctx).map_err(|e| fail("cardinfo", e))?;
    let store = ProgressStore::in_config_dir(console.config_dir());
    let book = match store.load() {
        Ok(b) => Some(b),
        Err(e) => {
            console.print(format!("error: {e}"));
            None
        }
    };
    let shown = player.as_deref().map(|p| book.as_ref().and_then(|b| b.player(&card.name, p)).cloned().unwrap_or_default());
    for line in card_lines(&card, difficulty(console.cvars()), player.as_deref().zip(shown.as_ref())) {
        console.print(line);
    }
    if player.is_none()
        && let Some(book) = &book
    {
        let shape = card.shape();
        let players: Vec<String> = book.players(&card.name).map(|(n, p)| format!("{n} ({})", p.summary(&shape))).collect();
        console.print(if players.is_empty() { "no player has progress on this card yet".to_owned() } else { format!("players: {}", players.join("; ")) });
    }
    Ok(())
}

/// One match's bots as text: character and effective skill, the player's
/// place shown in team games.
fn roster_text(card: &Card, m: &CardMatch, difficulty: f32) -> String {
    let bot = |e: &super::manifest::RosterEntry| format!("{} {:.1}", e.character, card.skill(m.id.tier, difficulty, e.offset));
    if m.player_team == quarry_sim::Team::Free {
        return m.roster.iter().map(bot).collect::<Vec<_>>().join(", ");
    }
    let side = |team: quarry_sim::Team| {
        let mut names: Vec<String> = m.roster.iter().filter(|e| e.team == team).map(bot).collect();
        if m.player_team == team {
            names.insert(0, "player".to_owned());
        }
        format!("{}: {}", team.name(), names.join(", "))
    };
    format!("{}; {}", side(quarry_sim::Team::Red), side(quarry_sim::Team::Blue))
}

/// The card as lines, with `player`'s standing on each match if given.
pub fn card_lines(card: &Card, difficulty: f32, player: Option<(&str, &Progress)>) -> Vec<String> {
    let shape = card.shape();
    let count: usize = shape.iter().sum();
    let mut out = vec![format!("card {}: \"{}\" ({} tiers, {count} matches) at {DIFFICULTY_CVAR} {difficulty}", card.name, card.display_title(), card.tiers.len())];
    if let Some(d) = &card.description {
        out.push(format!("  {d}"));
    }
    for (t, tier) in card.tiers.iter().enumerate() {
        out.push(format!("tier {t} \"{}\" (base skill {})", tier.name, tier.base_skill));
        for m in &tier.matches {
            let standing = player.map(|(_, p)| {
                let r = p.record_of(m.id);
                format!("  [{}; {} won, {} lost]", p.status(&shape, m.id).name(), r.wins, r.losses)
            });
            out.push(format!(
                "  {:<3} {:<4} {:<10} {:<5} {:<22} {}{}",
                m.id.to_string(),
                if card.is_boss(m.id) { "boss" } else { "" },
                m.map,
                m.gametype.name(),
                m.limits.to_string(),
                roster_text(card, m, difficulty),
                standing.unwrap_or_default()
            ));
        }
    }
    if let Some((name, p)) = player {
        out.push(format!("{name}: {}", p.summary(&shape)));
    }
    out
}

fn cardreset<C>(access: CardAccess<'_>, console: &mut Console<C>, args: &[String]) -> Result<(), ConsoleError> {
    let (card, player) = match args {
        [card] => (card, None),
        [card, player] => (card, Some(player.as_str())),
        _ => return Err(ConsoleError::Usage { usage: "cardreset CARD [PLAYER]".into() }),
    };
    let path = card_path(console.config_dir(), card).map_err(|e| fail("cardreset", e))?;
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| card.clone());
    let store = ProgressStore::in_config_dir(console.config_dir());
    let gone = store.update(|b| b.reset(&name, player)).map_err(|e| fail("cardreset", e))?;
    if let Some(live) = access.live {
        live.reload_progress();
    }
    let who = player.map_or_else(|| "every player".to_owned(), |p| format!("'{p}'"));
    console.print(match gone {
        0 => format!("no progress of {who} on card {name} to forget"),
        n => format!("forgot the progress of {who} on card {name} ({n} player{}; {})", if n == 1 { "" } else { "s" }, store.path().display()),
    });
    Ok(())
}
