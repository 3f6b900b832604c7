//! The content side of the [`BotManager`]: loaded styles, characters and
//! chat banks, the botfiles directory, `botreload`, `botcharacters` and
//! `bot_forceCharacter`.

use std::path::{Path, PathBuf};

use super::BotManager;
use crate::content::{ContentError, ContentTraitSource, load_botfiles};

/// Why `botreload` failed (the loaded content stays).
#[derive(Debug, thiserror::Error)]
pub enum ReloadError {
    /// The server was started without a botfiles directory.
    #[error("no botfiles directory (start the server with --botfiles DIR)")]
    NoBotfiles,
    /// Nothing usable was found.
    #[error(transparent)]
    Content(#[from] ContentError),
}

/// What `botreload` loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReloadSummary {
    /// Styles loaded.
    pub styles: usize,
    /// Characters loaded.
    pub characters: usize,
    /// Chat banks loaded.
    pub chats: usize,
    /// Warnings (logged).
    pub warnings: usize,
    /// Bots that kept their character.
    pub kept: usize,
}

impl BotManager {
    pub(super) fn apply_forced(&self) {
        if let Some(c) = &self.persona.content {
            c.set_forced(Some(self.persona.forced.as_str()).filter(|f| !f.is_empty()));
        }
    }

    /// Uses styles, characters and chat banks from `content` (bots added
    /// from now on; live bots bind at their next life).
    pub fn set_content(&mut self, content: ContentTraitSource) {
        self.persona.content = Some(content);
        self.apply_forced();
    }

    /// The loaded content, if any.
    pub fn content(&self) -> Option<&ContentTraitSource> {
        self.persona.content.as_ref()
    }

    /// Remembers where the content came from, for `botreload`.
    pub fn set_botfiles_dir(&mut self, dir: impl Into<PathBuf>) {
        self.persona.botfiles = Some(dir.into());
    }

    /// Where the content came from.
    pub fn botfiles_dir(&self) -> Option<&Path> {
        self.persona.botfiles.as_deref()
    }

    /// `botreload`: reads styles, characters and chats again from the
    /// botfiles directory. Bots keep their character where its name
    /// survives; the others pick again at their next life. On failure the
    /// loaded content stays.
    pub fn reload_content(&mut self) -> Result<ReloadSummary, ReloadError> {
        let dir = self.persona.botfiles.clone().ok_or(ReloadError::NoBotfiles)?;
        let (content, warnings) = load_botfiles(&dir);
        crate::content::source::log_warnings(&warnings);
        if content.characters.is_empty() {
            return Err(ContentError::NoContent(dir.display().to_string()).into());
        }
        let source = match &self.persona.content {
            Some(old) => old.reloaded(content),
            None => ContentTraitSource::new(content).with_seed(self.current.seed),
        };
        let mut kept = 0;
        for b in &mut self.bots {
            let identity = &mut b.brain.profile_mut().identity;
            let still = source.character_of(&identity.name).map(|c| c.name.clone());
            kept += usize::from(still.is_some());
            identity.character = still;
        }
        let c = source.content();
        let summary = ReloadSummary {
            styles: c.styles.len(),
            characters: c.characters.len(),
            chats: c.chats.len(),
            warnings: warnings.len(),
            kept,
        };
        self.persona.content = Some(source);
        self.apply_forced();
        self.chat.reloaded();
        Ok(summary)
    }

    /// Reads the scripted brains (`botfiles/brains`) again: every brain
    /// that compiles replaces its old version (running bots move to it at
    /// their next call, keeping their memory); one that fails keeps its
    /// last good version. Each error is logged with file, line and column.
    /// `None` without a botfiles directory.
    pub fn load_brains(&mut self) -> Option<crate::script::LoadReport> {
        let dir = self.persona.botfiles.clone()?;
        let report = self.scripts.lock().ok()?.load_dir(&dir);
        for e in &report.errors {
            tracing::warn!(target: "quarry_bots::script", "brain not loaded: {e}");
        }
        if !report.loaded.is_empty() {
            tracing::info!(target: "quarry_bots::script", "brains loaded: {}", report.loaded.join(", "));
        }
        Some(report)
    }

    /// The scripted brains' library (tests and tools load sources here).
    pub fn scripts(&self) -> &crate::script::Scripts {
        &self.scripts
    }

    /// `botcharacters` as text lines: every character with style, band,
    /// weight, chat bank and who wears it.
    pub fn character_lines(&self) -> Vec<String> {
        let Some(c) = &self.persona.content else {
            return vec!["no bot content loaded (start the server with --botfiles DIR)".to_owned()];
        };
        let mut out = vec![format!("{:<14} {:<12} {:>5} {:>6} {:>5}  {}", "character", "style", "band", "weight", "chat", "worn by")];
        for r in c.roster() {
            let chat = c.content().chat_bank(&r.name).map_or(0, |b| b.lines.iter().map(Vec::len).sum::<usize>() + b.rules.len());
            out.push(format!(
                "{:<14} {:<12} {:>5} {:>6.2} {:>5}  {}",
                r.name,
                r.style.as_deref().unwrap_or("-"),
                format!("{}-{}", r.band.0, r.band.1),
                r.weight,
                if chat > 0 { "yes" } else { "-" },
                if r.worn_by.is_empty() { "-".to_owned() } else { r.worn_by.join(", ") }
            ));
        }
        let on = if self.settings.characters { "on" } else { "off (bot_characters 0)" };
        out.push(format!("{} styles, {} characters, {} chat banks; characters {on}", c.content().styles.len(), c.content().characters.len(), c.content().chats.len()));
        out
    }
}
