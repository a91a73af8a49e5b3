//! The reverse pair flips the normal and keeps the points (the crate's contact convention),
//! for shapes of one type too, ties included: two boxes of equal extent along the
//! shallowest axis, or concentric balls, separate equally well either way, and an audit
//! (2026-11-24) found both orders picking the same world direction. Small integer
//! coordinates make such ties common.

use glam::{Quat, Vec2, Vec3};
use proptest::prelude::*;
use raybox::{Aabb2, Aabb3, Capsule2, Capsule3, Circle, Contact, Obb2, Obb3, Segment2, Segment3, Sphere};

fn int3() -> impl Strategy<Value = Vec3> {
    (-3i32..=3, -3i32..=3, -3i32..=3).prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32))
}

fn int2() -> impl Strategy<Value = Vec2> {
    (-3i32..=3, -3i32..=3).prop_map(|(x, y)| Vec2::new(x as f32, y as f32))
}

fn aabb3s() -> impl Strategy<Value = Aabb3> {
    (int3(), (1i32..=3, 1i32..=3, 1i32..=3))
        .prop_map(|(lo, (x, y, z))| Aabb3::new(lo, lo + Vec3::new(x as f32, y as f32, z as f32)))
}

fn aabb2s() -> impl Strategy<Value = Aabb2> {
    (int2(), (1i32..=3, 1i32..=3)).prop_map(|(lo, (x, y))| Aabb2::new(lo, lo + Vec2::new(x as f32, y as f32)))
}

/// Quarter turns (exact rotations, so faces tie as for boxes) and, a third of the time, a
/// generic turn.
fn obb3s() -> impl Strategy<Value = Obb3> {
    (aabb3s(), 0u32..6, 0.0f32..6.0).prop_map(|(b, turn, angle)| {
        let rotation = match turn {
            0 | 1 => Quat::IDENTITY,
            2 => Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            3 => Quat::from_rotation_x(std::f32::consts::PI),
            _ => Quat::from_rotation_y(angle),
        };
        Obb3::new(b.center(), b.half_extents(), rotation)
    })
}

fn obb2s() -> impl Strategy<Value = Obb2> {
    (aabb2s(), prop_oneof![Just(0.0f32), Just(std::f32::consts::FRAC_PI_2), 0.0f32..6.0])
        .prop_map(|(b, angle)| Obb2::new(b.center(), b.half_extents(), angle))
}

/// `b.contact(a)` is `a.contact(b)` with the normal reversed, bit for bit (for two
/// distinct shapes: a shape against its own copy has no reverse).
macro_rules! check_reverse {
    ($a:expr, $b:expr) => {{
        let (ab, ba) = ($a.contact(&$b), $b.contact(&$a));
        let distinct = $a != $b;
        prop_assert_eq!(ab.is_some(), ba.is_some());
        if let (Some(ab), Some(ba), true) = (ab, ba, distinct) {
            prop_assert_eq!(ba.normal, -ab.normal, "{:?} {:?}", $a, $b);
            prop_assert_eq!(ba.depth.to_bits(), ab.depth.to_bits());
            prop_assert_eq!(ba.points.as_slice(), ab.points.as_slice());
        }
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn aabb3_pairs(a in aabb3s(), b in aabb3s()) { check_reverse!(a, b); }

    #[test]
    fn aabb2_pairs(a in aabb2s(), b in aabb2s()) { check_reverse!(a, b); }

    #[test]
    fn obb3_pairs(a in obb3s(), b in obb3s()) { check_reverse!(a, b); }

    #[test]
    fn obb2_pairs(a in obb2s(), b in obb2s()) { check_reverse!(a, b); }

    #[test]
    fn sphere_pairs(c in int3(), d in int3(), r in 1i32..=3, s in 1i32..=3) {
        check_reverse!(Sphere::new(c, r as f32), Sphere::new(d, s as f32));
        check_reverse!(Sphere::new(c, r as f32), Sphere::new(c, s as f32)); // concentric
    }

    #[test]
    fn capsule_and_segment_pairs(p in int3(), q in int3(), u in int3(), v in int3(), r in 0i32..=2, s in 0i32..=2) {
        check_reverse!(Capsule3::new(p, q, r as f32), Capsule3::new(u, v, s as f32));
        check_reverse!(Capsule3::new(p, q, r as f32), Capsule3::new(q, p, s as f32)); // one core
        check_reverse!(Segment3::new(p, q), Segment3::new(u, v));
        let (p2, q2, u2, v2) = (p.truncate(), q.truncate(), u.truncate(), v.truncate());
        check_reverse!(Capsule2::new(p2, q2, r as f32), Capsule2::new(u2, v2, s as f32));
        check_reverse!(Capsule2::new(p2, q2, r as f32), Capsule2::new(q2, p2, s as f32));
        check_reverse!(Segment2::new(p2, q2), Segment2::new(u2, v2));
    }

    #[test]
    fn circle_pairs(c in int2(), d in int2(), r in 1i32..=3, s in 1i32..=3) {
        check_reverse!(Circle::new(c, r as f32), Circle::new(d, s as f32));
        check_reverse!(Circle::new(c, r as f32), Circle::new(c, s as f32));
    }
}

/// The audit's case: equal x extents, so `+x` and `-x` tie as the shallowest push.
#[test]
fn the_audit_pair() {
    let a = Aabb3::new(Vec3::ZERO, Vec3::new(1.0, 3.0, 3.0));
    let b = Aabb3::new(Vec3::new(0.0, 1.0, 1.0), Vec3::new(1.0, 4.0, 4.0));
    let (ab, ba) = (a.contact(&b).unwrap(), b.contact(&a).unwrap());
    assert_eq!((ab.depth, ba.depth), (1.0, 1.0));
    assert_eq!(ba.normal, -ab.normal);
    assert_eq!(ab.normal.abs(), Vec3::X);
}
