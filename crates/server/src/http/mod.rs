//! The operator's HTTP side: a small server on its own thread (with its own
//! single-threaded async runtime), never the tick thread. It serves what a
//! [`axum::Router`] gives it (`/metrics`, the web view) through a
//! [`listener::BoundedListener`], so no client can exhaust it. Handlers
//! can read the client's address as `ConnectInfo<ClientAddr>`.

pub mod listener;

use std::net::SocketAddr;
use std::thread::JoinHandle;

/// How long open connections may finish after the server is told to stop.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Why the HTTP server could not start.
#[derive(Debug, thiserror::Error)]
pub enum HttpStartError {
    /// The address is not `HOST:PORT`, `:PORT` or `PORT`.
    #[error("'{0}' is not an address (give HOST:PORT, :PORT or PORT; a bare port listens on 127.0.0.1)")]
    BadAddress(String),
    /// The port could not be bound.
    #[error("couldn't listen on tcp {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The thread or its runtime could not be made.
    #[error("couldn't start the HTTP thread: {0}")]
    Thread(std::io::Error),
}

/// Reads an operator's address: `HOST:PORT`, or `:PORT` / `PORT`, which
/// listen on loopback only (exposing an endpoint takes an explicit host).
pub fn parse_address(text: &str) -> Result<SocketAddr, HttpStartError> {
    let text = text.trim();
    let bad = || HttpStartError::BadAddress(text.to_owned());
    let port_only = text.strip_prefix(':').unwrap_or(text);
    if let Ok(port) = port_only.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse::<SocketAddr>().map_err(|_| bad())
}

/// The address a request came from, for handlers that ask
/// (`axum::extract::ConnectInfo<ClientAddr>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub SocketAddr);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, listener::BoundedListener>> for ClientAddr {
    fn connect_info(stream: axum::serve::IncomingStream<'_, listener::BoundedListener>) -> Self {
        Self(*stream.remote_addr())
    }
}

/// How much lower than the server's the HTTP threads' CPU priority is
/// (nice steps): when the host is busy, the tick wins the CPU and a page,
/// a stream or a scrape waits.
pub const HTTP_NICE: i32 = 10;

/// Lowers the calling thread's priority by [`HTTP_NICE`] (Linux keeps a
/// nice value per thread). Elsewhere, or when refused, nothing changes.
fn yield_to_the_tick() {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        let now = rustix::process::getpriority_process(Some(tid)).unwrap_or(0);
        if let Err(e) = rustix::process::setpriority_process(Some(tid), now.saturating_add(HTTP_NICE).min(19)) {
            tracing::debug!("http thread keeps its priority: {e}");
        }
    }
}

/// A running HTTP server; dropping it (or [`HttpServer::stop`]) stops it.
pub struct HttpServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::watch::Sender<bool>>,
    thread: Option<JoinHandle<()>>,
}

impl HttpServer {
    /// Binds `addr` and serves `router` on a thread named `name`.
    pub fn start(name: &str, addr: SocketAddr, router: axum::Router) -> Result<Self, HttpStartError> {
        let std_listener = std::net::TcpListener::bind(addr).map_err(|source| HttpStartError::Bind { addr, source })?;
        let local = std_listener.local_addr().map_err(|source| HttpStartError::Bind { addr, source })?;
        std_listener.set_nonblocking(true).map_err(|source| HttpStartError::Bind { addr, source })?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(HttpStartError::Thread)?;
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                yield_to_the_tick();
                runtime.block_on(async move {
                    let listener = match tokio::net::TcpListener::from_std(std_listener) {
                        Ok(l) => listener::BoundedListener::new(l),
                        Err(e) => {
                            tracing::warn!("http {local}: {e}");
                            return;
                        }
                    };
                    let mut graceful = stop_rx.clone();
                    let mut hard = stop_rx;
                    // Handlers may ask who is asking (`ConnectInfo<ClientAddr>`).
                    let service = router.into_make_service_with_connect_info::<ClientAddr>();
                    let serve = axum::serve(listener, service).with_graceful_shutdown(async move {
                        let _ = graceful.wait_for(|stop| *stop).await;
                    });
                    // Connections get a moment to finish once stopping; one
                    // that dawdles is cut off with the runtime.
                    let deadline = async move {
                        let _ = hard.wait_for(|stop| *stop).await;
                        tokio::time::sleep(STOP_GRACE).await;
                    };
                    tokio::select! {
                        result = serve => {
                            if let Err(e) = result {
                                tracing::warn!("http {local}: {e}");
                            }
                        }
                        () = deadline => {}
                    }
                });
            })
            .map_err(HttpStartError::Thread)?;
        Ok(Self { addr: local, stop: Some(stop_tx), thread: Some(thread) })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops serving and waits for the thread (open connections end at
    /// their next read or their lifetime).
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.shut();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_default_to_loopback() {
        assert_eq!(parse_address("9100").ok(), Some(SocketAddr::from(([127, 0, 0, 1], 9100))));
        assert_eq!(parse_address(":9100").ok(), Some(SocketAddr::from(([127, 0, 0, 1], 9100))));
        assert_eq!(parse_address("0.0.0.0:9100").ok(), Some(SocketAddr::from(([0, 0, 0, 0], 9100))));
        assert!(parse_address("[::1]:80").is_ok());
        assert!(parse_address("localhost").is_err());
        assert!(parse_address("1.2.3.4:99999").is_err());
    }
}
