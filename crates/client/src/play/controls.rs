//! Key bindings, held actions and the client's settings, Quake style.
//!
//! A key runs the command line bound to it: `+name` commands are held
//! while the key is down (`+forward` on press, `-forward` on release),
//! anything else runs once on press. The scripted input of tests sends
//! the same command lines, so a script and a keyboard take one path.
//!
//! Settings (`sensitivity`, `fov`, `name`, `cl_interp`, `m_pitch`,
//! `net_graph`, `r_grid`, `s_volume`) and bindings are saved as command lines to `client.cfg`
//! in the user's config folder and run again at start.

use std::collections::BTreeMap;

/// Actions held while their key is down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Held {
    /// `+forward`
    Forward,
    /// `+back`
    Back,
    /// `+moveleft`
    MoveLeft,
    /// `+moveright`
    MoveRight,
    /// `+jump` (also swims up)
    Jump,
    /// `+crouch` (also swims down)
    Crouch,
    /// `+speed`: walk (quiet, slow)
    Walk,
    /// `+attack`
    Attack,
    /// `+use`
    Use,
    /// `+drop`: drop the flag or the weapon
    Drop,
    /// `+scores`: the scoreboard
    Scores,
}

impl Held {
    const NAMES: [(&'static str, Held); 11] = [
        ("forward", Held::Forward),
        ("back", Held::Back),
        ("moveleft", Held::MoveLeft),
        ("moveright", Held::MoveRight),
        ("jump", Held::Jump),
        ("crouch", Held::Crouch),
        ("speed", Held::Walk),
        ("attack", Held::Attack),
        ("use", Held::Use),
        ("drop", Held::Drop),
        ("scores", Held::Scores),
    ];

    /// The action `+name` / `-name` stands for.
    pub fn named(name: &str) -> Option<Held> {
        Self::NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, h)| *h)
    }
}

/// The default bindings (Quake 3's, with WASD).
pub const DEFAULT_BINDS: &[(&str, &str)] = &[
    ("w", "+forward"),
    ("s", "+back"),
    ("a", "+moveleft"),
    ("d", "+moveright"),
    ("uparrow", "+forward"),
    ("downarrow", "+back"),
    ("space", "+jump"),
    ("c", "+crouch"),
    ("ctrl", "+crouch"),
    ("shift", "+speed"),
    ("mouse1", "+attack"),
    ("e", "+use"),
    ("g", "+drop"),
    ("tab", "+scores"),
    ("t", "messagemode"),
    ("y", "messagemode2"),
    ("`", "toggleconsole"),
    ("~", "toggleconsole"),
    ("1", "weapon 1"),
    ("2", "weapon 2"),
    ("3", "weapon 3"),
    ("4", "weapon 4"),
    ("5", "weapon 5"),
    ("6", "weapon 6"),
    ("7", "weapon 7"),
    ("8", "weapon 8"),
    ("mwheelup", "weapprev"),
    ("mwheeldown", "weapnext"),
    ("f1", "say follow me"),
    ("f2", "say_team drop it"),
    ("f3", "toggle net_graph"),
    ("f11", "toggle vid_fullscreen"),
    ("f12", "screenshot"),
];

/// The client's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Degrees per mouse count are `m_yaw` (0.022) × this (Quake 3's default 5).
    pub sensitivity: f32,
    /// Pitch degrees per count (negative inverts the mouse).
    pub m_pitch: f32,
    /// Horizontal field of view at 4:3, degrees; wider screens see more (Hor+).
    pub fov: f32,
    /// The player's name.
    pub name: String,
    /// How far behind the newest snapshot others are drawn, seconds.
    pub cl_interp: f32,
    /// Show the net graph.
    pub net_graph: bool,
    /// Fullscreen.
    pub vid_fullscreen: bool,
    /// Draw a 64-unit grid on the map's faces (off by default: it doubles the
    /// time a software renderer spends per pixel).
    pub r_grid: bool,
    /// Sound volume, 0 (silent) to 1.
    pub s_volume: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            sensitivity: 5.0,
            m_pitch: 0.022,
            fov: 90.0,
            name: "player".to_owned(),
            cl_interp: 0.067,
            net_graph: false,
            vid_fullscreen: false,
            r_grid: false,
            s_volume: 0.7,
        }
    }
}

/// Degrees of yaw per mouse count at sensitivity 1 (Quake 3's `m_yaw`).
pub const M_YAW: f32 = 0.022;

/// Bindings, held actions and settings.
#[derive(Debug, Clone)]
pub struct Controls {
    binds: BTreeMap<String, String>,
    held: Vec<Held>,
    /// The settings.
    pub settings: Settings,
}

impl Default for Controls {
    fn default() -> Self {
        let binds = DEFAULT_BINDS.iter().map(|(k, c)| ((*k).to_owned(), (*c).to_owned())).collect();
        Controls { binds, held: Vec::new(), settings: Settings::default() }
    }
}

/// What a settings or binding command did.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled {
    /// It was a client setting or binding; this is what to print.
    Local(String),
    /// Not the client's: run it as a game command (`weapon 3`, `say hi`, a server command).
    NotMine,
}

impl Controls {
    /// The command line bound to `key` (Quake key names: `w`, `space`, `mouse1`, …).
    pub fn binding(&self, key: &str) -> Option<&str> {
        self.binds.get(&key.to_ascii_lowercase()).map(String::as_str)
    }

    /// `key` went down or up: the command line to run, if any (`-name`
    /// for a held action's release, nothing for another command's).
    pub fn key(&self, key: &str, down: bool) -> Option<String> {
        let line = self.binding(key)?;
        if down {
            Some(line.to_owned())
        } else {
            line.strip_prefix('+').map(|rest| format!("-{rest}"))
        }
    }

    /// Runs `+name` / `-name`; false when `line` is not one.
    pub fn hold(&mut self, line: &str) -> bool {
        let (down, name) = match line.as_bytes().first() {
            Some(b'+') => (true, &line[1..]),
            Some(b'-') => (false, &line[1..]),
            _ => return false,
        };
        let Some(h) = Held::named(name.trim()) else { return false };
        self.held.retain(|x| *x != h);
        if down {
            self.held.push(h);
        }
        true
    }

    /// Whether `h` is held.
    pub fn is_held(&self, h: Held) -> bool {
        self.held.contains(&h)
    }

    /// Lets go of everything (focus lost, console opened).
    pub fn release_all(&mut self) {
        self.held.clear();
    }

    /// Runs a settings or binding command (`bind`, `unbind`, `sensitivity
    /// 3`, `toggle net_graph`, …); anything else is [`Handled::NotMine`].
    pub fn setting(&mut self, line: &str) -> Handled {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return Handled::Local(String::new()) };
        let rest: Vec<&str> = words.collect();
        let cmd = cmd.to_ascii_lowercase();
        match cmd.as_str() {
            "bind" => match rest.as_slice() {
                [] => Handled::Local("usage: bind KEY [COMMAND…]".to_owned()),
                [key] => Handled::Local(match self.binding(key) {
                    Some(c) => format!("\"{key}\" = \"{c}\""),
                    None => format!("\"{key}\" is not bound"),
                }),
                [key, command @ ..] => {
                    self.binds.insert(key.to_ascii_lowercase(), command.join(" "));
                    Handled::Local(String::new())
                }
            },
            "unbind" => match rest.as_slice() {
                [key] => {
                    self.binds.remove(&key.to_ascii_lowercase());
                    Handled::Local(String::new())
                }
                _ => Handled::Local("usage: unbind KEY".to_owned()),
            },
            "toggle" => match rest.as_slice() {
                [name] => self.toggle(name),
                _ => Handled::Local("usage: toggle net_graph|vid_fullscreen|r_grid".to_owned()),
            },
            "sensitivity" | "m_pitch" | "fov" | "cl_interp" | "name" | "net_graph" | "vid_fullscreen" | "r_grid" | "s_volume" => self.set(&cmd, &rest),
            _ => Handled::NotMine,
        }
    }

    fn toggle(&mut self, name: &str) -> Handled {
        match name.to_ascii_lowercase().as_str() {
            "net_graph" => self.settings.net_graph = !self.settings.net_graph,
            "vid_fullscreen" => self.settings.vid_fullscreen = !self.settings.vid_fullscreen,
            "r_grid" => self.settings.r_grid = !self.settings.r_grid,
            other => return Handled::Local(format!("toggle: {other} is not a client switch (net_graph, vid_fullscreen)")),
        }
        Handled::Local(String::new())
    }

    fn set(&mut self, name: &str, value: &[&str]) -> Handled {
        let s = &mut self.settings;
        if value.is_empty() {
            let now = match name {
                "sensitivity" => s.sensitivity.to_string(),
                "m_pitch" => s.m_pitch.to_string(),
                "fov" => s.fov.to_string(),
                "cl_interp" => s.cl_interp.to_string(),
                "net_graph" => u8::from(s.net_graph).to_string(),
                "vid_fullscreen" => u8::from(s.vid_fullscreen).to_string(),
                "r_grid" => u8::from(s.r_grid).to_string(),
                "s_volume" => s.s_volume.to_string(),
                _ => s.name.clone(),
            };
            return Handled::Local(format!("\"{name}\" is \"{now}\""));
        }
        let text = value.join(" ");
        let number = |lo: f32, hi: f32| -> Result<f32, String> {
            match text.parse::<f32>() {
                Ok(v) if v.is_finite() && (lo..=hi).contains(&v) => Ok(v),
                _ => Err(format!("{name}: \"{text}\" is not a number from {lo} to {hi}")),
            }
        };
        let result = match name {
            "sensitivity" => number(0.01, 100.0).map(|v| s.sensitivity = v),
            "m_pitch" => number(-1.0, 1.0).map(|v| s.m_pitch = v),
            "fov" => number(60.0, 130.0).map(|v| s.fov = v),
            "cl_interp" => number(0.0, 0.5).map(|v| s.cl_interp = v),
            "net_graph" => number(0.0, 1.0).map(|v| s.net_graph = v != 0.0),
            "vid_fullscreen" => number(0.0, 1.0).map(|v| s.vid_fullscreen = v != 0.0),
            "r_grid" => number(0.0, 1.0).map(|v| s.r_grid = v != 0.0),
            "s_volume" => number(0.0, 1.0).map(|v| s.s_volume = v),
            _ => {
                let clean: String = text.chars().filter(|c| !c.is_control()).take(32).collect();
                if clean.trim().is_empty() {
                    Err("name: a name needs a visible character".to_owned())
                } else {
                    s.name = clean.trim().to_owned();
                    Ok(())
                }
            }
        };
        Handled::Local(result.err().unwrap_or_default())
    }

    /// The settings and bindings as command lines, for `client.cfg`.
    pub fn to_config(&self) -> String {
        let s = &self.settings;
        let mut out = String::from("// Quarry client settings, written by quarry-client play\n");
        out.push_str(&format!("name \"{}\"\n", s.name.replace('"', "'")));
        out.push_str(&format!("sensitivity {}\nm_pitch {}\nfov {}\ncl_interp {}\n", s.sensitivity, s.m_pitch, s.fov, s.cl_interp));
        out.push_str(&format!("net_graph {}\nr_grid {}\ns_volume {}\n", u8::from(s.net_graph), u8::from(s.r_grid), s.s_volume));
        for (k, c) in &self.binds {
            out.push_str(&format!("bind {k} {c}\n"));
        }
        out
    }

    /// Runs the lines of a config file; returns a message per line that
    /// was not a client setting or binding, or was refused.
    pub fn load_config(&mut self, text: &str, origin: &str) -> Vec<String> {
        let mut problems = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split("//").next().unwrap_or("").trim().replace('"', "");
            if line.is_empty() {
                continue;
            }
            match self.setting(&line) {
                Handled::Local(msg) if msg.is_empty() || msg.starts_with('"') => {}
                Handled::Local(msg) => problems.push(format!("{origin}:{}: {msg}", i + 1)),
                Handled::NotMine => problems.push(format!("{origin}:{}: \"{line}\" is not a client setting; skipped", i + 1)),
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_actions_follow_their_key() {
        let mut c = Controls::default();
        let down = c.key("W", true).expect("bound");
        assert_eq!(down, "+forward");
        assert!(c.hold(&down));
        assert!(c.is_held(Held::Forward));
        let up = c.key("w", false).expect("release");
        assert_eq!(up, "-forward");
        assert!(c.hold(&up));
        assert!(!c.is_held(Held::Forward));
        // A plain command runs on press only.
        assert_eq!(c.key("3", true).as_deref(), Some("weapon 3"));
        assert_eq!(c.key("3", false), None);
        assert!(!c.hold("weapon 3"));
    }

    #[test]
    fn settings_are_checked_and_survive_the_config_file() {
        let mut c = Controls::default();
        assert_eq!(c.setting("sensitivity 3.5"), Handled::Local(String::new()));
        assert!(matches!(c.setting("fov 500"), Handled::Local(m) if m.contains("from 60 to 130")));
        assert_eq!(c.setting("bind x +jump"), Handled::Local(String::new()));
        assert_eq!(c.setting("name Big Gun"), Handled::Local(String::new()));
        assert_eq!(c.setting("weapon 3"), Handled::NotMine);
        let text = c.to_config();
        let mut back = Controls::default();
        assert!(back.load_config(&text, "client.cfg").is_empty(), "{:?}", back.load_config(&text, "client.cfg"));
        assert_eq!(back.settings, c.settings);
        assert_eq!(back.binding("x"), Some("+jump"));
        let problems = back.load_config("fov abc\nrcon hello\n", "f.cfg");
        assert_eq!(problems.len(), 2);
        assert!(problems[0].starts_with("f.cfg:1:"));
    }
}
