//! `sv_statsWebhook URL`: each match result is POSTed there, signed.
//!
//! The request: `POST URL` with `Content-Type: application/json`, the
//! document as the body, `X-Quarry-Match-Id: <match_id>` and
//! `X-Quarry-Signature: sha256=<hex>`, the HMAC-SHA256 of the exact body
//! bytes under `sv_statsWebhookSecret` (GitHub's webhook scheme, so
//! existing receivers verify it as they are). A 2xx answer delivers it;
//! anything else (another status, a refused connection, a timeout) is a
//! failed attempt, tried again after [`backoff`].
//!
//! Fail closed: a URL without a secret, a URL that is not `http://` or
//! `https://`, or a webhook without `sv_matchResultDir` (where undelivered
//! documents wait) is a configuration error that stops the server at
//! startup ([`target_of`]); nothing is ever posted unsigned.
//!
//! What it must not do: run on the tick thread (a request blocks for up to
//! [`REQUEST_TIMEOUT`]), follow redirects (a POST would be replayed
//! elsewhere), or print the secret.

use std::time::Duration;

use ring::hmac;

/// The signature's header.
pub const SIGNATURE_HEADER: &str = "X-Quarry-Signature";
/// The match id's header (the body has it too).
pub const MATCH_ID_HEADER: &str = "X-Quarry-Match-Id";
/// The whole of one request, connecting included: a receiver that needs
/// longer is down, as far as delivery goes.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// The wait after the first failed attempt; each further one doubles it.
pub const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// The longest wait between two attempts.
pub const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// Attempts per document in one run of the server; past them it waits in
/// the spool for the next start (about 2 minutes of attempts at most).
pub const ATTEMPTS_PER_RUN: u32 = 8;

/// Where results go and the key that signs them.
#[derive(Clone)]
pub struct WebhookTarget {
    url: String,
    key: hmac::Key,
}

impl std::fmt::Debug for WebhookTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookTarget").field("url", &self.url).field("key", &"(secret)").finish()
    }
}

/// A webhook configuration the server refuses to run with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookConfigError {
    /// The URL is not an absolute `http://` or `https://` URL with a host.
    #[error("sv_statsWebhook {url:?}: {why}; give an http:// or https:// URL")]
    BadUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// A URL is set but no secret to sign with.
    #[error("sv_statsWebhook is set but sv_statsWebhookSecret is empty; refusing to post match results unsigned (set it, or sv_statsWebhookSecretFile, or QUARRY_SV_STATSWEBHOOKSECRET)")]
    NoSecret,
    /// A URL is set but no folder for undelivered documents.
    #[error("sv_statsWebhook is set but sv_matchResultDir is empty; undelivered results wait in its pending/ folder, so set it")]
    NoResultDir,
}

/// The webhook the cvars describe: none when `url` is empty, an error when
/// it cannot be used safely (see the module doc).
pub fn target_of(url: &str, secret: &str, result_dir: &str) -> Result<Option<WebhookTarget>, WebhookConfigError> {
    let url = url.trim();
    if url.is_empty() {
        return Ok(None);
    }
    check_url(url)?;
    if secret.is_empty() {
        return Err(WebhookConfigError::NoSecret);
    }
    if result_dir.trim().is_empty() {
        return Err(WebhookConfigError::NoResultDir);
    }
    Ok(Some(WebhookTarget { url: url.to_owned(), key: hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes()) }))
}

/// Whether `url` is an absolute `http`/`https` URL with a host.
fn check_url(url: &str) -> Result<(), WebhookConfigError> {
    let bad = |why: &str| WebhookConfigError::BadUrl { url: url.to_owned(), why: why.to_owned() };
    let uri: ureq::http::Uri = url.parse().map_err(|e: ureq::http::uri::InvalidUri| bad(&e.to_string()))?;
    match uri.scheme_str() {
        Some(s) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => {}
        Some(s) => return Err(bad(&format!("the scheme {s} is not http or https"))),
        None => return Err(bad("no scheme")),
    }
    if uri.host().is_none_or(str::is_empty) {
        return Err(bad("no host"));
    }
    Ok(())
}

impl WebhookTarget {
    /// The URL posted to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL as logs show it: scheme, host and port only, since a path
    /// or query may carry a token (Discord's webhooks do) and the
    /// authority a user and password.
    pub fn shown(&self) -> String {
        let Ok(uri) = self.url.parse::<ureq::http::Uri>() else { return "(the webhook)".to_owned() };
        let scheme = uri.scheme_str().unwrap_or("http");
        let host = uri.host().unwrap_or("");
        match uri.port_u16() {
            Some(port) => format!("{scheme}://{host}:{port}/…"),
            None => format!("{scheme}://{host}/…"),
        }
    }

    /// `sha256=<hex>`: the HMAC-SHA256 of `body` under the secret.
    pub fn signature(&self, body: &[u8]) -> String {
        let tag = hmac::sign(&self.key, body);
        let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        format!("sha256={hex}")
    }
}

/// Why a delivery attempt failed.
#[derive(Debug, thiserror::Error)]
pub enum PostError {
    /// The endpoint answered, but not 2xx.
    #[error("the endpoint answered {0}")]
    Status(u16),
    /// No answer: refused, unreachable, a TLS failure or a timeout.
    #[error("{0}")]
    Transport(#[from] ureq::Error),
}

/// The HTTP client: one per delivery thread, its connections reused.
#[derive(Debug)]
pub struct Poster {
    agent: ureq::Agent,
}

impl Default for Poster {
    fn default() -> Self {
        Self::new()
    }
}

impl Poster {
    /// A client with [`REQUEST_TIMEOUT`] on every request and no redirects.
    pub fn new() -> Self {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(REQUEST_TIMEOUT))
            .http_status_as_error(false)
            .max_redirects(0)
            .user_agent(concat!("quarry-server/", env!("CARGO_PKG_VERSION")))
            .build();
        Self { agent: config.into() }
    }

    /// POSTs one document (`body`, whose id is `match_id`) to `target`, signed.
    pub fn post(&self, target: &WebhookTarget, match_id: &str, body: &[u8]) -> Result<(), PostError> {
        let response = self
            .agent
            .post(target.url())
            .header("Content-Type", "application/json")
            .header(MATCH_ID_HEADER, match_id)
            .header(SIGNATURE_HEADER, target.signature(body))
            .send(body)?;
        let status = response.status().as_u16();
        if (200..300).contains(&status) { Ok(()) } else { Err(PostError::Status(status)) }
    }
}

/// How long to wait after the `failures`-th failed attempt in a row:
/// [`FIRST_BACKOFF`] doubled each time, at most [`MAX_BACKOFF`].
pub fn backoff(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    FIRST_BACKOFF.saturating_mul(1 << doublings).min(MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_urls_with_a_secret_and_a_folder_make_a_target() {
        assert!(target_of("", "", "").expect("off").is_none());
        let t = target_of(" https://stats.example/hook ", "k", "/tmp/r").expect("good").expect("on");
        assert_eq!(t.url(), "https://stats.example/hook");
        for bad in ["ftp://x/y", "stats.example/hook", "http://", "/relative", "http://exa mple/"] {
            assert!(matches!(target_of(bad, "k", "/tmp/r"), Err(WebhookConfigError::BadUrl { .. })), "{bad}");
        }
        assert_eq!(target_of("http://127.0.0.1:9/x", "", "/tmp/r").err(), Some(WebhookConfigError::NoSecret));
        assert_eq!(target_of("http://127.0.0.1:9/x", "k", " ").err(), Some(WebhookConfigError::NoResultDir));
    }

    #[test]
    fn the_signature_is_the_hmac_sha256_of_the_body_in_hex() {
        // RFC 4231 test case 2.
        let t = target_of("http://h/", "Jefe", "/r").expect("good").expect("on");
        assert_eq!(t.signature(b"what do ya want for nothing?"), "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assert!(!format!("{t:?}").contains("Jefe"), "the secret is never printed");
        let t = target_of("https://user:pw@discord.example:8443/api/webhooks/1/TOKEN?x=1", "k", "/r").expect("good").expect("on");
        assert_eq!(t.shown(), "https://discord.example:8443/…", "no user, password, path or query in the logs");
    }

    #[test]
    fn backoff_doubles_from_half_a_second_up_to_a_minute() {
        let waits: Vec<u64> = (1..=9).map(|n| u64::try_from(backoff(n).as_millis()).unwrap_or(0)).collect();
        assert_eq!(waits, [500, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
        assert_eq!(backoff(u32::MAX), MAX_BACKOFF);
    }
}
