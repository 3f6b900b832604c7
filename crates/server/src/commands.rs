//! The server's console commands: `status` and `quit`.

use quarry_console::{CommandDef, Console, ConsoleError};

use crate::server::ServerState;

/// Registers the server's commands.
pub(crate) fn register(console: &mut Console<ServerState>) -> Result<(), quarry_console::CvarError> {
    console.register_command(CommandDef::new(
        "status",
        "status",
        "show uptime, tick rate and tick time (mean, p99, max)",
        status,
    ))?;
    console.register_command(CommandDef::new(
        "quit",
        "quit [REASON]",
        "stop the server gracefully: finish the tick, write archived cvars, exit 0",
        |state: &mut ServerState, console: &mut Console<ServerState>, args: &[String]| {
            let reason = if args.is_empty() { "quit".to_owned() } else { args.join(" ") };
            console.print(format!("shutting down: {reason}"));
            state.request_quit(reason);
            Ok(())
        },
    ))?;
    Ok(())
}

fn status(state: &mut ServerState, console: &mut Console<ServerState>, _: &[String]) -> Result<(), ConsoleError> {
    let cvars = console.cvars();
    let ids = state.cvars;
    let summary = state.stats.summary();
    let up = state.started.elapsed().as_secs();
    let lines = vec![
        format!("hostname: {}", cvars.string(ids.sv_hostname)),
        format!("version : {}", cvars.string(ids.version)),
        format!("uptime  : {}h {:02}m {:02}s", up / 3600, up / 60 % 60, up % 60),
        format!(
            "tick    : {} Hz target, {:.2} Hz measured{}, {} ticks, {} late",
            cvars.int(ids.sv_fps),
            summary.rate_hz,
            if state.fast { " (--fast: no sleeping)" } else { "" },
            summary.total_ticks,
            summary.late_ticks
        ),
        format!(
            "tick time: mean {:.4} ms, p99 {:.4} ms, max {:.4} ms (last {} ticks)",
            summary.mean_ms,
            summary.p99_ms,
            summary.max_ms,
            summary.total_ticks.min(crate::tick_stats::WINDOW as u64)
        ),
        format!("map     : {}", state.map_description()),
    ];
    for l in lines {
        console.print(l);
    }
    Ok(())
}
