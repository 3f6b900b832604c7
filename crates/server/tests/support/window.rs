//! `quarry-client play` under Xvfb and Mesa's software renderer, for the
//! window tests: running it with a script, reading its screenshots and
//! their camera notes, and checking a picture against the map.
//!
//! Needs `xvfb-run` and the `quarry-client` binary beside the test's
//! (`cargo test --workspace` builds it). Without them a test says so and
//! passes, unless `QUARRY_REQUIRE_DISPLAY=1` (set by `.ci/run`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use glam::Vec3;
use quarry_map::Contents;

/// The sky colour the client clears to and draws sky faces in (linear 0..1).
pub(crate) const SKY: [f32; 3] = [0.42, 0.52, 0.68];

pub(crate) fn client_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?;
    let bin = dir.join(format!("quarry-client{}", std::env::consts::EXE_SUFFIX));
    bin.is_file().then_some(bin)
}

pub(crate) fn has_xvfb() -> bool {
    Command::new("xvfb-run").arg("--help").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

pub(crate) fn skip_or_fail(why: &str) {
    if std::env::var_os("QUARRY_REQUIRE_DISPLAY").is_some() {
        panic!("{why}");
    }
    eprintln!("skipping the window test: {why}");
}

/// A screenshot's camera note (`key value…` lines).
pub(crate) struct CameraNote {
    pub(crate) eye: Vec3,
    pub(crate) pitch: f32,
    pub(crate) yaw: f32,
    pub(crate) fov: f32,
    pub(crate) size: (u32, u32),
    pub(crate) scores: bool,
}

pub(crate) fn read_note(path: &Path) -> CameraNote {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let field = |key: &str| -> Vec<f32> {
        text.lines()
            .find_map(|l| l.strip_prefix(key).map(|rest| rest.split_whitespace().filter_map(|w| w.parse().ok()).collect()))
            .unwrap_or_else(|| panic!("{key} in {text}"))
    };
    let eye = field("eye ");
    let size = field("size ");
    CameraNote {
        eye: Vec3::new(eye[0], eye[1], eye[2]),
        pitch: field("pitch ")[0],
        yaw: field("yaw ")[0],
        fov: field("fov ")[0],
        size: (size[0] as u32, size[1] as u32),
        scores: field("scores ")[0] != 0.0,
    }
}

pub(crate) struct Image {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) rgba: Vec<u8>,
}

impl Image {
    pub(crate) fn load(path: &Path) -> Image {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("png header");
        let mut rgba = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut rgba).expect("png data");
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
        Image { width: info.width, height: info.height, rgba }
    }

    pub(crate) fn pixel(&self, x: u32, y: u32) -> [f32; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [0, 1, 2].map(|k| f32::from(self.rgba[i + k]) / 255.0)
    }

    pub(crate) fn distinct_colours(&self) -> usize {
        let mut seen: Vec<[u8; 3]> = self.rgba.chunks_exact(4).step_by(97).map(|p| [p[0] >> 3, p[1] >> 3, p[2] >> 3]).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

pub(crate) fn is_sky(c: [f32; 3]) -> bool {
    c.iter().zip(SKY).all(|(a, b)| (a - b).abs() < 0.04)
}

/// The ray through pixel (x, y) of a camera (Quake angles, Hor+ field of view).
pub(crate) fn ray(note: &CameraNote, x: f32, y: f32) -> Vec3 {
    let (sp, cp) = note.pitch.to_radians().sin_cos();
    let (sy, cy) = note.yaw.to_radians().sin_cos();
    let forward = Vec3::new(cp * cy, cp * sy, -sp);
    let right = forward.cross(Vec3::Z).normalize();
    let up = right.cross(forward);
    let (w, h) = (note.size.0 as f32, note.size.1 as f32);
    let tan_v = (note.fov.to_radians() / 2.0).tan() * 3.0 / 4.0;
    let tan_h = tan_v * w / h;
    let nx = 2.0 * x / w - 1.0;
    let ny = 1.0 - 2.0 * y / h;
    (forward + right * nx * tan_h + up * ny * tan_v).normalize()
}

/// Checks the screenshot against the map: pixels whose ray meets a wall
/// or floor within 800 units are not sky. Returns how many were checked.
pub(crate) fn check_geometry(map: &quarry_map::LoadedMap, shot: &Path) -> usize {
    let note = read_note(&shot.with_extension("camera"));
    let image = Image::load(shot);
    assert_eq!((image.width, image.height), note.size, "{}", shot.display());
    assert!(image.distinct_colours() > 12, "{}: the picture is nearly flat", shot.display());
    let mut checked = 0;
    // A grid over the view, clear of the HUD's top bar and bottom panels.
    for gy in 0..6 {
        for gx in 0..9 {
            let x = image.width as f32 * (0.08 + 0.84 * gx as f32 / 8.0);
            let y = 40.0 + (image.height as f32 - 120.0) * gy as f32 / 5.0;
            let dir = ray(&note, x, y);
            let tr = map.world().trace(note.eye, note.eye + dir * 800.0, Vec3::ZERO, Vec3::ZERO, Contents::SOLID);
            if tr.fraction >= 1.0 || tr.start_solid || tr.contents.contains(Contents::SKY) {
                continue;
            }
            let c = image.pixel(x as u32, y as u32);
            assert!(!is_sky(c), "{}: pixel ({x:.0}, {y:.0}) is sky but the ray meets the map {:.0} units away", shot.display(), tr.fraction * 800.0);
            checked += 1;
        }
    }
    checked
}

/// Runs `quarry-client play ARGS` under Xvfb with the repository's maps,
/// `script` and screenshots into `artifacts` (its output saved there as
/// `client.txt`); returns its standard output, failing the test if it failed.
pub(crate) fn play(client: &Path, args: &[&str], root: &Path, script: &Path, artifacts: &Path) -> String {
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(client)
        .arg("play")
        .args(args)
        .arg("--no-config")
        .arg("--maps")
        .arg(root.join("maps"))
        .arg("--script")
        .arg(script)
        .arg("--screenshots")
        .arg(artifacts)
        .env("LIBGL_ALWAYS_SOFTWARE", "true")
        .stdin(Stdio::null())
        .output()
        .expect("run xvfb-run");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    std::fs::write(artifacts.join("client.txt"), format!("{stdout}\n--- stderr\n{stderr}")).expect("client output");
    assert!(output.status.success(), "play {args:?} failed ({}):\n{stdout}\n{stderr}", output.status);
    stdout
}

/// The client binary, when it and Xvfb are here; else says what is
/// missing (and fails under `QUARRY_REQUIRE_DISPLAY`).
pub(crate) fn window_tools() -> Option<PathBuf> {
    let Some(client) = client_binary() else {
        skip_or_fail("no quarry-client binary beside the test (run `cargo test --workspace`)");
        return None;
    };
    if !has_xvfb() {
        skip_or_fail("xvfb-run is not installed (Debian: xvfb, libgl1-mesa-dri)");
        return None;
    }
    Some(client)
}

/// The number that starts the `--stats` line beginning with `prefix`.
pub(crate) fn first_number<T: std::str::FromStr>(stdout: &str, prefix: &str) -> T {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix)?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no '{prefix}' line:\n{stdout}"))
}

