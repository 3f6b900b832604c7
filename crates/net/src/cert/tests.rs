use super::*;

#[test]
fn fingerprint_formats_and_parses() {
    let f = Fingerprint::of(b"hello");
    let s = f.to_string();
    assert_eq!(s.len(), 32 * 3 - 1);
    assert!(s.starts_with("2C:F2:4D:BA"), "{s}");
    assert_eq!(s.parse::<Fingerprint>(), Ok(f));
    assert_eq!(s.to_lowercase().replace(':', "").parse::<Fingerprint>(), Ok(f));
    assert_eq!("AB:CD".parse::<Fingerprint>(), Err(BadFingerprint));
    assert_eq!("zz".repeat(32).parse::<Fingerprint>(), Err(BadFingerprint));
}

#[test]
fn generated_identity_is_kept_and_reloaded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cert = dir.path().join("tls/cert.pem");
    let key = dir.path().join("tls/key.pem");
    let (first, generated) = Identity::load_or_generate(&cert, &key).expect("generate");
    assert!(generated);
    let (again, generated) = Identity::load_or_generate(&cert, &key).expect("load");
    assert!(!generated);
    assert_eq!(first.fingerprint(), again.fingerprint());
    assert_eq!(first.key.secret_pkcs8_der(), again.key.secret_pkcs8_der());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).expect("key").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // No temp files left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path().join("tls")).expect("dir").filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn half_pair_and_garbage_are_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cert = dir.path().join("cert.pem");
    let key = dir.path().join("key.pem");
    std::fs::write(&cert, "not a pem").expect("write");
    assert!(matches!(Identity::load_or_generate(&cert, &key), Err(CertError::HalfPair { .. })));
    std::fs::write(&key, "not a pem").expect("write");
    assert!(matches!(Identity::load_or_generate(&cert, &key), Err(CertError::Pem { .. })));
}

#[test]
fn pinned_verifier_checks_the_fingerprint() {
    let id = Identity::generate().expect("generate");
    let other = Identity::generate().expect("generate");
    let name = ServerName::try_from("quarry").expect("name");
    let good = QuarryVerifier::new(ServerVerification::Pinned(id.fingerprint()));
    assert!(good.verify_server_cert(&id.cert, &[], &name, &[], UnixTime::now()).is_ok());
    assert!(good.verify_server_cert(&other.cert, &[], &name, &[], UnixTime::now()).is_err());
    let any = QuarryVerifier::new(ServerVerification::accept_any_for_development());
    assert!(any.verify_server_cert(&other.cert, &[], &name, &[], UnixTime::now()).is_ok());
}
