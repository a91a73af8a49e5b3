//! Embree 3 (Intel's CPU ray tracing kernels) as a peer for raybox's differential tests and
//! benchmarks.
//!
//! The library is opened at run time (`libembree3.so.3`, as Debian's `libembree3-3`
//! installs it; the `EMBREE_LIBRARY` environment variable names another file), so this
//! crate builds on every machine and [`Embree::load`] says when the peer is not there.
//! Only what the comparisons need is bound: one triangle mesh per scene, closest hits
//! (`rtcIntersect1`, `rtcIntersect16`) and occlusion (`rtcOccluded1`, `rtcOccluded16`).
//!
//! The declarations follow Embree 3.13's headers (`rtcore_*.h`, with
//! `RTC_MAX_INSTANCE_LEVEL_COUNT` = 1 and `RTC_MIN_WIDTH` = 0, the defaults), and
//! [`Embree::load`] refuses a library whose major version is not 3.
//!
//! ```no_run
//! use embree_peer::{Embree, Quality, Ray};
//!
//! // SAFETY: the system's libembree3.so.3 is Debian's build of Embree 3.13 (default
//! // configuration).
//! let embree = unsafe { Embree::load() }?;
//! let device = embree.device("")?;
//! let scene = device.scene(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], &[[0, 1, 2]], Quality::Medium)?;
//! let hit = scene.intersect(&Ray::new([0.2, 0.2, 1.0], [0.0, 0.0, -1.0]));
//! assert_eq!(hit.map(|h| h.t), Some(1.0));
//! # Ok::<(), embree_peer::Error>(())
//! ```

use std::ffi::{CString, c_char, c_int, c_uint, c_void};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Why Embree could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The library could not be opened or lacks a function (not installed, or not Embree 3).
    Load(String),
    /// Embree reported an error.
    Embree {
        /// What was being done.
        what: &'static str,
        /// Embree's `RTCError` code.
        code: u32,
    },
    /// The input cannot be given to Embree (for example an index out of range).
    Input(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Load(why) => write!(f, "Embree 3 is not available: {why}"),
            Error::Embree { what, code } => write!(f, "Embree failed to {what} (RTCError {code})"),
            Error::Input(why) => write!(f, "input not accepted: {why}"),
        }
    }
}

impl std::error::Error for Error {}

/// The BVH build quality (`RTCBuildQuality`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quality {
    /// `RTC_BUILD_QUALITY_LOW`: a Morton-code build.
    Low,
    /// `RTC_BUILD_QUALITY_MEDIUM`: binned SAH, Embree's default.
    Medium,
    /// `RTC_BUILD_QUALITY_HIGH`: SAH with spatial splits.
    High,
}

impl Quality {
    fn raw(self) -> c_uint {
        match self {
            Quality::Low => 0,
            Quality::Medium => 1,
            Quality::High => 2,
        }
    }
}

/// A ray: `origin + t * dir` for `t` in `[t_min, t_max]`. Embree expects finite values,
/// `0 <= t_min <= t_max` and a non-zero direction; other rays give unspecified answers (not
/// unsafety).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: [f32; 3],
    /// Its direction (any length; `t` is in units of it).
    pub dir: [f32; 3],
    /// The start of the range (`tnear`).
    pub t_min: f32,
    /// The end of the range (`tfar`).
    pub t_max: f32,
}

impl Ray {
    /// A ray over `[0, inf)`.
    #[must_use]
    pub fn new(origin: [f32; 3], dir: [f32; 3]) -> Self {
        Self { origin, dir, t_min: 0.0, t_max: f32::INFINITY }
    }
}

/// A closest hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// The ray parameter of the hit.
    pub t: f32,
    /// The triangle's index in the mesh.
    pub primitive: u32,
    /// Barycentric coordinates of the hit (weights of the second and third vertex).
    pub u: f32,
    /// See [`Hit::u`].
    pub v: f32,
}

const INVALID_ID: c_uint = c_uint::MAX;
const FORMAT_UINT3: c_uint = 0x5003;
const FORMAT_FLOAT3: c_uint = 0x9003;
const BUFFER_INDEX: c_uint = 0;
const BUFFER_VERTEX: c_uint = 1;
const GEOMETRY_TRIANGLE: c_uint = 0;
const CONTEXT_INCOHERENT: c_uint = 0;
const CONTEXT_COHERENT: c_uint = 1;
const PROPERTY_VERSION: c_int = 0;
const PROPERTY_VERSION_MAJOR: c_int = 1;
const PROPERTY_NATIVE_RAY16: c_int = 34;

type RawDevice = *mut c_void;
type RawScene = *mut c_void;
type RawGeometry = *mut c_void;

/// `struct RTCRay` (16-byte aligned).
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct RtcRay {
    org: [f32; 3],
    tnear: f32,
    dir: [f32; 3],
    time: f32,
    tfar: f32,
    mask: c_uint,
    id: c_uint,
    flags: c_uint,
}

/// `struct RTCHit` (16-byte aligned).
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct RtcHit {
    ng: [f32; 3],
    u: f32,
    v: f32,
    prim_id: c_uint,
    geom_id: c_uint,
    inst_id: [c_uint; 1],
}

/// `struct RTCRayHit`.
#[repr(C)]
#[derive(Clone, Copy)]
struct RtcRayHit {
    ray: RtcRay,
    hit: RtcHit,
}

/// `struct RTCRayHit16`: `RTCRay16` then `RTCHit16`, each 64-byte aligned, fields as rows
/// of 16 lanes in the headers' order.
#[repr(C, align(64))]
struct RtcRayHit16 {
    /// org_x, org_y, org_z, tnear, dir_x, dir_y, dir_z, time, tfar
    ray: [[f32; 16]; 9],
    /// mask, id, flags
    ray_ids: [[c_uint; 16]; 3],
    /// Ng_x, Ng_y, Ng_z, u, v
    hit: [[f32; 16]; 5],
    /// primID, geomID, instID[0]
    hit_ids: [[c_uint; 16]; 3],
}

/// `struct RTCIntersectContext` with one instance level and no minimum width.
#[repr(C)]
struct RtcContext {
    flags: c_uint,
    filter: *const c_void,
    inst_id: [c_uint; 1],
}

impl RtcContext {
    /// What `rtcInitIntersectContext` (an inline function of the headers) sets.
    fn new(flags: c_uint) -> Self {
        Self { flags, filter: std::ptr::null(), inst_id: [INVALID_ID] }
    }
}

/// The entry points, resolved once; kept in a static, so the library is never closed.
struct Api {
    new_device: unsafe extern "C" fn(*const c_char) -> RawDevice,
    release_device: unsafe extern "C" fn(RawDevice),
    device_error: unsafe extern "C" fn(RawDevice) -> c_uint,
    device_property: unsafe extern "C" fn(RawDevice, c_int) -> isize,
    new_scene: unsafe extern "C" fn(RawDevice) -> RawScene,
    release_scene: unsafe extern "C" fn(RawScene),
    scene_quality: unsafe extern "C" fn(RawScene, c_uint),
    new_geometry: unsafe extern "C" fn(RawDevice, c_uint) -> RawGeometry,
    release_geometry: unsafe extern "C" fn(RawGeometry),
    geometry_quality: unsafe extern "C" fn(RawGeometry, c_uint),
    new_buffer: unsafe extern "C" fn(RawGeometry, c_uint, c_uint, c_uint, usize, usize) -> *mut c_void,
    commit_geometry: unsafe extern "C" fn(RawGeometry),
    attach_geometry: unsafe extern "C" fn(RawScene, RawGeometry) -> c_uint,
    commit_scene: unsafe extern "C" fn(RawScene),
    intersect1: unsafe extern "C" fn(RawScene, *mut RtcContext, *mut RtcRayHit),
    intersect16: unsafe extern "C" fn(*const c_int, RawScene, *mut RtcContext, *mut RtcRayHit16),
    occluded1: unsafe extern "C" fn(RawScene, *mut RtcContext, *mut RtcRay),
    /// Takes an `RTCRay16`: the first 12 rows of [`RtcRayHit16`], which is how it is passed.
    occluded16: unsafe extern "C" fn(*const c_int, RawScene, *mut RtcContext, *mut RtcRayHit16),
    _library: libloading::Library,
}

impl Api {
    fn open() -> Result<Self, Error> {
        let path = std::env::var_os("EMBREE_LIBRARY").unwrap_or_else(|| "libembree3.so.3".into());
        // SAFETY: opening Embree runs its library initialisers, which only set up its own
        // state; the file is the one the user or the system named as Embree 3.
        let library = unsafe { libloading::Library::new(&path) }
            .map_err(|e| Error::Load(format!("cannot open {}: {e}", path.to_string_lossy())))?;
        /// Resolves `name` as a function of type `T`.
        ///
        /// # Safety
        /// `T` must be the function's C signature in Embree 3's headers.
        unsafe fn sym<T: Copy>(library: &libloading::Library, name: &str) -> Result<T, Error> {
            // SAFETY: per this function's contract.
            unsafe { library.get::<T>(name.as_bytes()) }
                .map(|s| *s)
                .map_err(|e| Error::Load(format!("no {name}: {e}")))
        }
        // SAFETY: every type below is the signature declared in Embree 3.13's headers
        // (enums are `unsigned int`-sized there; `ssize_t` is `isize`).
        unsafe {
            Ok(Api {
                new_device: sym(&library, "rtcNewDevice")?,
                release_device: sym(&library, "rtcReleaseDevice")?,
                device_error: sym(&library, "rtcGetDeviceError")?,
                device_property: sym(&library, "rtcGetDeviceProperty")?,
                new_scene: sym(&library, "rtcNewScene")?,
                release_scene: sym(&library, "rtcReleaseScene")?,
                scene_quality: sym(&library, "rtcSetSceneBuildQuality")?,
                new_geometry: sym(&library, "rtcNewGeometry")?,
                release_geometry: sym(&library, "rtcReleaseGeometry")?,
                geometry_quality: sym(&library, "rtcSetGeometryBuildQuality")?,
                new_buffer: sym(&library, "rtcSetNewGeometryBuffer")?,
                commit_geometry: sym(&library, "rtcCommitGeometry")?,
                attach_geometry: sym(&library, "rtcAttachGeometry")?,
                commit_scene: sym(&library, "rtcCommitScene")?,
                intersect1: sym(&library, "rtcIntersect1")?,
                intersect16: sym(&library, "rtcIntersect16")?,
                occluded1: sym(&library, "rtcOccluded1")?,
                occluded16: sym(&library, "rtcOccluded16")?,
                _library: library,
            })
        }
    }
}

/// An opened Embree 3 library.
#[derive(Clone)]
pub struct Embree {
    api: Arc<Api>,
}

impl fmt::Debug for Embree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Embree")
    }
}

impl Embree {
    /// Opens `$EMBREE_LIBRARY`, or else `libembree3.so.3` from the system's library path
    /// (once per process: the library is never closed, since Embree's worker threads run its
    /// code until the process ends).
    ///
    /// # Safety
    /// The file opened must be Embree 3 built with its default layout settings,
    /// `RTC_MAX_INSTANCE_LEVEL_COUNT` = 1 and `RTC_MIN_WIDTH` = 0 (as distributions build
    /// it): the ray, hit and context structures passed to it have that layout, and a library
    /// built otherwise would read and write past them. Only the major version is checked.
    ///
    /// # Errors
    /// [`Error::Load`] when the file cannot be opened, lacks an entry point, or is not
    /// Embree 3.
    pub unsafe fn load() -> Result<Self, Error> {
        static API: OnceLock<Result<Arc<Api>, Error>> = OnceLock::new();
        let api = API.get_or_init(|| Api::open().map(Arc::new)).clone()?;
        let embree = Self { api };
        let major = embree.device("")?.property(PROPERTY_VERSION_MAJOR);
        if major != 3 {
            return Err(Error::Load(format!("the library is Embree {major}, not 3")));
        }
        Ok(embree)
    }

    /// A new device with Embree's configuration string (`""`: the defaults; `"threads=1"`:
    /// builds on one thread).
    ///
    /// # Errors
    /// [`Error::Embree`] when Embree refuses the configuration; [`Error::Input`] when it
    /// holds a NUL byte.
    pub fn device(&self, config: &str) -> Result<Device, Error> {
        let config =
            CString::new(config).map_err(|_| Error::Input("a NUL byte in the configuration".into()))?;
        // SAFETY: `config` is a NUL-terminated string that outlives the call.
        let raw = unsafe { (self.api.new_device)(config.as_ptr()) };
        if raw.is_null() {
            // SAFETY: a null device asks for the error of the last device creation.
            let code = unsafe { (self.api.device_error)(std::ptr::null_mut()) };
            return Err(Error::Embree { what: "create a device", code });
        }
        Ok(Device { inner: Arc::new(DeviceInner { api: self.api.clone(), raw }) })
    }
}

struct DeviceInner {
    api: Arc<Api>,
    raw: RawDevice,
}

impl Drop for DeviceInner {
    fn drop(&mut self) {
        // SAFETY: `raw` is a device this value owns one reference to.
        unsafe { (self.api.release_device)(self.raw) }
    }
}

// SAFETY: Embree's API is thread-safe for devices; this value only passes the handle.
unsafe impl Send for DeviceInner {}
// SAFETY: as above.
unsafe impl Sync for DeviceInner {}

/// An Embree device: where scenes are made (and its thread count, for builds).
#[derive(Clone)]
pub struct Device {
    inner: Arc<DeviceInner>,
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Device")
    }
}

impl Device {
    fn property(&self, property: c_int) -> isize {
        // SAFETY: a valid device and a property Embree 3 defines.
        unsafe { (self.inner.api.device_property)(self.inner.raw, property) }
    }

    /// Embree's version, `major.minor.patch`.
    #[must_use]
    pub fn version(&self) -> String {
        let v = self.property(PROPERTY_VERSION);
        format!("{}.{}.{}", v / 10_000, v / 100 % 100, v % 100)
    }

    /// Whether this build of Embree traces 16-ray packets natively (AVX-512).
    #[must_use]
    pub fn native_packets16(&self) -> bool {
        self.property(PROPERTY_NATIVE_RAY16) != 0
    }

    fn check(&self, what: &'static str) -> Result<(), Error> {
        // SAFETY: a valid device.
        let code = unsafe { (self.inner.api.device_error)(self.inner.raw) };
        if code == 0 { Ok(()) } else { Err(Error::Embree { what, code }) }
    }

    /// A committed scene of one triangle mesh (the BVH is built here, on the device's
    /// threads).
    ///
    /// # Errors
    /// [`Error::Input`] for no triangles, an index past the vertices or more than
    /// `u32::MAX` items; [`Error::Embree`] when Embree fails.
    pub fn scene(
        &self,
        vertices: &[[f32; 3]],
        indices: &[[u32; 3]],
        quality: Quality,
    ) -> Result<Scene, Error> {
        if indices.is_empty() {
            // (Embree would also give a null buffer for no items, which no copy may target.)
            return Err(Error::Input("no triangles".into()));
        }
        if let Some(bad) = indices.iter().flatten().find(|&&i| i as usize >= vertices.len()) {
            return Err(Error::Input(format!("index {bad} with {} vertices", vertices.len())));
        }
        if vertices.len() > u32::MAX as usize || indices.len() > u32::MAX as usize {
            return Err(Error::Input("more than 2^32 - 1 vertices or triangles".into()));
        }
        let api = &self.inner.api;
        // SAFETY: a valid device; the scene is released by `Scene`'s drop (or below).
        let raw = unsafe { (api.new_scene)(self.inner.raw) };
        self.check("create a scene")?;
        let scene = Scene { device: self.inner.clone(), raw };
        // SAFETY: valid handles; the buffers Embree allocates hold `len` items of 12 bytes,
        // and exactly that many are copied into each; the geometry's reference is released
        // once the scene holds it.
        unsafe {
            (api.scene_quality)(raw, quality.raw());
            let geometry = (api.new_geometry)(self.inner.raw, GEOMETRY_TRIANGLE);
            self.check("create a triangle geometry")?;
            (api.geometry_quality)(geometry, quality.raw());
            let v = (api.new_buffer)(geometry, BUFFER_VERTEX, 0, FORMAT_FLOAT3, 12, vertices.len());
            let i = (api.new_buffer)(geometry, BUFFER_INDEX, 0, FORMAT_UINT3, 12, indices.len());
            if let Err(e) = self.check("allocate the mesh's buffers") {
                (api.release_geometry)(geometry);
                return Err(e);
            }
            std::ptr::copy_nonoverlapping(
                vertices.as_ptr().cast::<f32>(),
                v.cast::<f32>(),
                vertices.len() * 3,
            );
            std::ptr::copy_nonoverlapping(indices.as_ptr().cast::<u32>(), i.cast::<u32>(), indices.len() * 3);
            (api.commit_geometry)(geometry);
            (api.attach_geometry)(raw, geometry);
            (api.release_geometry)(geometry);
            self.check("attach the mesh")?;
            (api.commit_scene)(raw);
        }
        self.check("build the scene")?;
        Ok(scene)
    }
}

/// A committed scene: ray queries are thread-safe.
pub struct Scene {
    device: Arc<DeviceInner>,
    raw: RawScene,
}

impl fmt::Debug for Scene {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Scene")
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        // SAFETY: `raw` is a scene this value owns one reference to.
        unsafe { (self.device.api.release_scene)(self.raw) }
    }
}

// SAFETY: a committed Embree scene may be traced from any number of threads at once, and
// this value only passes the handle.
unsafe impl Send for Scene {}
// SAFETY: as above.
unsafe impl Sync for Scene {}

fn rtc_ray(ray: &Ray) -> RtcRay {
    RtcRay {
        org: ray.origin,
        tnear: ray.t_min,
        dir: ray.dir,
        time: 0.0,
        tfar: ray.t_max,
        mask: u32::MAX,
        id: 0,
        flags: 0,
    }
}

impl Scene {
    /// The closest hit (`rtcIntersect1`, incoherent context).
    #[inline]
    #[must_use]
    pub fn intersect(&self, ray: &Ray) -> Option<Hit> {
        let mut context = RtcContext::new(CONTEXT_INCOHERENT);
        let mut rayhit = RtcRayHit {
            ray: rtc_ray(ray),
            hit: RtcHit {
                ng: [0.0; 3],
                u: 0.0,
                v: 0.0,
                prim_id: INVALID_ID,
                geom_id: INVALID_ID,
                inst_id: [INVALID_ID],
            },
        };
        // SAFETY: a committed scene, an initialised context and a ray-hit laid out as
        // `RTCRayHit`, all valid for the call.
        unsafe { (self.device.api.intersect1)(self.raw, &mut context, &mut rayhit) };
        (rayhit.hit.geom_id != INVALID_ID).then_some(Hit {
            t: rayhit.ray.tfar,
            primitive: rayhit.hit.prim_id,
            u: rayhit.hit.u,
            v: rayhit.hit.v,
        })
    }

    /// Whether anything is hit within the ray's range (`rtcOccluded1`).
    #[inline]
    #[must_use]
    pub fn occluded(&self, ray: &Ray) -> bool {
        let mut context = RtcContext::new(CONTEXT_INCOHERENT);
        let mut r = rtc_ray(ray);
        // SAFETY: as in `intersect`, with a ray laid out as `RTCRay`.
        unsafe { (self.device.api.occluded1)(self.raw, &mut context, &mut r) };
        // Embree sets `tfar` to -inf when the ray is occluded.
        r.tfar == f32::NEG_INFINITY
    }

    /// Closest hits of up to 16 rays traced as one packet (`rtcIntersect16`, coherent
    /// context: Embree's packet path, meant for neighbouring camera rays); `out[i]` gets
    /// ray `i`'s hit. Only the first `min(rays.len(), out.len(), 16)` rays are traced.
    #[inline]
    pub fn intersect16(&self, rays: &[Ray], out: &mut [Option<Hit>]) {
        let n = rays.len().min(out.len()).min(16);
        let (valid, mut packet) = packet16(&rays[..n]);
        let mut context = RtcContext::new(CONTEXT_COHERENT);
        // SAFETY: a committed scene, an initialised context, a 64-byte aligned valid mask
        // and a 64-byte aligned ray-hit laid out as `RTCRayHit16`.
        unsafe { (self.device.api.intersect16)(valid.0.as_ptr(), self.raw, &mut context, &mut packet) };
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = (packet.hit_ids[1][i] != INVALID_ID).then_some(Hit {
                t: packet.ray[8][i],
                primitive: packet.hit_ids[0][i],
                u: packet.hit[3][i],
                v: packet.hit[4][i],
            });
        }
    }

    /// Occlusion of up to 16 rays traced as one packet (`rtcOccluded16`, coherent context);
    /// `out[i]` gets whether ray `i` hits anything within its range. Only the first
    /// `min(rays.len(), out.len(), 16)` rays are traced.
    #[inline]
    pub fn occluded16(&self, rays: &[Ray], out: &mut [bool]) {
        let n = rays.len().min(out.len()).min(16);
        let (valid, mut packet) = packet16(&rays[..n]);
        let mut context = RtcContext::new(CONTEXT_COHERENT);
        // SAFETY: as in `intersect16`; `rtcOccluded16` reads and writes only the `RTCRay16`
        // at the start of the packet.
        unsafe { (self.device.api.occluded16)(valid.0.as_ptr(), self.raw, &mut context, &mut packet) };
        for (i, o) in out[..n].iter_mut().enumerate() {
            // Embree sets `tfar` to -inf for an occluded ray.
            *o = packet.ray[8][i] == f32::NEG_INFINITY;
        }
    }
}

/// The valid mask and the packet of up to 16 rays (the others invalid).
fn packet16(rays: &[Ray]) -> (Valid16, RtcRayHit16) {
    let mut packet = RtcRayHit16 {
        ray: [[0.0; 16]; 9],
        ray_ids: [[0; 16]; 3],
        hit: [[0.0; 16]; 5],
        hit_ids: [[INVALID_ID; 16]; 3],
    };
    let mut valid = Valid16([0; 16]);
    for (i, r) in rays.iter().take(16).enumerate() {
        valid.0[i] = -1;
        for k in 0..3 {
            packet.ray[k][i] = r.origin[k];
            packet.ray[4 + k][i] = r.dir[k];
        }
        packet.ray[3][i] = r.t_min;
        packet.ray[8][i] = r.t_max;
        packet.ray_ids[0][i] = u32::MAX;
    }
    (valid, packet)
}

/// The valid mask of a 16-ray call (`-1`: trace the lane), 64-byte aligned as Embree asks.
#[repr(C, align(64))]
struct Valid16([c_int; 16]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_match_the_headers() {
        assert_eq!(size_of::<RtcRay>(), 48);
        assert_eq!(size_of::<RtcHit>(), 32);
        assert_eq!(size_of::<RtcRayHit>(), 80);
        assert_eq!(std::mem::offset_of!(RtcRayHit, hit), 48);
        // RTCRay16: 12 rows of 64 bytes; RTCHit16: 8 rows.
        assert_eq!(std::mem::offset_of!(RtcRayHit16, hit), 12 * 64);
        assert_eq!(size_of::<RtcRayHit16>(), 20 * 64);
        assert_eq!(align_of::<RtcRayHit16>(), 64);
        assert_eq!(size_of::<RtcContext>(), 24);
    }
}
