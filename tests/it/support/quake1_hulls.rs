//! Quake's own collision, read from a Quake 1 family `.bsp` independently of the importer:
//! the ground truth the imported and compiled levels are compared with.
//!
//! Takes the file's bytes (BSP29, BSP2, 2PSB, Half-Life BSP30); gives point contents in
//! hull 0 (`world.c SV_HullPointContents`: `children[0]` where `n·p − d ≥ 0`) with the
//! planes on the point's path, and `SV_RecursiveHullCheck` through the clip hulls (1 and 2)
//! of the world and of solid brush models, as `SV_Move` meets them (the earliest stop wins).
//! Panics on a malformed file: it reads only the shared corpus.

use glam::DVec3;

/// Quake's `DIST_EPSILON`: how far on the near side of a plane a trace stops (1/32 unit).
const DIST_EPSILON: f64 = 0.03125;
/// `CONTENTS_EMPTY` and `CONTENTS_SOLID`.
pub const EMPTY: i32 = -1;
pub const SOLID: i32 = -2;

#[derive(Clone, Copy, Debug)]
struct Plane {
    normal: DVec3,
    dist: f64,
}

/// A node of hull 0 or a clip hull: children ≥ 0 are nodes; < 0 are a leaf (hull 0: leaf
/// `−1−c`) or contents (clip hulls: the value itself).
#[derive(Clone, Copy, Debug)]
struct Node {
    plane: usize,
    children: [i32; 2],
}

/// A model: its bounds, origin and the head node of each hull.
#[derive(Clone, Copy, Debug)]
pub struct Model {
    pub mins: DVec3,
    pub maxs: DVec3,
    pub heads: [i32; 4],
}

/// A Quake 1 family file's hulls.
pub struct Quake1Hulls {
    planes: Vec<Plane>,
    nodes: Vec<Node>,
    clipnodes: Vec<Node>,
    leaf_contents: Vec<i32>,
    pub models: Vec<Model>,
    /// Whether the file is Half-Life's (its hulls' boxes differ).
    pub half_life: bool,
}

/// A trace's result: `SV_RecursiveHullCheck`'s `trace_t`.
#[derive(Clone, Copy, Debug)]
pub struct HullTrace {
    pub fraction: f64,
    pub end: DVec3,
    pub start_solid: bool,
    pub all_solid: bool,
    pub normal: DVec3,
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn i16_at(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn f32_at(b: &[u8], at: usize) -> f64 {
    f64::from(f32::from_le_bytes(b[at..at + 4].try_into().unwrap()))
}

impl Quake1Hulls {
    /// Reads `bytes`; `None` when it is not a Quake 1 family file.
    pub fn read(bytes: &[u8]) -> Option<Quake1Hulls> {
        let magic = bytes.get(0..4)?;
        let (wide, half_life) = match magic {
            b"BSP2" | b"2PSB" => (true, false),
            _ => match i32_at(bytes, 0) {
                29 => (false, false),
                30 => (false, true),
                _ => return None,
            },
        };
        let bsp2 = magic == b"BSP2";
        let lump = |i: usize| {
            let o = i32_at(bytes, 4 + 8 * i) as usize;
            let l = i32_at(bytes, 8 + 8 * i) as usize;
            &bytes[o..o + l]
        };
        let (ents, planes_lump) =
            if half_life && lump(0).first() != Some(&b'{') && lump(1).first() == Some(&b'{') {
                (1, 0)
            } else {
                (0, 1)
            };
        let _ = ents;
        let planes = lump(planes_lump)
            .chunks_exact(20)
            .map(|r| Plane {
                normal: DVec3::new(f32_at(r, 0), f32_at(r, 4), f32_at(r, 8)),
                dist: f32_at(r, 12),
            })
            .collect();
        let node_size = if bsp2 {
            44
        } else if wide {
            32
        } else {
            24
        };
        let node_records = lump(5);
        let node_count = node_records.len() / node_size;
        let nodes = node_records
            .chunks_exact(node_size)
            .map(|r| Node {
                plane: i32_at(r, 0) as usize,
                children: if wide {
                    [i32_at(r, 4), i32_at(r, 8)]
                } else if node_count > 32767 {
                    let c = |k: usize| {
                        let u = i32::from(u16::from_le_bytes([r[4 + 2 * k], r[5 + 2 * k]]));
                        if (u as usize) < node_count {
                            u
                        } else {
                            u - 65536
                        }
                    };
                    [c(0), c(1)]
                } else {
                    [i32::from(i16_at(r, 4)), i32::from(i16_at(r, 6))]
                },
            })
            .collect();
        let clip_size = if wide { 12 } else { 8 };
        let clipnodes = lump(9)
            .chunks_exact(clip_size)
            .map(|r| Node {
                plane: i32_at(r, 0) as usize,
                children: if wide {
                    [i32_at(r, 4), i32_at(r, 8)]
                } else {
                    [i32::from(i16_at(r, 4)), i32::from(i16_at(r, 6))]
                },
            })
            .collect();
        let leaf_size = if bsp2 {
            44
        } else if wide {
            32
        } else {
            28
        };
        let leaf_contents = lump(10)
            .chunks_exact(leaf_size)
            .map(|r| i32_at(r, 0))
            .collect();
        let models = lump(14)
            .chunks_exact(64)
            .map(|r| Model {
                mins: DVec3::new(f32_at(r, 0), f32_at(r, 4), f32_at(r, 8)),
                maxs: DVec3::new(f32_at(r, 12), f32_at(r, 16), f32_at(r, 20)),
                heads: [i32_at(r, 36), i32_at(r, 40), i32_at(r, 44), i32_at(r, 48)],
            })
            .collect();
        Some(Quake1Hulls {
            planes,
            nodes,
            clipnodes,
            leaf_contents,
            models,
            half_life,
        })
    }

    fn side(&self, plane: usize, p: DVec3) -> f64 {
        let plane = self.planes[plane];
        plane.normal.dot(p) - plane.dist
    }

    /// Hull 0's contents at `p` in model `model`, and the least distance from `p` to a plane
    /// on its path (`world.c SV_HullPointContents` on the drawn tree).
    pub fn point_contents(&self, model: usize, p: DVec3) -> (i32, f64) {
        let mut num = self.models[model].heads[0];
        let mut least = f64::INFINITY;
        while num >= 0 {
            let node = self.nodes[num as usize];
            let d = self.side(node.plane, p);
            least = least.min(d.abs());
            num = node.children[usize::from(d < 0.0)];
        }
        (self.leaf_contents[(-1 - num) as usize], least)
    }

    /// Clip hull `hull`'s contents at `p` from clipnode `num` (`SV_HullPointContents`).
    fn hull_contents(&self, mut num: i32, p: DVec3) -> i32 {
        while num >= 0 {
            let node = self.clipnodes[num as usize];
            num = node.children[usize::from(self.side(node.plane, p) < 0.0)];
        }
        num
    }

    /// Whether the file holds clip nodes at all (a compiler may leave the clip hulls out).
    pub fn has_clip_nodes(&self) -> bool {
        !self.clipnodes.is_empty()
    }

    /// Whether `p` is solid in clip hull `hull` of the world.
    pub fn hull_solid(&self, hull: usize, p: DVec3) -> bool {
        self.hull_contents(self.models[0].heads[hull], p) == SOLID
    }

    /// `SV_RecursiveHullCheck` from `start` to `end` through clip hull `hull` of `model`.
    pub fn trace_model(&self, model: usize, hull: usize, start: DVec3, end: DVec3) -> HullTrace {
        let mut trace = HullTrace {
            fraction: 1.0,
            end,
            start_solid: false,
            all_solid: true,
            normal: DVec3::ZERO,
        };
        let head = self.models[model].heads[hull];
        self.recursive(head, head, 0.0, 1.0, start, end, &mut trace);
        if trace.all_solid {
            trace.start_solid = true;
        }
        trace
    }

    /// `SV_Move` with the world and each of `models` (solid brush entities): the earliest
    /// stop wins.
    pub fn trace(&self, models: &[usize], hull: usize, start: DVec3, end: DVec3) -> HullTrace {
        let mut best = self.trace_model(0, hull, start, end);
        for &m in models {
            let t = self.trace_model(m, hull, start, end);
            if t.all_solid || t.start_solid || t.fraction < best.fraction {
                if t.start_solid {
                    best.start_solid = true;
                }
                if t.fraction < best.fraction || t.all_solid {
                    let start_solid = best.start_solid;
                    best = t;
                    best.start_solid |= start_solid;
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn recursive(
        &self,
        head: i32,
        num: i32,
        p1f: f64,
        p2f: f64,
        p1: DVec3,
        p2: DVec3,
        trace: &mut HullTrace,
    ) -> bool {
        if num < 0 {
            if num != SOLID {
                trace.all_solid = false;
            } else {
                trace.start_solid = true;
            }
            return true;
        }
        let node = self.clipnodes[num as usize];
        let t1 = self.side(node.plane, p1);
        let t2 = self.side(node.plane, p2);
        if t1 >= 0.0 && t2 >= 0.0 {
            return self.recursive(head, node.children[0], p1f, p2f, p1, p2, trace);
        }
        if t1 < 0.0 && t2 < 0.0 {
            return self.recursive(head, node.children[1], p1f, p2f, p1, p2, trace);
        }
        let mut frac = if t1 < 0.0 {
            (t1 + DIST_EPSILON) / (t1 - t2)
        } else {
            (t1 - DIST_EPSILON) / (t1 - t2)
        }
        .clamp(0.0, 1.0);
        let mut midf = p1f + (p2f - p1f) * frac;
        let mut mid = p1 + frac * (p2 - p1);
        let side = usize::from(t1 < 0.0);
        if !self.recursive(head, node.children[side], p1f, midf, p1, mid, trace) {
            return false;
        }
        if self.hull_contents(node.children[side ^ 1], mid) != SOLID {
            return self.recursive(head, node.children[side ^ 1], midf, p2f, mid, p2, trace);
        }
        if trace.all_solid {
            return false;
        }
        let plane = self.planes[node.plane];
        trace.normal = if side == 0 {
            plane.normal
        } else {
            -plane.normal
        };
        while self.hull_contents(head, mid) == SOLID {
            frac -= 0.1;
            if frac < 0.0 {
                trace.fraction = midf;
                trace.end = mid;
                return false;
            }
            midf = p1f + (p2f - p1f) * frac;
            mid = p1 + frac * (p2 - p1);
        }
        trace.fraction = midf;
        trace.end = mid;
        false
    }
}
