//! Progression through a card, and the file that keeps it.
//!
//! The rules ([`Progress::status`]): tier 0 is unlocked; in an unlocked tier
//! every match but the last is open; winning all of them opens the last,
//! the tier's boss; beating the boss unlocks the next tier, and beating the
//! last boss completes the card. A loss is counted but never removes a win.
//! A match is identified by its place (`tier.match`), so editing a card's
//! order changes what old progress means.
//!
//! The file (`card_progress.json` in the config directory) holds every
//! player's progress on every card, by card name and player name (names
//! compare without case). It is written atomically (temporary file, fsync,
//! rename: [`quarry_console::write_atomic`]), so a crash leaves the old
//! file or the new one, never half of one. A file that is not what this
//! server wrote (damaged by hand, another version) is an error naming the
//! file and line, and is never overwritten: every write reads the file
//! first and stops there.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::manifest::MatchId;

/// The progress file's name in the config directory.
pub const PROGRESS_FILE: &str = "card_progress.json";
/// The progress file format this server writes.
pub const PROGRESS_VERSION: u32 = 1;
/// The largest progress file read (thousands of players fit in far less).
pub const MAX_PROGRESS_BYTES: u64 = 4 << 20;

/// Serialises read-modify-write cycles of progress files within the process
/// (a match's result written off the tick thread and a `cardreset`).
static FILE_LOCK: Mutex<()> = Mutex::new(());

/// Where a player stands on one match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchStatus {
    /// Not playable yet.
    Locked,
    /// Playable, not won yet.
    Open,
    /// Won at least once.
    Won,
}

impl MatchStatus {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Locked => "locked",
            Self::Open => "open",
            Self::Won => "won",
        }
    }
}

/// A player's results on one match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    /// Matches won.
    #[serde(default)]
    pub wins: u32,
    /// Matches lost or drawn.
    #[serde(default)]
    pub losses: u32,
}

/// One player's progress on one card: results by match (`"1.3"`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// Results by match id.
    #[serde(default)]
    pub matches: BTreeMap<String, MatchRecord>,
}

impl Progress {
    /// The results on `id` (zero when never played).
    pub fn record_of(&self, id: MatchId) -> MatchRecord {
        self.matches.get(&id.to_string()).copied().unwrap_or_default()
    }

    /// Whether `id` was ever won.
    pub fn won(&self, id: MatchId) -> bool {
        self.record_of(id).wins > 0
    }

    /// Whether tier `tier` of a card shaped `shape` (matches per tier) is
    /// unlocked: the first always, any other once every boss before it fell.
    pub fn tier_unlocked(&self, shape: &[usize], tier: usize) -> bool {
        if tier >= shape.len() {
            return false;
        }
        // Every boss before it, in order: a win recorded out of order (a
        // file edited by hand) unlocks nothing it skipped.
        (0..tier).all(|t| shape.get(t).is_some_and(|&n| n > 0 && self.won(MatchId { tier: t, index: n - 1 })))
    }

    /// Where the player stands on `id` (see the module doc).
    pub fn status(&self, shape: &[usize], id: MatchId) -> MatchStatus {
        let Some(&count) = shape.get(id.tier).filter(|&&n| id.index < n) else { return MatchStatus::Locked };
        if self.won(id) {
            return MatchStatus::Won;
        }
        if !self.tier_unlocked(shape, id.tier) {
            return MatchStatus::Locked;
        }
        let boss = id.index + 1 == count;
        if boss && !(0..count - 1).all(|i| self.won(MatchId { tier: id.tier, index: i })) {
            return MatchStatus::Locked;
        }
        MatchStatus::Open
    }

    /// Counts a result on `id`: a win, or a loss (a draw is a loss; it
    /// never takes a win away).
    pub fn record(&mut self, id: MatchId, won: bool) {
        let r = self.matches.entry(id.to_string()).or_default();
        if won {
            r.wins = r.wins.saturating_add(1);
        } else {
            r.losses = r.losses.saturating_add(1);
        }
    }

    /// Whether the last tier's boss fell.
    pub fn completed(&self, shape: &[usize]) -> bool {
        match shape.len().checked_sub(1) {
            Some(last) => self.tier_unlocked(shape, last) && shape.get(last).is_some_and(|&n| n > 0 && self.won(MatchId { tier: last, index: n - 1 })),
            None => false,
        }
    }

    /// The matches that are open now, in card order.
    pub fn open_matches(&self, shape: &[usize]) -> Vec<MatchId> {
        all_ids(shape).filter(|&id| self.status(shape, id) == MatchStatus::Open).collect()
    }

    /// Matches won (of those the card has).
    pub fn won_count(&self, shape: &[usize]) -> usize {
        all_ids(shape).filter(|&id| self.won(id)).count()
    }

    /// One line: how much is won and what is open.
    pub fn summary(&self, shape: &[usize]) -> String {
        let total: usize = shape.iter().sum();
        let won = self.won_count(shape);
        if self.completed(shape) {
            return format!("{won} of {total} won; card complete");
        }
        let open = self.open_matches(shape);
        let list = open.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        format!("{won} of {total} won; open: {}", if list.is_empty() { "none".to_owned() } else { list })
    }
}

/// Every match id of a card shaped `shape`, in card order.
pub fn all_ids(shape: &[usize]) -> impl Iterator<Item = MatchId> + '_ {
    shape.iter().enumerate().flat_map(|(tier, &n)| (0..n).map(move |index| MatchId { tier, index }))
}

/// Why progress could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    /// The file could not be read.
    #[error("card progress: {0}")]
    Read(#[from] quarry_console::ReadFileError),
    /// The file is not a progress file this server wrote.
    #[error("card progress {}:{line}: {message}; the file is left as it is (move it away or fix it to record progress again)", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file was written by another format version.
    #[error("card progress {}: format version {found}, this server reads version {PROGRESS_VERSION}; the file is left as it is", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// Writing failed (the old file is still in place).
    #[error("card progress: {0}")]
    Write(#[from] quarry_console::ArchiveError),
}

/// The progress file's content: by card name, by player name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileData {
    version: u32,
    #[serde(default)]
    cards: BTreeMap<String, BTreeMap<String, Progress>>,
}

/// Every player's progress on every card, as the file holds it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProgressBook {
    cards: BTreeMap<String, BTreeMap<String, Progress>>,
}

impl ProgressBook {
    /// Parses a progress file's text (`path` names it in errors).
    pub fn from_text(text: &str, path: &Path) -> Result<Self, ProgressError> {
        let data: FileData = serde_json::from_str(text).map_err(|e| ProgressError::Damaged { path: path.to_owned(), line: e.line().max(1), message: e.to_string() })?;
        if data.version != PROGRESS_VERSION {
            return Err(ProgressError::Version { path: path.to_owned(), found: data.version });
        }
        Ok(Self { cards: data.cards })
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let data = FileData { version: PROGRESS_VERSION, cards: self.cards.clone() };
        let mut text = serde_json::to_string_pretty(&data).unwrap_or_else(|_| format!("{{\"version\": {PROGRESS_VERSION}}}"));
        text.push('\n');
        text
    }

    /// `player`'s progress on `card`, if any (names compare without case).
    pub fn player(&self, card: &str, player: &str) -> Option<&Progress> {
        self.cards.get(card)?.iter().find(|(n, _)| n.eq_ignore_ascii_case(player)).map(|(_, p)| p)
    }

    /// `player`'s progress on `card`, made empty if there is none.
    pub fn player_mut(&mut self, card: &str, player: &str) -> &mut Progress {
        let players = self.cards.entry(card.to_owned()).or_default();
        let key = players.keys().find(|n| n.eq_ignore_ascii_case(player)).cloned().unwrap_or_else(|| player.to_owned());
        players.entry(key).or_default()
    }

    /// Every player with progress on `card`, by name.
    pub fn players(&self, card: &str) -> impl Iterator<Item = (&String, &Progress)> {
        self.cards.get(card).into_iter().flatten()
    }

    /// Forgets `player`'s progress on `card`, or everyone's with `None`;
    /// returns how many players were forgotten.
    pub fn reset(&mut self, card: &str, player: Option<&str>) -> usize {
        let Some(players) = self.cards.get_mut(card) else { return 0 };
        let before = players.len();
        match player {
            Some(p) => players.retain(|n, _| !n.eq_ignore_ascii_case(p)),
            None => players.clear(),
        }
        let gone = before - players.len();
        if players.is_empty() {
            self.cards.remove(card);
        }
        gone
    }
}

/// The progress file of a config directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressStore {
    path: PathBuf,
}

impl ProgressStore {
    /// The store at `config_dir/card_progress.json`.
    pub fn in_config_dir(config_dir: &Path) -> Self {
        Self { path: config_dir.join(PROGRESS_FILE) }
    }

    /// The store at `path`.
    pub fn at(path: PathBuf) -> Self {
        Self { path }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file; a file that does not exist is an empty book.
    pub fn load(&self) -> Result<ProgressBook, ProgressError> {
        match quarry_console::read_text_file(&self.path, MAX_PROGRESS_BYTES) {
            Ok(text) => ProgressBook::from_text(&text, &self.path),
            Err(e) if e.is_not_found() => Ok(ProgressBook::default()),
            Err(e) => Err(e.into()),
        }
    }

    /// Reads the file, changes it with `change` and writes it back
    /// atomically; a file that cannot be read is left untouched.
    pub fn update<R>(&self, change: impl FnOnce(&mut ProgressBook) -> R) -> Result<R, ProgressError> {
        let _held = FILE_LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut book = self.load()?;
        let out = change(&mut book);
        quarry_console::write_atomic(&self.path, &book.to_text())?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LADDER: [usize; 3] = [4, 4, 4];

    fn id(tier: usize, index: usize) -> MatchId {
        MatchId { tier, index }
    }

    fn won(p: &mut Progress, ids: &[(usize, usize)]) {
        for &(t, m) in ids {
            p.record(id(t, m), true);
        }
    }

    #[test]
    fn a_new_player_has_the_first_three_matches_of_the_first_tier_open() {
        let p = Progress::default();
        assert_eq!(p.open_matches(&LADDER), [id(0, 0), id(0, 1), id(0, 2)]);
        assert_eq!(p.status(&LADDER, id(0, 3)), MatchStatus::Locked, "the boss waits");
        assert_eq!(p.status(&LADDER, id(1, 0)), MatchStatus::Locked, "the next tier waits");
        assert_eq!(p.status(&LADDER, id(5, 0)), MatchStatus::Locked, "a tier the card lacks");
        assert_eq!(p.status(&LADDER, id(0, 9)), MatchStatus::Locked, "a match the tier lacks");
        assert!(!p.completed(&LADDER));
    }

    #[test]
    fn winning_the_three_opens_the_boss_and_the_boss_opens_the_next_tier() {
        let mut p = Progress::default();
        won(&mut p, &[(0, 0), (0, 2)]);
        assert_eq!(p.status(&LADDER, id(0, 3)), MatchStatus::Locked, "two of three is not enough");
        won(&mut p, &[(0, 1)]);
        assert_eq!(p.status(&LADDER, id(0, 3)), MatchStatus::Open);
        assert_eq!(p.status(&LADDER, id(1, 0)), MatchStatus::Locked);
        won(&mut p, &[(0, 3)]);
        assert_eq!(p.status(&LADDER, id(0, 3)), MatchStatus::Won);
        assert_eq!(p.open_matches(&LADDER), [id(1, 0), id(1, 1), id(1, 2)]);
        assert_eq!(p.status(&LADDER, id(2, 0)), MatchStatus::Locked);
    }

    #[test]
    fn the_last_boss_completes_the_card() {
        let mut p = Progress::default();
        for t in 0..3 {
            won(&mut p, &[(t, 0), (t, 1), (t, 2)]);
            assert!(!p.completed(&LADDER));
            won(&mut p, &[(t, 3)]);
        }
        assert!(p.completed(&LADDER));
        assert!(p.open_matches(&LADDER).is_empty());
        assert_eq!(p.summary(&LADDER), "12 of 12 won; card complete");
    }

    #[test]
    fn losses_never_remove_wins() {
        let mut p = Progress::default();
        won(&mut p, &[(0, 0)]);
        for _ in 0..5 {
            p.record(id(0, 0), false);
        }
        assert_eq!(p.record_of(id(0, 0)), MatchRecord { wins: 1, losses: 5 });
        assert_eq!(p.status(&LADDER, id(0, 0)), MatchStatus::Won);
        p.record(id(0, 1), false);
        assert_eq!(p.status(&LADDER, id(0, 1)), MatchStatus::Open, "a loss leaves an open match open");
    }

    #[test]
    fn tiers_of_other_sizes_have_their_last_match_as_the_boss() {
        let shape = [2, 3];
        let mut p = Progress::default();
        assert_eq!(p.open_matches(&shape), [id(0, 0)]);
        won(&mut p, &[(0, 0)]);
        assert_eq!(p.open_matches(&shape), [id(0, 1)]);
        won(&mut p, &[(0, 1)]);
        assert_eq!(p.open_matches(&shape), [id(1, 0), id(1, 1)]);
        assert!(!Progress::default().completed(&[]), "an empty card is never complete");
    }

    #[test]
    fn a_win_recorded_out_of_order_does_not_unlock_what_it_skipped() {
        // Only open matches are recorded, but a file edited by hand may hold anything.
        let mut p = Progress::default();
        won(&mut p, &[(1, 3)]);
        assert_eq!(p.status(&LADDER, id(2, 0)), MatchStatus::Locked, "tier 1 was never unlocked");
        assert_eq!(p.status(&LADDER, id(1, 3)), MatchStatus::Won, "but the win is shown");
    }

    #[test]
    fn the_file_is_written_atomically_and_reads_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ProgressStore::in_config_dir(dir.path());
        assert_eq!(store.load().expect("no file is an empty book"), ProgressBook::default());
        store.update(|b| b.player_mut("ladder", "Alice").record(id(0, 0), true)).expect("write");
        store.update(|b| b.player_mut("ladder", "alice").record(id(0, 0), false)).expect("write");
        store.update(|b| b.player_mut("ladder", "Bob").record(id(0, 1), true)).expect("write");
        let book = store.load().expect("read back");
        let alice = book.player("ladder", "ALICE").expect("names compare without case");
        assert_eq!(alice.record_of(id(0, 0)), MatchRecord { wins: 1, losses: 1 });
        assert_eq!(book.players("ladder").count(), 2);
        assert!(book.player("other", "Alice").is_none());
        let names: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").filter_map(Result::ok).map(|e| e.file_name()).collect();
        assert_eq!(names, [std::ffi::OsString::from(PROGRESS_FILE)], "no temporary file left");
        let text = std::fs::read_to_string(store.path()).expect("text");
        assert!(text.contains("\"version\": 1") && text.contains("\"0.0\""), "{text}");
    }

    #[test]
    fn reset_forgets_one_player_or_everyone_on_one_card() {
        let mut book = ProgressBook::default();
        book.player_mut("ladder", "Alice").record(id(0, 0), true);
        book.player_mut("ladder", "Bob").record(id(0, 0), true);
        book.player_mut("other", "Alice").record(id(0, 0), true);
        assert_eq!(book.reset("ladder", Some("alice")), 1);
        assert!(book.player("ladder", "Alice").is_none());
        assert!(book.player("other", "Alice").is_some(), "other cards keep theirs");
        assert_eq!(book.reset("ladder", None), 1);
        assert_eq!(book.players("ladder").count(), 0);
        assert_eq!(book.reset("nothing", None), 0);
    }

    #[test]
    fn a_torn_or_foreign_file_is_an_error_and_is_never_overwritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = ProgressStore::in_config_dir(dir.path());
        // A write cut short: the first half of a real file.
        let mut book = ProgressBook::default();
        book.player_mut("ladder", "Alice").record(id(0, 0), true);
        let full = book.to_text();
        let torn = &full[..full.len() / 2];
        for (bad, want) in [(torn, "left as it is"), ("garbage\n", ":1:"), ("{\"version\": 7}", "version 7"), ("{\"version\": 1, \"extra\": 1}", "unknown field")] {
            std::fs::write(store.path(), bad).expect("write");
            let e = store.load().expect_err("refused");
            assert!(e.to_string().contains(want), "{bad:?}: {e}");
            let e = store.update(|b| b.player_mut("ladder", "Bob").record(id(0, 0), true)).expect_err("no write over it");
            assert!(e.to_string().contains(&store.path().display().to_string()), "the error names the file: {e}");
            assert_eq!(std::fs::read_to_string(store.path()).expect("still there"), bad, "left as it was");
        }
    }

    #[test]
    fn a_directory_in_its_place_is_an_error_not_an_empty_book() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join(PROGRESS_FILE)).expect("dir");
        let e = ProgressStore::in_config_dir(dir.path()).load().expect_err("refused");
        assert!(e.to_string().contains("regular"), "{e}");
    }
}
