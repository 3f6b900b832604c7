//! Writing a file whole, or not at all: the client's settings, its known
//! servers, its map cache and its screenshots all go through here.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same folder,
/// synced and then renamed into place (the folder is made if missing); a
/// failed write leaves no temporary file behind and the old file as it was.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp_name = format!(".{name}.{}.part", std::process::id());
    let tmp = dir.map_or_else(|| tmp_name.clone().into(), |d| d.join(&tmp_name));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("sub").join("client.cfg");
        write_file(&path, b"one").expect("first write");
        write_file(&path, b"two").expect("second write");
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().expect("folder")).expect("list").flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("client.cfg")]);
        // A folder in the way: an error, and nothing left behind.
        assert!(write_file(&dir.path().join("sub"), b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
    }
}
