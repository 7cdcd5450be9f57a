//! A test-side reader of Quake 2 `.bsp` files (IBSP 38 and QBSP 38), independent of the
//! library's importer: planes, nodes, leaves and brushes, for the tree walk Quake 2's own
//! `CM_PointContents` (`qcommon/cmodel.c`) does and for sampling points near brushes.
//!
//! Takes a file's bytes; gives a [`Q2Bsp`] or a message. Guarantees: every index used by the
//! walk is checked when read (a bad file is `None`, never a panic in the tests).

/// One node: its plane and children (negative: leaf `−(c + 1)`).
pub struct Q2Node {
    pub plane: usize,
    pub children: [i32; 2],
}

/// A parsed Quake 2 file, what the tests read of it.
pub struct Q2Bsp {
    /// `(normal, dist)` per plane.
    pub planes: Vec<([f64; 3], f64)>,
    pub nodes: Vec<Q2Node>,
    /// Per leaf: contents and how many brushes it lists.
    pub leafs: Vec<(u32, usize)>,
    /// Per brush: its bounds from its axial sides, and its contents.
    pub brushes: Vec<([f64; 3], [f64; 3], u32)>,
    /// Model 0's head node.
    pub world_head: i32,
}

fn i32_at(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn f32_at(b: &[u8], at: usize) -> Option<f64> {
    Some(f32::from_bits(i32_at(b, at)? as u32) as f64)
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

impl Q2Bsp {
    /// Reads `bytes`, `None` when it is no Quake 2 file or is malformed.
    pub fn parse(bytes: &[u8]) -> Option<Q2Bsp> {
        let wide = match bytes.get(0..4)? {
            b"IBSP" => false,
            b"QBSP" => true,
            _ => return None,
        };
        if i32_at(bytes, 4)? != 38 {
            return None;
        }
        let lump = |i: usize| -> Option<&[u8]> {
            let o = i32_at(bytes, 8 + 8 * i)? as usize;
            let l = i32_at(bytes, 12 + 8 * i)? as usize;
            bytes.get(o..o + l)
        };
        let planes_lump = lump(1)?;
        let planes = planes_lump
            .chunks_exact(20)
            .map(|r| {
                Some((
                    [f32_at(r, 0)?, f32_at(r, 4)?, f32_at(r, 8)?],
                    f32_at(r, 12)?,
                ))
            })
            .collect::<Option<Vec<_>>>()?;
        let nodes = lump(4)?
            .chunks_exact(if wide { 44 } else { 28 })
            .map(|r| {
                Some(Q2Node {
                    plane: i32_at(r, 0)? as usize,
                    children: [i32_at(r, 4)?, i32_at(r, 8)?],
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let leafs = lump(8)?
            .chunks_exact(if wide { 52 } else { 28 })
            .map(|r| {
                let count = if wide {
                    i32_at(r, 48)? as usize
                } else {
                    u16_at(r, 26)?
                };
                Some((i32_at(r, 0)? as u32, count))
            })
            .collect::<Option<Vec<_>>>()?;
        let sides = lump(15)?;
        let side_size = if wide { 8 } else { 4 };
        let brushes = lump(14)?
            .chunks_exact(12)
            .map(|r| {
                let first = i32_at(r, 0)? as usize;
                let count = i32_at(r, 4)? as usize;
                let mut mins = [f64::NEG_INFINITY; 3];
                let mut maxs = [f64::INFINITY; 3];
                for s in first..first + count {
                    let at = s * side_size;
                    let plane = if wide {
                        i32_at(sides, at)? as usize
                    } else {
                        u16_at(sides, at)?
                    };
                    let (n, d) = *planes.get(plane)?;
                    for axis in 0..3 {
                        if n[axis] == 1.0 {
                            maxs[axis] = d;
                        } else if n[axis] == -1.0 {
                            mins[axis] = -d;
                        }
                    }
                }
                Some((mins, maxs, i32_at(r, 8)? as u32))
            })
            .collect::<Option<Vec<_>>>()?;
        let world_head = i32_at(lump(13)?, 36)?;
        Some(Q2Bsp {
            planes,
            nodes,
            leafs,
            brushes,
            world_head,
        })
    }

    /// The world leaf holding `p` (`CM_PointLeafnum_r`: `n·p − dist < 0` goes to
    /// children[1]), and the smallest distance to a plane on the way.
    pub fn point_leaf(&self, p: [f64; 3]) -> Option<(usize, f64)> {
        let mut num = self.world_head;
        let mut nearest = f64::INFINITY;
        let mut steps = 0;
        while num >= 0 {
            let node = self.nodes.get(num as usize)?;
            let (n, dist) = self.planes.get(node.plane)?;
            let d = n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - dist;
            nearest = nearest.min(d.abs());
            num = if d < 0.0 {
                node.children[1]
            } else {
                node.children[0]
            };
            steps += 1;
            if steps > self.nodes.len() {
                return None;
            }
        }
        Some(((-(num as i64 + 1)) as usize, nearest))
    }
}
