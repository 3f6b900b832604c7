//! Remote administration's rules: the admins file and its keys, which
//! commands a role may run, and the audit log (one JSON line per sign-in,
//! refusal and command, in `sv_adminAuditLog` and the operator log). The
//! server runs the requests (`crate::rcon`).

use std::io::Write;
use std::path::{Path, PathBuf};

use quarry_console::{Console, CvarDef, CvarError, CvarFlags, CvarId, CvarSet};
use quarry_net::service::{AdminKey, AdminKeys, AdminRequest, Role};


/// The admins file in the config folder.
pub const ADMINS_FILE: &str = "admins";

/// Handles to the admin cvars.
#[derive(Debug, Clone, Copy)]
pub struct AdminCvars {
    pub(crate) operator_commands: CvarId,
    pub(crate) audit_log: CvarId,
}

impl AdminCvars {
    /// Registers them.
    pub fn register<C: 'static>(console: &mut Console<C>) -> Result<Self, CvarError> {
        let a = CvarFlags::ARCHIVE;
        Ok(Self {
            operator_commands: console.register_cvar(
                CvarDef::string("sv_adminOperatorCommands", "status serverinfo kick map map_restart addbot removebot botlist say tell mute unmute forceteam lock unlock maplist nextmap", "console commands an admin with the operator role may run remotely (admins run any)").flags(a),
            )?,
            audit_log: console.register_cvar(CvarDef::string("sv_adminAuditLog", "admin_audit.log", "file (in the config folder unless a path) where every admin sign-in, refusal and command is appended as a JSON line; empty = the operator log only").flags(a))?,
        })
    }
}

/// Loads the admins file from `config_dir`, if there is one. An admins
/// file that cannot be read, or names a key that cannot be, is an error:
/// the server stops rather than run with remote admin silently off.
pub fn load_admins(config_dir: &Path) -> Result<Option<AdminKeys>, String> {
    let path = config_dir.join(ADMINS_FILE);
    if !path.exists() {
        return Ok(None);
    }
    let keys = AdminKeys::load(&path).map_err(|e| format!("remote admin: {e}; refusing to start without the admins' keys (fix or remove {})", path.display()))?;
    tracing::info!("remote admin: {} admin(s) from {}", keys.len(), path.display());
    for name in keys.names() {
        if let Some(warning) = key_file_exposed(&quarry_net::service::auth::key_path(config_dir, name)) {
            tracing::warn!("{warning}");
        }
    }
    Ok(Some(keys))
}

/// A warning when the key file at `path` can be read by users other than
/// its owner (anyone who reads it can sign in as that admin).
fn key_file_exposed(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then(|| format!("admin key file {} is readable by other users (mode {mode:03o}): anyone who reads it signs in as that admin; chmod 600 it", path.display()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// `new-admin NAME --role ROLE`: makes a key file (mode 0600) in
/// `config_dir` and adds the admin to the admins file (written whole and
/// renamed into place). Returns the key file's path.
pub fn new_admin(config_dir: &Path, name: &str, role: &str) -> Result<PathBuf, String> {
    if !quarry_net::service::auth::valid_name(name) {
        return Err(format!("'{name}' is not an admin name: 1-32 letters, digits, - _ ."));
    }
    let role = Role::parse(role).ok_or_else(|| format!("role '{role}': expected admin or operator"))?;
    let list = config_dir.join(ADMINS_FILE);
    let mut text = if list.exists() { std::fs::read_to_string(&list).map_err(|e| format!("{}: {e}", list.display()))? } else { "# Remote admins: NAME ROLE (admin: every command; operator: sv_adminOperatorCommands).\n# Keys: admin-NAME.key beside this file (quarry-server new-admin NAME --role ROLE).\n".to_owned() };
    if text.lines().any(|l| l.split_whitespace().next() == Some(name)) {
        return Err(format!("{name} is in {} already", list.display()));
    }
    let key_path = quarry_net::service::auth::key_path(config_dir, name);
    AdminKey::generate(name).and_then(|k| k.write(&key_path)).map_err(|e| e.to_string())?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("{name} {}\n", role.name()));
    let tmp = config_dir.join(format!("{ADMINS_FILE}.tmp"));
    std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &list)).map_err(|e| format!("{}: {e}", list.display()))?;
    Ok(key_path)
}

/// Whether `role` may run `line`; the refusal says why.
pub(crate) fn permitted(role: Role, line: &str, operator_commands: &str) -> Result<(), String> {
    if role == Role::Admin {
        return Ok(());
    }
    if line.contains([';', '\n', '\r']) {
        return Err("the operator role runs one command per line (no ';')".into());
    }
    let word = line.split_whitespace().next().unwrap_or("");
    if operator_commands.split_whitespace().any(|c| c.eq_ignore_ascii_case(word)) {
        Ok(())
    } else {
        Err(format!("'{word}' is not allowed for the operator role (allowed: {operator_commands})"))
    }
}

/// One audit record as a JSON line (secret cvar values hidden in the
/// command, as in the game log).
fn audit_line(r: &AdminRequest, event: &str, command: Option<&str>, result: &str, detail: &str, cvars: &CvarSet) -> String {
    let unix_ms = crate::utc::now_ms();
    serde_json::json!({
        "ts": crate::utc::rfc3339_utc(unix_ms),
        "session": r.session,
        "admin": r.name,
        "role": r.role.map(Role::name),
        "from": r.addr.to_string(),
        "event": event,
        "command": command.map(|c| crate::game_log::redact_secrets(cvars, c)),
        "result": result,
        "detail": detail,
    })
    .to_string()
}

/// What became of an admin's request.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Outcome<'a> {
    /// `signin`, `command` or `closed`.
    pub(crate) what: &'static str,
    /// The command line, for `command`.
    pub(crate) command: Option<&'a str>,
    /// `ok`, `refused` or `error`.
    pub(crate) result: &'static str,
    /// Why it was refused or failed.
    pub(crate) detail: &'a str,
}

/// Writes one admin event: the audit file named by `sv_adminAuditLog`,
/// the operator log, and the game log.
pub(crate) fn audit(log: &mut crate::game_log::GameLog, ids: AdminCvars, config_dir: &Path, cvars: &CvarSet, r: &AdminRequest, outcome: Outcome<'_>) {
    let Outcome { what, command, result, detail } = outcome;
    let line = audit_line(r, what, command, result, detail, cvars);
    tracing::info!(target: "quarry_admin", "{line}");
    let from = r.addr.to_string();
    log.rcon(cvars, crate::game_log::RconEvent { admin: &r.name, role: r.role.map(Role::name), from: &from, what, command, result, detail });
    let name = cvars.string(ids.audit_log);
    if name.is_empty() {
        return;
    }
    let path = if Path::new(&name).is_absolute() { PathBuf::from(&name) } else { config_dir.join(&name) };
    let written = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
    if let Err(e) = written {
        tracing::warn!("sv_adminAuditLog {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_limit_what_runs() {
        let ops = "status kick";
        assert!(permitted(Role::Admin, "exec other.cfg; quit", ops).is_ok());
        assert!(permitted(Role::Operator, "kick Wren", ops).is_ok());
        assert!(permitted(Role::Operator, "KICK Wren", ops).is_ok());
        let e = permitted(Role::Operator, "quit", ops).expect_err("not listed");
        assert!(e.contains("'quit'") && e.contains("operator"), "{e}");
        assert!(permitted(Role::Operator, "status; quit", ops).is_err(), "one command per line");
    }

    #[test]
    #[cfg(unix)]
    fn a_key_file_others_can_read_is_warned_of() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let key = new_admin(dir.path(), "ops", "admin").expect("new admin");
        assert_eq!(key_file_exposed(&key), None, "made private");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let warning = key_file_exposed(&key).expect("a warning");
        assert!(warning.contains("mode 644") && warning.contains("chmod 600"), "{warning}");
    }

    #[test]
    fn new_admins_get_a_private_key_and_a_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = new_admin(dir.path(), "ops", "operator").expect("new");
        assert!(key.exists());
        assert!(new_admin(dir.path(), "ops", "admin").is_err(), "once per name");
        assert!(new_admin(dir.path(), "x y", "admin").is_err());
        assert!(new_admin(dir.path(), "root", "boss").is_err());
        new_admin(dir.path(), "root", "admin").expect("second");
        let keys = AdminKeys::load(&dir.path().join(ADMINS_FILE)).expect("load");
        assert_eq!(keys.len(), 2);
    }
}
