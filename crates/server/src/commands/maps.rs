//! `maplist` and `nextmap`: the map pool of the current game type
//! ([`crate::map_pool`]).

use quarry_console::{CommandDef, Console};

use super::err;
use crate::map_pool::MapPool;
use crate::state::ServerState;

/// Registers `maplist` and `nextmap`.
pub(super) fn register(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "maplist",
        "maplist",
        "list the map pool's maps for the current game type (sv_mapPoolFile)",
        |state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]| {
            let (pool, gametype) = pool_and_gametype(state, console, "maplist")?;
            let current = state.game.map_path.as_deref().and_then(|p| p.file_stem()).map(|s| s.to_string_lossy().to_lowercase());
            let maps: Vec<String> = pool.maps_for(gametype).into_iter().map(str::to_owned).collect();
            console.print(format!("map pool for {}: {} maps", gametype.name(), maps.len()));
            for m in maps {
                let here = std::path::Path::new(&m).file_stem().map(|s| s.to_string_lossy().to_lowercase()) == current;
                console.print(format!("  {m}{}", if here { " (current)" } else { "" }));
            }
            Ok(())
        },
    ))?;
    console.register_command(CommandDef::new(
        "nextmap",
        "nextmap",
        "load the map after the current one in the pool for the current game type (sv_mapPoolFile), or in sv_mapRotation without a pool",
        |state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]| {
            let next = next_map(state, console).ok_or_else(|| err("nextmap", "no next map: the pool has no maps for this game type and sv_mapRotation is empty"))?;
            let hz = state.cvars.tick_rate(console.cvars());
            let line = state.game.change_map(console.cvars_mut(), &next, hz).map_err(|e| err("nextmap", e.to_string()))?;
            console.print(line);
            Ok(())
        },
    ))?;
    Ok(())
}

/// The pool and the running match's game type, or why not.
fn pool_and_gametype(state: &ServerState, console: &mut Console<ServerState>, command: &str) -> Result<(MapPool, quarry_sim::rules::GameType), quarry_console::ConsoleError> {
    let gametype = state.game.running.as_ref().map(|g| g.rules().gametype).ok_or_else(|| err(command, "no map is loaded"))?;
    let file = console.cvars().string(state.cvars.sv_map_pool_file);
    let (pool, problems) = crate::map_pool::pool_from(&file, console.config_dir()).ok_or_else(|| err(command, "no map pool (set sv_mapPoolFile to a file of map|gametype lines)"))?;
    for p in problems {
        console.print(format!("warning: {p}"));
    }
    Ok((pool, gametype))
}

/// The map a match's end or `nextmap` loads: the pool's next for the game
/// type when the pool has any, else the rotation's; `None` for neither.
/// The pool's problems are printed.
pub(crate) fn next_map(state: &ServerState, console: &mut Console<ServerState>) -> Option<String> {
    let file = console.cvars().string(state.cvars.sv_map_pool_file);
    let current = state.game.map_path.as_deref();
    if let (Some(game), Some((pool, problems))) = (state.game.running.as_ref(), crate::map_pool::pool_from(&file, console.config_dir())) {
        for p in problems {
            console.print(format!("warning: {p}"));
        }
        if let Some(next) = pool.next_after(game.rules().gametype, current) {
            return Some(next);
        }
    }
    let rotation = console.cvars().string(state.cvars.sv_map_rotation);
    crate::game::next_in_rotation(&rotation, current)
}
