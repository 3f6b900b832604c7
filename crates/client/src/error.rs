//! What can go wrong when connecting and playing.

use std::time::Duration;

use quarry_net::handshake::RejectReason;
use quarry_net::reliable::DisconnectReason;
use quarry_net::transport::TransportError;

/// Why a client did not get into the game.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// `HOST:PORT` did not resolve to an address.
    #[error("cannot resolve {target}: {reason}")]
    Resolve {
        /// What was given.
        target: String,
        /// Why it failed.
        reason: String,
    },
    /// The local endpoint could not start (socket, TLS, runtime).
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The server answered and refused us ("server is full", "wrong password", …).
    #[error("{0}")]
    Rejected(RejectReason),
    /// Nothing useful came back in time: no server on that port, a
    /// firewall, or a server too busy to answer.
    #[error("no answer from the server within {0:?} (is it running on that address and port?)")]
    NoAnswer(Duration),
    /// The server's certificate is not the one `--fingerprint` names.
    #[error(
        "the server's certificate does not match the fingerprint given (the server prints its own at startup: \
         \"listening on udp …, certificate fingerprint …\"); it has a new key, or this is another server"
    )]
    CertificateMismatch,
    /// The connection failed another way (protocol error, closed while joining).
    #[error("connection failed: {0}")]
    Failed(DisconnectReason),
}

impl ConnectError {
    /// Sorts a disconnect that happened before the Welcome into the error
    /// a player should see.
    pub fn from_disconnect(reason: DisconnectReason, waited: Duration) -> Self {
        match reason {
            DisconnectReason::Rejected(r) => Self::Rejected(r),
            DisconnectReason::Timeout => Self::NoAnswer(waited),
            // The pinning verifier refuses a certificate only for a fingerprint
            // mismatch; rustls reports it as an application verification failure.
            DisconnectReason::ConnectionLost(ref why) if why.contains("ApplicationVerificationFailure") => Self::CertificateMismatch,
            other => Self::Failed(other),
        }
    }
}

/// Why a verb on a connected client failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server has not welcomed us yet.
    #[error("not connected yet")]
    NotConnected,
    /// The connection is over.
    #[error("disconnected: {0}")]
    Disconnected(DisconnectReason),
    /// The transport refused the send.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// A local client (a demo's viewer) has no server to send to.
    #[error("not connected to a server (this is a demo)")]
    Local,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_mismatch_reads_as_one() {
        let tls = "the cryptographic handshake failed: error 49: invalid peer certificate: ApplicationVerificationFailure";
        let e = ConnectError::from_disconnect(DisconnectReason::ConnectionLost(tls.into()), Duration::from_secs(1));
        assert!(matches!(e, ConnectError::CertificateMismatch));
        assert!(e.to_string().contains("does not match the fingerprint given"), "{e}");
    }

    #[test]
    fn refusals_read_like_the_reason() {
        let e = ConnectError::from_disconnect(
            DisconnectReason::Rejected(RejectReason::Full),
            Duration::from_secs(1),
        );
        assert_eq!(e.to_string(), "server is full");
        let e = ConnectError::from_disconnect(
            DisconnectReason::Rejected(RejectReason::WrongPassword),
            Duration::from_secs(1),
        );
        assert_eq!(e.to_string(), "wrong password");
        let e = ConnectError::from_disconnect(DisconnectReason::Timeout, Duration::from_secs(2));
        assert!(
            e.to_string()
                .starts_with("no answer from the server within 2s"),
            "{e}"
        );
        let e = ConnectError::from_disconnect(
            DisconnectReason::ConnectionLost("bad cert".into()),
            Duration::from_secs(2),
        );
        assert_eq!(
            e.to_string(),
            "connection failed: connection lost: bad cert"
        );
    }
}
