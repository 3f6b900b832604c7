//! Match results pushed out: when a match ends, its result document
//! ([`document`]) is written into `sv_matchResultDir` as
//! `<match_id>.json` (`20261206-171500-q_dm1-ffa-1a2b3c4d.json`) and, with
//! `sv_statsWebhook URL` set, POSTed there signed with
//! `sv_statsWebhookSecret` ([`webhook`]), retried with backoff, and kept
//! in the spool ([`spool`]) until an endpoint took it, across restarts.
//!
//! A result is written only for a match that ended on its own rules (not
//! for one cut short by a map change or a shutdown). The tick only builds
//! the document and hands it to the writer's bounded queue; the disk and
//! the network are the delivery threads' ([`delivery`]). A folder that
//! cannot be written is reported on the operator log and the match goes
//! on. A webhook that cannot be used safely (no secret, a secret file that
//! cannot be read, a URL that is not http or https, no results folder)
//! stops the server at startup ([`MatchResults::check`]).

pub mod delivery;
pub mod document;
pub mod spool;
pub mod webhook;

use std::path::PathBuf;

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};

use crate::feature::{MatchView, Observer, TickReport};
use crate::headless::HeadlessSummary;
use delivery::{Delivery, Job};
use document::MatchTimes;
pub use document::{MatchResult, PlayerResult, WeaponResult};
use spool::Spool;
pub use webhook::WebhookConfigError;

/// The cvar naming the folder.
pub const DIR_CVAR: &str = "sv_matchResultDir";
/// The cvar naming the webhook's URL.
pub const WEBHOOK_CVAR: &str = "sv_statsWebhook";
/// The cvar holding the webhook's signing secret.
pub const SECRET_CVAR: &str = "sv_statsWebhookSecret";

/// Writes and delivers each finished match's result (see the module doc).
#[derive(Debug)]
pub struct MatchResults {
    dir: CvarId,
    url: CvarId,
    secret: CvarId,
    /// The delivery threads, from the end of the startup on.
    delivery: Option<Delivery>,
    /// The (url, secret, folder) the delivery was last configured with.
    configured: Option<(String, String, String)>,
    /// Which match the start time belongs to, and that time (ms).
    started: (u64, u64),
}

impl MatchResults {
    /// Registers `sv_matchResultDir`, `sv_statsWebhook` and
    /// `sv_statsWebhookSecret`.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let dir = console.register_cvar(
            CvarDef::string(DIR_CVAR, "", "folder each finished match's result is written into as one JSON file (match id, map, game type, times, settings, scores, per player and weapon figures); its pending/ holds what the webhook has not taken yet; empty = off")
                .flags(CvarFlags::ARCHIVE),
        )?;
        let url = console.register_cvar(
            CvarDef::string(WEBHOOK_CVAR, "", "http:// or https:// URL each match result is POSTed to, signed with sv_statsWebhookSecret (X-Quarry-Signature: sha256=HMAC of the body); needs sv_matchResultDir; empty = off")
                .flags(CvarFlags::ARCHIVE),
        )?;
        let secret = console.register_cvar(
            CvarDef::string(SECRET_CVAR, "", "the key sv_statsWebhook's posts are signed with (HMAC-SHA256); required when a webhook is set")
                .flags(CvarFlags::SECRET),
        )?;
        Ok(Self { dir, url, secret, delivery: None, configured: None, started: (u64::MAX, 0) })
    }

    /// The webhook the cvars describe, or why the server must not run with
    /// it (checked at startup, before anything is bound).
    pub fn check(&self, cvars: &CvarSet) -> Result<(), WebhookConfigError> {
        self.target(cvars).map(|_| ())
    }

    fn target(&self, cvars: &CvarSet) -> Result<Option<(webhook::WebhookTarget, Spool)>, WebhookConfigError> {
        let dir = cvars.string(self.dir);
        let target = webhook::target_of(&cvars.string(self.url), &cvars.string(self.secret), &dir)?;
        Ok(target.map(|t| (t, Spool::of_results(&PathBuf::from(dir.trim())))))
    }
}

impl Observer for MatchResults {
    fn sync(&mut self, cvars: &CvarSet, startup_done: bool) -> Option<String> {
        if !startup_done {
            return None;
        }
        let now = (cvars.string(self.url), cvars.string(self.secret), cvars.string(self.dir));
        if self.delivery.is_some() && self.configured.as_ref() == Some(&now) {
            return None;
        }
        self.configured = Some(now);
        let (target, line) = match self.target(cvars) {
            Ok(t) => {
                let line = t.as_ref().map(|(t, s)| format!("match results are posted to {} (undelivered ones wait in {})", t.shown(), s.dir().display()));
                (t, line)
            }
            Err(e) => (None, Some(format!("error: {e}; match results are not posted"))),
        };
        match &self.delivery {
            Some(d) => d.configure(target),
            None => match Delivery::start(target) {
                Ok(d) => self.delivery = Some(d),
                Err(e) => return Some(format!("error: match results: couldn't start the delivery threads: {e}")),
            },
        }
        line
    }

    fn before_tick(&mut self, view: &MatchView<'_>) {
        if self.started.0 != view.matches_started {
            self.started = (view.matches_started, crate::utc::now_ms());
        }
    }

    fn after_tick(&mut self, _report: &TickReport<'_>) {}

    fn match_over(&mut self, view: &MatchView<'_>, summary: Option<&HeadlessSummary>) {
        let dir = view.cvars.string(self.dir);
        let Some(summary) = summary.filter(|_| !dir.trim().is_empty()) else { return };
        let ended_ms = crate::utc::now_ms();
        let started_ms = if self.started.0 == view.matches_started { self.started.1 } else { ended_ms };
        let id = document::new_match_id(ended_ms, view.map_name, &summary.gametype);
        let result = document::result_of(summary, view.game, view.cvars, view.map_name, id.clone(), MatchTimes { started_ms, ended_ms });
        let text = match serde_json::to_string_pretty(&result) {
            Ok(t) => t + "\n",
            Err(e) => return tracing::warn!("match result {id}: {e}"),
        };
        let spool = !view.cvars.string(self.url).trim().is_empty();
        let job = Job { id: id.clone(), text, dir: PathBuf::from(dir.trim()), spool };
        let queued = match &self.delivery {
            Some(d) => d.queue(job).map_err(|e| e.to_string()),
            None => Err("the delivery threads are not running".to_owned()),
        };
        if let Err(e) = queued {
            tracing::error!("match result {id} is lost: {e}");
        }
    }

    fn shutdown(&mut self, _view: &MatchView<'_>, _summary: Option<&HeadlessSummary>, _reason: &str) {
        if let Some(mut d) = self.delivery.take() {
            d.stop();
        }
    }

    fn status(&self, lines: &mut Vec<String>) {
        if self.configured.as_ref().is_some_and(|c| !c.0.trim().is_empty()) {
            lines.push(format!("match results: posted to {WEBHOOK_CVAR}"));
        }
    }
}
