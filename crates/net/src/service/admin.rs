//! An admin session: sign-in by proof of key (see `auth.rs`), with
//! lockout by address, then console commands and completions carried to
//! the tick thread through a bounded queue and their output carried back.
//!
//! The session, in messages on one stream the client opens:
//! `Hello{name}` → `Challenge{nonce}` → `Proof{hmac}` → `Welcome{name,
//! role}` or `Refused`; then
//! any number of `Command{line}` → `Output{lines, ok}` and
//! `Complete{line}` → `Completions{lines}`.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use tracing::warn;

use super::auth::{EXPORTER_LABEL, Role, random32};
use super::wire::{AdminReplyMsg, AdminRequestMsg, frame, read_frame};
use super::Services;

/// Admin sessions signed in at once at most.
pub const MAX_ADMIN_SESSIONS: usize = 8;
/// Sign-ins in progress from one address (an IPv4 address or an IPv6 /64)
/// at once at most.
pub const MAX_PENDING_SIGNINS: usize = 2;
/// How long a signing-in client has for each step (its Hello, its Proof).
pub const SIGNIN_STEP: Duration = Duration::from_secs(2);
/// A signed-in session with no command for this long is closed.
pub const ADMIN_IDLE: Duration = Duration::from_secs(30 * 60);
/// How long a command may wait for the tick thread.
const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

/// What an admin session asks of the tick thread.
#[derive(Debug)]
pub enum AdminRequestKind {
    /// Run this console line (the role is checked by the server).
    Command(String),
    /// Complete this partial line.
    Complete(String),
    /// For the audit log: an admin signed in.
    SignedIn,
    /// For the audit log: a sign-in was refused (why).
    Refused(String),
    /// For the audit log: the session ended.
    Closed,
}

/// A request from an admin session, for the tick thread.
#[derive(Debug)]
pub struct AdminRequest {
    /// The session (one per connection, never reused).
    pub session: u64,
    /// The admin's name as given (not signed in for `Refused`).
    pub name: String,
    /// Its role once signed in.
    pub role: Option<Role>,
    /// Where it connects from.
    pub addr: SocketAddr,
    /// What it asks.
    pub kind: AdminRequestKind,
    reply: Option<oneshot::Sender<AdminReplyMsg>>,
}

impl AdminRequest {
    /// Answers a `Command` (its output) or `Complete` (its completions).
    pub fn reply(&mut self, msg: AdminReplyMsg) {
        if let Some(tx) = self.reply.take() {
            let _ = tx.send(msg);
        }
    }
}

/// Sends `msg` on `send`.
async fn put(send: &mut quinn::SendStream, msg: &AdminReplyMsg) -> Option<()> {
    send.write_all(&frame(&msg.encode())).await.ok()
}

/// The next request message, within `wait`.
async fn next(recv: &mut quinn::RecvStream, wait: Duration) -> Result<Option<AdminRequestMsg>, String> {
    match tokio::time::timeout(wait, read_frame(recv)).await {
        Err(_) => Err("timed out".into()),
        Ok(Err(e)) => Err(e),
        Ok(Ok(None)) => Ok(None),
        Ok(Ok(Some(body))) => AdminRequestMsg::decode(&body).map(Some).map_err(|e| format!("a bad message: {e}")),
    }
}

/// One admin connection, start to end. `ticket` is its place among the
/// endpoint's connections, marked joined once an admin signs in.
pub(crate) async fn session(services: &Services, conn: quinn::Connection, ticket: crate::transport::admission::Ticket) {
    let addr = conn.remote_address();
    let addr = SocketAddr::new(addr.ip().to_canonical(), addr.port());
    let session = services.next_session.fetch_add(1, Ordering::Relaxed);
    let audit = |name: &str, role: Option<Role>, kind: AdminRequestKind| {
        // Audit lines wait in the same queue; a full queue drops them (the
        // tracing line below still says it).
        let _ = services.requests.try_send(AdminRequest { session, name: name.to_owned(), role, addr, kind, reply: None });
    };
    // Signing in is short and bounded per address, so connections that
    // never finish it cannot keep a real admin out.
    let Some(signing_in) = services.pending_signin(addr.ip()) else {
        services.counters.admin_busy.fetch_add(1, Ordering::Relaxed);
        let reason = format!("{MAX_PENDING_SIGNINS} sign-ins already in progress from {}", crate::transport::address_group(addr.ip()));
        warn!(%addr, "admin sign-in refused: {reason}");
        audit("", None, AdminRequestKind::Refused(reason));
        return conn.close(ADMIN_BUSY.into(), b"too many sign-ins in progress from this address");
    };
    let Ok(Ok((mut send, mut recv))) = tokio::time::timeout(SIGNIN_STEP, conn.accept_bi()).await else { return };
    let name = match next(&mut recv, SIGNIN_STEP).await {
        Ok(Some(AdminRequestMsg::Hello { name })) => name,
        _ => return conn.close(ADMIN_REFUSED.into(), b"expected Hello"),
    };
    let refuse = |reason: String| {
        audit(&name, None, AdminRequestKind::Refused(reason.clone()));
        AdminReplyMsg::Refused { reason }
    };
    let ip = addr.ip();
    let Ok(nonce) = random32() else { return conn.close(ADMIN_REFUSED.into(), b"no randomness") };
    let mut exported = [0u8; 32];
    if conn.export_keying_material(&mut exported, EXPORTER_LABEL, &nonce).is_err() {
        return conn.close(ADMIN_REFUSED.into(), b"no keying material");
    }
    if put(&mut send, &AdminReplyMsg::Challenge { nonce }).await.is_none() {
        return;
    }
    let proof = match next(&mut recv, SIGNIN_STEP).await {
        Ok(Some(AdminRequestMsg::Proof { proof })) => proof,
        _ => return conn.close(ADMIN_REFUSED.into(), b"expected Proof"),
    };
    // An address locked out after failures still has its proof checked: a
    // proof is an HMAC under a 256-bit key, which no number of tries
    // guesses, so the lockout guards the log, not the key, and must not
    // shut out the real admin behind the same address (NAT, a bastion).
    let locked = services.lockout.lock().ok().and_then(|l| l.wait(ip, Instant::now()));
    let admins = services.admins.borrow().clone();
    let Some(role) = admins.verify(&name, &nonce, &exported, &proof) else {
        services.counters.admin_failures.fetch_add(1, Ordering::Relaxed);
        let mut reason = "wrong key or unknown admin".to_owned();
        if let Some(wait) = locked {
            services.counters.admin_locked_out.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut l) = services.lockout.lock() {
                l.note_refused();
            }
            reason = format!("too many failed sign-ins from {ip}: try again in {} s", wait.as_secs().max(1));
        } else if let Some(wait) = services.lockout.lock().ok().and_then(|mut l| l.fail(ip, Instant::now())) {
            warn!(%ip, "admin sign-in: {ip} locked out for {} s after repeated failures", wait.as_secs());
            reason.push_str(&format!("; {ip} is locked out for {} s", wait.as_secs().max(1)));
        }
        let _ = put(&mut send, &refuse(reason)).await;
        let _ = send.finish();
        let _ = tokio::time::timeout(Duration::from_secs(1), conn.closed()).await;
        return;
    };
    // Sessions are counted once signed in: only admins hold them.
    // Held for the session's life.
    let Ok(_session_permit) = services.sessions.try_acquire() else {
        services.counters.admin_busy.fetch_add(1, Ordering::Relaxed);
        let _ = put(&mut send, &refuse(format!("{MAX_ADMIN_SESSIONS} admin sessions are open; try again later"))).await;
        let _ = send.finish();
        let _ = tokio::time::timeout(Duration::from_secs(1), conn.closed()).await;
        return;
    };
    drop(signing_in);
    ticket.mark_joined();
    if let Ok(mut l) = services.lockout.lock() {
        l.succeed(ip);
    }
    services.counters.admin_signins.fetch_add(1, Ordering::Relaxed);
    audit(&name, Some(role), AdminRequestKind::SignedIn);
    if put(&mut send, &AdminReplyMsg::Welcome { name: name.clone(), role: role.name().to_owned() }).await.is_none() {
        return;
    }
    loop {
        let kind = match next(&mut recv, ADMIN_IDLE).await {
            Ok(Some(AdminRequestMsg::Command { line })) => AdminRequestKind::Command(line),
            Ok(Some(AdminRequestMsg::Complete { line })) => AdminRequestKind::Complete(line),
            Ok(Some(_)) | Ok(None) | Err(_) => break,
        };
        let (tx, rx) = oneshot::channel();
        let request = AdminRequest { session, name: name.clone(), role: Some(role), addr, kind, reply: Some(tx) };
        let answer = match services.requests.try_send(request) {
            Ok(()) => match tokio::time::timeout(REPLY_TIMEOUT, rx).await {
                Ok(Ok(msg)) => msg,
                _ => AdminReplyMsg::Output { lines: vec!["the server did not answer in time".into()], ok: false },
            },
            Err(_) => AdminReplyMsg::Output { lines: vec!["the server is busy; try again".into()], ok: false },
        };
        if put(&mut send, &answer).await.is_none() {
            break;
        }
    }
    audit(&name, Some(role), AdminRequestKind::Closed);
}

/// The close code of a refused sign-in.
pub const ADMIN_REFUSED: u32 = 0x41;
/// The close code when too many admin sessions are open, or sign-ins in
/// progress from one address.
pub const ADMIN_BUSY: u32 = 0x42;
