//! [`IdSet`]: a small sorted set of indices or ids with a fixed capacity, what a tick reports
//! characters in; [`TriggerList`], the same without a cap, and [`TriggerReport`], the
//! triggers of one tick.
//!
//! Takes `u32` values; gives them in increasing order, each once: an [`IdSet`] at most `N`
//! (a full set keeps its lowest values and says it dropped some), a [`TriggerList`] all of
//! them. Guarantees: an
//! [`IdSet`] never allocates, a [`TriggerList`] only when it grows past the most it ever
//! held (cleared and refilled, it keeps its capacity); the same values give the same set
//! whatever order they came in (so reports never depend on a broadphase's order); both
//! serialize as the list of their values, and read back only a list the set could hold.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A sorted set of at most `N` `u32` values (trigger model indices, character ids).
///
/// ```
/// use planeshift::movement::TriggerList;
/// let mut list = TriggerList::default();
/// for model in [9, 3, 7, 3] {
///     list.insert(model);
/// }
/// assert_eq!(list.as_slice(), &[3, 7, 9]);
/// ```
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(into = "Vec<u32>", try_from = "Vec<u32>")]
pub struct IdSet<const N: usize> {
    values: [u32; N],
    len: usize,
    /// A value was left out because the set was full ([`IdSet::dropped`]).
    dropped: bool,
}

impl<const N: usize> Default for IdSet<N> {
    fn default() -> Self {
        IdSet {
            values: [0; N],
            len: 0,
            dropped: false,
        }
    }
}

/// Two sets are equal when their values are and both or neither dropped some (the unused
/// slots never count).
impl<const N: usize> PartialEq for IdSet<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice() && self.dropped == other.dropped
    }
}

impl<const N: usize> Eq for IdSet<N> {}

impl<const N: usize> fmt::Debug for IdSet<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()?;
        if self.dropped {
            f.write_str(" (and more, dropped)")?;
        }
        Ok(())
    }
}

impl<const N: usize> From<IdSet<N>> for Vec<u32> {
    fn from(set: IdSet<N>) -> Vec<u32> {
        set.as_slice().to_vec()
    }
}

impl<const N: usize> TryFrom<Vec<u32>> for IdSet<N> {
    type Error = String;

    fn try_from(values: Vec<u32>) -> Result<IdSet<N>, String> {
        let increasing = values.windows(2).all(|w| w[0] < w[1]);
        if !increasing || values.len() > N {
            return Err(format!("at most {N} values, in increasing order"));
        }
        let mut set = IdSet::default();
        for v in values {
            set.insert(v);
        }
        Ok(set)
    }
}

impl<const N: usize> IdSet<N> {
    /// The values, in increasing order.
    #[must_use]
    pub fn as_slice(&self) -> &[u32] {
        &self.values[..self.len]
    }

    /// The values as `usize` (model indices), in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&v| v as usize)
    }

    /// How many values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `value` is in the set (a `usize` too large for `u32` never is).
    #[must_use]
    pub fn contains(&self, value: usize) -> bool {
        u32::try_from(value).is_ok_and(|v| self.as_slice().binary_search(&v).is_ok())
    }

    /// Whether a value was ever left out because the set was full: then the set holds the
    /// lowest `N` of more values, and a caller that needs them all asks an uncapped query
    /// (such as [`Crowd::overlapping_at_into`](crate::crowd::Crowd::overlapping_at_into)).
    #[must_use]
    pub fn dropped(&self) -> bool {
        self.dropped
    }

    /// Adds `value` in order; a full set keeps its lowest values and remembers it dropped
    /// one ([`Self::dropped`]).
    pub fn insert(&mut self, value: u32) {
        let Err(at) = self.as_slice().binary_search(&value) else {
            return;
        };
        if self.len == N {
            self.dropped = true;
        }
        if at == N {
            return;
        }
        let end = self.len.min(N - 1);
        self.values.copy_within(at..end, at + 1);
        self.values[at] = value;
        self.len = (self.len + 1).min(N);
    }

    /// The values of `self` that `other` does not hold (dropped if `self` dropped some).
    #[must_use]
    pub fn without(&self, other: &IdSet<N>) -> IdSet<N> {
        let mut out = IdSet {
            dropped: self.dropped,
            ..IdSet::default()
        };
        for &v in self.as_slice() {
            if other.as_slice().binary_search(&v).is_err() {
                out.insert(v);
            }
        }
        out
    }

    /// The values of either set (the lowest `N`; dropped if either dropped some or they
    /// do not fit).
    #[must_use]
    pub fn union(&self, other: &IdSet<N>) -> IdSet<N> {
        let mut out = *self;
        out.dropped |= other.dropped;
        for &v in other.as_slice() {
            out.insert(v);
        }
        out
    }
}

/// How many trigger models a character's lists and a reused outcome's make room for at once
/// (Quake 3's player box overlaps a handful): a tick allocates only when a character
/// touches more than its lists ever held.
pub const TRIGGER_RESERVE: usize = 16;

/// A sorted set of trigger model indices, without a cap (a character inside 20 overlapping
/// triggers is in all 20; Quake 3's `G_TouchTriggers` gathers up to `MAX_GENTITIES`).
///
/// ```
/// use planeshift::movement::TriggerList;
/// let mut list = TriggerList::default();
/// for model in (1..=40).rev() {
///     list.insert(model);
/// }
/// assert_eq!(list.len(), 40);
/// assert_eq!(list.as_slice()[..3], [1, 2, 3]);
/// ```
#[derive(Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Vec<u32>", try_from = "Vec<u32>")]
pub struct TriggerList {
    /// Increasing, each once.
    values: Vec<u32>,
}

/// [`Clone::clone_from`] refills the list in place, keeping its capacity.
impl Clone for TriggerList {
    fn clone(&self) -> Self {
        TriggerList {
            values: self.values.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.values.clone_from(&source.values);
    }
}

impl fmt::Debug for TriggerList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl From<TriggerList> for Vec<u32> {
    fn from(list: TriggerList) -> Vec<u32> {
        list.values
    }
}

impl TryFrom<Vec<u32>> for TriggerList {
    type Error = String;

    fn try_from(values: Vec<u32>) -> Result<TriggerList, String> {
        if !values.windows(2).all(|w| w[0] < w[1]) {
            return Err("trigger models in increasing order, each once".to_string());
        }
        Ok(TriggerList { values })
    }
}

impl TriggerList {
    /// The values, in increasing order.
    #[must_use]
    pub fn as_slice(&self) -> &[u32] {
        &self.values
    }

    /// Empties the list, keeping its capacity.
    pub(crate) fn clear(&mut self) {
        self.values.clear();
    }

    /// An empty list with room for [`TRIGGER_RESERVE`] models.
    pub(crate) fn with_reserve() -> TriggerList {
        TriggerList {
            values: Vec::with_capacity(TRIGGER_RESERVE),
        }
    }

    /// Makes the capacity at least [`TRIGGER_RESERVE`] models (nothing once it is).
    pub(crate) fn reserve(&mut self) {
        let more = TRIGGER_RESERVE.saturating_sub(self.values.len());
        self.values.reserve(more);
    }

    /// The values as `usize` (model indices), in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.values.iter().map(|&v| v as usize)
    }

    /// How many values.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the list is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether `value` is in the list (a `usize` too large for `u32` never is).
    #[must_use]
    pub fn contains(&self, value: usize) -> bool {
        u32::try_from(value).is_ok_and(|v| self.values.binary_search(&v).is_ok())
    }

    /// Adds `value` in order (nothing if it is there already).
    pub fn insert(&mut self, value: u32) {
        if let Err(at) = self.values.binary_search(&value) {
            self.values.insert(at, value);
        }
    }

    /// Writes into `out` (cleared first) the values of `self` that `other` does not hold.
    pub(crate) fn difference_into(&self, other: &TriggerList, out: &mut TriggerList) {
        out.values.clear();
        out.values.extend(
            self.values
                .iter()
                .filter(|v| other.values.binary_search(v).is_err()),
        );
    }

    /// Writes into `out` (cleared first) the values of `self` or `also` that `not` does not
    /// hold, in increasing order.
    pub(crate) fn union_without_into(
        &self,
        also: &TriggerList,
        not: &TriggerList,
        out: &mut TriggerList,
    ) {
        out.values.clear();
        let (mut a, mut b) = (self.values.iter().peekable(), also.values.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(&&x), Some(&&y)) if x == y => {
                    a.next();
                    b.next();
                    x
                }
                (Some(&&x), Some(&&y)) if x < y => {
                    a.next();
                    x
                }
                (_, Some(&&y)) => {
                    b.next();
                    y
                }
                (Some(&&x), None) => {
                    a.next();
                    x
                }
                (None, None) => break,
            };
            if not.values.binary_search(&next).is_err() {
                out.values.push(next);
            }
        }
    }
}

/// The trigger models of one tick.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TriggerReport {
    /// Touched on the way from the tick's start to its end (Quake 3 calls `touch` for
    /// these every frame), including those the character ends in.
    pub touched: TriggerList,
    /// Touched this tick and not in at the end of the last one (Source `StartTouch`).
    pub entered: TriggerList,
    /// In at the end of the last tick or touched this tick, and not in at the end of this
    /// one (Source `EndTouch`): a trigger crossed within the tick is entered and left.
    pub left: TriggerList,
}

impl TriggerReport {
    /// Makes each list's capacity at least [`TRIGGER_RESERVE`] models (nothing once it is).
    pub(crate) fn reserve(&mut self) {
        self.touched.reserve();
        self.entered.reserve();
        self.left.reserve();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigger_lists_hold_every_value_and_combine_like_sets() {
        let mut a = TriggerList::default();
        for v in (0..40).step_by(2).rev() {
            a.insert(v);
            a.insert(v);
        }
        assert_eq!(a.len(), 20);
        assert!(a.contains(38) && !a.contains(39) && !a.contains(usize::MAX));
        let b = TriggerList::try_from((30..45).collect::<Vec<u32>>()).unwrap();
        let mut out = TriggerList::default();
        a.difference_into(&b, &mut out);
        assert_eq!(out.as_slice(), (0..30).step_by(2).collect::<Vec<u32>>());
        let not = TriggerList::try_from(vec![0, 31, 44]).unwrap();
        a.union_without_into(&b, &not, &mut out);
        let mut want: Vec<u32> = (2..30)
            .step_by(2)
            .chain(30..44)
            .filter(|v| *v != 31)
            .collect();
        want.dedup();
        assert_eq!(out.as_slice(), want);
        assert!(TriggerList::try_from(vec![2, 1]).is_err());
        assert!(TriggerList::try_from(vec![1, 1]).is_err());
    }

    #[test]
    fn sets_stay_ordered_and_bounded() {
        let mut set = IdSet::<16>::default();
        for v in [9, 3, 7, 3, 1] {
            set.insert(v);
        }
        assert_eq!(set.as_slice(), &[1, 3, 7, 9]);
        assert!(set.contains(7) && !set.contains(8) && !set.contains(usize::MAX));
        for v in (100..140).rev() {
            set.insert(v);
        }
        assert_eq!(set.len(), 16);
        assert!(set.dropped());
        assert_eq!(&set.as_slice()[..5], &[1, 3, 7, 9, 100]);
        assert_eq!(set.as_slice()[15], 111);
        // Full, a set says it dropped a value even when the value is higher than all.
        let mut full = IdSet::<2>::default();
        full.insert(1);
        full.insert(2);
        assert!(!full.dropped());
        full.insert(3);
        assert!(full.dropped() && full.as_slice() == [1, 2]);
        let a = IdSet::<16>::try_from(vec![1, 2, 5]).unwrap();
        assert!(!a.dropped());
        let b = IdSet::<16>::try_from(vec![2, 6]).unwrap();
        assert_eq!(a.without(&b).as_slice(), &[1, 5]);
        assert_eq!(a.union(&b).as_slice(), &[1, 2, 5, 6]);
        assert!(IdSet::<16>::try_from(vec![2, 1]).is_err());
        assert!(IdSet::<16>::try_from((0..17).collect::<Vec<u32>>()).is_err());
        assert_eq!(Vec::from(a), vec![1, 2, 5]);
    }
}
