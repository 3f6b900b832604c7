//! The server's own cvars. Every operator-facing one also appears, with its
//! default and description, in the shipped `config/server.cfg`.

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};

/// Handles to the server's cvars, read live every tick.
#[derive(Debug, Clone, Copy)]
pub struct ServerCvars {
    /// `sv_fps`: ticks per second.
    pub sv_fps: CvarId,
    /// `sv_hostname`: the name players see.
    pub sv_hostname: CvarId,
    /// `net_port`: the UDP port.
    pub net_port: CvarId,
    /// `sv_cheats`: whether cheat-protected cvars may be set.
    pub sv_cheats: CvarId,
    /// `version`: read-only build string.
    pub version: CvarId,
    /// `sv_mapRotation`: maps to cycle through when a match ends.
    pub sv_map_rotation: CvarId,
    /// `sv_mapPoolFile`: the map pool per game type ("" = none).
    pub sv_map_pool_file: CvarId,
    /// `sv_password`: required to join ("" = none).
    pub sv_password: CvarId,
    /// `sv_snapshotRate`: snapshots per second to each client.
    pub sv_snapshot_rate: CvarId,
    /// `sv_allowDownload`: whether clients may download the running map.
    pub sv_allow_download: CvarId,
    /// `sv_downloadRate`: bytes a second to each downloading client.
    pub sv_download_rate: CvarId,
    /// `sv_downloadMaxKB`: the largest compressed map sent, KiB.
    pub sv_download_max_kb: CvarId,
    /// `sv_public`: heartbeat the masters.
    pub sv_public: CvarId,
    /// `sv_master1`..`sv_master5`: the masters.
    pub sv_masters: [CvarId; 5],
    /// `g_allowVote`, `g_voteKinds`, `g_voteTime`, `g_voteCooldown`.
    pub votes: crate::votes::VoteCvars,
}

/// The server's settings as one tick sees them, read once per tick
/// ([`ServerCvars::read`]) as the sim and the bots read theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSettings {
    /// `sv_fps`: ticks per second.
    pub tick_rate: u32,
    /// `sv_snapshotRate`, at most `sv_fps`: snapshots per second to each client.
    pub snapshot_rate: u32,
    /// `sv_hostname`.
    pub hostname: String,
    /// `sv_password` ("" = none).
    pub password: String,
    /// `sv_cheats`.
    pub cheats: bool,
    /// `sv_allowDownload`, `sv_downloadRate`, `sv_downloadMaxKB`.
    pub download: DownloadSettings,
    /// `sv_public` and `sv_master1`..`5`.
    pub listing: quarry_net::transport::MasterSettings,
    /// The vote cvars.
    pub votes: crate::votes::VoteSettings,
}

/// The download cvars as a tick reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DownloadSettings {
    /// `sv_allowDownload`.
    pub allow: bool,
    /// `sv_downloadRate`: bytes a second to each downloading client.
    pub rate: u32,
    /// `sv_downloadMaxKB` in bytes: the largest compressed copy sent.
    pub max_bytes: u64,
}

impl Default for DownloadSettings {
    fn default() -> Self {
        Self { allow: true, rate: 1_000_000, max_bytes: 16 << 20 }
    }
}

/// The version string: crate version and target.
pub fn version_string() -> String {
    format!("quarry-server {} {}-{}", env!("CARGO_PKG_VERSION"), std::env::consts::OS, std::env::consts::ARCH)
}

impl ServerCvars {
    /// Reads the settings a tick runs with.
    pub fn read(&self, cvars: &CvarSet) -> ServerSettings {
        let tick_rate = self.tick_rate(cvars);
        let snapshot_rate = u32::try_from(cvars.int(self.sv_snapshot_rate)).unwrap_or(30).min(tick_rate).max(1);
        let download = DownloadSettings {
            allow: cvars.bool(self.sv_allow_download),
            rate: u32::try_from(cvars.int(self.sv_download_rate)).unwrap_or(1_000_000),
            max_bytes: u64::try_from(cvars.int(self.sv_download_max_kb)).unwrap_or(0).saturating_mul(1024),
        };
        ServerSettings {
            tick_rate,
            snapshot_rate,
            hostname: cvars.string(self.sv_hostname),
            password: cvars.string(self.sv_password),
            cheats: cvars.bool(self.sv_cheats),
            download,
            listing: quarry_net::transport::MasterSettings {
                public: cvars.bool(self.sv_public),
                masters: self.sv_masters.iter().map(|&id| cvars.string(id)).filter(|m| !m.trim().is_empty()).collect(),
            },
            votes: self.votes.read(cvars),
        }
    }

    /// `sv_fps` as a tick rate, Hz: the one place the server reads it (the
    /// clock, the matches, the welcome and the reports all take it here).
    pub fn tick_rate(&self, cvars: &CvarSet) -> u32 {
        u32::try_from(cvars.int(self.sv_fps)).unwrap_or(60)
    }

    /// Whether `sv_fps` changed since `seen` (its modification count, which
    /// is returned for the next call).
    pub fn tick_rate_changed(&self, cvars: &CvarSet, seen: u64) -> Option<u64> {
        let count = cvars.get(self.sv_fps).modification_count();
        (count != seen).then_some(count)
    }

    /// Registers the server's cvars on `console`.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let sv_fps = console.register_cvar(CvarDef::int(
            "sv_fps",
            60,
            10,
            1000,
            "server ticks per second; the simulation, bots and snapshots all run on this clock",
        ).flags(CvarFlags::PLAY))?;
        let sv_hostname = console.register_cvar(
            CvarDef::string("sv_hostname", "Quarry", "the server name shown to players and server browsers")
                .flags(CvarFlags::ARCHIVE | CvarFlags::SERVER_INFO),
        )?;
        let net_port = console.register_cvar(CvarDef::int(
            "net_port",
            27960,
            0,
            65535,
            "UDP port the server listens on (QUIC); read at startup (--port sets it); 0 picks a free port",
        ))?;
        let sv_cheats = console.register_cvar(
            CvarDef::bool("sv_cheats", false, "allow cheat-protected cvars and commands")
                .flags(CvarFlags::SERVER_INFO),
        )?;
        let version = console.register_cvar(
            CvarDef::string("version", &version_string(), "the server's version and platform")
                .flags(CvarFlags::READ_ONLY | CvarFlags::SERVER_INFO),
        )?;
        let sv_map_rotation = console.register_cvar(
            CvarDef::string(
                "sv_mapRotation",
                "q_dm1 q_duel1 q_ctf1",
                "maps (names in the maps dir or paths) played in turn; when a match ends the next one loads; empty = replay the same map",
            )
            .flags(CvarFlags::ARCHIVE),
        )?;
        let sv_map_pool_file = console.register_cvar(
            CvarDef::string(
                "sv_mapPoolFile",
                "",
                "file (in the config folder unless a path) of map|gametype lines: maplist shows the game type's maps, nextmap and a match's end load the next one (over sv_mapRotation); empty = no pool",
            )
            .flags(CvarFlags::ARCHIVE),
        )?;
        let sv_password =
            console.register_cvar(CvarDef::string("sv_password", "", "password players must give to join; empty = none (never printed)").flags(CvarFlags::SECRET))?;
        let sv_snapshot_rate = console.register_cvar(CvarDef::int(
            "sv_snapshotRate",
            30,
            1,
            1000,
            "snapshots per second sent to each client (at most sv_fps)",
        ))?;
        let (sv_allow_download, sv_download_rate, sv_download_max_kb) = register_download(console)?;
        let (sv_public, sv_masters) = register_listing(console)?;
        Ok(Self {
            sv_fps,
            sv_hostname,
            net_port,
            sv_cheats,
            version,
            sv_map_rotation,
            sv_map_pool_file,
            sv_password,
            sv_snapshot_rate,
            sv_allow_download,
            sv_download_rate,
            sv_download_max_kb,
            sv_public,
            sv_masters,
            votes: crate::votes::VoteCvars::register(console)?,
        })
    }
}

/// The master servers' default: dpmaster's public master, which lists
/// DarkPlaces-protocol games by name.
pub const DEFAULT_MASTER: &str = "dpmaster.deathmask.net";

/// Registers `sv_public` and `sv_master1`..`sv_master5` (the heartbeats:
/// `quarry_net::transport`'s `heartbeat.rs`).
fn register_listing<C: 'static>(console: &mut Console<C>) -> Result<(CvarId, [CvarId; 5]), CvarError> {
    let public = console.register_cvar(
        CvarDef::bool(
            "sv_public",
            false,
            "1 = heartbeat the masters (sv_master1..5) every 300 s and when the server empties, fills or gets its first player, so server browsers list it; 0 = unlisted (queries are still answered)",
        )
        .flags(CvarFlags::ARCHIVE),
    )?;
    let mut master = |n: usize, default: &str| {
        console.register_cvar(
            CvarDef::string(
                &format!("sv_master{n}"),
                default,
                "a master server, HOST or HOST:PORT (port 27950 if none), resolved for IPv4 and IPv6 and heartbeated on both when sv_public is 1; empty = none",
            )
            .flags(CvarFlags::ARCHIVE),
        )
    };
    let masters = [master(1, DEFAULT_MASTER)?, master(2, "")?, master(3, "")?, master(4, "")?, master(5, "")?];
    Ok((public, masters))
}

/// Registers the map download cvars (`network/download.rs`).
fn register_download<C: 'static>(console: &mut Console<C>) -> Result<(CvarId, CvarId, CvarId), CvarError> {
    let allow = console.register_cvar(CvarDef::bool(
        "sv_allowDownload",
        true,
        "send the running map to clients that lack it (compressed, paced per client); 0 = refuse, and the client names the map file it needs",
    ))?;
    let rate = console.register_cvar(CvarDef::int(
        "sv_downloadRate",
        1_000_000,
        1_000,
        100_000_000,
        "bytes per second of map download to each client (at most 8 downloads run at once)",
    ))?;
    let max_kb = console.register_cvar(CvarDef::int(
        "sv_downloadMaxKB",
        16_384,
        1,
        1_048_576,
        "largest map sent to a client, compressed, in KiB; a larger one is refused with its size",
    ))?;
    Ok((allow, rate, max_kb))
}
