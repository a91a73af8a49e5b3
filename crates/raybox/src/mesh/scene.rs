//! Procedural scenes for tests and benchmarks, deterministic for a given size and seed:
//! a height-field terrain (open, or closed into a solid block), an icosphere (closed),
//! and a soup of random triangles.

use glam::Vec3;

use super::MeshData;

/// A small, fast, seeded generator (PCG-XSH-RR 64/32, O'Neill 2014).
#[derive(Clone, Debug)]
pub struct Pcg32 {
    state: u64,
}

impl Pcg32 {
    const MUL: u64 = 6_364_136_223_846_793_005;
    const INC: u64 = 1_442_695_040_888_963_407;

    /// A generator started from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut g = Self { state: 0 };
        g.next_u32();
        g.state = g.state.wrapping_add(seed);
        g.next_u32();
        g
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(Self::MUL).wrapping_add(Self::INC);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        xorshifted.rotate_right((old >> 59) as u32)
    }

    /// A uniform `f32` in `[0, 1)`.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// A uniform `f32` in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }

    /// A uniformly distributed unit vector.
    pub fn unit_vector(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l2 = v.length_squared();
            if l2 > 1e-4 && l2 <= 1.0 {
                return v / l2.sqrt();
            }
        }
    }
}

/// The terrain's height at `(x, z)`: gentle waves plus a little deterministic noise.
fn height(x: f32, z: f32, noise: f32) -> f32 {
    0.1 * (20.0 * x).sin() * (17.0 * z).cos() + 0.05 * (53.0 * x + 31.0 * z).sin() + 0.002 * noise
}

/// A height field over the unit square `[0, 1]²` in `x` and `z` (height along `y`), with
/// `cells × cells` quads split into `2 cells²` triangles (`cells = 708` gives about a million).
///
/// ```
/// let t = raybox::mesh::scene::terrain(10, 1);
/// assert_eq!((t.vertices.len(), t.indices.len()), (121, 200));
/// ```
#[must_use]
pub fn terrain(cells: usize, seed: u64) -> MeshData {
    let n = cells.max(1);
    let mut rng = Pcg32::new(seed);
    let mut vertices = Vec::with_capacity((n + 1) * (n + 1));
    for j in 0..=n {
        for i in 0..=n {
            let (x, z) = (i as f32 / n as f32, j as f32 / n as f32);
            vertices.push(Vec3::new(x, height(x, z, rng.range(-1.0, 1.0)), z));
        }
    }
    let at = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut indices = Vec::with_capacity(2 * n * n);
    for j in 0..n {
        for i in 0..n {
            // Counter-clockwise seen from above (+y).
            indices.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            indices.push([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)]);
        }
    }
    MeshData { vertices, indices }
}

/// The terrain closed into a solid: the height field on top, four walls and a floor at
/// `y = -1`, sharing vertices along every seam (a watertight, closed mesh).
#[must_use]
pub fn closed_terrain(cells: usize, seed: u64) -> MeshData {
    let n = cells.max(1);
    let mut mesh = terrain(n, seed);
    let top = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    // The floor vertex under each boundary vertex of the top.
    let mut boundary: Vec<(usize, usize)> = Vec::new();
    boundary.extend((0..n).map(|i| (i, 0)));
    boundary.extend((0..n).map(|j| (n, j)));
    boundary.extend((0..n).map(|i| (n - i, n)));
    boundary.extend((0..n).map(|j| (0, n - j)));
    let base = mesh.vertices.len() as u32;
    for &(i, j) in &boundary {
        let v = mesh.vertices[top(i, j) as usize];
        mesh.vertices.push(Vec3::new(v.x, -1.0, v.z));
    }
    let m = boundary.len();
    for k in 0..m {
        let (a, b) = (boundary[k], boundary[(k + 1) % m]);
        let (ta, tb) = (top(a.0, a.1), top(b.0, b.1));
        let (fa, fb) = (base + k as u32, base + ((k + 1) % m) as u32);
        // Walls face outwards: the boundary runs counter-clockwise seen from below.
        mesh.indices.push([ta, fa, tb]);
        mesh.indices.push([tb, fa, fb]);
    }
    // The floor: a fan around its centre, facing down.
    let centre = mesh.vertices.len() as u32;
    mesh.vertices.push(Vec3::new(0.5, -1.0, 0.5));
    for k in 0..m {
        mesh.indices.push([centre, base + ((k + 1) % m) as u32, base + k as u32]);
    }
    mesh
}

/// A unit sphere made from an icosahedron whose faces are split `subdivisions` times
/// (20 · 4^s triangles), shared vertices on every edge: a closed mesh.
///
/// ```
/// let s = raybox::mesh::scene::icosphere(2);
/// assert_eq!(s.indices.len(), 320);
/// ```
#[must_use]
pub fn icosphere(subdivisions: u32) -> MeshData {
    let p = (1.0 + 5f32.sqrt()) / 2.0;
    let mut vertices: Vec<Vec3> = [
        (-1.0, p, 0.0),
        (1.0, p, 0.0),
        (-1.0, -p, 0.0),
        (1.0, -p, 0.0),
        (0.0, -1.0, p),
        (0.0, 1.0, p),
        (0.0, -1.0, -p),
        (0.0, 1.0, -p),
        (p, 0.0, -1.0),
        (p, 0.0, 1.0),
        (-p, 0.0, -1.0),
        (-p, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut indices: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..subdivisions {
        let mut midpoints = std::collections::HashMap::new();
        let mut midpoint = |a: u32, b: u32, vertices: &mut Vec<Vec3>| {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                vertices.push(((vertices[a as usize] + vertices[b as usize]) * 0.5).normalize());
                vertices.len() as u32 - 1
            })
        };
        let mut next = Vec::with_capacity(indices.len() * 4);
        for [a, b, c] in indices {
            let ab = midpoint(a, b, &mut vertices);
            let bc = midpoint(b, c, &mut vertices);
            let ca = midpoint(c, a, &mut vertices);
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        indices = next;
    }
    MeshData { vertices, indices }
}

/// `count` random triangles in the cube `[-1, 1]³`, each with sides up to about `size`.
#[must_use]
pub fn triangle_soup(count: usize, size: f32, seed: u64) -> MeshData {
    let mut rng = Pcg32::new(seed);
    let mut vertices = Vec::with_capacity(3 * count);
    for _ in 0..count {
        let c = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        for _ in 0..3 {
            vertices.push(c + rng.unit_vector() * rng.range(0.0, size));
        }
    }
    let indices = (0..count as u32).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    MeshData { vertices, indices }
}
