//! [`PlaneTable`]: every distinct plane of a compile, stored in pairs (a plane and its
//! negation), found again through an epsilon hash.
//!
//! Takes [`BuildPlane`]s (already snapped), gives [`PlaneId`]s. The hash keys a canonical
//! plane by its distance in [`PLANE_HASH_BUCKET`] steps and each normal component in
//! [`PLANE_HASH_NORMAL_BUCKET`] steps; a lookup searches every bucket the epsilon box around
//! the plane reaches (almost always one) and takes the earliest plane that matches, so a
//! table of a million planes (a map with fine patches) is as fast per lookup as a small one.
//! Guarantees (property 24):
//! no two stored canonical planes are within ([`NORMAL_EPSILON`], [`DIST_EPSILON`]) of each
//! other; entry `2k + 1` is the exact negation of entry `2k`; entry `2k` is canonical, its
//! largest normal component (the first on ties) being positive.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use crate::geom::BuildPlane;
use crate::tolerance::{DIST_EPSILON, NORMAL_EPSILON, PLANE_HASH_BUCKET, PLANE_HASH_NORMAL_BUCKET};

/// An index into a [`PlaneTable`]; `id ^ 1` is the same plane facing the other way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlaneId(pub u32);

impl PlaneId {
    /// The same plane facing the other way.
    #[must_use]
    pub fn flipped(self) -> PlaneId {
        PlaneId(self.0 ^ 1)
    }

    /// The canonical member of the pair.
    #[must_use]
    pub fn canonical(self) -> PlaneId {
        PlaneId(self.0 & !1)
    }
}

/// The planes of one compile.
#[derive(Clone, Debug, Default)]
pub struct PlaneTable {
    planes: Vec<BuildPlane>,
    /// Keyed by the table's own numbers, not an attacker's: the Fx hash, not SipHash, whose
    /// flooding protection buys nothing here and cost more than the lookups themselves.
    /// Lookups never depend on the map's order, so the table is the same whatever the hash.
    buckets: HashMap<[i64; 4], Vec<u32>, FxBuildHasher>,
}

/// Whether `plane` is the canonical orientation of its pair.
fn is_canonical(plane: &BuildPlane) -> bool {
    let a = plane.normal.abs();
    let axis = if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    };
    plane.normal[axis] > 0.0
}

/// The bucket of each of a plane's four numbers (distance, normal x, y, z), and the range
/// of buckets its epsilon box reaches: `(key, low, high)`.
fn buckets_of(plane: &BuildPlane) -> ([i64; 4], [i64; 4], [i64; 4]) {
    // Distances are bounded by MAX_MAP_COORD·√3 and normal components by 1, far inside i64.
    let numbers = [plane.dist, plane.normal.x, plane.normal.y, plane.normal.z];
    let (mut key, mut low, mut high) = ([0i64; 4], [0i64; 4], [0i64; 4]);
    for (k, value) in numbers.into_iter().enumerate() {
        let (width, epsilon) = if k == 0 {
            (PLANE_HASH_BUCKET, DIST_EPSILON)
        } else {
            (PLANE_HASH_NORMAL_BUCKET, NORMAL_EPSILON)
        };
        key[k] = (value / width).floor() as i64;
        low[k] = ((value - epsilon) / width).floor() as i64;
        high[k] = ((value + epsilon) / width).floor() as i64;
    }
    (key, low, high)
}

impl PlaneTable {
    /// An empty table.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `plane`, adding its pair when it is new.
    pub fn find_or_add(&mut self, plane: BuildPlane) -> PlaneId {
        let (canonical, flip) = if is_canonical(&plane) {
            (plane, 0)
        } else {
            (plane.flipped(), 1)
        };
        let (key, low, high) = buckets_of(&canonical);
        let mut found: Option<u32> = None;
        for d in low[0]..=high[0] {
            for x in low[1]..=high[1] {
                for y in low[2]..=high[2] {
                    for z in low[3]..=high[3] {
                        let Some(ids) = self.buckets.get(&[d, x, y, z]) else {
                            continue;
                        };
                        let first = ids
                            .iter()
                            .copied()
                            .find(|&id| self.planes[id as usize].is_same(&canonical));
                        if let Some(id) = first {
                            found = Some(found.map_or(id, |f| f.min(id)));
                        }
                    }
                }
            }
        }
        if let Some(id) = found {
            return PlaneId(id | flip);
        }
        let id = self.planes.len() as u32;
        self.planes.push(canonical);
        self.planes.push(canonical.flipped());
        self.buckets.entry(key).or_default().push(id);
        PlaneId(id | flip)
    }

    /// The plane with this id.
    #[must_use]
    pub fn get(&self, id: PlaneId) -> &BuildPlane {
        &self.planes[id.0 as usize]
    }

    /// Every stored plane, pairs adjacent.
    #[must_use]
    pub fn planes(&self) -> &[BuildPlane] {
        &self.planes
    }

    /// How many planes are stored (twice the number of pairs).
    #[must_use]
    pub fn len(&self) -> usize {
        self.planes.len()
    }

    /// Whether the table is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.planes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::*;

    #[test]
    fn a_plane_and_its_negation_share_a_pair() {
        let mut table = PlaneTable::new();
        let up = BuildPlane::from_normal_dist(DVec3::Z, 16.0).unwrap();
        let a = table.find_or_add(up);
        let b = table.find_or_add(up.flipped());
        assert_eq!(a.flipped(), b);
        assert_eq!(table.len(), 2);
        let nearly = BuildPlane {
            normal: DVec3::Z,
            dist: 16.0 + 1e-5,
        };
        assert_eq!(table.find_or_add(nearly), a);
        // Across a bucket boundary (8.0) the neighbour bucket is searched, and across a
        // normal bucket's.
        let edge = BuildPlane::from_normal_dist(DVec3::X, 8.0).unwrap();
        let c = table.find_or_add(edge);
        let d = table.find_or_add(BuildPlane {
            normal: DVec3::X,
            dist: 8.0 - 1e-5,
        });
        assert_eq!(c, d);
        assert_eq!(table.get(a.canonical()).normal, DVec3::Z);
        let tilted = |x: f64| BuildPlane {
            normal: DVec3::new(x, (1.0 - x * x).sqrt(), 0.0),
            dist: 3.0,
        };
        let boundary = 5.0 * PLANE_HASH_NORMAL_BUCKET;
        let e = table.find_or_add(tilted(boundary + 4e-7));
        assert_eq!(table.find_or_add(tilted(boundary - 4e-7)), e);
    }
}
