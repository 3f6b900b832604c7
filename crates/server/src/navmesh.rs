//! The navmesh tools for operators and mappers: `quarry-server nav-info
//! FILE [--json] [--svg OUT.svg [--hotspots SUMMARY.json]]` (build on a map
//! file without a server; mark where the bots of a headless run got stuck) and
//! the `navmesh info|route|export` console commands over the mesh the bots
//! use. Both pictures show the map's spawn points, items and flags
//! ([`svg_features`]) with a legend and a scale bar. The mesh itself is
//! generated lazily by the bots, on first need: on
//! a live server on a worker thread (a map change never stalls the tick),
//! in headless `--fast` runs on the tick thread (the match stays
//! deterministic). `navmesh build` always rebuilds at once, on the tick thread.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use quarry_console::{CommandDef, Console, ConsoleError};
use quarry_map::entities::items::ItemKind;
use quarry_map::{EntityKind, LoadedMap, SpawnKind, Team};
use quarry_nav::{SvgFeature, SvgFeatureKind, SvgItemKind, SvgOptions, SvgTeam};
use quarry_sim::pmove::MoveParams;

/// What the `navmesh` command reaches of the server.
pub struct NavAccess<'a> {
    /// The bots, whose navigation the mesh is.
    pub bots: &'a mut quarry_bots::BotManager,
    /// The running match, once a map is loaded.
    pub game: Option<&'a quarry_sim::Match>,
}

/// The largest summary `--hotspots` reads.
const MAX_SUMMARY_BYTES: u64 = 64 << 20;

/// What the hotspot marks are, for the picture's legend.
const HOTSPOTS_LABEL: &str = "stuck hotspot (area: seconds)";

/// Why `nav-info` failed.
#[derive(Debug, thiserror::Error)]
pub enum NavInfoError {
    /// The `--hotspots` summary could not be read or has no hotspots.
    #[error("--hotspots {}: {source}", path.display())]
    Hotspots {
        /// The summary file.
        path: PathBuf,
        /// What is wrong with it.
        source: HotspotsError,
    },
    /// The map did not load.
    #[error(transparent)]
    Load(#[from] quarry_map::MapLoadError),
    /// The navmesh could not be built on the map.
    #[error("{}: {source}", path.display())]
    Build {
        /// The map file.
        path: PathBuf,
        /// Why.
        source: quarry_nav::NavError,
    },
    /// The report could not be encoded as JSON.
    #[error("couldn't encode the report: {0}")]
    Encode(#[from] serde_json::Error),
    /// The picture could not be written.
    #[error(transparent)]
    Write(#[from] quarry_console::ArchiveError),
}

/// What is wrong with a `--hotspots` summary.
#[derive(Debug, thiserror::Error)]
pub enum HotspotsError {
    /// It could not be read.
    #[error(transparent)]
    Read(#[from] std::io::Error),
    /// It is larger than 64 MiB.
    #[error("larger than {} MiB", MAX_SUMMARY_BYTES >> 20)]
    TooLarge,
    /// No line of it is a JSON object.
    #[error("no JSON summary (the output of a `--fast --json` run)")]
    NoSummary,
    /// The summary has no `bots.stuck_hotspots` list.
    #[error("the summary has no bots.stuck_hotspots")]
    NoHotspots,
    /// A hotspot lacks its position or its seconds.
    #[error("hotspot {0}: expected pos [x, y, z] and seconds")]
    BadHotspot(usize),
}

/// A team as the picture draws it.
fn svg_team(team: Team) -> SvgTeam {
    match team {
        Team::Red => SvgTeam::Red,
        Team::Blue => SvgTeam::Blue,
        Team::Neutral => SvgTeam::Neutral,
    }
}

/// The picture's category of an item.
fn svg_item(kind: ItemKind) -> SvgItemKind {
    match kind {
        ItemKind::Weapon(_) => SvgItemKind::Weapon,
        ItemKind::Armor(_) => SvgItemKind::Armor,
        ItemKind::Health(_) => SvgItemKind::Health,
        ItemKind::Powerup(_) => SvgItemKind::Powerup,
        ItemKind::Ammo { .. } => SvgItemKind::Ammo,
        ItemKind::Holdable(_) | ItemKind::Key(_) => SvgItemKind::Other,
    }
}

/// The map's spawn points (with their team and facing), items (by
/// category) and flags, for the navmesh picture; each labelled with its
/// class name and position. Entities without an origin are left out.
pub fn svg_features(map: &LoadedMap) -> Vec<SvgFeature> {
    let mut features = Vec::new();
    for e in map.entities() {
        let (kind, note) = match &e.kind {
            EntityKind::PlayerSpawn(spawn) => {
                let team = match spawn.kind {
                    SpawnKind::Team { team, .. } => Some(svg_team(team)),
                    SpawnKind::Deathmatch | SpawnKind::Start => None,
                };
                let yaw = spawn.yaw.is_finite().then_some(spawn.yaw);
                let mut note = yaw.map(|y| format!(", facing {y:.0}°")).unwrap_or_default();
                if !spawn.fits {
                    note.push_str("; the player box does not fit here");
                }
                (SvgFeatureKind::Spawn { team, yaw }, note)
            }
            EntityKind::Item(item) => {
                (SvgFeatureKind::Item(svg_item(item.kind)), if item.suspended { ", suspended".to_owned() } else { String::new() })
            }
            EntityKind::Flag(team) => (SvgFeatureKind::Flag(svg_team(*team)), String::new()),
            _ => continue,
        };
        let Some(pos) = e.origin.filter(|p| p.is_finite()) else { continue };
        let name = if e.classname.is_empty() { "(no classname)" } else { e.classname.as_str() };
        features.push(SvgFeature {
            pos,
            kind,
            label: format!("{name} at ({:.0} {:.0} {:.0}){note}", pos.x, pos.y, pos.z),
        });
    }
    features
}

/// The picture's title: the map file's name without its extension, and
/// the map's own title (worldspawn `message`) if it has one.
pub fn svg_title(map: &LoadedMap) -> String {
    let path = Path::new(map.name());
    let name = path.file_stem().or(path.file_name()).map_or_else(|| map.name().to_owned(), |n| n.to_string_lossy().into_owned());
    match map.world_info().message.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(message) => format!("{name}: {message}"),
        None => name,
    }
}

/// The stuck hotspots of a headless run's `--json` summary (the last JSON
/// line of its output, or a file holding just that object) as marks: a
/// circle whose area grows with the seconds stuck there.
fn read_hotspots(path: &Path) -> Result<Vec<quarry_nav::SvgMark>, HotspotsError> {
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_SUMMARY_BYTES + 1), &mut text)?;
    if text.len() as u64 > MAX_SUMMARY_BYTES {
        return Err(HotspotsError::TooLarge);
    }
    let summary = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok().filter(serde_json::Value::is_object))
        .or_else(|| serde_json::from_str::<serde_json::Value>(&text).ok())
        .ok_or(HotspotsError::NoSummary)?;
    let spots = summary
        .pointer("/bots/stuck_hotspots")
        .and_then(serde_json::Value::as_array)
        .ok_or(HotspotsError::NoHotspots)?;
    let mut marks = Vec::with_capacity(spots.len());
    for (i, h) in spots.iter().enumerate() {
        let num = |v: Option<&serde_json::Value>| v.and_then(serde_json::Value::as_f64);
        let pos = h.get("pos").and_then(serde_json::Value::as_array);
        let (Some(x), Some(y), Some(z), Some(seconds)) = (
            num(pos.and_then(|p| p.first())),
            num(pos.and_then(|p| p.get(1))),
            num(pos.and_then(|p| p.get(2))),
            num(h.get("seconds")),
        ) else {
            return Err(HotspotsError::BadHotspot(i));
        };
        let text = |k: &str| h.get(k).and_then(serde_json::Value::as_str).unwrap_or("-").to_owned();
        marks.push(quarry_nav::SvgMark {
            pos: glam::Vec3::new(x as f32, y as f32, z as f32),
            radius: 12.0 * (seconds.max(0.0) as f32).sqrt().max(1.0),
            label: format!("{seconds:.1} s stuck; goal {}, link {}", text("goal"), text("link")),
        });
    }
    Ok(marks)
}

/// Runs `nav-info`: builds the navmesh of a map file with the default
/// movement parameters and prints its figures, reachability and the ALT
/// versus Euclid comparison; with `svg`, writes its picture with the map's
/// spawn points, items and flags (and the hotspots of `hotspots`).
pub fn run_nav_info(path: &Path, json: bool, svg: Option<&Path>, hotspots: Option<&Path>) -> ExitCode {
    match nav_info(path, json, svg, hotspots) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarry-server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn nav_info(path: &Path, json: bool, svg: Option<&Path>, hotspots: Option<&Path>) -> Result<(), NavInfoError> {
    let marks = hotspots
        .map(|h| read_hotspots(h).map_err(|source| NavInfoError::Hotspots { path: h.to_owned(), source }))
        .transpose()?
        .unwrap_or_default();
    let map = quarry_map::load(path, &quarry_map::LoadOptions::default())?;
    let agent = quarry_bots::navmesh::agent_for(&MoveParams::default());
    let (mesh, report) = quarry_nav::nav_info(&map, &agent, &quarry_nav::BuildOptions::default())
        .map_err(|source| NavInfoError::Build { path: path.to_owned(), source })?;
    let mut out = std::io::stdout().lock();
    if json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report)?);
    } else {
        let _ = write!(out, "{report}");
    }
    if let Some(svg_path) = svg {
        let title = svg_title(&map);
        let features = svg_features(&map);
        let picture = mesh.export_svg_with(&SvgOptions {
            title: Some(&title),
            route: None,
            marks: &marks,
            marks_label: HOTSPOTS_LABEL,
            features: &features,
        });
        quarry_console::write_atomic(svg_path, &picture)?;
        if !json {
            let _ = writeln!(out, "wrote {}", svg_path.display());
        }
    }
    Ok(())
}

fn err(message: impl Into<String>) -> ConsoleError {
    ConsoleError::Command { command: "navmesh".into(), message: message.into() }
}

fn vec3(args: &[String]) -> Option<glam::Vec3> {
    let v: Vec<f32> = args.iter().filter_map(|a| a.parse().ok()).filter(|x: &f32| x.is_finite()).collect();
    (v.len() == 3 && args.len() == 3).then(|| glam::Vec3::new(v[0], v[1], v[2]))
}

/// Registers `navmesh build|info|route|export` and the `nav_heuristic` cvar
/// (read by name when a route is asked for).
/// `access` reaches the bots and the match from the console's context.
pub fn register<C: 'static>(console: &mut Console<C>, access: fn(&mut C) -> NavAccess<'_>) -> Result<(), quarry_console::CvarError> {
    console.register_cvar(quarry_console::CvarDef::enumeration(
        "nav_heuristic",
        "alt",
        &["alt", "euclid"],
        "A* heuristic for navmesh route: alt (landmarks, default) or euclid (scaled straight line), to compare the two",
    ))?;
    console.register_command(
        CommandDef::new(
            "navmesh",
            "navmesh build | info | route X Y Z X Y Z | export FILE.svg",
            "the bots' navigation mesh: rebuild it now (on the tick thread: play pauses for the build), its figures, a test route, or a top-down SVG picture",
            move |host: &mut C, console: &mut Console<C>, args: &[String]| navmesh(access(host), console, args),
        )
        .complete_with(|_, args, partial| {
            if args.is_empty() {
                ["build", "info", "route", "export"].iter().filter(|c| c.starts_with(partial)).map(|c| (*c).to_owned()).collect()
            } else {
                Vec::new()
            }
        }),
    )?;
    Ok(())
}

fn navmesh<C>(state: NavAccess<'_>, console: &mut Console<C>, args: &[String]) -> Result<(), ConsoleError> {
    let usage = || ConsoleError::Usage { usage: "navmesh build | info | route X Y Z X Y Z | export FILE.svg".into() };
    let Some((sub, rest)) = args.split_first() else { return Err(usage()) };
    if sub == "build" {
        let Some(game) = state.game else { return Err(err("no map is loaded")) };
        let cell = state.bots.settings().nav_cell_size;
        let max_nodes = state.bots.settings().nav_max_nodes;
        state.bots.nav_mut().set_max_nodes(max_nodes);
        state.bots.nav_mut().build_now(game, cell).map_err(|e| err(e.to_string()))?;
        console.print(state.bots.nav().describe());
        return Ok(());
    }
    let heuristic: quarry_nav::Heuristic = console
        .cvars()
        .find("nav_heuristic")
        .and_then(|c| c.value().to_string().parse().ok())
        .unwrap_or(quarry_nav::Heuristic::Alt);
    let nav = state.bots.nav();
    let Some(mesh) = nav.mesh() else {
        if nav.is_building() {
            return Err(err(format!("not ready yet: {}", nav.describe())));
        }
        return Err(err("not built yet: it is built when the first bot needs it (addbot)"));
    };
    match sub.as_str() {
        "info" => {
            for line in mesh.info().to_string().lines() {
                console.print(line.to_owned());
            }
            Ok(())
        }
        "route" => {
            let (Some(from), Some(to)) = (rest.get(..3).and_then(vec3), rest.get(3..).and_then(vec3)) else {
                return Err(usage());
            };
            let Some(game) = state.game else { return Err(err("no map is loaded")) };
            let mut scratch = quarry_nav::SearchScratch::new();
            let options = quarry_nav::RouteOptions { heuristic, ..quarry_nav::RouteOptions::default() };
            let route = mesh
                .route(game.map().world(), &mut scratch, from, to, &options)
                .map_err(|e| err(e.to_string()))?;
            console.print(format!(
                "route cost {:.0}, {} corners, {} expansions ({heuristic:?})",
                route.cost,
                route.corners.len(),
                route.expansions
            ));
            for c in &route.corners {
                console.print(format!("  {c:?}"));
            }
            Ok(())
        }
        "export" => {
            let [file] = rest else { return Err(usage()) };
            let loaded = state.game.map(quarry_sim::Match::map);
            let title = loaded.map(svg_title);
            let features = loaded.map(svg_features).unwrap_or_default();
            let picture = mesh.export_svg_with(&SvgOptions { title: title.as_deref(), features: &features, ..SvgOptions::default() });
            quarry_console::write_atomic(Path::new(file), &picture).map_err(|e| err(e.to_string()))?;
            console.print(format!("wrote {file}"));
            Ok(())
        }
        _ => Err(usage()),
    }
}
