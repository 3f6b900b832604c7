//! The server list: what `quarry-client play` shows when it is given no
//! server. The masters are asked the way `quarry-client list` asks them
//! ([`crate::browse`], on a thread so the window keeps drawing), each
//! server's name, map, game type, humans and bots, slots and ping are
//! listed, and the server picked is joined (on a thread too, with its
//! map found or downloaded) and played; when the game ends, or the player
//! types `disconnect`, the list comes back with the reason.
//!
//! Trust is the command line's: a listed server's join address carries
//! the certificate fingerprint it answered with (only an answer that
//! echoed our challenge counts), checked against the known servers file,
//! so a server whose fingerprint changed is refused here just as it is on
//! the command line; `--insecure` accepts any.
//!
//! Keys: Up/Down (Page Up/Down, Home, End) pick a server, Enter or a
//! double click joins it, F5 or R asks again, S changes the order (or a
//! click on a column's title), E hides the empty servers, A opens a line
//! to type or paste (Ctrl+V) a join address, `~` a console line, and
//! Escape quits. The same commands work from the console and a script:
//! `refresh`, `sort [ping|name|players|map]`, `hide_empty [on|off]`,
//! `select N|TEXT`, `join`, `connect ADDRESS`, `screenshot NAME.png`,
//! `quit`, and the client's settings (`name`, `sensitivity`, …).

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use macroquad::input::utils::repeat_all_miniquad_input;
use macroquad::prelude::{
    Color, KeyCode, MouseButton, clear_background, draw_line, draw_rectangle, draw_text, get_char_pressed, get_keys_pressed,
    is_key_down, is_mouse_button_pressed, measure_text, mouse_position, next_frame, screen_height, screen_width,
};

use super::app::{Carry, PlayReport, fetch_map_blocking, gpu_for};
use super::controls::Handled;
use super::script::{Step, is_plain_png};
use super::server_list::{ServerList, SortKey};
use super::session::Session;
use super::{PlayError, PlayOptions, write_atomic};
use crate::browse::{ListOptions, Listing};
use crate::client::Client;
use crate::join::{JoinAddress, TrustPlan, plan_trust};
use crate::map_store::MapStore;

/// How the server list asks and whom it trusts.
#[derive(Debug, Clone)]
pub struct BrowserOptions {
    /// The masters, `HOST` or `HOST:PORT` (port 27950 if none).
    pub masters: Vec<String>,
    /// How long to wait for each master and each batch of servers.
    pub timeout: Duration,
    /// The known servers file; `None` for none (then only a join address
    /// with a fingerprint, or `insecure`, can join).
    pub known_servers: Option<PathBuf>,
    /// Accept any server certificate (development only).
    pub insecure: bool,
    /// Add a server joined by its fingerprint to the known servers file.
    pub remember: bool,
}

const BACKGROUND: Color = Color::new(0.07, 0.08, 0.10, 1.0);
const YELLOW: Color = Color::new(1.0, 0.85, 0.3, 1.0);
const GREY: Color = Color::new(0.62, 0.64, 0.68, 1.0);
const RED: Color = Color::new(1.0, 0.4, 0.35, 1.0);
const PICKED: Color = Color::new(0.22, 0.33, 0.52, 1.0);
const TEXT: Color = Color::new(0.93, 0.93, 0.93, 1.0);
const LINE: Color = Color::new(0.3, 0.32, 0.36, 1.0);
/// Two clicks on a row within this long join it.
const DOUBLE_CLICK: Duration = Duration::from_millis(400);
/// The longest line typed.
const MAX_TYPED: usize = 300;

/// Runs the server list until the player quits: each server picked is
/// joined and played, and the list comes back when the game ends. The
/// report is the last game's.
pub(super) async fn run(mut carry: Carry, options: Rc<PlayOptions>) -> Result<PlayReport, PlayError> {
    let Some(browse) = options.browser.clone() else { return Ok(PlayReport { quit: true, ..PlayReport::default() }) };
    let mut screen = Browser::new(browse, options.screenshots.clone());
    let mut last = PlayReport::default();
    if let Some(script) = carry.script.as_mut() {
        script.resume(Instant::now());
    }
    screen.refresh();
    loop {
        let Some(address) = screen.choose(&mut carry, &options).await else { break };
        let session = match screen.join(address, &mut carry, &options).await {
            Joined::Game(session) => session,
            Joined::Back => continue,
            Joined::Quit => break,
        };
        let gpu = match gpu_for(&session) {
            Ok(gpu) => gpu,
            Err(e) => {
                screen.say_error(e.to_string());
                continue;
            }
        };
        let (result, back) = super::app::App::new(*session, gpu, carry, Rc::clone(&options), None).run().await;
        carry = back;
        match result {
            Ok(report) => {
                screen.say(match &report.ended {
                    Some(reason) => format!("disconnected: {reason}"),
                    None => "left the game".to_owned(),
                });
                let quit = report.quit;
                last = report;
                if quit {
                    return Ok(last);
                }
            }
            Err(e) => screen.say_error(format!("the game ended: {e}")),
        }
        screen.refresh();
    }
    if let Some(path) = &options.config {
        write_atomic(path, carry.controls.to_config().as_bytes())?;
    }
    Ok(PlayReport { quit: true, ..last })
}

/// How a join from the list came out.
enum Joined {
    /// In, with the map loaded.
    Game(Box<Session>),
    /// Refused, failed or cancelled: back to the list (the reason is shown).
    Back,
    /// The player quit while joining.
    Quit,
}

/// Where things are on the screen, for drawing and for clicks.
struct Layout {
    width: f32,
    height: f32,
    /// The baseline of the column titles.
    header_y: f32,
    /// The top of the first row.
    rows_top: f32,
    row_height: f32,
    /// Rows that fit.
    visible: usize,
    /// Each column's left edge, in [`COLUMNS`]'s order.
    columns: [f32; 5],
}

/// The columns' titles and the order each sorts by (the game type none).
const COLUMNS: [(&str, Option<SortKey>); 5] =
    [("Name", Some(SortKey::Name)), ("Map", Some(SortKey::Map)), ("Type", None), ("Players", Some(SortKey::Players)), ("Ping", Some(SortKey::Ping))];

fn layout() -> Layout {
    let (width, height) = (screen_width(), screen_height());
    let header_y = 104.0;
    let rows_top = header_y + 12.0;
    let row_height = 30.0;
    // Room below for the summary, a message and the help line.
    let visible = (((height - 120.0 - rows_top) / row_height).floor().max(1.0)) as usize;
    let left = 40.0;
    let span = (width - 2.0 * left).max(300.0);
    let columns = [left, left + span * 0.42, left + span * 0.62, left + span * 0.74, left + span * 0.9];
    Layout { width, height, header_y, rows_top, row_height, visible, columns }
}

impl Layout {
    /// The text baseline of visible row `i`.
    fn baseline(&self, i: usize) -> f32 {
        self.rows_top + self.row_height * (i as f32 + 1.0) - 9.0
    }

    /// The visible row at height `y`, if any.
    fn row_at(&self, y: f32) -> Option<usize> {
        let i = ((y - self.rows_top) / self.row_height).floor();
        (i >= 0.0 && (i as usize) < self.visible).then_some(i as usize)
    }
}

/// Drains the window's raw input queue (the list has no use for raw motion).
struct Drain;

impl macroquad::miniquad::EventHandler for Drain {
    fn update(&mut self) {}
    fn draw(&mut self) {}
}

/// What the player typed a line for.
#[derive(Debug, Clone, PartialEq)]
struct Typed {
    prompt: &'static str,
    text: String,
}

struct Browser {
    options: BrowserOptions,
    list: ServerList,
    /// The masters' answer being waited for.
    asking: Option<Receiver<Listing>>,
    asked: Option<Instant>,
    /// The last thing said, and whether it is an error.
    message: Option<(String, bool)>,
    typing: Option<Typed>,
    last_click: Option<(Instant, usize)>,
    /// The first row shown.
    scroll: usize,
    shots: Vec<String>,
    quit: bool,
    chosen: Option<JoinAddress>,
    /// Where screenshots go (`--screenshots`).
    screenshots: PathBuf,
}

impl Browser {
    fn new(options: BrowserOptions, screenshots: PathBuf) -> Self {
        Self {
            options,
            screenshots,
            list: ServerList::default(),
            asking: None,
            asked: None,
            message: None,
            typing: None,
            last_click: None,
            scroll: 0,
            shots: Vec::new(),
            quit: false,
            chosen: None,
        }
    }

    fn say(&mut self, text: String) {
        self.message = Some((text, false));
    }

    fn say_error(&mut self, text: String) {
        self.message = Some((text, true));
    }

    /// Asks the masters again (unless an answer is still awaited).
    fn refresh(&mut self) {
        if self.asking.is_some() {
            return;
        }
        let (tx, rx) = mpsc::channel();
        let ask = ListOptions { masters: self.options.masters.clone(), timeout: self.options.timeout };
        let spawned = std::thread::Builder::new().name("server-list".to_owned()).spawn(move || {
            let _ = tx.send(crate::browse::list(&ask));
        });
        match spawned {
            Ok(_) => {
                self.asking = Some(rx);
                self.asked = Some(Instant::now());
            }
            Err(e) => self.say_error(format!("cannot ask the masters: {e}")),
        }
    }

    /// Takes the masters' answer when it has come.
    fn poll(&mut self) {
        let Some(rx) = &self.asking else { return };
        match rx.try_recv() {
            Ok(listing) => {
                self.asking = None;
                self.list.set_listing(listing);
                if !self.list.errors.is_empty() {
                    let errors = self.list.errors.join("; ");
                    self.say_error(errors);
                }
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.asking = None;
                self.say_error("asking the masters stopped unexpectedly".to_owned());
            }
        }
    }

    /// The list's frames until the player picks a server (its address) or quits.
    async fn choose(&mut self, carry: &mut Carry, options: &PlayOptions) -> Option<JoinAddress> {
        let min_frame = Duration::from_secs_f32(1.0 / options.max_fps.clamp(10.0, 1000.0));
        let mut last = Instant::now();
        loop {
            let now = Instant::now();
            self.read_input(carry);
            if let Some(script) = carry.script.as_mut() {
                for step in script.due_now(now) {
                    match step {
                        Step::Screenshot(name) => self.shots.push(name),
                        Step::Quit => self.quit = true,
                        Step::Command(line) => self.exec(&line, carry),
                        Step::Turn(..) | Step::Aim(_) | Step::Hunt(_) => self.say_error("turn, aim and hunt work in a game, not in the server list".to_owned()),
                    }
                }
            }
            if carry.deadline.is_some_and(|d| now >= d) || macroquad::input::is_quit_requested() {
                self.quit = true;
            }
            if self.quit {
                return None;
            }
            if let Some(address) = self.chosen.take() {
                return Some(address);
            }
            self.poll();
            self.draw(now);
            self.save_screenshots();
            next_frame().await;
            let spent = last.elapsed();
            if spent < min_frame {
                std::thread::sleep(min_frame - spent);
            }
            last = Instant::now();
        }
    }

    fn read_input(&mut self, carry: &mut Carry) {
        repeat_all_miniquad_input(&mut Drain, carry.subscriber);
        let keys = get_keys_pressed();
        let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
        let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        if let Some(typed) = self.typing.as_mut() {
            while let Some(c) = get_char_pressed() {
                if !c.is_control() && c != '`' && c != '~' && typed.text.chars().count() < MAX_TYPED && !ctrl {
                    typed.text.push(c);
                }
            }
            if (ctrl && keys.contains(&KeyCode::V)) || (shift && keys.contains(&KeyCode::Insert)) {
                let pasted = macroquad::miniquad::window::clipboard_get().unwrap_or_default();
                let room = MAX_TYPED.saturating_sub(typed.text.chars().count());
                typed.text.extend(pasted.chars().filter(|c| !c.is_control()).take(room));
            }
            if keys.contains(&KeyCode::Backspace) {
                typed.text.pop();
            }
            if keys.contains(&KeyCode::Escape) || keys.contains(&KeyCode::GraveAccent) {
                self.typing = None;
            } else if keys.contains(&KeyCode::Enter) || keys.contains(&KeyCode::KpEnter) {
                let line = std::mem::take(&mut typed.text);
                self.typing = None;
                self.exec(&line, carry);
            }
            return;
        }
        while get_char_pressed().is_some() {}
        let page = layout().visible.max(2) as isize - 1;
        for k in keys {
            match k {
                KeyCode::Up => self.list.move_pick(-1),
                KeyCode::Down => self.list.move_pick(1),
                KeyCode::PageUp => self.list.move_pick(-page),
                KeyCode::PageDown => self.list.move_pick(page),
                KeyCode::Home => {
                    self.list.pick_row(0);
                }
                KeyCode::End => self.list.move_pick(isize::MAX),
                KeyCode::Enter | KeyCode::KpEnter => self.exec("join", carry),
                KeyCode::F5 | KeyCode::R => self.refresh(),
                KeyCode::S => self.list.set_sort(self.list.sort().next()),
                KeyCode::E => self.list.set_hide_empty(!self.list.hides_empty()),
                KeyCode::A => self.typing = Some(Typed { prompt: "join address: ", text: String::new() }),
                KeyCode::GraveAccent => self.typing = Some(Typed { prompt: "]", text: String::new() }),
                KeyCode::F12 => self.exec("screenshot", carry),
                KeyCode::Escape => self.quit = true,
                _ => {}
            }
        }
        if is_mouse_button_pressed(MouseButton::Left) {
            self.click(mouse_position(), carry);
        }
    }

    fn click(&mut self, (x, y): (f32, f32), carry: &mut Carry) {
        let l = layout();
        if (l.header_y - 26.0..=l.header_y + 8.0).contains(&y) {
            // The column whose title is left of the click; "Type" has no order of its own.
            if let Some(key) = l.columns.iter().rposition(|&left| x >= left).and_then(|i| COLUMNS[i].1) {
                self.list.set_sort(key);
            }
            return;
        }
        let Some(row) = l.row_at(y).map(|r| r + self.scroll) else { return };
        if !self.list.pick_row(row) {
            return;
        }
        let now = Instant::now();
        if self.last_click.is_some_and(|(at, r)| r == row && now.saturating_duration_since(at) <= DOUBLE_CLICK) {
            self.last_click = None;
            self.exec("join", carry);
        } else {
            self.last_click = Some((now, row));
        }
    }

    /// Runs a command line: several separated by `;`.
    fn exec(&mut self, line: &str, carry: &mut Carry) {
        for part in line.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            self.exec_one(part, carry);
        }
    }

    fn exec_one(&mut self, line: &str, carry: &mut Carry) {
        let (cmd, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(c, r)| (c, r.trim()));
        match cmd.to_ascii_lowercase().as_str() {
            "refresh" => self.refresh(),
            "sort" => match rest {
                "" => self.list.set_sort(self.list.sort().next()),
                key => match SortKey::parse(key) {
                    Some(k) => self.list.set_sort(k),
                    None => self.say_error("usage: sort [ping|name|players|map]".to_owned()),
                },
            },
            "hide_empty" => match rest {
                "" => self.list.set_hide_empty(!self.list.hides_empty()),
                "on" | "1" => self.list.set_hide_empty(true),
                "off" | "0" => self.list.set_hide_empty(false),
                _ => self.say_error("usage: hide_empty [on|off]".to_owned()),
            },
            "select" => {
                if !self.list.pick_matching(rest) {
                    self.say_error(format!("no server listed matches '{rest}' (give a row number or part of a name, map or address)"));
                }
            }
            "join" => match self.list.picked().map(|e| e.join.parse::<JoinAddress>()) {
                Some(Ok(address)) => self.chosen = Some(address),
                Some(Err(e)) => self.say_error(e.to_string()),
                None => self.say_error("no server is picked".to_owned()),
            },
            "connect" => match rest.parse::<JoinAddress>() {
                Ok(address) => self.chosen = Some(address),
                Err(e) => self.say_error(e.to_string()),
            },
            "screenshot" => {
                let name = if rest.is_empty() { format!("servers-{}.png", self.shots.len()) } else { rest.to_owned() };
                if is_plain_png(&name) {
                    self.shots.push(name);
                } else {
                    self.say_error("usage: screenshot [NAME.png]".to_owned());
                }
            }
            "quit" | "exit" => self.quit = true,
            "disconnect" => self.say_error("not in a game".to_owned()),
            _ => match carry.controls.setting(line) {
                Handled::Local(reply) => {
                    if !reply.is_empty() {
                        self.say(reply);
                    }
                }
                Handled::NotMine => self.say_error(format!(
                    "'{cmd}' is not a server list command: refresh, sort, hide_empty, select, join, connect ADDRESS, screenshot, quit, or a setting"
                )),
            },
        }
    }

    /// Joins `address`: plans the trust, then connects and gets the map on
    /// a thread while the window shows how it goes (Escape cancels). The
    /// script's clock stops meanwhile.
    async fn join(&mut self, address: JoinAddress, carry: &mut Carry, options: &PlayOptions) -> Joined {
        let plan = match plan_trust(&address, None, self.options.insecure, self.options.known_servers.clone(), self.options.remember) {
            Ok(plan) => plan,
            Err(e) => {
                self.say_error(e.to_string());
                return Joined::Back;
            }
        };
        for w in &plan.warnings {
            tracing::warn!("{w}");
        }
        let name = self.list.picked().filter(|e| e.join.parse::<JoinAddress>().is_ok_and(|a| a.server == plan.server)).map_or_else(|| plan.server.clone(), |e| e.name.clone());
        if let Some(script) = carry.script.as_mut() {
            script.pause(Instant::now());
        }
        let joined = self.wait_for_join(plan, &name, carry, options).await;
        if let Some(script) = carry.script.as_mut() {
            script.resume(Instant::now());
        }
        joined
    }

    async fn wait_for_join(&mut self, plan: TrustPlan, name: &str, carry: &mut Carry, options: &PlayOptions) -> Joined {
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let template = options.client.clone();
        let (server, trust, dirs) = (plan.server.clone(), plan.trust, options.maps.clone());
        let stop = Arc::clone(&cancel);
        let spawned = std::thread::Builder::new().name("join".to_owned()).spawn(move || {
            let outcome = (|| -> Result<(Client, quarry_map::LoadedMap), PlayError> {
                let addr = crate::options::resolve(&server)?;
                let mut client = Client::join(crate::ClientOptions { server: addr, trust, ..template })?;
                let store = MapStore::with_user_cache(dirs);
                let progress_tx = tx.clone();
                let map = fetch_map_blocking(&mut client, &store, &mut |line| drop(progress_tx.send(Progress::Line(line))), &stop)?;
                Ok((client, map))
            })();
            let _ = tx.send(Progress::Done(Box::new(outcome)));
        });
        if let Err(e) = spawned {
            self.say_error(format!("cannot join: {e}"));
            return Joined::Back;
        }
        let mut line = format!("Joining {name} ({})…", plan.server);
        loop {
            repeat_all_miniquad_input(&mut Drain, carry.subscriber);
            while get_char_pressed().is_some() {}
            let now = Instant::now();
            let quit = carry.deadline.is_some_and(|d| now >= d) || macroquad::input::is_quit_requested();
            if quit || get_keys_pressed().contains(&KeyCode::Escape) {
                cancel.store(true, Ordering::Relaxed);
                self.say(format!("stopped joining {name}"));
                return if quit { Joined::Quit } else { Joined::Back };
            }
            match rx.try_recv() {
                Ok(Progress::Line(l)) => line = l,
                Ok(Progress::Done(outcome)) => {
                    return match *outcome {
                        Ok((client, map)) => {
                            let server = plan.server.clone();
                            match plan.remember_now() {
                                Ok(Some(path)) => tracing::info!("remembered {server} in {}", path.display()),
                                Ok(None) => {}
                                Err(e) => tracing::warn!("{e}"),
                            }
                            Joined::Game(Box::new(Session::new(client, map)))
                        }
                        Err(e) => {
                            self.say_error(format!("could not join {name}: {e}"));
                            Joined::Back
                        }
                    };
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.say_error(format!("joining {name} stopped unexpectedly"));
                    return Joined::Back;
                }
            }
            clear_background(BACKGROUND);
            let (w, h) = (screen_width(), screen_height());
            centred(&line, h / 2.0, 32.0, TEXT, w);
            centred("Escape cancels", h / 2.0 + 40.0, 22.0, GREY, w);
            next_frame().await;
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn draw(&mut self, now: Instant) {
        let l = layout();
        clear_background(BACKGROUND);
        draw_text("Quarry servers", 40.0, 56.0, 44.0, YELLOW);
        let masters = format!("masters: {}", self.options.masters.join(", "));
        let size = measure_text(&masters, None, 20, 1.0);
        draw_text(&masters, (l.width - 40.0 - size.width).max(360.0), 52.0, 20.0, GREY);
        for (i, (title, key)) in COLUMNS.iter().enumerate() {
            let sorted = *key == Some(self.list.sort());
            let text = if sorted { format!("{title} v") } else { (*title).to_owned() };
            draw_text(&text, l.columns[i], l.header_y, 24.0, if sorted { YELLOW } else { GREY });
        }
        draw_line(40.0, l.header_y + 8.0, l.width - 40.0, l.header_y + 8.0, 1.0, LINE);
        let picked = self.list.picked_row();
        if let Some(p) = picked {
            if p < self.scroll {
                self.scroll = p;
            } else if p >= self.scroll + l.visible {
                self.scroll = p + 1 - l.visible;
            }
        }
        let rows = self.list.rows();
        self.scroll = self.scroll.min(rows.len().saturating_sub(1));
        for (i, e) in rows.iter().enumerate().skip(self.scroll).take(l.visible) {
            let shown = i - self.scroll;
            let y = l.baseline(shown);
            if picked == Some(i) {
                draw_rectangle(32.0, l.rows_top + l.row_height * shown as f32 + 1.0, l.width - 64.0, l.row_height - 2.0, PICKED);
            }
            let colour = if e.slots > 0 && e.humans + e.bots >= e.slots { GREY } else { TEXT };
            let name = fit(&e.name, l.columns[1] - l.columns[0] - 12.0);
            let name = if e.needpass { format!("{name} (password)") } else { name };
            let cells = [name, fit(&e.map, l.columns[2] - l.columns[1] - 12.0), fit(&e.gametype, l.columns[3] - l.columns[2] - 12.0), players(e.humans, e.bots, e.slots), format!("{} ms", e.ping_ms)];
            for (x, cell) in l.columns.iter().zip(cells) {
                draw_text(&cell, *x, y, 24.0, colour);
            }
        }
        if rows.is_empty() {
            let what = match (self.asking.is_some(), self.list.listed, self.list.is_empty()) {
                (true, false, _) => "Asking the masters…",
                (_, true, true) => "The masters list no Quarry server. F5 asks again; A joins an address.",
                (_, true, false) => "Every server listed is empty (E shows them).",
                (false, false, _) => "",
            };
            draw_text(what, 40.0, l.rows_top + 40.0, 24.0, GREY);
        }
        let mut summary = if self.list.listed { self.list.summary() } else { String::new() };
        if let Some(asked) = self.asked.filter(|_| self.asking.is_some()) {
            summary.push_str(&format!("   asking the masters… {:.1} s", now.saturating_duration_since(asked).as_secs_f32()));
        }
        draw_text(&summary, 40.0, l.height - 80.0, 22.0, GREY);
        if let Some((text, error)) = &self.message {
            draw_text(fit(text, l.width - 80.0), 40.0, l.height - 52.0, 22.0, if *error { RED } else { TEXT });
        }
        match &self.typing {
            Some(t) => {
                draw_rectangle(0.0, l.height - 40.0, l.width, 40.0, Color::new(0.0, 0.0, 0.0, 0.8));
                let shown = format!("{}{}_", t.prompt, t.text);
                // The end of a long line stays in view.
                let skip = shown.chars().count().saturating_sub(((l.width - 60.0) / 11.0) as usize);
                draw_text(shown.chars().skip(skip).collect::<String>(), 20.0, l.height - 14.0, 24.0, TEXT);
            }
            None => {
                let help = "Up/Down pick   Enter join   F5 refresh   S sort   E hide empty   A join an address   ~ console   Esc quit";
                draw_text(help, 40.0, l.height - 18.0, 20.0, GREY);
            }
        }
    }

    /// Writes the screenshots asked for, each with a note of what the list
    /// showed (for tests, as a game's screenshot has its camera note).
    fn save_screenshots(&mut self) {
        if self.shots.is_empty() {
            return;
        }
        let (png, width, height) = super::screenshot::capture();
        let note = self.note(width, height);
        for name in std::mem::take(&mut self.shots) {
            let path = self.screenshots.join(&name);
            let written = write_atomic(&path, &png).and_then(|()| write_atomic(&path.with_extension("camera"), note.as_bytes()));
            match written {
                Ok(()) => self.say(format!("wrote {}", path.display())),
                Err(e) => self.say_error(e.to_string()),
            }
        }
    }

    /// `key value` lines: the screen, its size, the row picked, the
    /// message shown, and each row drawn with its baseline and cells
    /// (tab-separated).
    fn note(&self, width: u16, height: u16) -> String {
        let l = layout();
        let mut s = format!("screen servers\nsize {width} {height}\npicked {}\n", self.list.picked_row().map_or(0, |r| r + 1));
        if let Some((text, _)) = &self.message {
            s.push_str(&format!("message {}\n", text.replace('\n', " ")));
        }
        for (i, e) in self.list.rows().iter().enumerate().skip(self.scroll).take(l.visible) {
            s.push_str(&format!(
                "row {} {:.0} {}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                i + 1,
                l.baseline(i - self.scroll),
                e.name,
                e.map,
                e.gametype,
                e.humans,
                e.bots,
                e.slots,
                e.ping_ms
            ));
        }
        s
    }
}

/// What the joining thread reports.
enum Progress {
    /// How the map download goes.
    Line(String),
    /// Joined with the map loaded, or why not.
    Done(Box<Result<(Client, quarry_map::LoadedMap), PlayError>>),
}

/// `humans+bots/slots`, as server browsers show bots apart.
fn players(humans: u32, bots: u32, slots: u32) -> String {
    if bots > 0 { format!("{humans}+{bots}/{slots}") } else { format!("{humans}/{slots}") }
}

/// `text` cut to fit `width` pixels at the list's size, with an ellipsis.
fn fit(text: &str, width: f32) -> String {
    if measure_text(text, None, 24, 1.0).width <= width {
        return text.to_owned();
    }
    let mut out: String = text.to_owned();
    while !out.is_empty() && measure_text(format!("{out}…"), None, 24, 1.0).width > width {
        out.pop();
    }
    format!("{out}…")
}

fn centred(text: &str, y: f32, size: f32, colour: Color, width: f32) {
    let m = measure_text(text, None, size as u16, 1.0);
    draw_text(text, ((width - m.width) / 2.0).max(10.0), y, size, colour);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_show_bots_apart() {
        assert_eq!(players(2, 6, 16), "2+6/16");
        assert_eq!(players(3, 0, 8), "3/8");
    }
}
