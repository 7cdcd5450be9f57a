//! The flood through the portals: which open leaves reach the outside, by which shortest way,
//! and which the point entities reach (qbsp3 `FloodEntities` and `FloodPortals_r`, ericw-tools
//! `outside.cc`).
//!
//! Takes the tree, its [`Portals`] and which leaves seal, gives breadth-first floods: from the
//! outside (each reached leaf's next portal on a shortest way out, counted in portals) and
//! from the seeds' leaves (every leaf they reach). Guarantees: a flood crosses a portal only
//! between two open leaves or an open leaf and the outside; a way out found from a leaf
//! ends at the outside after at most one portal per leaf; the floods are deterministic
//! (portals are visited in their stored order).

use std::collections::VecDeque;

use glam::DVec3;

use super::portals::{Cell, Portals};
use crate::bsp::{BspTree, Child, PlaneTable};

/// The leaf holding `p`. A point exactly on a node plane goes to a sealing leaf when one of
/// the leaves it touches seals (ericw-tools' `PointInLeaf`: an entity written on the outer
/// face of a wall is not a leak), else behind the plane.
pub(crate) fn leaf_at(tree: &BspTree, planes: &PlaneTable, sealing: &[bool], p: DVec3) -> u32 {
    let mut fallback = None;
    let mut stack = vec![tree.root];
    while let Some(child) = stack.pop() {
        match child {
            Child::Leaf(leaf) => {
                if sealing.get(leaf as usize).copied().unwrap_or(false) {
                    return leaf;
                }
                fallback = fallback.or(Some(leaf));
            }
            Child::Node(node) => {
                let node = &tree.nodes[node as usize];
                let d = planes.get(node.plane).distance(p);
                let [front, back] = node.children;
                if d > 0.0 {
                    stack.push(front);
                } else if d < 0.0 {
                    stack.push(back);
                } else {
                    // Back is popped first, so the fallback is the leaf behind every plane.
                    stack.push(front);
                    stack.push(back);
                }
            }
        }
    }
    fallback.unwrap_or(0)
}

/// For each leaf, the portal that starts a shortest way from it to the outside through open
/// leaves (`None` where there is none, and for sealing leaves).
pub(crate) fn ways_out(portals: &Portals, open: &[bool]) -> Vec<Option<u32>> {
    let mut next: Vec<Option<u32>> = vec![None; open.len()];
    let mut queue = VecDeque::new();
    queue.push_back(Cell::Outside);
    while let Some(cell) = queue.pop_front() {
        for &id in portals.of(cell) {
            let Cell::Leaf(leaf) = portals.portals[id as usize].other(cell) else {
                continue;
            };
            let leaf = leaf as usize;
            if open[leaf] && next[leaf].is_none() {
                next[leaf] = Some(id);
                queue.push_back(Cell::Leaf(leaf as u32));
            }
        }
    }
    next
}

/// The centres of the portals on the way out from `leaf` (empty when it has none).
pub(crate) fn way_out(portals: &Portals, next: &[Option<u32>], leaf: u32) -> Vec<DVec3> {
    let mut points = Vec::new();
    let mut cell = Cell::Leaf(leaf);
    // Each step lowers the distance to the outside, so there is at most one per leaf.
    for _ in 0..=next.len() {
        let Cell::Leaf(at) = cell else {
            break;
        };
        let Some(id) = next.get(at as usize).copied().flatten() else {
            break;
        };
        let portal = &portals.portals[id as usize];
        points.push(portal.centre());
        cell = portal.other(cell);
    }
    points
}

/// Every leaf reached from `seeds` through open leaves (the seeds' own leaves included).
pub(crate) fn reached_from(portals: &Portals, open: &[bool], seeds: &[u32]) -> Vec<bool> {
    let mut reached = vec![false; open.len()];
    let mut queue = VecDeque::new();
    for &seed in seeds {
        if open[seed as usize] && !reached[seed as usize] {
            reached[seed as usize] = true;
            queue.push_back(seed);
        }
    }
    while let Some(leaf) = queue.pop_front() {
        let cell = Cell::Leaf(leaf);
        for &id in portals.of(cell) {
            if let Cell::Leaf(other) = portals.portals[id as usize].other(cell) {
                let other_index = other as usize;
                if open[other_index] && !reached[other_index] {
                    reached[other_index] = true;
                    queue.push_back(other);
                }
            }
        }
    }
    reached
}
