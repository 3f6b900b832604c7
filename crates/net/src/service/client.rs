//! The blocking client side of the services: a server query, and an admin
//! session (sign in with a key file, run commands, complete lines).

use std::net::SocketAddr;
use std::time::Duration;

use super::auth::{AdminKey, EXPORTER_LABEL};
use super::wire::{AdminReplyMsg, AdminRequestMsg, frame, read_frame};
use super::{ADMIN_ALPN, QUERY_ALPN, QUERY_LIMITED, QueryInfo};
use crate::cert::ServerVerification;
use crate::transport::TransportSettings;

/// How long a service client waits for each step.
const STEP_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a service call failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The network side could not start.
    #[error("{0}")]
    Setup(String),
    /// Connecting failed (unreachable, certificate mismatch...).
    #[error("connecting to {addr}: {reason}")]
    Connect {
        /// The server.
        addr: SocketAddr,
        /// Why.
        reason: String,
    },
    /// The server's certificate is not the one the fingerprint names.
    #[error(
        "{addr}: the server's certificate does not match the fingerprint given (the server prints its own at startup: \
         \"listening on udp …, certificate fingerprint …\"); it has a new key, or this is another server"
    )]
    CertificateMismatch {
        /// The server.
        addr: SocketAddr,
    },
    /// The server refused (a wrong key, a lockout, the query rate...).
    #[error("refused: {0}")]
    Refused(String),
    /// The exchange broke off or made no sense.
    #[error("{0}")]
    Protocol(String),
}

/// A small runtime and a client endpoint for one service connection.
struct Link {
    rt: tokio::runtime::Runtime,
    endpoint: quinn::Endpoint,
    conn: quinn::Connection,
}

impl Link {
    /// Connects to `addr` from `local` (any local address if `None`).
    fn open(addr: SocketAddr, local: Option<SocketAddr>, verification: ServerVerification, alpn: &[u8]) -> Result<Self, ServiceError> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| ServiceError::Setup(e.to_string()))?;
        let config = crate::transport::quinn_client_config_alpn(verification, &TransportSettings::default(), alpn).map_err(|e| ServiceError::Setup(e.to_string()))?;
        let (endpoint, conn) = rt.block_on(async {
            let any: SocketAddr = if addr.is_ipv4() { ([0, 0, 0, 0], 0).into() } else { (std::net::Ipv6Addr::UNSPECIFIED, 0).into() };
            let bind = local.unwrap_or(any);
            let mut endpoint = quinn::Endpoint::client(bind).map_err(|e| ServiceError::Setup(e.to_string()))?;
            endpoint.set_default_client_config(config);
            let connecting = endpoint.connect(addr, crate::cert::CERT_NAMES[0]).map_err(|e| ServiceError::Connect { addr, reason: e.to_string() })?;
            match tokio::time::timeout(STEP_TIMEOUT, connecting).await {
                Ok(Ok(c)) => Ok((endpoint, c)),
                // The pinning verifier refuses a certificate only for a
                // fingerprint mismatch; rustls calls it an application
                // verification failure.
                Ok(Err(e)) if e.to_string().contains("ApplicationVerificationFailure") => Err(ServiceError::CertificateMismatch { addr }),
                Ok(Err(e)) => Err(ServiceError::Connect { addr, reason: e.to_string() }),
                Err(_) => Err(ServiceError::Connect { addr, reason: "no answer".into() }),
            }
        })?;
        Ok(Self { rt, endpoint, conn })
    }
}

impl Drop for Link {
    /// Closes the connection and lets the endpoint send the close (this
    /// runtime only runs inside `block_on`), so the server frees its place
    /// at once rather than at the idle timeout.
    fn drop(&mut self) {
        self.conn.close(0u32.into(), b"done");
        let endpoint = self.endpoint.clone();
        self.rt.block_on(async move {
            let _ = tokio::time::timeout(Duration::from_millis(300), endpoint.wait_idle()).await;
        });
    }
}

/// Why a connection closed, as a message.
fn closed_reason(e: &quinn::ConnectionError) -> ServiceError {
    match e {
        quinn::ConnectionError::ApplicationClosed(c) if c.error_code == QUERY_LIMITED.into() => ServiceError::Refused(String::from_utf8_lossy(&c.reason).into_owned()),
        quinn::ConnectionError::ApplicationClosed(c) => ServiceError::Refused(String::from_utf8_lossy(&c.reason).into_owned()),
        other => ServiceError::Protocol(other.to_string()),
    }
}

/// Asks `addr` who is playing what.
pub fn query(addr: SocketAddr, verification: ServerVerification) -> Result<QueryInfo, ServiceError> {
    let link = Link::open(addr, None, verification, QUERY_ALPN)?;
    let conn = link.conn.clone();
    let body = link.rt.block_on(async move {
        let step = async {
            let (mut send, mut recv) = conn.open_bi().await.map_err(|e| closed_reason(&e))?;
            send.write_all(&[1]).await.map_err(|e| ServiceError::Protocol(e.to_string()))?;
            let _ = send.finish();
            match read_frame(&mut recv).await {
                Ok(Some(body)) => Ok(body),
                Ok(None) => Err(ServiceError::Protocol("the server sent nothing".into())),
                Err(e) => Err(conn.close_reason().map_or(ServiceError::Protocol(e), |c| closed_reason(&c))),
            }
        };
        tokio::time::timeout(STEP_TIMEOUT, step).await.map_err(|_| ServiceError::Protocol("no answer in time".into()))?
    })?;
    QueryInfo::decode(&body).map_err(|e| ServiceError::Protocol(format!("a bad answer: {e}")))
}

/// A signed-in admin session.
pub struct AdminSession {
    link: Link,
    send: quinn::SendStream,
    recv: quinn::RecvStream,
    /// The admin's name.
    pub name: String,
    /// Its role, as the server says.
    pub role: String,
}

impl std::fmt::Debug for AdminSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminSession").field("name", &self.name).field("role", &self.role).finish_non_exhaustive()
    }
}

impl AdminSession {
    /// Connects to `addr` and signs in with `key`.
    pub fn connect(addr: SocketAddr, verification: ServerVerification, key: &AdminKey) -> Result<Self, ServiceError> {
        let key = key.clone();
        Self::connect_with(addr, verification, &key.name.clone(), move |nonce, exported| key.proof(nonce, exported))
    }

    /// Connects and signs in as `name` with the proof `prove` makes from
    /// the challenge's nonce and the session's exported keying material
    /// (for tools that keep the key elsewhere, and for tests).
    pub fn connect_with(addr: SocketAddr, verification: ServerVerification, name: &str, prove: impl FnOnce(&[u8; 32], &[u8; 32]) -> [u8; 32]) -> Result<Self, ServiceError> {
        Self::connect_from(None, addr, verification, name, prove)
    }

    /// [`AdminSession::connect_with`] from the local address `local` (a
    /// host with several, such as a bastion; any if `None`).
    pub fn connect_from(local: Option<SocketAddr>, addr: SocketAddr, verification: ServerVerification, name: &str, prove: impl FnOnce(&[u8; 32], &[u8; 32]) -> [u8; 32]) -> Result<Self, ServiceError> {
        let link = Link::open(addr, local, verification, ADMIN_ALPN)?;
        let conn = link.conn.clone();
        let name = name.to_owned();
        let hello = name.clone();
        let (send, recv, role) = link.rt.block_on(async move {
            let (mut send, mut recv) = conn.open_bi().await.map_err(|e| closed_reason(&e))?;
            put(&mut send, &AdminRequestMsg::Hello { name: hello }).await?;
            let nonce = match get(&conn, &mut recv).await? {
                AdminReplyMsg::Challenge { nonce } => nonce,
                AdminReplyMsg::Refused { reason } => return Err(ServiceError::Refused(reason)),
                other => return Err(ServiceError::Protocol(format!("expected a challenge, got {other:?}"))),
            };
            let mut exported = [0u8; 32];
            conn.export_keying_material(&mut exported, EXPORTER_LABEL, &nonce).map_err(|_| ServiceError::Protocol("no keying material".into()))?;
            put(&mut send, &AdminRequestMsg::Proof { proof: prove(&nonce, &exported) }).await?;
            match get(&conn, &mut recv).await? {
                AdminReplyMsg::Welcome { role, .. } => Ok((send, recv, role)),
                AdminReplyMsg::Refused { reason } => Err(ServiceError::Refused(reason)),
                other => Err(ServiceError::Protocol(format!("expected a welcome, got {other:?}"))),
            }
        })?;
        Ok(Self { link, send, recv, name, role })
    }

    fn ask(&mut self, msg: AdminRequestMsg) -> Result<AdminReplyMsg, ServiceError> {
        let (send, recv, conn) = (&mut self.send, &mut self.recv, &self.link.conn);
        self.link.rt.block_on(async move {
            put(send, &msg).await?;
            get(conn, recv).await
        })
    }

    /// Runs `line` on the server console: its output, and whether it ran.
    pub fn run(&mut self, line: &str) -> Result<(Vec<String>, bool), ServiceError> {
        match self.ask(AdminRequestMsg::Command { line: line.to_owned() })? {
            AdminReplyMsg::Output { lines, ok } => Ok((lines, ok)),
            other => Err(ServiceError::Protocol(format!("expected output, got {other:?}"))),
        }
    }

    /// The server's completions of a partial line.
    pub fn complete(&mut self, line: &str) -> Result<Vec<String>, ServiceError> {
        match self.ask(AdminRequestMsg::Complete { line: line.to_owned() })? {
            AdminReplyMsg::Completions { lines } => Ok(lines),
            other => Err(ServiceError::Protocol(format!("expected completions, got {other:?}"))),
        }
    }
}

async fn put(send: &mut quinn::SendStream, msg: &AdminRequestMsg) -> Result<(), ServiceError> {
    send.write_all(&frame(&msg.encode())).await.map_err(|e| ServiceError::Protocol(e.to_string()))
}

async fn get(conn: &quinn::Connection, recv: &mut quinn::RecvStream) -> Result<AdminReplyMsg, ServiceError> {
    let body = match tokio::time::timeout(STEP_TIMEOUT, read_frame(recv)).await {
        Err(_) => return Err(ServiceError::Protocol("no answer in time".into())),
        Ok(Ok(Some(body))) => body,
        Ok(Ok(None)) => return Err(conn.close_reason().map_or(ServiceError::Protocol("the server ended the session".into()), |c| closed_reason(&c))),
        Ok(Err(e)) => return Err(conn.close_reason().map_or(ServiceError::Protocol(e), |c| closed_reason(&c))),
    };
    AdminReplyMsg::decode(&body).map_err(|e| ServiceError::Protocol(format!("a bad reply: {e}")))
}
