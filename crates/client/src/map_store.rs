//! The map the server runs, found on disk or downloaded (issue 48).
//!
//! A server names its map by the SHA-256 of the file's bytes
//! ([`quarry_net::map_transfer`], the `CS_MAP` config string). [`MapStore`]
//! finds a file with that hash: `NAME.map` in the `--maps` folders given,
//! then any other `.map` file there, then the user's cache
//! (`$XDG_CACHE_HOME/quarry/maps/HASH.map`, or `~/.cache/quarry/maps/`).
//! When none has it, [`crate::Client::fetch_map`] asks the server and a
//! [`MapFetch`] takes the chunks in, checks the whole against the hash
//! and writes it to the cache (a temporary file renamed into place, so a
//! crash never leaves half a map under a hash's name).
//!
//! Everything read is bounded ([`MAX_MAP_BYTES`], the loader's own limit)
//! and a name from the server is used as a file name only when it is a
//! plain one (letters, digits, `_`, `-`, `.`), so a server cannot make the
//! client read or write outside its folders. Load the bytes with
//! [`quarry_map::load_source`] into the same collision world the server
//! built ([`MapFile::load`]).
//!
//! What it must not do: block on the network (a fetch advances only as the
//! client is pumped) or trust a byte it has not checked against the hash.

use std::path::{Path, PathBuf};

use quarry_net::map_transfer::{AssemblyError, MAX_MAP_BYTES, MapAssembly, MapChunk, MapHash, MapRefusal};
use tracing::{debug, warn};

/// `.map` files hashed in one folder at most, looking for a map under
/// another name (a folder of thousands is not searched to the end).
const MAX_SCANNED: usize = 512;

/// A map file whose bytes match its hash.
#[derive(Clone, PartialEq, Eq)]
pub struct MapFile {
    /// The map's name as the server gave it (the file's stem).
    pub name: String,
    /// The SHA-256 of `bytes`.
    pub hash: MapHash,
    /// The file's exact bytes.
    pub bytes: Vec<u8>,
    /// Where it was found or cached (`None`: downloaded and not cached).
    pub path: Option<PathBuf>,
}

impl std::fmt::Debug for MapFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapFile").field("name", &self.name).field("hash", &self.hash).field("len", &self.bytes.len()).field("path", &self.path).finish()
    }
}

impl MapFile {
    /// Loads the map into the collision world and entities the server
    /// has (the same loader, the same bytes).
    pub fn load(&self, options: &quarry_map::LoadOptions) -> Result<quarry_map::LoadedMap, quarry_map::MapLoadError> {
        quarry_map::load_source(&self.bytes, &format!("{}.map", self.name), options)
    }
}

/// Where a client looks for maps and keeps the ones it downloaded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MapStore {
    dirs: Vec<PathBuf>,
    cache: Option<PathBuf>,
}

impl MapStore {
    /// Looks in `dirs` (the `--maps` folders), in order, and caches in `cache`
    /// (`None`: downloads are kept in memory only).
    pub fn new(dirs: Vec<PathBuf>, cache: Option<PathBuf>) -> Self {
        Self { dirs, cache }
    }

    /// Looks in `dirs` and caches in the user's cache folder
    /// ([`MapStore::user_cache_dir`]), when there is one.
    pub fn with_user_cache(dirs: Vec<PathBuf>) -> Self {
        Self::new(dirs, Self::user_cache_dir())
    }

    /// `$XDG_CACHE_HOME/quarry/maps`, else `$HOME/.cache/quarry/maps`
    /// (a relative `XDG_CACHE_HOME` is ignored, as the XDG spec says).
    pub fn user_cache_dir() -> Option<PathBuf> {
        let xdg = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute());
        let base = xdg.or_else(|| std::env::var_os("HOME").map(PathBuf::from).filter(|p| p.is_absolute()).map(|h| h.join(".cache")))?;
        Some(base.join("quarry").join("maps"))
    }

    /// The cache folder, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.cache.as_deref()
    }

    /// The map called `name` whose bytes hash to `hash`: `NAME.map` in
    /// each maps folder, then any `.map` file there, then `HASH.map` in the
    /// cache. Files that cannot be read or differ are passed over.
    pub fn find(&self, name: &str, hash: MapHash) -> Option<MapFile> {
        let found = |bytes: Vec<u8>, path: PathBuf| MapFile { name: name.to_owned(), hash, bytes, path: Some(path) };
        if plain_name(name) {
            for dir in &self.dirs {
                let path = dir.join(format!("{name}.map"));
                if let Some(bytes) = read_matching(&path, hash) {
                    return Some(found(bytes, path));
                }
            }
        }
        for dir in &self.dirs {
            if let Some((bytes, path)) = scan(dir, hash) {
                return Some(found(bytes, path));
            }
        }
        let path = self.cache.as_ref()?.join(format!("{hash}.map"));
        read_matching(&path, hash).map(|bytes| found(bytes, path))
    }

    /// Writes `bytes` to the cache as `HASH.map` (a temporary file, synced,
    /// then renamed) and returns its path; refuses bytes that do not match
    /// `hash`.
    pub fn store(&self, hash: MapHash, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let Some(dir) = &self.cache else { return Err(std::io::Error::other("no cache folder")) };
        if MapHash::of(bytes) != hash {
            return Err(std::io::Error::other("the bytes do not match the hash"));
        }
        let path = dir.join(format!("{hash}.map"));
        crate::atomic::write_file(&path, bytes).map(|()| path)
    }
}

/// Whether `name` may be used as a file name as it is.
fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 128 && !name.starts_with('.') && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The file's bytes if it is a readable regular file within the limit
/// whose hash is `hash`.
fn read_matching(path: &Path, hash: MapHash) -> Option<Vec<u8>> {
    match quarry_files::read_file_bytes(path, MAX_MAP_BYTES) {
        Ok(bytes) if MapHash::of(&bytes) == hash => Some(bytes),
        Ok(_) => {
            debug!(path = %path.display(), "a map file with another hash");
            None
        }
        Err(e) => {
            if !e.is_not_found() {
                debug!(error = %e, "map file passed over");
            }
            None
        }
    }
}

/// The first `.map` file in `dir` (sorted by name, at most
/// [`MAX_SCANNED`]) whose hash is `hash`.
fn scan(dir: &Path, hash: MapHash) -> Option<(Vec<u8>, PathBuf)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("map")))
        .take(MAX_SCANNED * 4)
        .collect();
    paths.sort();
    paths.into_iter().take(MAX_SCANNED).find_map(|p| read_matching(&p, hash).map(|b| (b, p)))
}

/// Why the map could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapFetchError {
    /// The server did not say which map file it runs (no `CS_MAP`).
    #[error("the server did not say which map file it runs (no map hash); it cannot send it either")]
    NoMapHash,
    /// The map is larger than a client loads.
    #[error("{map} is {size} bytes; a client loads at most {max}")]
    TooLarge {
        /// The map.
        map: String,
        /// Its size.
        size: u64,
        /// [`MAX_MAP_BYTES`].
        max: u64,
    },
    /// The server will not send it.
    #[error("{map}: the server will not send it: {reason}")]
    Refused {
        /// The map.
        map: String,
        /// The server's reason (downloads off names the file needed).
        reason: MapRefusal,
    },
    /// What arrived was not the map.
    #[error("{map}: the download failed: {error}")]
    Transfer {
        /// The map.
        map: String,
        /// What was wrong.
        error: AssemblyError,
    },
}

/// Where a map fetch stands ([`crate::Client::map_download`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapDownload {
    /// Chunks are arriving.
    Fetching {
        /// The map.
        map: String,
        /// Compressed bytes received.
        received: u64,
        /// Compressed bytes in all (`None` before the first chunk).
        total: Option<u64>,
    },
    /// The map is here, checked against its hash (found on disk, or
    /// downloaded and cached).
    Ready(MapFile),
    /// It could not be had, and why.
    Failed(MapFetchError),
}

/// One map being fetched: what the client feeds its chunks to.
#[derive(Debug, Clone)]
pub struct MapFetch {
    store: MapStore,
    name: String,
    assembly: Option<MapAssembly>,
    state: MapDownload,
}

impl MapFetch {
    /// A fetch already done (the store had the file).
    pub fn ready(store: MapStore, file: MapFile) -> Self {
        Self { name: file.name.clone(), store, assembly: None, state: MapDownload::Ready(file) }
    }

    /// A fetch that failed before it began.
    pub fn failed(store: MapStore, name: &str, error: MapFetchError) -> Self {
        Self { store, name: name.to_owned(), assembly: None, state: MapDownload::Failed(error) }
    }

    /// A download of `name` with `hash` and `size` bytes, waiting for chunks.
    pub fn downloading(store: MapStore, name: &str, hash: MapHash, size: u64) -> Self {
        let state = MapDownload::Fetching { map: name.to_owned(), received: 0, total: None };
        Self { store, name: name.to_owned(), assembly: Some(MapAssembly::new(hash, size)), state }
    }

    /// Where it stands.
    pub fn state(&self) -> &MapDownload {
        &self.state
    }

    /// The hash being downloaded (`None` once done or failed).
    pub fn downloading_hash(&self) -> Option<MapHash> {
        self.assembly.as_ref().map(MapAssembly::hash)
    }

    /// One chunk from the server; chunks of another map (an older
    /// request) are ignored.
    pub fn on_chunk(&mut self, chunk: &MapChunk) {
        let Some(asm) = self.assembly.as_mut().filter(|a| a.hash() == chunk.hash) else { return };
        match asm.accept(chunk) {
            Ok(None) => {
                let (received, total) = asm.progress();
                self.state = MapDownload::Fetching { map: self.name.clone(), received, total };
            }
            Ok(Some(bytes)) => {
                let hash = asm.hash();
                self.assembly = None;
                let path = match self.store.store(hash, &bytes) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        warn!(error = %e, "the downloaded map is not cached");
                        None
                    }
                };
                self.state = MapDownload::Ready(MapFile { name: self.name.clone(), hash, bytes, path });
            }
            Err(error) => {
                self.assembly = None;
                self.state = MapDownload::Failed(MapFetchError::Transfer { map: self.name.clone(), error });
            }
        }
    }

    /// The server refused the request for `hash` (ignored unless it is the
    /// one being downloaded).
    pub fn on_refused(&mut self, hash: MapHash, reason: MapRefusal) {
        if self.downloading_hash() == Some(hash) {
            self.assembly = None;
            self.state = MapDownload::Failed(MapFetchError::Refused { map: self.name.clone(), reason });
        }
    }
}

#[cfg(test)]
mod tests {
    use quarry_net::map_transfer::{MAP_CHUNK_LEN, MapOffer};

    use super::*;

    const TEXT: &str = "{\n\"classname\" \"worldspawn\"\n}\n";

    #[test]
    fn finds_by_name_then_by_content_then_in_the_cache() {
        let maps = tempfile::tempdir().expect("dir");
        let cache = tempfile::tempdir().expect("dir");
        let hash = MapHash::of(TEXT.as_bytes());
        let store = MapStore::new(vec![maps.path().to_owned()], Some(cache.path().to_owned()));
        assert_eq!(store.find("arena", hash), None);
        // In the cache under its hash.
        let cached = store.store(hash, TEXT.as_bytes()).expect("store");
        assert_eq!(cached, cache.path().join(format!("{hash}.map")));
        assert_eq!(store.find("arena", hash).and_then(|f| f.path), Some(cached));
        // Under another name in a maps folder, which wins over the cache.
        std::fs::write(maps.path().join("renamed.map"), TEXT).expect("write");
        std::fs::write(maps.path().join("arena.map"), "{ other }").expect("write");
        let f = store.find("arena", hash).expect("found");
        assert_eq!((f.path, f.bytes), (Some(maps.path().join("renamed.map")), TEXT.as_bytes().to_vec()));
        // Under its own name first.
        std::fs::write(maps.path().join("arena.map"), TEXT).expect("write");
        assert_eq!(store.find("arena", hash).and_then(|f| f.path), Some(maps.path().join("arena.map")));
        // Another hash is found nowhere; a bad hash is never cached.
        assert_eq!(store.find("arena", MapHash::of(b"x")), None);
        assert!(store.store(MapHash::of(b"x"), TEXT.as_bytes()).is_err());
        assert!(std::fs::read_dir(cache.path()).expect("dir").all(|e| e.expect("entry").file_name().to_string_lossy().ends_with(".map")), "no temporary file is left");
    }

    #[test]
    fn a_name_from_the_server_never_leaves_the_folders() {
        let root = tempfile::tempdir().expect("dir");
        let maps = root.path().join("maps");
        std::fs::create_dir(&maps).expect("dir");
        std::fs::write(root.path().join("secret.map"), TEXT).expect("write");
        let store = MapStore::new(vec![maps], None);
        assert_eq!(store.find("../secret", MapHash::of(TEXT.as_bytes())), None);
        assert!(!plain_name("../x") && !plain_name("a/b") && !plain_name("") && !plain_name(".hidden"));
        assert!(plain_name("q_dm1") && plain_name("q3dm17-v2.1"));
    }

    #[test]
    fn the_user_cache_follows_xdg() {
        let dir = MapStore::user_cache_dir();
        if let Some(d) = dir {
            assert!(d.ends_with("quarry/maps") && d.is_absolute(), "{}", d.display());
        }
    }

    #[test]
    fn a_fetch_assembles_checks_and_caches() {
        let cache = tempfile::tempdir().expect("dir");
        let text = TEXT.repeat(3000);
        let offer = MapOffer::new("arena", text.as_bytes()).expect("offer");
        let store = MapStore::new(Vec::new(), Some(cache.path().to_owned()));
        let mut fetch = MapFetch::downloading(store.clone(), "arena", offer.hash, offer.size);
        // A stray chunk of another map changes nothing.
        let stray = MapOffer::new("old", TEXT.as_bytes()).expect("offer");
        fetch.on_chunk(&stray.chunk(0, MAP_CHUNK_LEN).expect("chunk"));
        fetch.on_refused(stray.hash, MapRefusal::TooManyRequests { retry_after_s: 1 });
        assert!(matches!(fetch.state(), MapDownload::Fetching { received: 0, .. }));
        let mut offset = 0;
        while let Some(c) = offer.chunk(offset, 100) {
            offset += c.data.len() as u64;
            fetch.on_chunk(&c);
        }
        let MapDownload::Ready(file) = fetch.state() else { panic!("{:?}", fetch.state()) };
        assert_eq!(file.bytes, text.as_bytes());
        assert_eq!(store.find("arena", offer.hash).map(|f| f.bytes), Some(text.into_bytes()));
    }

    #[test]
    fn a_refusal_fails_the_fetch_with_the_servers_words() {
        let hash = MapHash::of(TEXT.as_bytes());
        let mut fetch = MapFetch::downloading(MapStore::default(), "arena", hash, 10);
        fetch.on_refused(hash, MapRefusal::DownloadsOff { file: "arena.map".into(), hash });
        let MapDownload::Failed(e) = fetch.state() else { panic!("{:?}", fetch.state()) };
        let text = e.to_string();
        assert!(text.contains("arena.map") && text.contains("sv_allowDownload 0") && text.contains(&hash.to_string()), "{text}");
    }
}
