//! Triangles in 3D: `Triangle3`.

use crate::arrays::Each;
use glam::{DVec3, Vec3};

use crate::Aabb3;
use crate::error::{ShapeError, check_finite};

/// A closed, two-sided triangle in 3D.
///
/// Zero-area (collinear) triangles are rejected by the constructor; meshes that contain
/// them skip them (see the mesh docs). The vertex order sets the *front* side:
/// counter-clockwise seen from the front, where the geometric normal
/// `(v1 - v0) × (v2 - v0)` points.
///
/// ```
/// use raybox::Triangle3;
/// use glam::Vec3;
///
/// let t = Triangle3::new(Vec3::ZERO, Vec3::X, Vec3::Y);
/// assert_eq!(t.unit_normal(), Vec3::Z);
/// assert_eq!(t.area(), 0.5);
/// assert!(Triangle3::try_new(Vec3::ZERO, Vec3::X, Vec3::X * 3.0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "[Vec3; 3]", into = "[Vec3; 3]"))]
pub struct Triangle3 {
    vertices: [Vec3; 3],
}

impl Triangle3 {
    /// The triangle `v0, v1, v2`.
    ///
    /// # Errors
    /// [`ShapeError::NotFinite`] for a non-finite vertex, [`ShapeError::Degenerate`] if the
    /// vertices are collinear (decided exactly, whatever their scales), or so nearly that
    /// the normal `(v1 - v0) × (v2 - v0)` computed in `f64` is zero. A [`TriMesh`](crate::TriMesh)
    /// leaves out the same triangles.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// assert!(Triangle3::try_new(Vec3::ZERO, Vec3::X, Vec3::Y).is_ok());
    /// assert!(Triangle3::try_new(Vec3::ZERO, Vec3::X, Vec3::X * 2.0).is_err()); // collinear
    /// ```
    #[inline]
    pub fn try_new(v0: Vec3, v1: Vec3, v2: Vec3) -> Result<Self, ShapeError> {
        for v in [v0, v1, v2] {
            check_finite(&v.to_array(), "Triangle3", "vertices")?;
        }
        if crate::query::overlap::degenerate_triangle(v0, v1, v2) {
            return Err(ShapeError::Degenerate { shape: "Triangle3" });
        }
        Ok(Self { vertices: [v0, v1, v2] })
    }

    /// Like [`Self::try_new`], for values known to be valid.
    ///
    /// # Panics
    /// With `try_new`'s message, if `try_new` would fail.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// let t = Triangle3::new(Vec3::ZERO, Vec3::X, Vec3::Y);
    /// assert_eq!(t.vertices()[1], Vec3::X);
    /// ```
    #[track_caller]
    #[must_use]
    #[inline]
    pub fn new(v0: Vec3, v1: Vec3, v2: Vec3) -> Self {
        Self::try_new(v0, v1, v2).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The three vertices.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// assert_eq!(Triangle3::new(Vec3::ZERO, Vec3::X, Vec3::Y).vertices(), [Vec3::ZERO, Vec3::X, Vec3::Y]);
    /// ```
    #[inline]
    #[must_use]
    pub fn vertices(&self) -> [Vec3; 3] {
        self.vertices
    }

    /// The geometric normal `(v1 - v0) × (v2 - v0)`, not normalised (its length is twice the area).
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// assert_eq!(Triangle3::new(Vec3::ZERO, Vec3::X * 2.0, Vec3::Y).normal(), Vec3::Z * 2.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn normal(&self) -> Vec3 {
        let [a, b, c] = self.vertices;
        normal_f64(a, b, c).as_vec3()
    }

    /// The geometric normal scaled to unit length.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// assert_eq!(Triangle3::new(Vec3::ZERO, Vec3::Y, Vec3::X).unit_normal(), -Vec3::Z);
    /// ```
    #[must_use]
    #[inline]
    pub fn unit_normal(&self) -> Vec3 {
        let [a, b, c] = self.vertices;
        normal_f64(a, b, c).normalize().as_vec3()
    }

    /// The area.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// assert_eq!(Triangle3::new(Vec3::ZERO, Vec3::X * 4.0, Vec3::Y).area(), 2.0);
    /// ```
    #[must_use]
    #[inline]
    pub fn area(&self) -> f32 {
        let [a, b, c] = self.vertices;
        (0.5 * normal_f64(a, b, c).length()) as f32
    }

    /// The centroid, `(v0 + v1 + v2) / 3`.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// assert_eq!(Triangle3::new(Vec3::ZERO, Vec3::X * 3.0, Vec3::Y * 3.0).centroid(), Vec3::new(1.0, 1.0, 0.0));
    /// ```
    #[must_use]
    #[inline]
    pub fn centroid(&self) -> Vec3 {
        let [a, b, c] = self.vertices.each(Vec3::as_dvec3);
        ((a + b + c) / 3.0).as_vec3()
    }

    /// The smallest axis-aligned box holding the triangle.
    ///
    /// ```
    /// use raybox::Triangle3;
    /// use glam::Vec3;
    /// let b = Triangle3::new(Vec3::ZERO, Vec3::X, Vec3::new(0.0, 2.0, -1.0)).to_aabb();
    /// assert_eq!((b.min(), b.max()), (Vec3::new(0.0, 0.0, -1.0), Vec3::new(1.0, 2.0, 0.0)));
    /// ```
    #[must_use]
    #[inline]
    pub fn to_aabb(&self) -> Aabb3 {
        let [a, b, c] = self.vertices;
        Aabb3::new(a.min(b).min(c), a.max(b).max(c))
    }
}

/// `(b - a) × (c - a)` in `f64`, zero exactly when the points are collinear (see
/// `triangle_normal`: the plain form rounds the differences, so it can call an exactly
/// collinear triple a triangle when its coordinates' scales differ widely).
#[inline]
fn normal_f64(a: Vec3, b: Vec3, c: Vec3) -> DVec3 {
    crate::query::overlap::triangle_normal(a, b, c)
}

impl TryFrom<[Vec3; 3]> for Triangle3 {
    type Error = ShapeError;
    #[inline]
    fn try_from([a, b, c]: [Vec3; 3]) -> Result<Self, ShapeError> {
        Self::try_new(a, b, c)
    }
}

impl From<Triangle3> for [Vec3; 3] {
    #[inline]
    fn from(t: Triangle3) -> Self {
        t.vertices
    }
}
