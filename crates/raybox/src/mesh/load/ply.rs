//! Stanford PLY: ASCII, binary little endian and binary big endian.
//!
//! A PLY file is a text header that declares elements (a name, a count, and typed
//! properties), then the element records in that order. This reader takes `x y z` from
//! the `vertex` element (any numeric type, any order, other properties skipped) and the
//! corner list `vertex_indices` (or `vertex_index`) from each `face` element; every other
//! element is skipped. ASCII records are read as one stream of numbers, so a record may
//! span lines, and a value after the last record is an error; errors give the line, and
//! binary errors the byte offset. Bytes after the last binary record are ignored.

use glam::Vec3;

use super::{LoadMeshError, Location, MeshFormat, push_fan};
use crate::mesh::MeshData;

/// Reads a PLY file's bytes.
pub(super) fn read(bytes: &[u8]) -> Result<MeshData, LoadMeshError> {
    let header = Header::parse(bytes)?;
    let body = &bytes[header.body_start..];
    let mut mesh = MeshBuilder::default();
    match header.encoding {
        Encoding::Ascii => {
            let mut tokens = Tokens { text: body, pos: 0, line: header.body_line };
            for element in &header.elements {
                read_element(&mut tokens, element, &mut mesh)?;
            }
            // A value left over means a record holds more values than the header gives
            // it, so every record after it was read shifted: a different mesh.
            if let Some(word) = tokens.next_word() {
                let message = format!(
                    "`{}` follows the last record: the records hold more values than the header declares",
                    String::from_utf8_lossy(word)
                );
                return Err(error(Location::Line(tokens.line), message));
            }
        }
        Encoding::Binary { big_endian } => {
            let mut cursor =
                Cursor { bytes: body, pos: 0, last: 0, offset: header.body_start as u64, big_endian };
            for element in &header.elements {
                read_element(&mut cursor, element, &mut mesh)?;
            }
        }
    }
    Ok(mesh.data)
}

fn error(at: Location, message: impl Into<String>) -> LoadMeshError {
    LoadMeshError::parse(MeshFormat::Ply, Some(at), message)
}

/// How the records after the header are written.
#[derive(Clone, Copy, Debug)]
enum Encoding {
    Ascii,
    Binary { big_endian: bool },
}

/// A PLY scalar type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "char" | "int8" => Self::I8,
            "uchar" | "uint8" => Self::U8,
            "short" | "int16" => Self::I16,
            "ushort" | "uint16" => Self::U16,
            "int" | "int32" => Self::I32,
            "uint" | "uint32" => Self::U32,
            "float" | "float32" => Self::F32,
            "double" | "float64" => Self::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            Self::I32 | Self::U32 | Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Self::F32 | Self::F64)
    }

    /// The smallest and largest values of an integer type.
    fn int_range(self) -> (i64, i64) {
        match self {
            Self::I8 => (i8::MIN.into(), i8::MAX.into()),
            Self::U8 => (0, u8::MAX.into()),
            Self::I16 => (i16::MIN.into(), i16::MAX.into()),
            Self::U16 => (0, u16::MAX.into()),
            Self::I32 => (i32::MIN.into(), i32::MAX.into()),
            Self::U32 | Self::F32 | Self::F64 => (0, u32::MAX.into()),
        }
    }
}

/// One property of an element.
#[derive(Debug)]
enum Property {
    Scalar { ty: Scalar, name: String },
    List { count: Scalar, item: Scalar, name: String },
}

impl Property {
    fn name(&self) -> &str {
        match self {
            Self::Scalar { name, .. } | Self::List { name, .. } => name,
        }
    }
}

/// An element declaration: `element NAME COUNT` and its properties.
#[derive(Debug)]
struct Element {
    name: String,
    count: u64,
    properties: Vec<Property>,
    /// The header line that declared it.
    line: usize,
}

/// The parsed header.
#[derive(Debug)]
struct Header {
    encoding: Encoding,
    elements: Vec<Element>,
    /// The byte where the records start, just after the `end_header` line.
    body_start: usize,
    /// The line number of the first record line (for ASCII errors).
    body_line: usize,
}

impl Header {
    fn parse(bytes: &[u8]) -> Result<Self, LoadMeshError> {
        let mut encoding = None;
        let mut elements: Vec<Element> = Vec::new();
        let mut start = 0;
        let mut number = 0;
        loop {
            number += 1;
            let at = Location::Line(number);
            if start >= bytes.len() {
                let message = if number == 1 {
                    "the file is empty".to_owned()
                } else {
                    "the header has no `end_header` line (the file ends first)".to_owned()
                };
                return Err(error(at, message));
            }
            let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| start + i);
            let raw = &bytes[start..end];
            start = (end + 1).min(bytes.len());
            let line = core::str::from_utf8(raw)
                .map_err(|_| error(at, "the header is not ASCII text"))?
                .trim_end_matches('\r');
            let words: Vec<&str> = line.split_ascii_whitespace().collect();

            if number == 1 {
                if line != "ply" {
                    return Err(error(at, "not a PLY file: the first line is not `ply`"));
                }
                continue;
            }
            match words.as_slice() {
                [] => {}
                ["comment" | "obj_info", ..] => {}
                ["format", kind, _version] => {
                    encoding = Some(match *kind {
                        "ascii" => Encoding::Ascii,
                        "binary_little_endian" => Encoding::Binary { big_endian: false },
                        "binary_big_endian" => Encoding::Binary { big_endian: true },
                        _ => return Err(error(at, format!("unknown format `{kind}`"))),
                    });
                }
                ["element", name, count] => {
                    let count = count
                        .parse()
                        .map_err(|_| error(at, format!("element `{name}` has a bad count `{count}`")))?;
                    elements.push(Element {
                        name: (*name).to_owned(),
                        count,
                        properties: Vec::new(),
                        line: number,
                    });
                }
                ["property", "list", count, item, name] => {
                    let element = elements
                        .last_mut()
                        .ok_or_else(|| error(at, "a property comes before any `element` line"))?;
                    let (Some(count), Some(item)) = (Scalar::from_name(count), Scalar::from_name(item))
                    else {
                        return Err(error(at, format!("list property `{name}` has an unknown type")));
                    };
                    if count.is_float() {
                        return Err(error(
                            at,
                            format!("list property `{name}` has a floating-point count type"),
                        ));
                    }
                    element.properties.push(Property::List { count, item, name: (*name).to_owned() });
                }
                ["property", ty, name] => {
                    let element = elements
                        .last_mut()
                        .ok_or_else(|| error(at, "a property comes before any `element` line"))?;
                    let ty = Scalar::from_name(ty)
                        .ok_or_else(|| error(at, format!("property `{name}` has an unknown type `{ty}`")))?;
                    element.properties.push(Property::Scalar { ty, name: (*name).to_owned() });
                }
                ["end_header"] => break,
                _ => return Err(error(at, format!("unrecognised header line `{line}`"))),
            }
        }
        let encoding = encoding.ok_or_else(|| error(Location::Line(2), "the header has no `format` line"))?;
        Ok(Self { encoding, elements, body_start: start, body_line: number + 1 })
    }
}

/// Where the records are read from: ASCII tokens or binary values.
trait Source {
    /// The next value of type `ty` as a float (coordinates); `Err` at the end of the file or
    /// for a malformed number.
    fn float(&mut self, ty: Scalar) -> Result<f64, String>;
    /// The next value of integer type `ty` (counts and indices).
    fn int(&mut self, ty: Scalar) -> Result<i64, String>;
    /// Skips `count` values of type `ty`.
    fn skip(&mut self, ty: Scalar, count: u64) -> Result<(), String>;
    /// Where the last value read (or attempted) starts, for errors.
    fn at(&self) -> Location;
    /// Bytes left, a bound on the records that can follow (to size allocations).
    fn remaining(&self) -> usize;
}

/// The words of an ASCII body, with the line of each.
struct Tokens<'a> {
    text: &'a [u8],
    pos: usize,
    /// The line `pos` is on.
    line: usize,
}

impl<'a> Tokens<'a> {
    fn next_word(&mut self) -> Option<&'a [u8]> {
        while let Some(&b) = self.text.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while self.text.get(self.pos).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        (self.pos > start).then(|| &self.text[start..self.pos])
    }

    fn word(&mut self) -> Result<&'a str, String> {
        let word = self.next_word().ok_or("the file ends early (truncated?)")?;
        core::str::from_utf8(word).map_err(|_| "a value is not ASCII text".to_owned())
    }
}

impl Source for Tokens<'_> {
    fn float(&mut self, ty: Scalar) -> Result<f64, String> {
        let word = self.word()?;
        let value = match ty {
            Scalar::F32 => word.parse::<f32>().ok().map(f64::from),
            Scalar::F64 => word.parse::<f64>().ok(),
            _ => return ascii_int(word, ty).map(|v| v as f64),
        };
        value.ok_or_else(|| format!("`{word}` is not a number"))
    }

    fn int(&mut self, ty: Scalar) -> Result<i64, String> {
        let word = self.word()?;
        ascii_int(word, ty)
    }

    fn skip(&mut self, _ty: Scalar, count: u64) -> Result<(), String> {
        for _ in 0..count {
            self.word()?;
        }
        Ok(())
    }

    fn at(&self) -> Location {
        // After a word, `pos` is still on its line.
        Location::Line(self.line)
    }

    fn remaining(&self) -> usize {
        self.text.len() - self.pos
    }
}

/// An ASCII integer of type `ty`, range-checked.
fn ascii_int(word: &str, ty: Scalar) -> Result<i64, String> {
    let value: i64 = word.parse().map_err(|_| format!("`{word}` is not an integer"))?;
    let (min, max) = ty.int_range();
    if (min..=max).contains(&value) { Ok(value) } else { Err(format!("{value} does not fit its type")) }
}

/// A binary body.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Where the last value read starts.
    last: usize,
    /// The body's offset in the file.
    offset: u64,
    big_endian: bool,
}

impl Cursor<'_> {
    /// The next `N` bytes, in little-endian order.
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        self.last = self.pos;
        let end = self.pos + N;
        let slice = self.bytes.get(self.pos..end).ok_or("the file ends early (truncated?)")?;
        let mut array = [0; N];
        array.copy_from_slice(slice);
        if self.big_endian {
            array.reverse();
        }
        self.pos = end;
        Ok(array)
    }
}

impl Source for Cursor<'_> {
    fn float(&mut self, ty: Scalar) -> Result<f64, String> {
        Ok(match ty {
            Scalar::F32 => f64::from(f32::from_le_bytes(self.take()?)),
            Scalar::F64 => f64::from_le_bytes(self.take()?),
            _ => self.int(ty)? as f64,
        })
    }

    fn int(&mut self, ty: Scalar) -> Result<i64, String> {
        Ok(match ty {
            Scalar::I8 => i8::from_le_bytes(self.take()?).into(),
            Scalar::U8 => u8::from_le_bytes(self.take()?).into(),
            Scalar::I16 => i16::from_le_bytes(self.take()?).into(),
            Scalar::U16 => u16::from_le_bytes(self.take()?).into(),
            Scalar::I32 => i32::from_le_bytes(self.take()?).into(),
            Scalar::U32 => u32::from_le_bytes(self.take()?).into(),
            Scalar::F32 | Scalar::F64 => return Err("an integer was expected".to_owned()),
        })
    }

    fn skip(&mut self, ty: Scalar, count: u64) -> Result<(), String> {
        self.last = self.pos;
        let length = usize::try_from(count).ok().and_then(|c| c.checked_mul(ty.size()));
        match length.filter(|&n| n <= self.bytes.len() - self.pos) {
            Some(n) => {
                self.pos += n;
                Ok(())
            }
            None => Err("the file ends early (truncated?)".to_owned()),
        }
    }

    fn at(&self) -> Location {
        Location::Byte(self.offset + self.last as u64)
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }
}

/// The mesh being read, and whether its vertices have been read yet.
#[derive(Default)]
struct MeshBuilder {
    data: MeshData,
    vertices_read: bool,
    corners: Vec<u32>,
}

/// What to do with each property of an element.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Skip,
    Coordinate(usize),
    Corners,
}

fn read_element(
    source: &mut impl Source,
    element: &Element,
    mesh: &mut MeshBuilder,
) -> Result<(), LoadMeshError> {
    let header_error = |message: String| error(Location::Line(element.line), message);
    let is_vertex = element.name == "vertex" && !mesh.vertices_read;
    let is_face = element.name == "face";
    let mut roles = vec![Role::Skip; element.properties.len()];
    if is_vertex {
        for (axis, axis_name) in ["x", "y", "z"].into_iter().enumerate() {
            let i = element
                .properties
                .iter()
                .position(|p| p.name() == axis_name)
                .ok_or_else(|| header_error(format!("element `vertex` has no property `{axis_name}`")))?;
            if matches!(element.properties[i], Property::List { .. }) {
                return Err(header_error(format!("vertex property `{axis_name}` is a list")));
            }
            roles[i] = Role::Coordinate(axis);
        }
        if element.count > u64::from(u32::MAX) {
            return Err(header_error(format!(
                "{} vertices are more than 32-bit indices address",
                element.count
            )));
        }
        let count = usize::try_from(element.count).unwrap_or(usize::MAX);
        mesh.data.vertices.reserve(count.min(source.remaining() / 2));
    } else if is_face {
        let i = element
            .properties
            .iter()
            .position(|p| matches!(p.name(), "vertex_indices" | "vertex_index"))
            .ok_or_else(|| header_error("element `face` has no list property `vertex_indices`".to_owned()))?;
        match element.properties[i] {
            Property::List { item, .. } if !item.is_float() => roles[i] = Role::Corners,
            _ => {
                return Err(header_error(
                    "face property `vertex_indices` is not a list of integers".to_owned(),
                ));
            }
        }
    }

    if element.properties.is_empty() {
        return Ok(()); // its records are empty, however many the header declares
    }
    for record in 0..element.count {
        let mut position = [0.0f32; 3];
        for (property, &role) in element.properties.iter().zip(&roles) {
            let in_record = |source: &dyn Source, what: String| {
                error(source.at(), format!("{} {record} of {}: {what}", element.name, element.count))
            };
            match (property, role) {
                (Property::Scalar { ty, .. }, Role::Coordinate(axis)) => {
                    position[axis] = source.float(*ty).map_err(|e| in_record(source, e))? as f32;
                }
                (Property::Scalar { ty, .. }, _) => source.skip(*ty, 1).map_err(|e| in_record(source, e))?,
                (Property::List { count, item, .. }, Role::Corners) => {
                    let n = source.int(*count).map_err(|e| in_record(source, e))?;
                    let n = u64::try_from(n)
                        .map_err(|_| in_record(source, format!("negative corner count {n}")))?;
                    mesh.corners.clear();
                    for _ in 0..n {
                        let index = source.int(*item).map_err(|e| in_record(source, e))?;
                        let vertex_count = mesh.data.vertices.len();
                        let past_end = mesh.vertices_read && index >= vertex_count as i64;
                        match u32::try_from(index) {
                            Ok(i) if !past_end => mesh.corners.push(i),
                            _ => {
                                return Err(LoadMeshError::IndexOutOfRange {
                                    path: None,
                                    format: MeshFormat::Ply,
                                    at: Some(source.at()),
                                    index,
                                    vertex_count,
                                });
                            }
                        }
                    }
                    // Faces with fewer than three corners are skipped (they have no area).
                    push_fan(&mut mesh.data.indices, &mesh.corners);
                }
                (Property::List { count, item, .. }, _) => {
                    let n = source.int(*count).map_err(|e| in_record(source, e))?;
                    let n = u64::try_from(n)
                        .map_err(|_| in_record(source, format!("negative list length {n}")))?;
                    source.skip(*item, n).map_err(|e| in_record(source, e))?;
                }
            }
        }
        if is_vertex {
            mesh.data.vertices.push(Vec3::from_array(position));
        }
    }
    if is_vertex {
        mesh.vertices_read = true;
    }
    Ok(())
}
