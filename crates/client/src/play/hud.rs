//! The heads-up display and the screens over the view: health, armor,
//! ammo, weapons, frags and place, the objective, crosshair, kill feed,
//! chat, centre prints, the scoreboard, the console and the net graph.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use macroquad::prelude::{BLACK, Color, WHITE, draw_line, draw_rectangle, draw_rectangle_lines, draw_text, measure_text, screen_height, screen_width};
use quarry_net::reliable::{ModeUpdate, Scoreboard, WireFlagStatus};
use quarry_net::snapshot::{PF_DEAD, PF_SPECTATOR, PlayerState};

/// Weapon names by number (Quake 3's order), for the weapon bar.
const WEAPONS: [&str; 8] = ["Gauntlet", "MG", "Shotgun", "GL", "RL", "LG", "Rail", "Plasma"];
/// How long feed, chat and centre lines stay.
const FEED_TIME: Duration = Duration::from_secs(6);
const CHAT_TIME: Duration = Duration::from_secs(10);
const CENTRE_TIME: Duration = Duration::from_secs(3);
/// Lines kept in each list.
const KEEP: usize = 64;

const DIM: Color = Color::new(0.0, 0.0, 0.0, 0.55);
const YELLOW: Color = Color::new(1.0, 0.85, 0.3, 1.0);
const RED: Color = Color::new(1.0, 0.3, 0.25, 1.0);

/// Timed lines for the HUD.
#[derive(Debug, Default)]
pub struct Hud {
    feed: VecDeque<(Instant, String)>,
    chat: VecDeque<(Instant, String)>,
    centre: VecDeque<(Instant, String)>,
    /// The console's scrollback.
    pub console: VecDeque<String>,
}

fn push(list: &mut VecDeque<(Instant, String)>, at: Instant, line: String) {
    if list.len() == KEEP {
        list.pop_front();
    }
    list.push_back((at, line));
}

/// What the HUD shows this frame.
pub struct HudInput<'a> {
    /// The own player's state.
    pub player: Option<&'a PlayerState>,
    /// The own slot.
    pub slot: Option<u8>,
    /// The latest scoreboard.
    pub scoreboard: Option<&'a Scoreboard>,
    /// The latest objective state.
    pub mode: Option<&'a ModeUpdate>,
    /// Show the scoreboard.
    pub scores: bool,
    /// A line being typed (chat or console), with its prompt.
    pub typing: Option<(&'a str, &'a str)>,
    /// The console is open.
    pub console: bool,
    /// Net graph lines, when shown.
    pub net: Option<Vec<String>>,
    /// The player was just hurt: how strongly to show it, 0..1.
    pub damage: Option<f32>,
    /// Names over players: (screen x, y, name).
    pub names: Vec<(f32, f32, String)>,
}

impl Hud {
    /// A server print: obituaries go to the feed, other lines too.
    pub fn print(&mut self, at: Instant, text: &str) {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            push(&mut self.feed, at, line.trim().to_owned());
            self.console_line(line.trim());
        }
    }

    /// A chat line.
    pub fn chat(&mut self, at: Instant, line: String) {
        self.console_line(&line);
        push(&mut self.chat, at, line);
    }

    /// A line in the middle of the screen (flag taken, round won).
    pub fn centre(&mut self, at: Instant, line: String) {
        self.console_line(&line);
        push(&mut self.centre, at, line);
    }

    /// A line in the console only.
    pub fn console_line(&mut self, line: &str) {
        if self.console.len() == 512 {
            self.console.pop_front();
        }
        self.console.push_back(line.to_owned());
    }

    /// Draws it all (call with the default 2D camera set).
    pub fn draw(&self, now: Instant, input: &HudInput<'_>) {
        let (w, h) = (screen_width(), screen_height());
        for (x, y, name) in &input.names {
            let m = measure_text(name, None, 18, 1.0);
            draw_text(name, x - m.width / 2.0, *y, 18.0, WHITE);
        }
        if let Some(p) = input.player {
            if p.flags & PF_SPECTATOR == 0 {
                crosshair(w, h);
                status(p, w, h);
                weapons(p, w, h);
            }
            if p.flags & PF_DEAD != 0 {
                centred("You are dead: press fire to respawn", h * 0.35, 30.0, RED);
            }
        }
        if let Some(strength) = input.damage {
            damage_edge(w, h, strength);
        }
        score_line(input, w);
        let recent = |list: &VecDeque<(Instant, String)>, keep: Duration, n: usize| -> Vec<String> {
            let live: Vec<String> = list.iter().filter(|(t, _)| now.saturating_duration_since(*t) < keep).map(|(_, l)| l.clone()).collect();
            live[live.len().saturating_sub(n)..].to_vec()
        };
        for (i, line) in recent(&self.feed, FEED_TIME, 4).iter().enumerate() {
            let m = measure_text(line, None, 18, 1.0);
            draw_text(line, w - m.width - 12.0, 60.0 + 20.0 * i as f32, 18.0, WHITE);
        }
        for (i, line) in recent(&self.chat, CHAT_TIME, 6).iter().enumerate() {
            draw_text(line, 12.0, h - 230.0 + 20.0 * i as f32, 20.0, Color::new(0.7, 1.0, 0.7, 1.0));
        }
        for (i, line) in recent(&self.centre, CENTRE_TIME, 2).iter().enumerate() {
            centred(line, h * 0.28 + 34.0 * i as f32, 30.0, YELLOW);
        }
        if input.scores {
            scoreboard(input, w, h);
        }
        if let Some(net) = &input.net {
            let height = 22.0 * net.len() as f32 + 10.0;
            let top = h - 76.0 - height;
            draw_rectangle(w - 350.0, top, 340.0, height, DIM);
            for (i, line) in net.iter().enumerate() {
                draw_text(line, w - 342.0, top + 20.0 + 22.0 * i as f32, 20.0, WHITE);
            }
        }
        if input.console {
            self.draw_console(w, h, input.typing);
        } else if let Some((prompt, text)) = input.typing {
            draw_rectangle(8.0, h - 110.0, w * 0.6, 28.0, DIM);
            draw_text(format!("{prompt}{text}_"), 14.0, h - 90.0, 22.0, WHITE);
        }
    }

    fn draw_console(&self, w: f32, h: f32, typing: Option<(&str, &str)>) {
        let height = h * 0.45;
        draw_rectangle(0.0, 0.0, w, height, Color::new(0.05, 0.06, 0.1, 0.9));
        let rows = ((height - 40.0) / 18.0).max(1.0) as usize;
        let start = self.console.len().saturating_sub(rows);
        for (i, line) in self.console.iter().skip(start).enumerate() {
            draw_text(line, 10.0, 20.0 + 18.0 * i as f32, 18.0, Color::new(0.85, 0.85, 0.85, 1.0));
        }
        let (prompt, text) = typing.unwrap_or(("]", ""));
        draw_text(format!("{prompt}{text}_"), 10.0, height - 10.0, 20.0, YELLOW);
    }
}

/// The weapon in hand, low on the right, in the weapon's colour; a flash
/// at its muzzle for a shot.
pub fn draw_weapon(w: f32, h: f32, weapon: u8, flash: bool) {
    let [r, g, b] = super::look::name_colour(WEAPONS.get(usize::from(weapon).wrapping_sub(1)).copied().unwrap_or("none"));
    let (x, y) = (w * 0.62, h - 150.0);
    macroquad::prelude::draw_triangle(
        macroquad::prelude::vec2(x, h - 70.0),
        macroquad::prelude::vec2(x + 150.0, h - 70.0),
        macroquad::prelude::vec2(x + 40.0, y),
        Color::new(r * 0.7, g * 0.7, b * 0.7, 1.0),
    );
    draw_rectangle(x + 30.0, y - 6.0, 22.0, 90.0, Color::new(r * 0.5, g * 0.5, b * 0.5, 1.0));
    if flash {
        macroquad::prelude::draw_circle(x + 41.0, y - 14.0, 18.0, Color::new(1.0, 0.85, 0.4, 0.9));
        macroquad::prelude::draw_circle(x + 41.0, y - 14.0, 9.0, Color::new(1.0, 1.0, 0.9, 1.0));
    }
}

fn centred(text: &str, y: f32, size: f32, colour: Color) {
    let m = measure_text(text, None, size as u16, 1.0);
    let x = (screen_width() - m.width) / 2.0;
    draw_text(text, x + 2.0, y + 2.0, size, BLACK);
    draw_text(text, x, y, size, colour);
}

fn crosshair(w: f32, h: f32) {
    let (cx, cy) = (w / 2.0, h / 2.0);
    for (dx, dy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        draw_line(cx + dx * 4.0, cy + dy * 4.0, cx + dx * 11.0, cy + dy * 11.0, 2.0, Color::new(0.4, 1.0, 0.4, 0.9));
    }
}

fn status(p: &PlayerState, _w: f32, h: f32) {
    draw_rectangle(8.0, h - 62.0, 260.0, 54.0, DIM);
    let health_colour = if p.health <= 25 { RED } else { WHITE };
    draw_text(format!("{}", p.health.max(0)), 20.0, h - 20.0, 44.0, health_colour);
    draw_text("HEALTH", 20.0, h - 50.0, 14.0, YELLOW);
    draw_text(format!("{}", p.armor.max(0)), 140.0, h - 20.0, 44.0, WHITE);
    draw_text("ARMOR", 140.0, h - 50.0, 14.0, YELLOW);
}

fn weapons(p: &PlayerState, w: f32, h: f32) {
    let slot_w = 76.0;
    let x0 = (w - slot_w * 8.0) / 2.0;
    for (i, name) in WEAPONS.iter().enumerate() {
        let n = i + 1;
        if p.weapons & (1 << n) == 0 {
            continue;
        }
        let x = x0 + slot_w * i as f32;
        let held = usize::from(p.weapon) == n;
        draw_rectangle(x, h - 44.0, slot_w - 4.0, 36.0, if held { Color::new(0.9, 0.75, 0.2, 0.5) } else { DIM });
        if held {
            draw_rectangle_lines(x, h - 44.0, slot_w - 4.0, 36.0, 2.0, YELLOW);
        }
        let ammo = p.ammo.get(n).copied().unwrap_or(0);
        draw_text(format!("{n} {name}"), x + 4.0, h - 28.0, 16.0, WHITE);
        if n != 1 {
            draw_text(ammo.to_string(), x + 4.0, h - 12.0, 16.0, if ammo == 0 { RED } else { WHITE });
        }
    }
    let ammo = p.ammo.get(usize::from(p.weapon)).copied().unwrap_or(0);
    if p.weapon > 1 {
        draw_rectangle(w - 130.0, h - 62.0, 122.0, 54.0, DIM);
        draw_text(ammo.to_string(), w - 118.0, h - 20.0, 44.0, if ammo == 0 { RED } else { WHITE });
        draw_text("AMMO", w - 118.0, h - 50.0, 14.0, YELLOW);
    }
}

/// Frags and place, the mode's state, time.
fn score_line(input: &HudInput<'_>, w: f32) {
    let mut parts = Vec::new();
    if let (Some(board), Some(slot)) = (input.scoreboard, input.slot) {
        let mut scores: Vec<i32> = board.rows.iter().filter(|r| r.team != 3).map(|r| r.score).collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        if let Some(me) = board.rows.iter().find(|r| r.slot == slot) {
            let place = scores.iter().position(|s| *s == me.score).map_or(0, |i| i + 1);
            let tied = scores.iter().filter(|s| **s == me.score).count() > 1;
            parts.push(format!("{} frags, {}{} of {}", me.score, if tied { "tied " } else { "" }, ordinal(place), scores.len()));
        }
        if !board.phase.is_empty() {
            parts.push(board.phase.clone());
        }
    } else if let Some(p) = input.player {
        parts.push(format!("{} frags", p.score));
    }
    if let Some(m) = input.mode {
        if let Some((red, blue)) = m.team_scores {
            parts.push(format!("Red {red} : {blue} Blue"));
        }
        for f in &m.flags {
            let team = if f.team == 1 { "red" } else { "blue" };
            let status = match f.status {
                WireFlagStatus::Home => "home".to_owned(),
                WireFlagStatus::Carried { by } => format!("carried by #{by}"),
                WireFlagStatus::Dropped { .. } => "dropped".to_owned(),
            };
            parts.push(format!("{team} flag {status}"));
        }
        if let Some(r) = &m.round {
            parts.push(format!("round {}", r.number));
        }
        if input.slot.is_some_and(|s| m.frozen.iter().any(|f| f.slot == s)) {
            parts.push("FROZEN".to_owned());
        }
    }
    let line = parts.join("   ");
    draw_rectangle(0.0, 0.0, w, 30.0, DIM);
    draw_text(&line, 12.0, 21.0, 20.0, WHITE);
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn scoreboard(input: &HudInput<'_>, w: f32, h: f32) {
    let (bw, x) = (w * 0.6, w * 0.2);
    let mut rows: Vec<_> = input.scoreboard.map(|b| b.rows.iter().collect()).unwrap_or_default();
    rows.sort_by(|a, b| b.score.cmp(&a.score).then(a.slot.cmp(&b.slot)));
    let bh = 80.0 + 24.0 * rows.len() as f32;
    let y = (h - bh).max(0.0) / 3.0;
    draw_rectangle(x, y, bw, bh, Color::new(0.0, 0.0, 0.0, 0.75));
    let title = input.scoreboard.map_or_else(|| "Scores".to_owned(), |b| format!("Scores: {} {}", b.gametype, b.phase));
    draw_text(&title, x + 16.0, y + 32.0, 28.0, YELLOW);
    let head = y + 60.0;
    for (label, dx) in [("Name", 16.0), ("Score", 0.55), ("Deaths", 0.7), ("Ping", 0.85)] {
        let px = if dx > 1.0 { x + dx } else { x + bw * dx };
        draw_text(label, px, head, 18.0, Color::new(0.8, 0.8, 0.8, 1.0));
    }
    for (i, r) in rows.iter().enumerate() {
        let ry = head + 24.0 * (i as f32 + 1.0);
        let mine = input.slot == Some(r.slot);
        if mine {
            draw_rectangle(x + 8.0, ry - 17.0, bw - 16.0, 22.0, Color::new(1.0, 1.0, 1.0, 0.15));
        }
        let colour = super::scene::team_colour(r.team, u32::from(r.slot));
        let name = if r.bot { format!("{} (bot)", r.name) } else { r.name.clone() };
        draw_text(&name, x + 16.0, ry, 20.0, colour);
        draw_text(r.score.to_string(), x + bw * 0.55, ry, 20.0, WHITE);
        draw_text(r.deaths.to_string(), x + bw * 0.7, ry, 20.0, WHITE);
        draw_text(r.ping_ms.to_string(), x + bw * 0.85, ry, 20.0, WHITE);
    }
}

/// A red edge around the screen that fades: the player was hurt. (The
/// snapshot does not say from where, so no direction is drawn.)
fn damage_edge(w: f32, h: f32, strength: f32) {
    let a = Color::new(0.9, 0.05, 0.02, strength.clamp(0.0, 1.0) * 0.45);
    let t = 24.0;
    draw_rectangle(0.0, 0.0, w, t, a);
    draw_rectangle(0.0, h - t, w, t, a);
    draw_rectangle(0.0, t, t, h - 2.0 * t, a);
    draw_rectangle(w - t, t, t, h - 2.0 * t, a);
}

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn places_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].into_iter().map(ordinal).collect();
        assert_eq!(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]);
    }
}
