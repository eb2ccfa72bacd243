//! A list that is serialised once and then sent as is (issue 12): a game's moves and legal
//! moves go into every state message and answer, to every socket, and escaping their
//! strings again each time was most of the server's work per move.
//!
//! A [`GrowingList`] also knows where each item starts in its text and which history it
//! belongs to, so that a socket that has the first items already is sent only the rest
//! ([`JsonList::tail`], the `moves=changes` WebSocket of docs/api.md).

use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
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
    text: Arc<ListText>,
    items: Arc<OnceLock<Vec<T>>>,
}

/// A list's JSON text: whole, or (a [`GrowingList`]'s) the items' texts, joined when first
/// needed: a socket that gets only the new items never needs the whole array.
#[derive(Debug)]
enum ListText {
    Whole(Box<RawValue>),
    Parts {
        parts: Box<[Arc<RawValue>]>,
        /// Two lists of one history agree on the items the shorter one has: a list keeps its
        /// history while it only grows, and gets a new one when cut ([`GrowingList::truncate`]).
        history: u64,
        whole: OnceLock<Box<RawValue>>,
    },
}

impl ListText {
    fn json(&self) -> &RawValue {
        match self {
            ListText::Whole(json) => json,
            ListText::Parts { parts, whole, .. } => whole.get_or_init(|| raw(parts)),
        }
    }
}

/// The next history number: unique in this process (a socket's memory of what it sent never
/// crosses processes).
static NEXT_HISTORY: AtomicU64 = AtomicU64::new(1);

fn new_history() -> u64 {
    NEXT_HISTORY.fetch_add(1, Ordering::Relaxed)
}

impl<T> Clone for JsonList<T> {
    fn clone(&self) -> Self {
        JsonList {
            text: self.text.clone(),
            items: self.items.clone(),
        }
    }
}

impl<T> JsonList<T> {
    fn whole(json: Box<RawValue>, items: OnceLock<Vec<T>>) -> JsonList<T> {
        JsonList {
            text: Arc::new(ListText::Whole(json)),
            items: Arc::new(items),
        }
    }

    /// The JSON text of the array.
    pub fn json(&self) -> &str {
        self.text.json().get()
    }

    /// For a list made by a [`GrowingList`]: its history and its number of items. Two lists
    /// of the same history agree on the first items of the shorter one.
    pub fn history(&self) -> Option<(u64, usize)> {
        match &*self.text {
            ListText::Parts { parts, history, .. } => Some((*history, parts.len())),
            ListText::Whole(_) => None,
        }
    }

    /// The items from index `from` on, as a list of its own (`[]` when `from` is the length):
    /// what a holder of the first `from` items lacks. `None` for a list not made by a
    /// [`GrowingList`] or a `from` past its end.
    pub fn tail(&self, from: usize) -> Option<JsonList<T>> {
        match &*self.text {
            ListText::Parts { parts, .. } => {
                Some(JsonList::whole(raw(parts.get(from..)?), OnceLock::new()))
            }
            ListText::Whole(_) => None,
        }
    }
}

impl<T: Serialize> JsonList<T> {
    /// The list of `items`, serialised now.
    pub fn new(items: Vec<T>) -> JsonList<T> {
        JsonList::whole(raw(&items), OnceLock::from(items))
    }

    /// The list whose JSON array `serialize` writes (for example a `Vec` of borrowed views):
    /// its items are read from that text when first asked for.
    pub fn from_json<S: Serialize + ?Sized>(serialize: &S) -> JsonList<T> {
        JsonList::whole(raw(serialize), OnceLock::new())
    }
}

impl<T: DeserializeOwned> JsonList<T> {
    /// The items.
    pub fn items(&self) -> &[T] {
        // Written from items of this type (or read from valid JSON): it reads back.
        self.items
            .get_or_init(|| serde_json::from_str(self.json()).unwrap_or_default())
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
        self.json() == other.json()
    }
}

impl<T> Eq for JsonList<T> {}

impl<T> Serialize for JsonList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.text.json().serialize(s)
    }
}

impl<'de, T: Serialize + DeserializeOwned> Deserialize<'de> for JsonList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(JsonList::new(Vec::<T>::deserialize(d)?))
    }
}

/// A list that grows at its end, keeping the JSON text of each item: pushing serialises the
/// new item only; the array's text is the items' texts joined (a copy, no escaping and no
/// parsing), when first needed. Not `Clone`: a copy that grew apart would share its history.
#[derive(Debug)]
pub struct GrowingList<T> {
    items: Vec<T>,
    texts: Vec<Arc<RawValue>>,
    history: u64,
    list: JsonList<T>,
}

impl<T: Serialize> GrowingList<T> {
    /// An empty list, of a new history.
    pub fn new() -> GrowingList<T> {
        let mut g = GrowingList {
            items: Vec::new(),
            texts: Vec::new(),
            history: new_history(),
            list: JsonList::default(),
        };
        g.relist();
        g
    }

    /// Appends `item`.
    pub fn push(&mut self, item: T) {
        self.texts.push(Arc::from(raw(&item)));
        self.items.push(item);
        self.relist();
    }

    /// Keeps the first `len` items. The list starts a new history: a holder of the items cut
    /// off must be sent the whole list again.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.items.len() {
            return;
        }
        self.items.truncate(len);
        self.texts.truncate(len);
        self.history = new_history();
        self.relist();
    }

    /// Takes the history of `old` (the same game before it was read again from the store)
    /// when this list starts with all of `old`'s items, so that sockets that hold `old` are
    /// sent only what is new. Compares the items' texts; no parsing.
    pub fn continue_history(&mut self, old: &JsonList<T>) {
        let ListText::Parts { parts, history, .. } = &*old.text else {
            return;
        };
        let continues = parts.len() <= self.texts.len()
            && parts
                .iter()
                .zip(&self.texts)
                .all(|(a, b)| a.get() == b.get());
        if continues && *history != self.history {
            self.history = *history;
            self.relist();
        }
    }

    fn relist(&mut self) {
        self.list = JsonList {
            text: Arc::new(ListText::Parts {
                parts: self.texts.as_slice().into(),
                history: self.history,
                whole: OnceLock::new(),
            }),
            items: Arc::new(OnceLock::new()),
        };
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

    fn text<T>(list: &JsonList<T>) -> String {
        serde_json::to_string(list).unwrap()
    }

    #[test]
    fn a_tail_is_the_items_after_those_held() {
        let mut g = GrowingList::new();
        let all = [item("a", 1), item("b \"q\", c", 2), item("", 3)];
        for i in &all {
            g.push(i.clone());
        }
        let list = g.list();
        for from in 0..=all.len() {
            let tail = list.tail(from).expect("a tail");
            assert_eq!(text(&tail), serde_json::to_string(&all[from..]).unwrap());
            assert_eq!(tail.items(), &all[from..]);
            assert_eq!(tail.history(), None, "a tail is not a history of its own");
        }
        assert!(list.tail(4).is_none(), "past the end");
        assert!(
            JsonList::new(all.to_vec()).tail(1).is_none(),
            "not a growing list"
        );
        assert!(GrowingList::<Item>::new().list().tail(0).is_some());
    }

    #[test]
    fn a_list_keeps_its_history_while_it_grows_and_not_when_cut() {
        let mut g = GrowingList::new();
        g.push(item("a", 1));
        let (h, n) = g.list().history().unwrap();
        assert_eq!(n, 1);
        g.push(item("b", 2));
        assert_eq!(g.list().history(), Some((h, 2)));
        g.truncate(1);
        let (cut, n) = g.list().history().unwrap();
        assert_ne!(cut, h, "a cut list starts a new history");
        assert_eq!(n, 1);
        assert_ne!(GrowingList::<Item>::new().list().history().unwrap().0, cut);
    }

    #[test]
    fn a_list_read_again_continues_the_history_it_extends() {
        let mut old = GrowingList::new();
        old.push(item("a", 1));
        old.push(item("b", 2));
        let (h, _) = old.list().history().unwrap();
        // The same moves and one more, read again: the same history.
        let mut again = GrowingList::new();
        for i in [item("a", 1), item("b", 2), item("c", 3)] {
            again.push(i);
        }
        again.continue_history(&old.list());
        assert_eq!(again.list().history(), Some((h, 3)));
        assert_eq!(
            text(&again.list().tail(2).unwrap()),
            r#"[{"text":"c","n":3}]"#
        );
        // Other moves (a takeback and another move elsewhere): a new history.
        let mut other = GrowingList::new();
        for i in [item("a", 1), item("x", 2), item("c", 3)] {
            other.push(i);
        }
        other.continue_history(&old.list());
        assert_ne!(other.list().history().unwrap().0, h);
        // An item whose text starts like the old last one is not the same item.
        let mut longer = GrowingList::new();
        for i in [item("a", 1), item("b", 22)] {
            longer.push(i);
        }
        longer.continue_history(&old.list());
        assert_ne!(longer.list().history().unwrap().0, h);
        // Fewer moves than held: a new history.
        let mut shorter = GrowingList::new();
        shorter.push(item("a", 1));
        shorter.continue_history(&old.list());
        assert_ne!(shorter.list().history().unwrap().0, h);
        // From an empty list anything continues.
        let empty = GrowingList::<Item>::new();
        let mut any = GrowingList::new();
        any.push(item("z", 9));
        any.continue_history(&empty.list());
        assert_eq!(
            any.list().history().unwrap().0,
            empty.list().history().unwrap().0
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
