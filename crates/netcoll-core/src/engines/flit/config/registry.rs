//! Name registries, keyed by BookSim's names as BookSim's factories are (`routing_function`,
//! `vc_allocator`, `sw_allocator`, `traffic`): a static table of (name, entry) that the
//! configuration reads a key's value through. An unknown name is refused with the nearest
//! known name and the whole list, so a typo is one edit away from mended.
//! Adding a choice: write its module, then one line in its table (routing/routing_registry.rs,
//! router/alloc_registry.rs, traffic/pattern_registry.rs).

use crate::error::Result;
use crate::spec_err;

/// The names a configuration key accepts, each with what it builds (an enum value or a
/// constructor). Aliases are further rows with the same entry.
pub struct Registry<T: 'static> {
    /// The configuration key whose values these are (for messages).
    pub key: &'static str,
    /// (name, entry), the first spelling of an entry being the one messages list.
    pub entries: &'static [(&'static str, T)],
}

impl<T: Copy> Registry<T> {
    /// The entry registered as `name`, or a one-line error naming the nearest known name.
    pub fn get(&self, name: &str) -> Result<T> {
        if let Some(&(_, entry)) = self.entries.iter().find(|(n, _)| *n == name) {
            return Ok(entry);
        }
        let hint = match nearest(name, self.entries.iter().map(|(n, _)| *n)) {
            Some(near) => format!("did you mean {near}? "),
            None => String::new(),
        };
        spec_err!(
            "{} = {name} is not supported: {hint}known: {}",
            self.key,
            self.names().collect::<Vec<_>>().join(", ")
        )
    }

    /// The registered names, aliases included, in table order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.entries.iter().map(|(n, _)| *n)
    }
}

impl<T: Copy + PartialEq> Registry<T> {
    /// The first name registered for `entry` (its canonical spelling).
    pub fn name_of(&self, entry: T) -> Option<&'static str> {
        self.entries
            .iter()
            .find(|(_, e)| *e == entry)
            .map(|(n, _)| *n)
    }
}

/// The known name nearest `name` by edit distance, if one is near enough to be a typo
/// (at most a third of the longer name's characters differ, at least one allowed).
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (edit_distance(name, k), k))
        .filter(|&(d, k)| d <= (name.len().max(k.len()) / 3).max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Levenshtein distance over bytes (names are ASCII), one row of the table at a time.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = diag + usize::from(ca != cb);
            diag = row[j + 1];
            row[j + 1] = sub.min(diag + 1).min(row[j] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLOURS: Registry<u8> = Registry {
        key: "colour",
        entries: &[("red", 1), ("green", 2), ("rouge", 1)],
    };

    #[test]
    fn finds_names_and_aliases() {
        assert_eq!(COLOURS.get("red").unwrap(), 1);
        assert_eq!(COLOURS.get("rouge").unwrap(), 1);
        assert_eq!(COLOURS.name_of(1), Some("red"));
    }

    #[test]
    fn refuses_unknown_names_with_the_nearest() {
        let e = COLOURS.get("gren").unwrap_err().to_string();
        assert!(
            e.contains("colour = gren is not supported: did you mean green?"),
            "{e}"
        );
        assert!(e.contains("known: red, green, rouge"), "{e}");
        let far = COLOURS.get("purple").unwrap_err().to_string();
        assert!(!far.contains("did you mean"), "{far}");
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("dor", "dor"), 0);
        assert_eq!(
            nearest("dim_ordr", ["dor", "dim_order", "min"]),
            Some("dim_order")
        );
    }
}
