//! The server's TLS identity and how clients decide to trust it.
//!
//! A Quarry server has no CA-signed certificate. On first start it
//! generates a self-signed one and keeps it (PEM files, written atomically:
//! temp file, fsync, rename, directory fsync; the key file is mode 0600), or
//! loads one named in its config. It prints the SHA-256 [`Fingerprint`] of
//! the certificate; a client pins that fingerprint ([`ServerVerification::Pinned`]),
//! so a man in the middle would need the server's private key. The TLS 1.3
//! handshake signature is still verified against the pinned certificate.
//! [`ServerVerification::accept_any_for_development`] skips the pin and
//! says so in the log.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

/// Why an identity could not be loaded or made.
#[derive(Debug, thiserror::Error)]
pub enum CertError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file was not the PEM it should be.
    #[error("{path}: not a PEM {what}")]
    Pem {
        /// The file.
        path: PathBuf,
        /// "certificate" or "private key".
        what: &'static str,
    },
    /// Only one of the two files exists; refusing to overwrite it.
    #[error("{present} exists but {missing} does not; remove it or restore the pair")]
    HalfPair {
        /// The file that exists.
        present: PathBuf,
        /// The file that is missing.
        missing: PathBuf,
    },
    /// Certificate generation failed.
    #[error("generating certificate: {0}")]
    Generate(#[from] rcgen::Error),
}

/// The SHA-256 of a certificate's DER bytes; shown as `AB:CD:…` (32 pairs).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// The fingerprint of a DER certificate.
    pub fn of(der: &[u8]) -> Self {
        let digest = Sha256::digest(der);
        let mut out = [0u8; 32];
        for (o, d) in out.iter_mut().zip(digest.iter()) {
            *o = *d;
        }
        Self(out)
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{b:02X}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}

/// A fingerprint string was not 32 hex bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a fingerprint is 32 hex bytes, optionally separated by ':'")]
pub struct BadFingerprint;

impl std::str::FromStr for Fingerprint {
    type Err = BadFingerprint;

    /// Parses `AB:CD:…`, `ab:cd:…` or `abcd…` (64 hex digits).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex: Vec<u8> = s.bytes().filter(|&b| b != b':').collect();
        if hex.len() != 64 {
            return Err(BadFingerprint);
        }
        let mut out = [0u8; 32];
        for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
            let text = std::str::from_utf8(pair).map_err(|_| BadFingerprint)?;
            *o = u8::from_str_radix(text, 16).map_err(|_| BadFingerprint)?;
        }
        Ok(Self(out))
    }
}

/// The server's certificate and private key.
pub struct Identity {
    /// The certificate, DER.
    pub cert: CertificateDer<'static>,
    /// The private key, PKCS#8 DER.
    pub key: PrivatePkcs8KeyDer<'static>,
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Identity").field("fingerprint", &self.fingerprint()).finish_non_exhaustive()
    }
}

impl Clone for Identity {
    fn clone(&self) -> Self {
        Self { cert: self.cert.clone(), key: self.key.clone_key() }
    }
}

/// The names a generated certificate is issued for (clients pin the
/// fingerprint, so the name only has to be consistent).
pub const CERT_NAMES: [&str; 2] = ["quarry", "localhost"];

impl Identity {
    /// A fresh self-signed identity (ECDSA P-256), kept in memory only.
    pub fn generate() -> Result<Self, CertError> {
        let ck = rcgen::generate_simple_self_signed(CERT_NAMES.map(String::from).to_vec())?;
        Ok(Self { cert: ck.cert.der().clone(), key: PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der()) })
    }

    /// The certificate's fingerprint, for the server to print.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.cert)
    }

    /// A pseudonym for `data` (a client's address) that only this identity
    /// gives: the same input gives the same 16 hex digits for as long as the
    /// key is kept, and nobody without the key can tell what the input was
    /// (an IPv4 address could otherwise be found by trying them all).
    pub fn pseudonym(&self, data: &[u8]) -> String {
        let secret = Sha256::new().chain_update(b"quarry pseudonym v1").chain_update(self.key.secret_pkcs8_der()).finalize();
        let digest = Sha256::new().chain_update(secret).chain_update(data).finalize();
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }

    /// Loads a PEM certificate and key.
    pub fn load(cert_path: &Path, key_path: &Path) -> Result<Self, CertError> {
        let cert = CertificateDer::from_pem_file(cert_path).map_err(|e| pem_error(cert_path, "certificate", e))?;
        let key = match PrivateKeyDer::from_pem_file(key_path).map_err(|e| pem_error(key_path, "private key", e))? {
            PrivateKeyDer::Pkcs8(k) => k,
            _ => return Err(CertError::Pem { path: key_path.to_owned(), what: "PKCS#8 private key" }),
        };
        Ok(Self { cert, key })
    }

    /// Loads the pair if both files exist; generates and saves a new one if
    /// neither does; refuses a half pair. Returns whether it was generated.
    pub fn load_or_generate(cert_path: &Path, key_path: &Path) -> Result<(Self, bool), CertError> {
        match (cert_path.exists(), key_path.exists()) {
            (true, true) => Ok((Self::load(cert_path, key_path)?, false)),
            (false, false) => {
                let id = Self::generate()?;
                id.save(cert_path, key_path)?;
                Ok((id, true))
            }
            (true, false) => Err(CertError::HalfPair { present: cert_path.to_owned(), missing: key_path.to_owned() }),
            (false, true) => Err(CertError::HalfPair { present: key_path.to_owned(), missing: cert_path.to_owned() }),
        }
    }

    /// Writes the pair as PEM, atomically; the key first and mode 0600.
    pub fn save(&self, cert_path: &Path, key_path: &Path) -> Result<(), CertError> {
        write_atomic(key_path, pem("PRIVATE KEY", self.key.secret_pkcs8_der()).as_bytes(), true)?;
        write_atomic(cert_path, pem("CERTIFICATE", &self.cert).as_bytes(), false)
    }
}

fn pem_error(path: &Path, what: &'static str, e: rustls::pki_types::pem::Error) -> CertError {
    match e {
        rustls::pki_types::pem::Error::Io(source) => CertError::Io { path: path.to_owned(), source },
        _ => CertError::Pem { path: path.to_owned(), what },
    }
}

fn pem(label: &str, der: &[u8]) -> String {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut b64 = String::with_capacity(der.len() * 4 / 3 + 4);
    for chunk in der.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                b64.push(char::from(B64[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                b64.push('=');
            }
        }
    }
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

/// Writes `data` to `path` so that a crash leaves the old file or the new
/// one, never half of one: temp file in the same directory, fsync, rename,
/// fsync of the directory. `private` files are created mode 0600.
fn write_atomic(path: &Path, data: &[u8], private: bool) -> Result<(), CertError> {
    let io = |source| CertError::Io { path: path.to_owned(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(if private { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = private;
    let result = (|| {
        let mut f = opts.open(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        #[cfg(unix)]
        std::fs::File::open(dir)?.sync_all()?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// How a client decides whether to trust the server's certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerVerification {
    /// Only a certificate with this fingerprint.
    Pinned(Fingerprint),
    /// Any certificate: for development only; build it with
    /// [`ServerVerification::accept_any_for_development`].
    AcceptAny,
}

impl ServerVerification {
    /// Trusts any server certificate (still checking the handshake
    /// signature) and logs a warning: a man in the middle goes unnoticed.
    pub fn accept_any_for_development() -> Self {
        tracing::warn!("server certificate NOT verified (development mode): anyone on the path can impersonate the server");
        Self::AcceptAny
    }
}

/// The ring crypto provider quinn 0.11 is built with.
pub(crate) fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The rustls verifier for a [`ServerVerification`].
#[derive(Debug)]
pub(crate) struct QuarryVerifier {
    mode: ServerVerification,
    provider: Arc<CryptoProvider>,
}

impl QuarryVerifier {
    pub(crate) fn new(mode: ServerVerification) -> Self {
        Self { mode, provider: provider() }
    }
}

impl ServerCertVerifier for QuarryVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.mode {
            ServerVerification::AcceptAny => Ok(ServerCertVerified::assertion()),
            ServerVerification::Pinned(pin) => {
                let got = Fingerprint::of(end_entity);
                // Not secret data, but compare without early exit anyway.
                let diff = got.0.iter().zip(pin.0.iter()).fold(0u8, |d, (a, b)| d | (a ^ b));
                if diff == 0 {
                    Ok(ServerCertVerified::assertion())
                } else {
                    tracing::warn!(expected = %pin, got = %got, "server certificate fingerprint mismatch");
                    Err(rustls::Error::InvalidCertificate(rustls::CertificateError::ApplicationVerificationFailure))
                }
            }
        }
    }

    fn verify_tls12_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests;
