//! A list that is serialised once and then sent as is (issue 12): a game's moves and legal
//! moves go into every state message and answer, to every socket, and escaping their
//! strings again each time was most of the server's work per move.

use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::{RawValue, to_raw_value};

/// A JSON array and its items, both shared: cloning is two reference counts.
///
/// Serialised with `serde_json` it writes the stored text unchanged; read back, it is the
/// items again. A list made from JSON ([`JsonList::from_json`]) reads its items only when
/// asked for them (the server mostly only sends it). Equality compares the JSON text.
#[derive(Debug)]
pub struct JsonList<T> {
    json: Arc<RawValue>,
    items: Arc<OnceLock<Vec<T>>>,
}

impl<T> Clone for JsonList<T> {
    fn clone(&self) -> Self {
        JsonList {
            json: self.json.clone(),
            items: self.items.clone(),
        }
    }
}

impl<T: Serialize> JsonList<T> {
    /// The list of `items`, serialised now.
    pub fn new(items: Vec<T>) -> JsonList<T> {
        JsonList {
            json: Arc::from(raw(&items)),
            items: Arc::new(OnceLock::from(items)),
        }
    }

    /// The list whose JSON array `serialize` writes (for example a `Vec` of borrowed views):
    /// its items are read from that text when first asked for.
    pub fn from_json<S: Serialize + ?Sized>(serialize: &S) -> JsonList<T> {
        JsonList {
            json: Arc::from(raw(serialize)),
            items: Arc::new(OnceLock::new()),
        }
    }
}

impl<T: DeserializeOwned> JsonList<T> {
    /// The items.
    pub fn items(&self) -> &[T] {
        // Written from items of this type (or read from valid JSON): it reads back.
        self.items
            .get_or_init(|| serde_json::from_str(self.json.get()).unwrap_or_default())
    }
}

impl<T: DeserializeOwned> Deref for JsonList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.items()
    }
}

impl<T: Serialize> Default for JsonList<T> {
    fn default() -> Self {
        JsonList::new(Vec::new())
    }
}

impl<T> PartialEq for JsonList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.json.get() == other.json.get()
    }
}

impl<T> Eq for JsonList<T> {}

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

/// A list that grows at its end, keeping the JSON text of each item: pushing serialises the
/// new item only, and the array's text is the items' texts joined (a copy, no escaping and no
/// parsing).
#[derive(Debug, Clone)]
pub struct GrowingList<T> {
    items: Vec<T>,
    texts: Vec<Box<RawValue>>,
    list: JsonList<T>,
}

impl<T: Serialize> GrowingList<T> {
    /// An empty list.
    pub fn new() -> GrowingList<T> {
        GrowingList {
            items: Vec::new(),
            texts: Vec::new(),
            list: JsonList::default(),
        }
    }

    /// Appends `item`.
    pub fn push(&mut self, item: T) {
        self.texts.push(raw(&item));
        self.items.push(item);
        self.list = JsonList::from_json(&self.texts);
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.items.len() {
            return;
        }
        self.items.truncate(len);
        self.texts.truncate(len);
        self.list = JsonList::from_json(&self.texts);
    }

    /// The list now (shared).
    pub fn list(&self) -> JsonList<T> {
        self.list.clone()
    }

    /// The items.
    pub fn items(&self) -> &[T] {
        &self.items
    }
}

impl<T: Serialize> Default for GrowingList<T> {
    fn default() -> Self {
        GrowingList::new()
    }
}

/// The JSON text of `value`. `serde_json::to_raw_value` keeps the text it wrote without
/// parsing it again (a `RawValue` inside is copied as is).
fn raw<S: Serialize + ?Sized>(value: &S) -> Box<RawValue> {
    // The views are plain structs of strings and numbers: serialising cannot fail.
    to_raw_value(value).unwrap_or_default()
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
    fn a_list_made_from_json_reads_its_items_when_asked() {
        #[derive(Serialize)]
        struct Borrowed<'a> {
            text: &'a str,
            n: u32,
        }
        let list: JsonList<Item> = JsonList::from_json(&[Borrowed {
            text: "x \"y\"",
            n: 1,
        }]);
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            r#"[{"text":"x \"y\"","n":1}]"#
        );
        assert_eq!(list.items(), &[item("x \"y\"", 1)]);
        assert_eq!(list, JsonList::new(vec![item("x \"y\"", 1)]));
        assert_ne!(list, JsonList::new(vec![item("x", 1)]));
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
