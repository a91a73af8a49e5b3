//! One file per subcommand: its arguments (clap derive) and its `run`.

pub mod cast;
pub mod draw;
pub mod info;
pub mod render;

/// How far from the origin what `draw` and `render` picture may reach on any axis: their
/// sizes and distances, a few times this, stay well within `f32` (beyond ~1.8e19 a box's
/// diagonal overflows, which panicked in both until an audit found it).
pub const FAR_LIMIT: f32 = 1e18;

/// How far `bounds` reaches from the origin on any axis, when that or its size is past
/// [`FAR_LIMIT`] (or not a number).
pub fn too_far(bounds: &raybox::Aabb3) -> Option<f32> {
    let extent = bounds.min().abs().max(bounds.max().abs()).max_element();
    (!(extent <= FAR_LIMIT && bounds.size().max_element() <= FAR_LIMIT)).then_some(extent)
}
