//! The navmesh tools for operators and mappers: `quarry-server --nav-info
//! FILE [--json] [--svg OUT.svg [--hotspots SUMMARY.json]]` (build on a map
//! file without a server; mark where the bots of a headless run got stuck) and
//! the `navmesh info|route|export` console commands over the mesh the bots
//! use. The mesh itself is generated lazily by the bots, on first need: on
//! a live server on a worker thread (a map change never stalls the tick),
//! in headless `--fast` runs on the tick thread (the match stays
//! deterministic). `navmesh build` always rebuilds at once, on the tick thread.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use quarry_console::{CommandDef, Console, ConsoleError};
use quarry_sim::pmove::MoveParams;

use crate::server::ServerState;

/// The largest summary `--hotspots` reads.
const MAX_SUMMARY_BYTES: u64 = 64 << 20;

/// The stuck hotspots of a headless run's `--json` summary (the last JSON
/// line of its output, or a file holding just that object) as marks: a
/// circle whose area grows with the seconds stuck there.
fn read_hotspots(path: &Path) -> Result<Vec<quarry_nav::SvgMark>, String> {
    let what = |e: &dyn std::fmt::Display| format!("--hotspots {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| what(&e))?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_SUMMARY_BYTES + 1), &mut text).map_err(|e| what(&e))?;
    if text.len() as u64 > MAX_SUMMARY_BYTES {
        return Err(what(&format!("larger than {} MiB", MAX_SUMMARY_BYTES >> 20)));
    }
    let summary = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok().filter(serde_json::Value::is_object))
        .or_else(|| serde_json::from_str::<serde_json::Value>(&text).ok())
        .ok_or_else(|| what(&"no JSON summary (the output of a `--fast --json` run)"))?;
    let spots = summary
        .pointer("/bots/stuck_hotspots")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| what(&"the summary has no bots.stuck_hotspots"))?;
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
            return Err(what(&format!("hotspot {i}: expected pos [x, y, z] and seconds")));
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

/// Runs `--nav-info`: builds the navmesh of a map file with the default
/// movement parameters and prints its figures, reachability and the ALT
/// versus Euclid comparison.
pub fn run_nav_info(path: &Path, json: bool, svg: Option<&Path>, hotspots: Option<&Path>) -> ExitCode {
    let marks = match hotspots.map(read_hotspots).transpose() {
        Ok(m) => m.unwrap_or_default(),
        Err(e) => {
            eprintln!("quarry-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let map = match quarry_map::load(path, &quarry_map::LoadOptions::default()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("quarry-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let agent = quarry_bots::navmesh::agent_for(&MoveParams::default());
    let (mesh, report) = match quarry_nav::nav_info(&map, &agent, &quarry_nav::BuildOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("quarry-server: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(t) => {
                let _ = writeln!(out, "{t}");
            }
            Err(e) => {
                eprintln!("quarry-server: couldn't encode the report: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        let _ = write!(out, "{report}");
    }
    if let Some(svg_path) = svg {
        if let Err(e) = quarry_console::write_atomic(svg_path, &mesh.export_svg_marked(None, &marks)) {
            eprintln!("quarry-server: {e}");
            return ExitCode::FAILURE;
        }
        if !json {
            let _ = writeln!(out, "wrote {}", svg_path.display());
        }
    }
    ExitCode::SUCCESS
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
pub fn register(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
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
            navmesh,
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

fn navmesh(state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]) -> Result<(), ConsoleError> {
    let usage = || ConsoleError::Usage { usage: "navmesh build | info | route X Y Z X Y Z | export FILE.svg".into() };
    let Some((sub, rest)) = args.split_first() else { return Err(usage()) };
    if sub == "build" {
        let Some(game) = state.game.game.as_ref() else { return Err(err("no map is loaded")) };
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
            let Some(game) = state.game.game.as_ref() else { return Err(err("no map is loaded")) };
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
            quarry_console::write_atomic(Path::new(file), &mesh.export_svg(None)).map_err(|e| err(e.to_string()))?;
            console.print(format!("wrote {file}"));
            Ok(())
        }
        _ => Err(usage()),
    }
}
