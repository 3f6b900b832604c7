//! Bot names: a built-in pool of Quarry's own names, handed out in a
//! seeded order, skipping names already on the server.

/// The pool. Our own names; none come from another game's roster.
pub const NAME_POOL: [&str; 32] = [
    "Ashgrove", "Brisket", "Cinder", "Dorsey", "Ember", "Fennick", "Gallow", "Hobb", "Ivel", "Juniper", "Kestrel",
    "Lark", "Mortar", "Nettle", "Ostrand", "Pell", "Quill", "Rusk", "Saltash", "Tamsin", "Umber", "Vesper", "Wicket",
    "Yarrow", "Zephyr", "Brannock", "Corvid", "Dunlin", "Flint", "Gorse", "Marrow", "Thistle",
];

/// The first pool name, from a rotating start, that `taken` does not
/// report as in use; once all are, pool names with a number (`Cinder2`).
/// `None` only when thousands are taken.
pub fn pick_name(start: usize, taken: impl Fn(&str) -> bool) -> Option<String> {
    let n = NAME_POOL.len();
    (0..n * 100)
        .map(|i| {
            let base = NAME_POOL[(start + i) % n];
            if i < n {
                base.to_owned()
            } else {
                format!("{base}{}", i / n + 1)
            }
        })
        .find(|name| !taken(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_is_unique_short_and_skips_taken_names() {
        let mut sorted = NAME_POOL.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), NAME_POOL.len());
        assert!(
            NAME_POOL
                .iter()
                .all(|n| n.len() <= quarry_sim::slots::MAX_NAME_CHARS && n.chars().all(|c| c.is_ascii_alphabetic()))
        );
        assert_eq!(pick_name(0, |_| false).as_deref(), Some("Ashgrove"));
        assert_eq!(pick_name(0, |n| n == "Ashgrove").as_deref(), Some("Brisket"));
        assert_eq!(pick_name(31, |_| false).as_deref(), Some("Thistle"));
        assert_eq!(pick_name(3, |n| NAME_POOL.contains(&n)).as_deref(), Some("Dorsey2"));
        assert_eq!(pick_name(5, |_| true), None);
    }
}
