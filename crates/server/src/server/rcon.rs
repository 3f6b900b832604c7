//! The tick's side of remote administration and the server query: admin
//! requests taken from the network each tick, commands run on the console
//! with the admin's role checked (`network::admin`), every event audited;
//! the query's answer built from the match; `adminreload`.

use quarry_console::{Console, CvarError, CvarSet};
use quarry_net::service::wire::AdminReplyMsg;
use quarry_net::service::{AdminKeys, AdminRequestKind, QueryInfo, QueryPlayer, Role};
use quarry_sim::slots::ClientKind;

use crate::network::admin::{ADMINS_FILE, Outcome, audit, permitted};
use super::Server;
use crate::state::ServerState;

/// Registers `adminreload`: the admins file read again without a restart.
pub(crate) fn register(console: &mut Console<ServerState>) -> Result<(), CvarError> {
    console.register_command(quarry_console::CommandDef::new(
        "adminreload",
        "adminreload",
        "read the admins file and its key files again (after quarry-server new-admin, or to remove an admin); open sessions keep their sign-in",
        |state: &mut ServerState, console: &mut Console<ServerState>, _args: &[String]| {
            let Some(net) = state.net.as_ref() else {
                return Err(quarry_console::ConsoleError::Command { command: "adminreload".into(), message: "the server is not listening (a headless match has no remote admin)".into() });
            };
            let dir = console.config_dir().to_owned();
            let path = dir.join(ADMINS_FILE);
            if !path.exists() {
                net.set_admin_keys(AdminKeys::default());
                console.print(format!("no {}: remote admin is off", path.display()));
                return Ok(());
            }
            match AdminKeys::load(&path) {
                Ok(keys) => {
                    console.print(format!("{} admin(s) from {}", keys.len(), path.display()));
                    net.set_admin_keys(keys);
                    Ok(())
                }
                Err(e) => Err(quarry_console::ConsoleError::Command { command: "adminreload".into(), message: format!("{e}; the admins as they were stay") }),
            }
        },
    ))?;
    Ok(())
}

/// The query's answer from the match as it is.
pub(crate) fn query_info(state: &ServerState, cvars: &CvarSet) -> QueryInfo {
    let ids = state.cvars;
    let mut info = QueryInfo {
        hostname: cvars.string(ids.sv_hostname),
        version: crate::cvars::version_string(),
        map: state.game.map_name(),
        password: !cvars.string(ids.sv_password).is_empty(),
        ..QueryInfo::default()
    };
    if let Some(game) = state.game.running.as_ref() {
        let board = game.scoreboard();
        let s = game.settings();
        info.gametype = board.gametype.name().to_owned();
        info.phase = board.phase.name().to_owned();
        info.max_players = u32::try_from(game.slots().max()).unwrap_or(0);
        info.limits = vec![("fraglimit".into(), s.fraglimit.to_string()), ("capturelimit".into(), s.capturelimit.to_string()), ("timelimit".into(), s.timelimit_min.to_string()), ("roundlimit".into(), s.roundlimit.to_string())];
        info.players = board
            .rows
            .iter()
            .map(|r| QueryPlayer {
                name: r.name.clone(),
                score: r.score.frags,
                ping_ms: game.slots().get(r.slot).map_or(0, |s| match s.kind {
                    ClientKind::Remote { latency_ms } => latency_ms.saturating_mul(2),
                    ClientKind::Bot => 0,
                }),
                bot: r.bot,
                team: r.team.name().to_owned(),
            })
            .collect();
    }
    info
}

impl Server {
    /// Takes this tick's admin requests: audits sign-ins, refusals and
    /// session ends, runs commands (the role checked) and completes lines.
    pub(crate) fn serve_admin_requests(&mut self) {
        let Some(net) = self.state.net.as_mut() else { return };
        let requests = net.admin_requests();
        for mut r in requests {
            let ids = self.state.admin;
            let dir = self.config_dir.clone();
            match &r.kind {
                AdminRequestKind::SignedIn => audit(&mut self.state.game.log, ids, &dir, self.console.cvars(), &r, Outcome { what: "signin", command: None, result: "ok", detail: "" }),
                AdminRequestKind::Refused(why) => audit(&mut self.state.game.log, ids, &dir, self.console.cvars(), &r, Outcome { what: "signin", command: None, result: "refused", detail: why }),
                AdminRequestKind::Closed => audit(&mut self.state.game.log, ids, &dir, self.console.cvars(), &r, Outcome { what: "closed", command: None, result: "ok", detail: "" }),
                AdminRequestKind::Complete(line) => {
                    let line = line.clone();
                    let (start, candidates) = self.complete(&line);
                    let head = line.get(..start).unwrap_or("");
                    let lines = candidates.into_iter().map(|c| format!("{head}{c}")).collect();
                    r.reply(AdminReplyMsg::Completions { lines });
                }
                AdminRequestKind::Command(line) => {
                    let line = line.clone();
                    let role = r.role.unwrap_or(Role::Operator);
                    let allowed = self.console.cvars().string(ids.operator_commands);
                    match permitted(role, &line, &allowed) {
                        Err(why) => {
                            audit(&mut self.state.game.log, ids, &dir, self.console.cvars(), &r, Outcome { what: "command", command: Some(&line), result: "refused", detail: &why });
                            r.reply(AdminReplyMsg::Output { lines: vec![format!("refused: {why}")], ok: false });
                        }
                        Ok(()) => {
                            // What was printed before stays for the local console.
                            let before = self.console.drain_output();
                            let origin = format!("admin {}", r.name);
                            let errors = self.console.execute(&mut self.state, &line, &origin);
                            let out = self.console.drain_output();
                            for l in before {
                                self.console.print(l);
                            }
                            self.console.print(format!("[{} from {}] {line}", r.name, r.addr));
                            for l in &out {
                                self.console.print(format!("[{}] {l}", r.name));
                            }
                            let result = if errors.is_empty() { "ok" } else { "error" };
                            let detail = errors.first().map(ToString::to_string).unwrap_or_default();
                            audit(&mut self.state.game.log, ids, &dir, self.console.cvars(), &r, Outcome { what: "command", command: Some(&line), result, detail: &detail });
                            r.reply(AdminReplyMsg::Output { lines: out, ok: errors.is_empty() });
                        }
                    }
                }
            }
        }
    }
}

