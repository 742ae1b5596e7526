//! The tables a session and its transport keep per request in flight.

/// Entries found by a linear search. A session holds one per request in
/// flight: dozens in practice, and even at thousands a search costs a few
/// microseconds against an HTTP exchange. A hash table would cost its code
/// again for every value type in the wasm.
#[derive(Debug)]
pub struct IdMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for IdMap<K, V> {
    fn default() -> Self {
        Self { entries: Vec::new() }
    }
}

impl<K: PartialEq, V> IdMap<K, V> {
    /// Sets `key`'s value; returns the one it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, slot)) => Some(std::mem::replace(slot, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// `key`'s value.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &K) -> bool {
        self.entries.iter().any(|(k, _)| k == key)
    }

    /// Takes `key`'s value out.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.swap_remove(at).1)
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Takes every entry out.
    pub fn drain(&mut self) -> impl Iterator<Item = (K, V)> + '_ {
        self.entries.drain(..)
    }

    /// The values.
    pub fn into_values(self) -> impl Iterator<Item = V> {
        self.entries.into_iter().map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::IdMap;

    #[test]
    fn behaves_as_a_map() {
        let mut map = IdMap::default();
        assert_eq!(map.insert(1, "a"), None);
        assert_eq!(map.insert(2, "b"), None);
        assert_eq!(map.insert(1, "c"), Some("a"));
        assert_eq!((map.len(), map.get(&1), map.contains_key(&2)), (2, Some(&"c"), true));
        assert_eq!(map.remove(&1), Some("c"));
        assert_eq!((map.remove(&1), map.get(&1), map.len()), (None, None, 1));
        assert_eq!(map.drain().collect::<Vec<_>>(), vec![(2, "b")]);
        assert_eq!(map.len(), 0);
        map.insert(3, "d");
        assert_eq!(map.into_values().collect::<Vec<_>>(), vec!["d"]);
    }
}
