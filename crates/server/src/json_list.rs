//! A list that is serialised once and then sent as is (issue 12): a game's moves and legal
//! moves go into every state message and answer, to every socket, and escaping their
//! strings again each time was most of the server's work per move.

use std::ops::Deref;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Items and their JSON array, both shared: cloning is two reference counts.
///
/// Serialised with `serde_json` it writes the stored text unchanged; read back, it is the
/// items again. Equality compares the items.
#[derive(Debug, Clone)]
pub struct JsonList<T> {
    items: Arc<Vec<T>>,
    json: Arc<RawValue>,
}

impl<T: Serialize> JsonList<T> {
    /// The list of `items`, serialised now.
    pub fn new(items: Vec<T>) -> JsonList<T> {
        let json = array_of(items.iter());
        JsonList {
            items: Arc::new(items),
            json,
        }
    }

    /// The items.
    pub fn items(&self) -> &[T] {
        &self.items
    }
}

impl<T> Deref for JsonList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T: Serialize> Default for JsonList<T> {
    fn default() -> Self {
        JsonList::new(Vec::new())
    }
}

impl<T: PartialEq> PartialEq for JsonList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl<T: Eq> Eq for JsonList<T> {}

impl<T> Serialize for JsonList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

impl<'de, T: Serialize + DeserializeOwned> Deserialize<'de> for JsonList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(JsonList::new(Vec::<T>::deserialize(d)?))
    }
}

/// A list that grows at its end, keeping the JSON text of its items: pushing serialises the
/// new item only, and the array's text is the kept text plus `]` (a copy, no escaping).
#[derive(Debug, Clone)]
pub struct GrowingList<T> {
    /// `[` and the items' JSON, comma-separated, without the closing `]`.
    open: String,
    /// Where each item's text starts in `open` (its comma included), for [`Self::truncate`].
    starts: Vec<usize>,
    list: JsonList<T>,
}

impl<T: Serialize + Clone> GrowingList<T> {
    /// An empty list.
    pub fn new() -> GrowingList<T> {
        GrowingList {
            open: String::from("["),
            starts: Vec::new(),
            list: JsonList::default(),
        }
    }

    /// Appends `item`. The items are copied only while an older [`JsonList`] handed out
    /// still shares them.
    pub fn push(&mut self, item: T) {
        self.starts.push(self.open.len());
        if self.starts.len() > 1 {
            self.open.push(',');
        }
        self.open.push_str(&item_json(&item));
        Arc::make_mut(&mut self.list.items).push(item);
        self.close();
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        let Some(&cut) = self.starts.get(len) else {
            return;
        };
        self.open.truncate(cut);
        self.starts.truncate(len);
        Arc::make_mut(&mut self.list.items).truncate(len);
        self.close();
    }

    fn close(&mut self) {
        let mut text = String::with_capacity(self.open.len() + 1);
        text.push_str(&self.open);
        text.push(']');
        // Joined from valid JSON values: always a valid array.
        self.list.json = Arc::from(RawValue::from_string(text).unwrap_or_default());
    }

    /// The list now (shared).
    pub fn list(&self) -> JsonList<T> {
        self.list.clone()
    }

    /// The items.
    pub fn items(&self) -> &[T] {
        &self.list.items
    }
}

impl<T: Serialize + Clone> Default for GrowingList<T> {
    fn default() -> Self {
        GrowingList::new()
    }
}

fn item_json<T: Serialize>(item: &T) -> String {
    // The views are plain structs of strings and numbers: serialising cannot fail.
    serde_json::to_string(item).unwrap_or_else(|_| "null".into())
}

fn array_of<'a, T: Serialize + 'a>(items: impl Iterator<Item = &'a T>) -> Arc<RawValue> {
    let mut text = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&item_json(item));
    }
    text.push(']');
    // Joined from valid JSON values: always a valid array.
    Arc::from(RawValue::from_string(text).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Item {
        text: String,
        n: u32,
    }

    fn item(text: &str, n: u32) -> Item {
        Item {
            text: text.into(),
            n,
        }
    }

    #[test]
    fn a_growing_list_serialises_as_its_items_would() {
        let mut g = GrowingList::new();
        assert_eq!(serde_json::to_string(&g.list()).unwrap(), "[]");
        g.push(item("e4 \"quoted\"", 1));
        let before = g.list();
        g.push(item("Nf3", 2));
        g.push(item("Bc4", 3));
        let want = vec![item("e4 \"quoted\"", 1), item("Nf3", 2), item("Bc4", 3)];
        assert_eq!(
            serde_json::to_string(&g.list()).unwrap(),
            serde_json::to_string(&want).unwrap()
        );
        // A list handed out earlier keeps what it had.
        assert_eq!(before.len(), 1);
        assert_eq!(
            serde_json::to_string(&before).unwrap(),
            r#"[{"text":"e4 \"quoted\"","n":1}]"#
        );
        g.truncate(5);
        assert_eq!(g.items(), &want[..]);
        g.truncate(1);
        assert_eq!(g.items(), &want[..1]);
        assert_eq!(
            serde_json::to_string(&g.list()).unwrap(),
            serde_json::to_string(&want[..1]).unwrap()
        );
        let back: JsonList<Item> =
            serde_json::from_str(&serde_json::to_string(&g.list()).unwrap()).unwrap();
        assert_eq!(back, g.list());
        g.truncate(0);
        assert_eq!(serde_json::to_string(&g.list()).unwrap(), "[]");
        g.push(item("d4", 1));
        assert_eq!(
            serde_json::to_string(&g.list()).unwrap(),
            r#"[{"text":"d4","n":1}]"#
        );
    }

    #[test]
    fn a_list_inside_a_struct_is_written_in_place() {
        #[derive(Serialize)]
        struct View {
            ply: u32,
            moves: JsonList<Item>,
        }
        let v = View {
            ply: 2,
            moves: JsonList::new(vec![item("a", 1), item("b", 2)]),
        };
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"ply":2,"moves":[{"text":"a","n":1},{"text":"b","n":2}]}"#
        );
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        let back: serde_json::Value = serde_json::from_str(&pretty).unwrap();
        assert_eq!(back["moves"][1]["text"], "b");
    }
}
