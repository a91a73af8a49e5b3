//! What the exact tests of segments reaching to `1e15` share (`segment_closest_exact.rs`,
//! `segment_pair_exact.rs`): `f32` inputs as exact integers (every `f32` times `2^149` is
//! one, a `num_bigint::BigInt`), a few exact vector operations, the spacing of `f32`, a
//! seeded generator, and the long segment each test draws its queries beside.

use num_bigint::{BigInt, Sign};

/// Every `f32` times `2^SCALE` is an integer.
pub const SCALE: i32 = 149;

/// An exact 3D vector of scaled `f32` coordinates.
pub type B3 = [BigInt; 3];

/// `v · 2^149`, exactly.
pub fn big(v: f32) -> BigInt {
    assert!(v.is_finite());
    let bits = v.to_bits();
    let (exp, frac) = ((bits >> 23) & 0xff, bits & 0x7f_ffff);
    // v = m · 2^(e - 149) with m below 2^24.
    let (m, e) = if exp == 0 { (frac, 0) } else { (frac | 0x80_0000, exp - 1) };
    let mag = BigInt::from(m) << e;
    if v < 0.0 { -mag } else { mag }
}

/// Each coordinate times `2^149`, exactly.
pub fn big3(v: [f32; 3]) -> B3 {
    v.map(big)
}

pub fn sub3(a: &B3, b: &B3) -> B3 {
    std::array::from_fn(|i| &a[i] - &b[i])
}

pub fn dot(a: &B3, b: &B3) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

pub fn cross(a: &B3, b: &B3) -> B3 {
    [&a[1] * &b[2] - &a[2] * &b[1], &a[2] * &b[0] - &a[0] * &b[2], &a[0] * &b[1] - &a[1] * &b[0]]
}

/// `(m, e)` with `a ≈ m · 2^e`, `m` the leading (up to) 64 bits, rounded once.
fn approx(a: &BigInt) -> (f64, i32) {
    let shift = a.bits().saturating_sub(64);
    let lead = u64::try_from(&(a.magnitude() >> shift)).expect("64 bits") as f64;
    (if a.sign() == Sign::Minus { -lead } else { lead }, shift as i32)
}

/// `a / b · 2^k`, to a few `f64` ulps.
pub fn ratio(a: &BigInt, b: &BigInt, k: i32) -> f64 {
    let ((a, ea), (b, eb)) = (approx(a), approx(b));
    a / b * 2f64.powi(ea - eb + k)
}

/// The spacing of `f32` at `v` (between `|v|` and the next `f32` away from zero).
pub fn spacing(v: f64) -> f64 {
    let a = (v.abs() as f32).max(f32::MIN_POSITIVE);
    f64::from(f32::from_bits(a.to_bits() + 1) - a)
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a seeded stream of 64-bit values.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[-1, 1)`.
    pub fn signed(&mut self) -> f64 {
        (self.next() >> 11) as f64 * 2f64.powi(-52) - 1.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A vector with coordinates uniform in `[-s, s)`; its `z` is 0 in 2D.
    pub fn vector(&mut self, dim: usize, s: f64) -> [f64; 3] {
        let mut a = [self.signed() * s, self.signed() * s, self.signed() * s];
        if dim == 2 {
            a[2] = 0.0;
        }
        a
    }
}

/// Where along the long segment, from its near end, a test draws its query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    NearEnd,
    Middle,
    FarEnd,
}

/// A long segment from `near` to `away`, and the sizes it was drawn at.
pub struct Long {
    pub near: [f32; 3],
    pub away: [f32; 3],
    /// The near end's size before scaling, `2^k` for `k` in `-20..=10`.
    pub near_size: f64,
    /// The scale, `2^scale`.
    pub s: f64,
}

impl Long {
    /// A segment from a moderate point `m` (within `near_size` of the origin) to
    /// `m + 2^far · u`, both times `2^scale`, with `u` a random direction or, one time in
    /// four per axis, one near an axis (the other coordinates then stay moderate along the
    /// whole segment).
    pub fn draw(rng: &mut Rng, dim: usize, far: i32, scale: i32) -> Long {
        let near_size = 2f64.powi(-20 + rng.below(31) as i32);
        let m = rng.vector(dim, near_size);
        let mut u = rng.vector(dim, 1.0);
        let axis = (rng.below(4) as usize).min(dim);
        if axis < dim {
            u = rng.vector(dim, near_size * 2f64.powi(-far));
            u[axis] = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        }
        let s = 2f64.powi(scale);
        let near: [f32; 3] = std::array::from_fn(|i| (m[i] * s) as f32);
        let away: [f32; 3] = std::array::from_fn(|i| ((m[i] + 2f64.powi(far) * u[i]) * s) as f32);
        Long { near, away, near_size, s }
    }

    /// Coordinate `i` of the point at parameter `t` from `near` to `away`, in `f64`.
    pub fn at(&self, t: f64, i: usize) -> f64 {
        f64::from(self.near[i]) + (f64::from(self.away[i]) - f64::from(self.near[i])) * t
    }
}
