//! Where a map's liquids may be, so that `PM_SetWaterLevel` asks the world's point contents
//! only near one: far from every liquid brush the answer is known to be "no liquid".
//!
//! Takes a compiled map (once, named by its contents id) and the points a command samples;
//! gives, per point, whether the map's point contents there surely hold no liquid
//! ([`Liquids::surely_dry`]), or nothing known (the caller asks the map). Guarantees: "surely
//! dry" only where [`CompiledMap::point_contents`] gives no liquid, because a point's
//! contents are those of the leaf it falls in (or of the brushes of that leaf it lies
//! strictly inside), a leaf's contents are the union of the brushes it lists (`bsp/tree.rs`),
//! and a leaf listing a brush lies inside that brush (or the point is strictly inside it):
//! so a point with liquid lies within the bounds of a liquid brush, up to the f32 rounding
//! of the node planes that placed it in the leaf ([`LIQUID_MARGIN`]). A map whose leaves'
//! liquid is not all listed brushes' (a file not made that way) is never called dry here.
//! Allocates once per map (the liquid brushes' bounds), nothing per command.

use glam::Vec3;

use crate::CompiledMap;
use crate::contents::Contents;

/// How far outside a liquid brush's bounds a point may still fall in one of its leaves, in
/// map units: the f32 rounding of the node planes a point descends (a few ulps of 2^17,
/// under 0.1). Only makes fewer points dry.
const LIQUID_MARGIN: f32 = 1.0;

/// Half the side of the box around a sampled point that is kept when no liquid brush's
/// grown bounds meet it, in map units: the next commands' samples inside it are dry at
/// once (a running player crosses 64 units in about 25 commands at 125 Hz). Only speed.
const DRY_REACH: f32 = 64.0;

/// A map's liquid brushes and the last box found free of them.
#[derive(Clone, Debug)]
pub(super) struct Liquids {
    /// The map's contents id.
    map: u64,
    /// Whether the map holds no liquid anywhere (no leaf, no brush).
    pub dry: bool,
    /// Whether every leaf with liquid lists a liquid brush (the bounds below may be
    /// trusted).
    listed: bool,
    /// The liquid brushes' bounds, grown by [`LIQUID_MARGIN`].
    bounds: Vec<(Vec3, Vec3)>,
    /// A box no grown liquid bounds meet.
    dry_box: Option<(Vec3, Vec3)>,
}

impl Liquids {
    /// The liquids of `map`.
    pub(super) fn of(map: &CompiledMap) -> Liquids {
        let wet = |c: Contents| c.intersects(Contents::MASK_LIQUID);
        let margin = Vec3::splat(LIQUID_MARGIN);
        let bounds: Vec<(Vec3, Vec3)> = map
            .brushes()
            .iter()
            .filter(|b| wet(b.contents))
            .map(|b| (b.mins - margin, b.maxs + margin))
            .collect();
        let brushes = map.brushes();
        let listed = map.leaves().iter().filter(|l| wet(l.contents)).all(|l| {
            map.leaf_brush_ids(l)
                .iter()
                .any(|&b| brushes.get(b as usize).is_some_and(|b| wet(b.contents)))
        });
        let dry = bounds.is_empty() && !map.leaves().iter().any(|l| wet(l.contents));
        Liquids {
            map: map.contents_id(),
            dry,
            listed,
            bounds,
            dry_box: None,
        }
    }

    /// Whether these are the liquids of the map with contents id `map`.
    pub(super) fn is_of(&self, map: u64) -> bool {
        self.map == map
    }

    /// Whether the map's point contents at `p` surely hold no liquid (`false`: not known).
    pub(super) fn surely_dry(&mut self, p: Vec3) -> bool {
        if self.dry {
            return true;
        }
        if !self.listed || !p.is_finite() {
            return false;
        }
        if let Some((lo, hi)) = self.dry_box
            && lo.cmple(p).all()
            && p.cmple(hi).all()
        {
            return true;
        }
        let reach = Vec3::splat(DRY_REACH);
        let (lo, hi) = (p - reach, p + reach);
        let meets = |(b_lo, b_hi): &(Vec3, Vec3)| b_lo.cmple(hi).all() && lo.cmple(*b_hi).all();
        if self.bounds.iter().any(meets) {
            return false;
        }
        self.dry_box = Some((lo, hi));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::XorShift;

    /// On a map with water, "surely dry" is said only where the point contents hold no
    /// liquid, and it is said often (away from the pool) while the pool's points are wet.
    #[test]
    fn surely_dry_only_where_the_point_contents_hold_no_liquid() {
        let map = crate::test_maps::bundled("movement.map");
        let mut liquids = Liquids::of(&map);
        assert!(!liquids.dry && liquids.listed && !liquids.bounds.is_empty());
        let Some(world) = map.models().first() else {
            panic!("a world model");
        };
        let (lo, hi) = (world.mins, world.maxs);
        let mut rng = XorShift::new(37);
        let mut draw = |a: f32, b: f32| a + (b - a) * (rng.unit() * 0.5 + 0.5);
        let (mut dry, mut wet, mut unknown) = (0, 0, 0);
        // Judges one point: "surely dry" must hold no liquid; counts what was said.
        let mut judge = |liquids: &mut Liquids, at: Vec3| {
            let liquid = map.point_contents(at).intersects(Contents::MASK_LIQUID);
            if liquids.surely_dry(at) {
                assert!(!liquid, "{at} said dry, holds liquid");
                dry += 1;
            } else if liquid {
                wet += 1;
            } else {
                unknown += 1;
            }
        };
        // A walk of nearby points (as a player's feet go), jumping elsewhere now and then.
        let mut at = Vec3::new(draw(lo.x, hi.x), draw(lo.y, hi.y), draw(lo.z, hi.z));
        for step in 0..20_000 {
            if step % 50 == 0 {
                at = Vec3::new(draw(lo.x, hi.x), draw(lo.y, hi.y), draw(lo.z, hi.z));
            }
            at += Vec3::new(draw(-3.0, 3.0), draw(-3.0, 3.0), draw(-1.0, 1.0));
            judge(&mut liquids, at);
        }
        // And points in and about each liquid brush.
        for (b_lo, b_hi) in liquids.bounds.clone() {
            for _ in 0..200 {
                let at = Vec3::new(
                    draw(b_lo.x - 8.0, b_hi.x + 8.0),
                    draw(b_lo.y - 8.0, b_hi.y + 8.0),
                    draw(b_lo.z - 8.0, b_hi.z + 8.0),
                );
                judge(&mut liquids, at);
            }
        }
        assert!(dry > 1000 && wet > 100 && unknown > 10, "{dry} {wet} {unknown}");
        // Not finite: nothing known.
        assert!(!liquids.surely_dry(Vec3::NAN));
    }
}
