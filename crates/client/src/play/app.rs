//! The frame loop: input, the session, drawing, screenshots.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use glam::Vec3;
use macroquad::prelude::{
    Color, KeyCode, MouseButton, get_char_pressed, get_keys_pressed, get_keys_released,
    is_mouse_button_pressed, is_mouse_button_released, mouse_wheel, next_frame, screen_height, screen_width, set_camera,
    set_cursor_grab, set_default_camera, set_fullscreen, show_mouse,
};
use macroquad::input::utils::{register_input_subscriber, repeat_all_miniquad_input};
use quarry_map::LoadOptions;
use quarry_movement::{Buttons, UserCmd};
use quarry_net::event::EventKind;
use quarry_net::reliable::ClientMessage;
use quarry_net::snapshot::{EntityKind, PF_DEAD};

use super::controls::{Controls, Handled, Held, M_YAW};
use super::demo::{Demo, DemoReply};
use super::effects::Effects;
use super::sound::{AudioOut, Silent, SoundDirector};
use super::gpu::GpuWorld;
use super::hud::{Hud, HudInput};
use super::script::{PlayScript, Step, is_plain_png};
use super::session::{Intent, Session};
use super::world_mesh::{SKY_COLOUR, WorldMesh};
use super::{PlayError, PlayOptions, write_atomic};
use crate::client::{Client, Status};
use crate::map_store::{MapDownload, MapStore};
use crate::notice::Notice;

/// What a game of `play` came to, printed when it ends.
#[derive(Debug, Clone, Default)]
pub struct PlayReport {
    /// Frames drawn.
    pub frames: usize,
    /// Frame time quantiles, ms: p50, p99.
    pub frame_ms: (f32, f32),
    /// Prediction misses measured, and their p50, p99 and largest (units).
    pub misses: (usize, f32, f32, f32),
    /// Commands predicted through a teleporter or off a jump pad.
    pub triggers: u32,
    /// The predicted origin and the server's at the end.
    pub origins: Option<([f32; 3], [f32; 3])>,
    /// Why the connection ended, if the server ended it.
    pub ended: Option<String>,
    /// How far the server moved the player, units (steps of a teleport or respawn not counted).
    pub travelled: f32,
    /// The snapshot events seen.
    pub events: EventCounts,
    /// Sounds started (heard, or would have been with a sound device).
    pub sounds: u32,
    /// The player asked to quit (`quit`, the window closed, `--duration`
    /// over), not only to leave the game (`disconnect`, or the server ended it).
    pub quit: bool,
}

/// Connects, loads the map, opens the window and plays until the player
/// (or the script) quits or the server ends the game; with
/// [`PlayOptions::demo`], plays the recording instead; with
/// [`PlayOptions::browser`], opens the server list and plays the servers
/// the player picks from it, back to the list after each game.
pub fn run(options: PlayOptions) -> Result<PlayReport, PlayError> {
    let controls = load_controls(options.config.as_deref());
    let script = options.script.as_deref().map(PlayScript::load).transpose()?;
    let mut client_options = options.client.clone();
    if client_options.name.is_empty() {
        client_options.name = controls.settings.name.clone();
    }
    client_options = client_options.confirm_map_changes(false);
    let (start, title) = match (&options.demo, &options.browser) {
        (Some(path), _) => {
            let demo = Demo::open(path, options.follow.as_deref(), &super::with_subfolders(&options.maps))?;
            let map = quarry_map::load_str(demo.map_text(), demo.map_name(), &map_options())?;
            let title = format!("Quarry demo: {} ({})", path.display(), demo.map_name());
            (Start::Game(Box::new(Session::observer(Client::local(&client_options), map)), Box::new(Some(demo))), title)
        }
        (None, Some(_)) => (Start::Browse, "Quarry: servers".to_owned()),
        (None, None) => {
            let mut client = Client::join(client_options.clone())?;
            let store = MapStore::with_user_cache(super::with_subfolders(&options.maps));
            let title = format!("Quarry: {}", client.map().unwrap_or_default());
            let map = fetch_map_blocking(&mut client, &store, &mut |line| println!("{line}"), &AtomicBool::new(false))?;
            (Start::Game(Box::new(Session::new(client, map)), Box::new(None)), title)
        }
    };
    let options = Rc::new(PlayOptions { maps: super::with_subfolders(&options.maps), client: client_options, ..options });
    let conf = macroquad::window::Conf {
        window_title: title,
        window_width: i32::try_from(options.width).unwrap_or(1280),
        window_height: i32::try_from(options.height).unwrap_or(720),
        fullscreen: options.fullscreen,
        window_resizable: true,
        ..Default::default()
    };
    let out: Rc<RefCell<Option<Result<PlayReport, PlayError>>>> = Rc::new(RefCell::new(None));
    let slot = Rc::clone(&out);
    macroquad::Window::from_config(conf, async move {
        let carry = Carry { controls, script, subscriber: register_input_subscriber(), deadline: options.quit_after.map(|d| Instant::now() + d) };
        let result = match start {
            Start::Game(session, demo) => match gpu_for(&session) {
                Ok(gpu) => App::new(*session, gpu, carry, options, *demo).run().await.0,
                Err(e) => Err(e),
            },
            Start::Browse => super::browser::run(carry, options).await,
        };
        *slot.borrow_mut() = Some(result);
    });
    out.take().unwrap_or_else(|| Ok(PlayReport::default()))
}

/// What the window starts with.
enum Start {
    /// A game: a server joined, or a demo.
    Game(Box<Session>, Box<Option<Demo>>),
    /// The server list.
    Browse,
}

/// The bindings and settings from the settings file (defaults where it
/// is missing; its bad lines are warned of and skipped).
fn load_controls(path: Option<&std::path::Path>) -> Controls {
    let mut controls = Controls::default();
    if let Some(path) = path {
        match quarry_files::read_text_file(path, 1 << 20) {
            Ok(text) => {
                for problem in controls.load_config(&text, &path.display().to_string()) {
                    tracing::warn!("{problem}");
                }
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => tracing::warn!("{}: {}; using the default settings", path.display(), e.problem),
        }
    }
    controls
}

/// What outlives one game in the window: the bindings and settings, the
/// script and its clock, the window's input queue and when to stop.
pub(super) struct Carry {
    /// Bindings, held actions and settings.
    pub(super) controls: Controls,
    /// The script, if the window is scripted.
    pub(super) script: Option<PlayScript>,
    /// The window's raw input queue (registered once: a queue nobody
    /// drains would grow for as long as the window is open).
    pub(super) subscriber: usize,
    /// When `--duration` runs out.
    pub(super) deadline: Option<Instant>,
}

/// The session's map on the GPU.
pub(super) fn gpu_for(session: &Session) -> Result<GpuWorld, PlayError> {
    gpu_for_map(session.map())
}

/// A map's faces on the GPU.
fn gpu_for_map(map: &quarry_map::LoadedMap) -> Result<GpuWorld, PlayError> {
    let surfaces = map.surfaces().cloned().unwrap_or_default();
    Ok(GpuWorld::new(WorldMesh::build(&surfaces))?)
}

/// How the play client loads a map: with the surfaces it draws.
fn map_options() -> LoadOptions {
    let mut options = LoadOptions::default();
    options.keep_surfaces = true;
    options
}

/// Finds the server's map on disk or downloads it, telling `progress`
/// how the download goes, then confirms it is loaded; gives up when
/// `cancel` is set.
pub(super) fn fetch_map_blocking(
    client: &mut Client,
    store: &MapStore,
    progress: &mut dyn FnMut(String),
    cancel: &AtomicBool,
) -> Result<quarry_map::LoadedMap, PlayError> {
    client.fetch_map(store)?;
    let mut shown = Instant::now();
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(PlayError::MapFetch("cancelled".to_owned()));
        }
        client.wait(Duration::from_millis(20));
        match client.map_download() {
            Some(MapDownload::Ready(file)) => {
                let map = file.load(&map_options())?;
                client.confirm_map_loaded()?;
                return Ok(map);
            }
            Some(MapDownload::Failed(e)) => return Err(PlayError::MapFetch(e.to_string())),
            Some(MapDownload::Fetching { map, received, total }) => {
                if shown.elapsed() >= Duration::from_millis(500) {
                    shown = Instant::now();
                    let total = total.map_or_else(|| "?".to_owned(), |t| t.to_string());
                    progress(format!("downloading {map}: {received} of {total} bytes"));
                }
            }
            None => return Err(PlayError::MapFetch("the server named no map".to_owned())),
        }
        if let Status::Disconnected(reason) = client.status() {
            return Err(PlayError::MapFetch(format!("disconnected while getting the map: {reason}")));
        }
    }
}

/// What is being typed.
#[derive(Debug, Clone, PartialEq)]
enum Typing {
    Chat(String),
    TeamChat(String),
    Console(String),
}

/// Raw mouse motion, summed between frames.
#[derive(Default)]
struct MouseMotion {
    dx: f32,
    dy: f32,
}

impl macroquad::miniquad::EventHandler for MouseMotion {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn raw_mouse_motion(&mut self, dx: f32, dy: f32) {
        if dx.is_finite() && dy.is_finite() {
            self.dx += dx;
            self.dy += dy;
        }
    }
}

/// One game in the window: a server joined, or a demo.
pub(super) struct App {
    session: Session,
    gpu: GpuWorld,
    controls: Controls,
    hud: Hud,
    script: Option<PlayScript>,
    options: Rc<PlayOptions>,
    typing: Option<Typing>,
    aim: bool,
    /// Scripts: walk towards the nearest player while nobody is in sight.
    hunt: bool,
    /// Hunting now (nobody in sight).
    hunting: bool,
    want_weapon: u8,
    grabbed: bool,
    mouse: MouseMotion,
    subscriber: usize,
    joined: Instant,
    last_frame: Option<Instant>,
    frame_ms: Vec<f32>,
    shots: Vec<String>,
    quit: bool,
    /// Leave the game, back to the server list.
    leave: bool,
    /// When `--duration` runs out.
    deadline: Option<Instant>,
    ended: Option<String>,
    hurt: Option<Instant>,
    last_health: Option<i32>,
    last_stats: Instant,
    fullscreen: bool,
    /// A map change is being loaded.
    loading: bool,
    /// The weapon held and its ammo in the newest snapshot.
    last_ammo: Option<(u8, i32)>,
    /// When the last shot was seen.
    fired: Option<Instant>,
    /// The recording played instead of a server (`--demo`).
    demo: Option<Demo>,
    /// Flying free in a demo: where the camera is and where it looks.
    free_camera: Option<(Vec3, [f32; 2])>,
    /// Where the last frame was drawn from (a free camera starts there).
    last_view: (Vec3, [f32; 2]),
    /// Beams, flashes, the hit marker and hurt marks showing now.
    effects: Effects,
    /// Snapshot events seen, for the report.
    events_seen: EventCounts,
    /// The snapshot count the effects last saw.
    effects_snapshot: u64,
    /// What is heard, and where it goes.
    sounds: SoundDirector,
    audio: Box<dyn AudioOut>,
}

/// Snapshot events seen in a game, by kind (for `--stats` and tests).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventCounts {
    /// Sounds.
    pub sounds: u32,
    /// Hitscan paths.
    pub shots: u32,
    /// Hits the player dealt.
    pub hits: u32,
    /// Hurts the player took.
    pub hurts: u32,
}

impl App {
    pub(super) fn new(session: Session, gpu: GpuWorld, carry: Carry, options: Rc<PlayOptions>, demo: Option<Demo>) -> Self {
        let now = Instant::now();
        let fullscreen = options.fullscreen;
        App {
            session,
            gpu,
            controls: carry.controls,
            hud: Hud::default(),
            script: carry.script,
            options,
            typing: None,
            aim: false,
            hunt: false,
            hunting: false,
            want_weapon: 0,
            grabbed: false,
            mouse: MouseMotion::default(),
            subscriber: carry.subscriber,
            joined: now,
            last_frame: None,
            frame_ms: Vec::new(),
            shots: Vec::new(),
            quit: false,
            leave: false,
            deadline: carry.deadline,
            ended: None,
            hurt: None,
            last_health: None,
            last_stats: now,
            fullscreen,
            loading: false,
            last_ammo: None,
            fired: None,
            demo,
            free_camera: None,
            last_view: (Vec3::ZERO, [0.0; 2]),
            effects: Effects::default(),
            events_seen: EventCounts::default(),
            effects_snapshot: 0,
            sounds: SoundDirector::default(),
            audio: open_audio(),
        }
    }

    /// Plays until the player quits or leaves, or the server ends the
    /// game; gives back what outlives the game with the report.
    pub(super) async fn run(mut self) -> (Result<PlayReport, PlayError>, Carry) {
        // The script's clock starts with the first game, and runs on after it.
        if let Some(script) = self.script.as_mut() {
            script.resume(Instant::now());
        }
        let played = self.frames().await;
        self.session.client_mut().disconnect();
        if self.grabbed {
            self.grab(false);
        }
        self.controls.release_all();
        let result = played.and_then(|()| self.report());
        let App { controls, script, subscriber, deadline, .. } = self;
        (result, Carry { controls, script, subscriber, deadline })
    }

    async fn frames(&mut self) -> Result<(), PlayError> {
        let min_frame = Duration::from_secs_f32(1.0 / self.options.max_fps.clamp(10.0, 1000.0));
        loop {
            // Pace here, after the last frame was shown: the renderer draws
            // what a frame asked for only when it is shown (`next_frame`),
            // so sleeping before that would idle it for nothing.
            if let Some(since) = self.last_frame.map(|last| last.elapsed())
                && since < min_frame
            {
                std::thread::sleep(min_frame - since);
            }
            let now = Instant::now();
            if let Some(last) = self.last_frame {
                self.frame_ms.push(now.saturating_duration_since(last).as_secs_f32() * 1000.0);
            }
            self.last_frame = Some(now);
            self.read_input();
            self.run_script(now);
            if self.deadline.is_some_and(|d| now >= d) || macroquad::input::is_quit_requested() {
                self.quit = true;
            }
            if self.quit || self.leave {
                return Ok(());
            }
            if self.aim {
                self.aim_at_nearest(now);
            }
            self.play_demo(now)?;
            let intent = self.intent();
            if let Err(e) = self.session.frame(now, intent)
                && self.session.client().is_connected()
            {
                return Err(e.into());
            }
            self.take_notices(now);
            self.take_events(now);
            if self.loading {
                self.load_changed_map()?;
            }
            if let Status::Disconnected(reason) = self.session.client().status() {
                self.ended = Some(reason.to_string());
                return Ok(());
            }
            self.apply_window_settings();
            self.draw(now);
            self.save_screenshots()?;
            self.print_stats(now);
            next_frame().await;
        }
    }

    /// The game's figures (and the settings saved).
    fn report(&mut self) -> Result<PlayReport, PlayError> {
        if let Some(path) = self.options.config.clone() {
            write_atomic(&path, self.controls.to_config().as_bytes())?;
        }
        if let Some(path) = &self.options.frame_times {
            let text: String = self.frame_ms.iter().map(|ms| format!("{ms:.3}\n")).collect();
            write_atomic(path, text.as_bytes())?;
        }
        let mut sorted = self.frame_ms.clone();
        sorted.sort_by(f32::total_cmp);
        let q = |v: &[f32], p: f64| v.get(((v.len().max(1) - 1) as f64 * p).round() as usize).copied().unwrap_or(0.0);
        let f = &self.session.figures;
        let largest = f.misses.iter().copied().fold(0.0, f32::max);
        let origins = match (self.session.predicted(), self.session.last_player()) {
            (Some(s), Some(p)) => Some((s.origin.to_array(), p.origin)),
            _ => None,
        };
        Ok(PlayReport {
            frames: self.frame_ms.len(),
            frame_ms: (q(&sorted, 0.5), q(&sorted, 0.99)),
            misses: (f.misses.len(), f.quantile(0.5), f.quantile(0.99), largest),
            triggers: f.triggers,
            origins,
            ended: self.ended.take(),
            travelled: self.session.travelled(),
            events: self.events_seen,
            sounds: self.sounds.started(),
            quit: self.quit,
        })
    }

    /// Keys, buttons, wheel, typed characters and mouse motion.
    fn read_input(&mut self) {
        repeat_all_miniquad_input(&mut self.mouse, self.subscriber);
        let (dx, dy) = (std::mem::take(&mut self.mouse.dx), std::mem::take(&mut self.mouse.dy));
        let scripted = self.script.is_some();
        if self.typing.is_some() {
            self.read_typing();
            return;
        }
        if !scripted && self.grabbed {
            let s = &self.controls.settings;
            let (dyaw, dpitch) = (-dx * M_YAW * s.sensitivity, dy * s.m_pitch * s.sensitivity);
            match self.free_camera.as_mut() {
                Some((_, angles)) => *angles = turned(*angles, dyaw, dpitch),
                None => self.session.turn(dyaw, dpitch),
            }
        }
        if !scripted && is_mouse_button_pressed(MouseButton::Left) && !self.grabbed {
            self.grab(true);
            return;
        }
        let mut lines = Vec::new();
        for k in get_keys_pressed() {
            if k == KeyCode::Escape {
                self.grab(false);
                continue;
            }
            let name = super::keys::key_name(k);
            if let Some(line) = name.as_deref().and_then(|n| self.demo_key(n)) {
                lines.push(line.to_owned());
                continue;
            }
            if let Some(line) = name.and_then(|n| self.controls.key(&n, true)) {
                lines.push(line);
            }
        }
        for k in get_keys_released() {
            if let Some(line) = super::keys::key_name(k).and_then(|n| self.controls.key(&n, false)) {
                lines.push(line);
            }
        }
        for b in [MouseButton::Left, MouseButton::Right, MouseButton::Middle] {
            let name = super::keys::mouse_name(b);
            if is_mouse_button_pressed(b) && self.grabbed {
                match self.demo_key(name) {
                    Some(line) => lines.push(line.to_owned()),
                    None => lines.extend(self.controls.key(name, true)),
                }
            }
            if is_mouse_button_released(b) {
                lines.extend(self.controls.key(name, false));
            }
        }
        let (_, wheel) = mouse_wheel();
        if wheel != 0.0 {
            let key = if wheel > 0.0 { "mwheelup" } else { "mwheeldown" };
            lines.extend(self.controls.key(key, true));
        }
        while get_char_pressed().is_some() {}
        for line in lines {
            self.exec(&line);
        }
    }

    fn read_typing(&mut self) {
        let Some(typing) = self.typing.as_mut() else { return };
        let text = match typing {
            Typing::Chat(t) | Typing::TeamChat(t) | Typing::Console(t) => t,
        };
        while let Some(c) = get_char_pressed() {
            if !c.is_control() && text.chars().count() < 200 && c != '`' && c != '~' {
                text.push(c);
            }
        }
        let keys = get_keys_pressed();
        if keys.contains(&KeyCode::Backspace) {
            text.pop();
        }
        if keys.contains(&KeyCode::Escape) || (matches!(typing, Typing::Console(_)) && keys.contains(&KeyCode::GraveAccent)) {
            self.typing = None;
            return;
        }
        if keys.contains(&KeyCode::Enter) || keys.contains(&KeyCode::KpEnter) {
            let done = self.typing.take();
            match done {
                Some(Typing::Chat(t)) if !t.trim().is_empty() => self.exec(&format!("say {t}")),
                Some(Typing::TeamChat(t)) if !t.trim().is_empty() => self.exec(&format!("say_team {t}")),
                Some(Typing::Console(t)) => {
                    self.hud.console_line(&format!("]{t}"));
                    self.exec(&t);
                    self.typing = Some(Typing::Console(String::new()));
                }
                _ => {}
            }
        }
    }

    /// After a map change: once the map is here, load it, put it on the
    /// GPU and tell the server we are ready.
    fn load_changed_map(&mut self) -> Result<(), PlayError> {
        let file = match self.session.client().map_download() {
            Some(MapDownload::Ready(file)) => file.clone(),
            Some(MapDownload::Failed(e)) => return Err(PlayError::MapFetch(e.to_string())),
            Some(MapDownload::Fetching { .. }) => return Ok(()),
            None => return Err(PlayError::MapFetch("the server changed to a map it did not name".to_owned())),
        };
        let map = file.load(&map_options())?;
        self.gpu = gpu_for_map(&map)?;
        self.session.set_map(map);
        self.session.client_mut().confirm_map_loaded()?;
        self.loading = false;
        Ok(())
    }

    fn grab(&mut self, on: bool) {
        if self.script.is_some() {
            return;
        }
        self.grabbed = on;
        set_cursor_grab(on);
        show_mouse(!on);
        if !on {
            self.controls.release_all();
        }
    }

    fn run_script(&mut self, now: Instant) {
        let Some(script) = self.script.as_mut() else { return };
        for step in script.due_now(now) {
            match step {
                Step::Turn(yaw, pitch) => self.session.turn(yaw, pitch),
                Step::Aim(on) => self.aim = on,
                Step::Hunt(on) => {
                    self.aim = on;
                    self.hunt = on;
                    self.hunting = false;
                }
                Step::Screenshot(name) => self.shots.push(name),
                Step::Quit => self.quit = true,
                Step::Command(line) => self.exec(&line),
            }
        }
    }

    /// Runs a command line: several separated by `;`.
    fn exec(&mut self, line: &str) {
        for part in line.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            self.exec_one(part);
        }
    }

    fn exec_one(&mut self, line: &str) {
        if self.controls.hold(line) {
            return;
        }
        let name_before = self.controls.settings.name.clone();
        match self.controls.setting(line) {
            Handled::Local(msg) => {
                if !msg.is_empty() {
                    self.hud.console_line(&msg);
                }
                if self.controls.settings.name != name_before {
                    let info = vec![("name".to_owned(), self.controls.settings.name.clone())];
                    let _ = self.session.client_mut().send(ClientMessage::UserInfo(info));
                }
                return;
            }
            Handled::NotMine => {}
        }
        let (cmd, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(c, r)| (c, r.trim()));
        if let Some(demo) = self.demo.as_mut() {
            match demo.command(&cmd.to_ascii_lowercase(), rest) {
                Ok(DemoReply::Done(reply)) => {
                    if !reply.is_empty() {
                        self.hud.console_line(&reply);
                    }
                    return;
                }
                Ok(DemoReply::NotMine) => {}
                Err(e) => {
                    self.hud.console_line(&format!("{line}: {e}"));
                    return;
                }
            }
        }
        let result = match cmd.to_ascii_lowercase().as_str() {
            "weapon" => {
                match rest.parse::<u8>() {
                    Ok(n) if (1..=8).contains(&n) => self.want_weapon = n,
                    _ => self.hud.console_line("usage: weapon 1-8"),
                }
                Ok(())
            }
            "weapnext" => {
                self.cycle_weapon(1);
                Ok(())
            }
            "weapprev" => {
                self.cycle_weapon(-1);
                Ok(())
            }
            "messagemode" => {
                self.typing = Some(Typing::Chat(String::new()));
                Ok(())
            }
            "messagemode2" => {
                self.typing = Some(Typing::TeamChat(String::new()));
                Ok(())
            }
            "toggleconsole" => {
                self.controls.release_all();
                self.typing = Some(Typing::Console(String::new()));
                Ok(())
            }
            "screenshot" => {
                let name = if rest.is_empty() { format!("shot-{}.png", self.frame_ms.len()) } else { rest.to_owned() };
                if is_plain_png(&name) {
                    self.shots.push(name);
                } else {
                    self.hud.console_line("usage: screenshot [NAME.png]");
                }
                Ok(())
            }
            "quit" => {
                self.quit = true;
                Ok(())
            }
            // Back to the server list when the window has one; else out.
            "disconnect" => {
                match self.options.browser {
                    Some(_) => self.leave = true,
                    None => self.quit = true,
                }
                Ok(())
            }
            "say" => self.session.client_mut().say(rest),
            "say_team" => self.session.client_mut().say_team(rest),
            _ => self.session.client_mut().command(line),
        };
        if let Err(e) = result {
            self.hud.console_line(&format!("{line}: {e}"));
        }
    }

    fn cycle_weapon(&mut self, step: i32) {
        let Some(p) = self.session.player() else { return };
        let current = i32::from(if self.want_weapon == 0 { p.weapon } else { self.want_weapon });
        for k in 1..=8 {
            let n = (current - 1 + step * k).rem_euclid(8) + 1;
            if p.weapons & (1 << n) != 0 {
                self.want_weapon = n as u8;
                return;
            }
        }
    }

    fn intent(&self) -> Intent {
        if matches!(self.typing, Some(Typing::Console(_))) {
            return Intent::default();
        }
        let c = &self.controls;
        let axis = |plus: Held, minus: Held| -> i8 {
            match (c.is_held(plus), c.is_held(minus)) {
                (true, false) => 127,
                (false, true) => -127,
                _ => 0,
            }
        };
        let mut buttons = Buttons::default();
        for (held, button) in [
            (Held::Attack, Buttons::ATTACK),
            (Held::Jump, Buttons::JUMP),
            (Held::Crouch, Buttons::CROUCH),
            (Held::Walk, Buttons::WALK),
            (Held::Use, Buttons::USE),
            (Held::Drop, Buttons::DROP),
        ] {
            if c.is_held(held) {
                buttons = buttons.with(button);
            }
        }
        let cmd = UserCmd {
            forward: if self.hunting { 127 } else { axis(Held::Forward, Held::Back) },
            right: axis(Held::MoveRight, Held::MoveLeft),
            up: axis(Held::Jump, Held::Crouch),
            buttons,
            weapon: self.want_weapon,
            ..UserCmd::default()
        };
        Intent { cmd }
    }

    /// Points the view at the nearest other living player in sight; when
    /// hunting and nobody is, at the nearest one, level (scripts only).
    fn aim_at_nearest(&mut self, now: Instant) {
        let eye = self.session.eye(now);
        let own = self.session.client().welcome().map(|w| u32::from(w.slot));
        let others: Vec<Vec3> = self
            .session
            .entities(now, self.controls.settings.cl_interp)
            .into_iter()
            .filter(|d| d.view.kind == EntityKind::Player && Some(d.view.state.aux) != own && d.view.state.flags & 1 == 0)
            .map(|d| d.origin + Vec3::Z * 10.0)
            .collect();
        let nearest = |points: &mut dyn Iterator<Item = Vec3>| points.min_by(|a, b| a.distance(eye).total_cmp(&b.distance(eye)));
        let in_sight = nearest(&mut others.iter().copied().filter(|p| self.visible(eye, *p)));
        self.hunting = self.hunt && in_sight.is_none();
        let target = in_sight.or_else(|| if self.hunt { nearest(&mut others.iter().map(|p| Vec3::new(p.x, p.y, eye.z))) } else { None });
        if let Some(t) = target {
            let d = t - eye;
            let yaw = d.y.atan2(d.x).to_degrees();
            let pitch = -(d.z.atan2(d.truncate().length())).to_degrees();
            self.session.look_at(pitch, yaw);
        }
    }

    fn take_events(&mut self, now: Instant) {
        let applied = self.session.client().view().snapshots_applied();
        if applied != self.effects_snapshot {
            self.effects_snapshot = applied;
            let projectiles = self
                .session
                .client()
                .view()
                .entities()
                .filter(|e| e.kind == EntityKind::Projectile)
                .map(|e| (e.id, Vec3::from(e.origin), e.state.weapon))
                .collect();
            self.effects.projectiles(projectiles, now);
            let own = self.session.client().welcome().map(|w| u32::from(w.slot));
            self.sounds.entities(self.session.client().view().entities(), own, now);
            let alive = self.session.player().filter(|p| p.flags & (PF_DEAD | quarry_net::snapshot::PF_SPECTATOR) == 0);
            self.sounds.own_state(alive.map(|p| (Vec3::from(p.origin), Vec3::from(p.velocity))));
        }
        let events = self.session.client_mut().take_events();
        self.sounds.events(&events);
        for e in &events {
            let n = &mut self.events_seen;
            match e.kind {
                EventKind::Sound => n.sounds += 1,
                EventKind::Shot => n.shots += 1,
                EventKind::Hit => n.hits += 1,
                EventKind::Hurt => n.hurts += 1,
            }
        }
        self.effects.take(&events, now);
    }

    fn take_notices(&mut self, now: Instant) {
        for n in self.session.client_mut().take_notices() {
            match n {
                Notice::Chat(line) => self.hud.chat(now, format!("{}: {}", line.name, line.text)),
                Notice::Print(text) => self.hud.print(now, &text),
                Notice::Mode { changes, .. } => {
                    for c in changes {
                        self.hud.centre(now, c);
                    }
                }
                Notice::Console(text) => {
                    for l in text.lines() {
                        self.hud.console_line(l);
                    }
                }
                Notice::MapChange { map } => {
                    self.hud.centre(now, format!("Map: {map}"));
                    let store = MapStore::with_user_cache(self.options.maps.clone());
                    if let Err(e) = self.session.client_mut().fetch_map(&store) {
                        self.hud.console_line(&format!("cannot get the map {map}: {e}"));
                    }
                    self.loading = true;
                }
                Notice::Disconnected(reason) => self.hud.console_line(&format!("disconnected: {reason}")),
                Notice::Welcomed(_) | Notice::Scoreboard(_) | Notice::ConfigString { .. } => {}
            }
        }
        // A shot is when the ammo of the weapon held goes down: the server's
        // word, so a flash never shows for a shot that did not happen.
        let ammo = self.session.player().map(|p| (p.weapon, p.ammo.get(usize::from(p.weapon)).copied().unwrap_or(0)));
        if let (Some((w0, a0)), Some((w1, a1))) = (self.last_ammo, ammo)
            && w0 == w1
            && a1 < a0
        {
            self.fired = Some(now);
            self.sounds.own_shot(w1);
        }
        self.last_ammo = ammo;
        let health = self.session.player().map(|p| p.health);
        // Health over 100 counts down by one a second: that is not a hurt.
        if let (Some(before), Some(now_health)) = (self.last_health, health)
            && now_health < before
            && (before <= 100 || before - now_health > 1)
        {
            self.hurt = Some(now);
        }
        self.last_health = health;
    }

    fn apply_window_settings(&mut self) {
        if self.controls.settings.vid_fullscreen != self.fullscreen {
            self.fullscreen = self.controls.settings.vid_fullscreen;
            set_fullscreen(self.fullscreen);
        }
    }

    fn draw(&mut self, now: Instant) {
        GpuWorld::clear(SKY_COLOUR);
        if self.loading {
            let line = match self.session.client().map_download() {
                Some(MapDownload::Fetching { map, received, total: Some(total) }) => format!("Downloading {map}: {} of {} kB", received / 1024, total / 1024),
                _ => "Loading the map…".to_owned(),
            };
            macroquad::prelude::draw_text(&line, 40.0, screen_height() / 2.0, 32.0, macroquad::prelude::WHITE);
            return;
        }
        let (eye, [pitch, yaw]) = self.viewpoint(now);
        self.last_view = (eye, [pitch, yaw]);
        let camera = super::scene::camera(eye, pitch, yaw, self.controls.settings.fov);
        set_camera(&camera);
        let gpu_eye = super::scene::eye_of(&camera, eye);
        let drawn = self.session.entities(now, self.controls.settings.cl_interp);
        let movers: Vec<(u32, [f32; 3])> =
            drawn.iter().filter(|d| d.view.kind == EntityKind::Mover).map(|d| (d.view.state.aux, d.origin.to_array())).collect();
        self.gpu.grid = self.controls.settings.r_grid;
        self.gpu.draw_opaque(gpu_eye, |e| movers.iter().find(|(id, _)| *id == e.0).map(|(_, o)| *o));
        let items: Vec<String> = self
            .session
            .client()
            .config_strings()
            .get(&quarry_net::handshake::CS_ITEM_MODELS)
            .map(|s| s.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        let slot = self.session.client().welcome().map(|w| w.slot);
        let time = now.saturating_duration_since(self.joined).as_secs_f32();
        super::scene::draw_entities(&drawn, &items, slot, time);
        self.effects.draw_world(now);
        let firing: Vec<(Vec3, Vec3, u8)> = drawn
            .iter()
            .filter(|d| d.view.kind == EntityKind::Player && d.view.state.flags & super::effects::EF_FIRING != 0 && Some(d.view.state.aux) != slot.map(u32::from))
            .map(|d| (d.origin + Vec3::Z * 26.0, super::scene::forward(d.view.angles[0], d.view.angles[1]), d.view.state.weapon))
            .collect();
        let world = self.session.map().world();
        self.effects.draw_firing(&firing, |from, to| {
            let tr = world.trace(from, to, Vec3::ZERO, Vec3::ZERO, quarry_map::Contents::SOLID);
            tr.end
        });
        self.gpu.draw_translucent(gpu_eye);
        set_default_camera();
        let (w, h) = (screen_width(), screen_height());
        let names = self.player_names(&drawn, &gpu_eye.view_proj, eye, w, h);
        let typing = match &self.typing {
            Some(Typing::Chat(t)) => Some(("say: ", t.as_str())),
            Some(Typing::TeamChat(t)) => Some(("say_team: ", t.as_str())),
            Some(Typing::Console(t)) => Some(("]", t.as_str())),
            None => None,
        };
        let hurt = self.hurt.map(|t| now.saturating_duration_since(t).as_secs_f32()).filter(|s| *s < 0.4);
        let client = self.session.client();
        let input = HudInput {
            player: client.view().player(),
            slot,
            scoreboard: client.scoreboard(),
            mode: client.mode(),
            scores: self.controls.is_held(Held::Scores),
            typing,
            console: matches!(self.typing, Some(Typing::Console(_))),
            net: self.controls.settings.net_graph.then(|| self.net_lines()),
            damage: hurt.map(|s| 1.0 - s / 0.4),
            names,
        };
        let alive = self.session.player().is_some_and(|p| p.flags & (PF_DEAD | quarry_net::snapshot::PF_SPECTATOR) == 0);
        if alive {
            let flash = self.fired.is_some_and(|t| now.saturating_duration_since(t) < Duration::from_millis(60));
            super::hud::draw_weapon(w, h, self.session.player().map_or(0, |p| p.weapon), flash);
        }
        // The death view tints the world, not the HUD: the scoreboard and
        // the lines over it stay readable while waiting to respawn.
        if self.session.player().is_some_and(|p| p.flags & PF_DEAD != 0) {
            macroquad::prelude::draw_rectangle(0.0, 0.0, w, h, Color::new(0.4, 0.0, 0.0, 0.25));
        }
        self.hud.draw(now, &input);
        self.effects.draw_screen(now, eye, yaw, w, h);
        self.sounds.play(self.audio.as_mut(), eye, yaw, now, self.controls.settings.s_volume);
        if let Some(demo) = &self.demo {
            let line = demo.status_line();
            let size = macroquad::prelude::measure_text(&line, None, 24, 1.0);
            macroquad::prelude::draw_text(&line, (w - size.width) / 2.0, 28.0, 24.0, Color::new(1.0, 0.85, 0.3, 1.0));
        }
    }

    fn player_names(&self, drawn: &[super::session::Drawn], view_proj: &[f32; 16], eye: Vec3, w: f32, h: f32) -> Vec<(f32, f32, String)> {
        let own = self.session.client().welcome().map(|w| u32::from(w.slot));
        let Some(board) = self.session.client().scoreboard() else { return Vec::new() };
        drawn
            .iter()
            .filter(|d| d.view.kind == EntityKind::Player && Some(d.view.state.aux) != own && d.view.state.flags & 1 == 0)
            .filter(|d| d.origin.distance(eye) < 1_500.0)
            .filter(|d| self.visible(eye, d.origin + Vec3::Z * 20.0))
            .filter_map(|d| {
                let name = board.rows.iter().find(|r| u32::from(r.slot) == d.view.state.aux)?.name.clone();
                let (x, y) = super::scene::to_screen(view_proj, d.origin + Vec3::Z * 44.0, w, h)?;
                Some((x, y, name))
            })
            .collect()
    }

    fn visible(&self, from: Vec3, to: Vec3) -> bool {
        let tr = self.session.map().world().trace(from, to, Vec3::ZERO, Vec3::ZERO, quarry_map::Contents::SOLID);
        tr.fraction >= 1.0
    }

    fn net_lines(&self) -> Vec<String> {
        let s = self.session.client().stats();
        let ping = s.ping.map_or_else(|| "-".to_owned(), |p| format!("{} ms", p.as_millis()));
        let f = &self.session.figures;
        vec![
            format!("ping {ping}   snapshots {}/s", s.snapshots_per_s),
            format!("loss in {:.1}%   path {:.1}%", s.loss_in * 100.0, s.path_loss * 100.0),
            format!("wire in {} B/s   out {} B/s", s.wire_in_per_s, s.wire_out_per_s),
            format!("payload in {} B/s   out {} B/s", s.bytes_in_per_s, s.bytes_out_per_s),
            format!("prediction miss {:.2} (p99 of the last 512 {:.2}) units", f.last(), f.recent_quantile(0.99, 512)),
            format!("frame {:.1} ms", self.frame_ms.last().copied().unwrap_or(0.0)),
        ]
    }

    fn print_stats(&mut self, now: Instant) {
        if !self.options.stats || now.saturating_duration_since(self.last_stats) < Duration::from_secs(1) {
            return;
        }
        self.last_stats = now;
        println!("{}", self.net_lines().join(" | "));
    }

    fn save_screenshots(&mut self) -> Result<(), PlayError> {
        if self.shots.is_empty() {
            return Ok(());
        }
        let (png, width, height) = super::screenshot::capture();
        let camera = self.camera_note(width, height);
        for name in std::mem::take(&mut self.shots) {
            let path = self.options.screenshots.join(&name);
            write_atomic(&path, &png)?;
            write_atomic(&path.with_extension("camera"), camera.as_bytes())?;
            self.hud.console_line(&format!("wrote {}", path.display()));
        }
        Ok(())
    }
}

/// How fast the free camera flies, units per second.
const FREE_CAMERA_SPEED: f32 = 480.0;

impl App {
    /// A demo's frame: the ticks due are played and handed to the
    /// session, whose clock is pinned to the playback's; the free camera
    /// flies by the movement keys.
    fn play_demo(&mut self, now: Instant) -> Result<(), PlayError> {
        let Some(demo) = self.demo.as_mut() else { return Ok(()) };
        let events = demo.advance(now)?;
        if demo.take_restarted() {
            self.session.restart();
        }
        let free = demo.is_free();
        let shown = demo.shown_tick();
        self.session.client_mut().deliver(events);
        self.session.pin_clock(shown);
        let dt = self.frame_ms.last().copied().unwrap_or(0.0).clamp(0.0, 100.0) / 1000.0;
        match (free, self.free_camera.is_some()) {
            (true, false) => self.free_camera = Some(self.last_view),
            (false, true) => self.free_camera = None,
            _ => {}
        }
        if let Some((origin, [pitch, yaw])) = self.free_camera.as_mut() {
            let c = &self.controls;
            let axis = |plus: Held, minus: Held| f32::from(i8::from(c.is_held(plus)) - i8::from(c.is_held(minus)));
            let (sp, cp) = pitch.to_radians().sin_cos();
            let (sy, cy) = yaw.to_radians().sin_cos();
            let forward = Vec3::new(cp * cy, cp * sy, -sp);
            let right = Vec3::new(sy, -cy, 0.0);
            let wish = forward * axis(Held::Forward, Held::Back) + right * axis(Held::MoveRight, Held::MoveLeft) + Vec3::Z * axis(Held::Jump, Held::Crouch);
            *origin += wish.normalize_or_zero() * FREE_CAMERA_SPEED * dt;
        }
        Ok(())
    }

    /// The demo's own keys, before the bindings: pause, speed, seek, and
    /// whom to watch.
    fn demo_key(&self, key: &str) -> Option<&'static str> {
        self.demo.as_ref()?;
        Some(match key {
            "p" | "pause" => "demo_pause",
            "[" => "demo_speed slower",
            "]" => "demo_speed faster",
            "leftarrow" => "demo_seek -10",
            "rightarrow" => "demo_seek +10",
            "home" => "demo_seek 0",
            "mouse1" => "follow next",
            "mouse2" => "follow prev",
            "f" => "follow free",
            _ => return None,
        })
    }

    /// Where the view is drawn from and where it looks: the free camera's,
    /// else the own (or watched) player's eye.
    fn viewpoint(&self, now: Instant) -> (Vec3, [f32; 2]) {
        match self.free_camera {
            Some((origin, angles)) => (origin, angles),
            None => (self.session.eye(now), self.session.view_angles()),
        }
    }

    /// Where the camera was for a screenshot, so a test can check the
    /// picture against the map: `key value…` lines.
    fn camera_note(&self, width: u16, height: u16) -> String {
        let (eye, [pitch, yaw]) = self.viewpoint(Instant::now());
        let own = self.session.player();
        let demo = self.demo.as_ref().map(|d| d.note(self.session.shown_tick(Instant::now()))).unwrap_or_default();
        format!(
            "eye {} {} {}\npitch {}\nyaw {}\nfov {}\nsize {width} {height}\nscores {}\nhealth {}\n{demo}",
            eye.x,
            eye.y,
            eye.z,
            pitch,
            yaw,
            self.controls.settings.fov,
            u8::from(self.controls.is_held(Held::Scores)),
            own.map_or(0, |p| p.health),
        )
    }
}

/// The sound device (the `audio` feature); without one, or without the
/// feature, one line says so and nothing is heard.
fn open_audio() -> Box<dyn AudioOut> {
    #[cfg(feature = "audio")]
    match super::speakers::Speakers::open() {
        Ok(s) => return Box::new(s),
        Err(e) => println!("no sound: {e}"),
    }
    #[cfg(not(feature = "audio"))]
    println!("no sound: this quarry-client was built without the `audio` feature");
    Box::new(Silent::default())
}

/// `angles` (pitch, yaw) turned by the mouse, pitch held within ±89.
fn turned([pitch, yaw]: [f32; 2], dyaw: f32, dpitch: f32) -> [f32; 2] {
    if !(dyaw.is_finite() && dpitch.is_finite()) {
        return [pitch, yaw];
    }
    let max = quarry_movement::MAX_PITCH;
    [(pitch + dpitch).clamp(-max, max), (yaw + dyaw).rem_euclid(360.0)]
}
