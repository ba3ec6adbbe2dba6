//! Loading triangle meshes from files: Wavefront OBJ (through cd-mid's reader, which accepts
//! fans, negative indices and FCL's `N M` header), STL (binary and ASCII) and PLY (ASCII and
//! binary of either byte order). The format is chosen by the file's extension; an unknown
//! extension is read as OBJ.
//!
//! STL stores every triangle's corners separately; identical corners are welded here so the
//! mesh has shared vertices like the other formats. Polygons of more than three corners (OBJ,
//! PLY) are fanned around their first corner.

use std::collections::HashMap;
use std::path::Path;

use cd::mid::TriMesh;
use nalgebra::Point3;

use crate::CliError;

/// Loads a mesh file (see the module documentation for the formats).
pub fn load_mesh(path: &Path) -> Result<TriMesh<f64>, CliError> {
    let bytes =
        std::fs::read(path).map_err(|e| CliError::Input(format!("cannot read {}: {e}", path.display())))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    let parsed = match ext.as_str() {
        "stl" => parse_stl(&bytes),
        "ply" => parse_ply(&bytes),
        _ => parse_obj(&bytes),
    };
    parsed.map_err(|e| CliError::Input(format!("{}: {e}", path.display())))
}

/// Parses OBJ text.
pub fn parse_obj(bytes: &[u8]) -> Result<TriMesh<f64>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "the OBJ file is not UTF-8 text".to_string())?;
    TriMesh::from_obj(text).map_err(|e| e.to_string())
}

/// The number of distinct vertex positions (exact comparison): a triangle soup such as FCL's
/// meshes or an STL file lists shared corners several times.
pub fn unique_vertex_count(mesh: &TriMesh<f64>) -> usize {
    let mut seen = std::collections::HashSet::with_capacity(mesh.vertices().len());
    for p in mesh.vertices() {
        seen.insert(key(p));
    }
    seen.len()
}

/// A hashable key for an exact position (`-0.0` and `0.0` are the same point).
fn key(p: &Point3<f64>) -> [u64; 3] {
    [p.x, p.y, p.z].map(|c| if c == 0.0 { 0 } else { c.to_bits() })
}

/// Collects triangles given as corner positions, welding identical corners.
#[derive(Default)]
struct Welder {
    vertices: Vec<Point3<f64>>,
    index: HashMap<[u64; 3], u32>,
    triangles: Vec<[u32; 3]>,
}

impl Welder {
    fn vertex(&mut self, p: Point3<f64>) -> u32 {
        let next = self.vertices.len() as u32;
        *self.index.entry(key(&p)).or_insert_with(|| {
            self.vertices.push(p);
            next
        })
    }

    fn triangle(&mut self, corners: [Point3<f64>; 3]) {
        let t = corners.map(|p| self.vertex(p));
        self.triangles.push(t);
    }

    fn finish(self) -> Result<TriMesh<f64>, String> {
        TriMesh::new(self.vertices, self.triangles).map_err(|e| e.to_string())
    }
}

/// Parses STL: binary when the size matches the triangle count in the header (an ASCII file
/// may also begin with "solid", so the size decides), ASCII otherwise.
pub fn parse_stl(bytes: &[u8]) -> Result<TriMesh<f64>, String> {
    if bytes.len() >= 84 {
        let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if count.checked_mul(50).and_then(|n| n.checked_add(84)) == Some(bytes.len()) {
            return parse_stl_binary(&bytes[84..], count);
        }
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "neither binary STL nor ASCII STL".to_string())?;
    parse_stl_ascii(text)
}

fn parse_stl_binary(body: &[u8], count: usize) -> Result<TriMesh<f64>, String> {
    let mut welder = Welder::default();
    for record in body.chunks_exact(50).take(count) {
        // 12 bytes of normal, then three corners of three little-endian f32, then 2 bytes.
        let float = |k: usize| {
            let o = 12 + 4 * k;
            f32::from_le_bytes([record[o], record[o + 1], record[o + 2], record[o + 3]]) as f64
        };
        let corner = |c: usize| Point3::new(float(3 * c), float(3 * c + 1), float(3 * c + 2));
        welder.triangle([corner(0), corner(1), corner(2)]);
    }
    welder.finish()
}

fn parse_stl_ascii(text: &str) -> Result<TriMesh<f64>, String> {
    let mut welder = Welder::default();
    let mut corners = Vec::with_capacity(3);
    for (n, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("vertex") => {
                let mut c = [0.0; 3];
                for slot in &mut c {
                    let w =
                        words.next().ok_or_else(|| format!("line {}: vertex needs three numbers", n + 1))?;
                    *slot = w.parse().map_err(|_| format!("line {}: bad number {w:?}", n + 1))?;
                }
                corners.push(Point3::from(c));
            }
            Some("endloop") => {
                if corners.len() < 3 {
                    return Err(format!("line {}: a facet needs three vertices", n + 1));
                }
                for k in 1..corners.len() - 1 {
                    welder.triangle([corners[0], corners[k], corners[k + 1]]);
                }
                corners.clear();
            }
            _ => {}
        }
    }
    welder.finish()
}

/// The PLY scalar types, by size.
#[derive(Clone, Copy, Debug)]
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
    fn parse(name: &str) -> Result<Scalar, String> {
        Ok(match name {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            other => return Err(format!("unknown PLY type {other:?}")),
        })
    }

    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }
}

/// One property of a PLY element: a scalar, or a list with a count type and an item type.
#[derive(Clone, Debug)]
struct Property {
    name: String,
    list_count: Option<Scalar>,
    item: Scalar,
}

#[derive(Clone, Debug)]
struct Element {
    name: String,
    count: usize,
    properties: Vec<Property>,
}

#[derive(Clone, Copy, PartialEq)]
enum Encoding {
    Ascii,
    Little,
    Big,
}

/// Reads PLY values one by one from the body, in any encoding.
struct PlyReader<'a> {
    encoding: Encoding,
    bytes: &'a [u8],
    at: usize,
    words: std::str::SplitAsciiWhitespace<'a>,
}

impl PlyReader<'_> {
    fn value(&mut self, ty: Scalar) -> Result<f64, String> {
        if self.encoding == Encoding::Ascii {
            let w = self.words.next().ok_or("the PLY body ends early")?;
            return w.parse().map_err(|_| format!("bad PLY number {w:?}"));
        }
        let n = ty.size();
        let raw = self.bytes.get(self.at..self.at + n).ok_or("the PLY body ends early")?;
        self.at += n;
        let mut b = [0u8; 8];
        if self.encoding == Encoding::Little {
            b[..n].copy_from_slice(raw);
        } else {
            for (k, &byte) in raw.iter().rev().enumerate() {
                b[k] = byte;
            }
        }
        Ok(match ty {
            Scalar::I8 => b[0] as i8 as f64,
            Scalar::U8 => b[0] as f64,
            Scalar::I16 => i16::from_le_bytes([b[0], b[1]]) as f64,
            Scalar::U16 => u16::from_le_bytes([b[0], b[1]]) as f64,
            Scalar::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Scalar::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Scalar::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Scalar::F64 => f64::from_le_bytes(b),
        })
    }
}

/// Parses PLY: the `vertex` element's `x`, `y`, `z` and the `face` element's
/// `vertex_indices` (or `vertex_index`) lists; other elements and properties are skipped.
pub fn parse_ply(bytes: &[u8]) -> Result<TriMesh<f64>, String> {
    let end = find(bytes, b"end_header").ok_or("not a PLY file: no end_header")?;
    let header = std::str::from_utf8(&bytes[..end]).map_err(|_| "the PLY header is not text")?;
    let mut body_start = end + b"end_header".len();
    // The header ends at the newline after end_header (LF or CRLF).
    while body_start < bytes.len() && bytes[body_start] != b'\n' {
        body_start += 1;
    }
    body_start = (body_start + 1).min(bytes.len());
    let mut lines = header.lines();
    if lines.next().map(str::trim) != Some("ply") {
        return Err("not a PLY file: it does not start with \"ply\"".into());
    }
    let mut encoding = None;
    let mut elements: Vec<Element> = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["format", "ascii", ..] => encoding = Some(Encoding::Ascii),
            ["format", "binary_little_endian", ..] => encoding = Some(Encoding::Little),
            ["format", "binary_big_endian", ..] => encoding = Some(Encoding::Big),
            ["element", name, count] => elements.push(Element {
                name: name.to_string(),
                count: count.parse().map_err(|_| format!("bad PLY element count {count:?}"))?,
                properties: Vec::new(),
            }),
            ["property", "list", count, item, name] => {
                elements.last_mut().ok_or("a PLY property before any element")?.properties.push(Property {
                    name: name.to_string(),
                    list_count: Some(Scalar::parse(count)?),
                    item: Scalar::parse(item)?,
                })
            }
            ["property", ty, name] => elements
                .last_mut()
                .ok_or("a PLY property before any element")?
                .properties
                .push(Property { name: name.to_string(), list_count: None, item: Scalar::parse(ty)? }),
            _ => {}
        }
    }
    let encoding = encoding.ok_or("the PLY header has no format line")?;
    let body = &bytes[body_start..];
    let text = if encoding == Encoding::Ascii {
        std::str::from_utf8(body).map_err(|_| "the ASCII PLY body is not text")?
    } else {
        ""
    };
    let mut reader = PlyReader { encoding, bytes: body, at: 0, words: text.split_ascii_whitespace() };
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for element in &elements {
        for _ in 0..element.count {
            let mut xyz = [0.0; 3];
            let mut polygon: Vec<u32> = Vec::new();
            for property in &element.properties {
                match property.list_count {
                    Some(count_ty) => {
                        let count = reader.value(count_ty)?;
                        if !(0.0..=1e6).contains(&count) {
                            return Err(format!("bad PLY list length {count}"));
                        }
                        let face = element.name == "face"
                            && (property.name == "vertex_indices" || property.name == "vertex_index");
                        for _ in 0..count as usize {
                            let v = reader.value(property.item)?;
                            if face {
                                if !(0.0..u32::MAX as f64).contains(&v) {
                                    return Err(format!("bad PLY vertex index {v}"));
                                }
                                polygon.push(v as u32);
                            }
                        }
                    }
                    None => {
                        let v = reader.value(property.item)?;
                        if element.name == "vertex" {
                            match property.name.as_str() {
                                "x" => xyz[0] = v,
                                "y" => xyz[1] = v,
                                "z" => xyz[2] = v,
                                _ => {}
                            }
                        }
                    }
                }
            }
            if element.name == "vertex" {
                vertices.push(Point3::from(xyz));
            } else if element.name == "face" {
                if polygon.len() < 3 {
                    return Err(format!("a PLY face has {} corners", polygon.len()));
                }
                for k in 1..polygon.len() - 1 {
                    triangles.push([polygon[0], polygon[k], polygon[k + 1]]);
                }
            }
        }
    }
    TriMesh::new(vertices, triangles).map_err(|e| e.to_string())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_ply_ascii() -> Vec<u8> {
        b"ply\nformat ascii 1.0\ncomment a unit square\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0 9\n1 0 0 9\n1 1 0 9\n0 1 0 9\n4 0 1 2 3\n".to_vec()
    }

    #[test]
    fn ply_ascii_fans_quads_and_skips_other_properties() {
        let m = parse_ply(&square_ply_ascii()).unwrap();
        assert_eq!(m.vertices().len(), 4);
        assert_eq!(m.indices(), &[[0, 1, 2], [0, 2, 3]]);
        assert_eq!(m.vertices()[2], Point3::new(1.0, 1.0, 0.0));
    }

    #[test]
    fn ply_binary_both_byte_orders() {
        for (format, big) in [("binary_little_endian", false), ("binary_big_endian", true)] {
            let mut bytes = format!(
                "ply\r\nformat {format} 1.0\r\nelement vertex 3\r\nproperty double x\r\nproperty double y\r\nproperty double z\r\nelement face 1\r\nproperty list uchar uint vertex_index\r\nend_header\r\n"
            )
            .into_bytes();
            for p in [[0.0f64, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 3.0, -1.5]] {
                for c in p {
                    bytes.extend(if big { c.to_be_bytes() } else { c.to_le_bytes() });
                }
            }
            bytes.push(3);
            for i in [0u32, 1, 2] {
                bytes.extend(if big { i.to_be_bytes() } else { i.to_le_bytes() });
            }
            let m = parse_ply(&bytes).unwrap();
            assert_eq!(m.vertices()[2], Point3::new(0.0, 3.0, -1.5), "{format}");
            assert_eq!(m.indices(), &[[0, 1, 2]]);
        }
    }

    #[test]
    fn stl_ascii_and_binary_weld_shared_corners() {
        let ascii = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nendloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
        let m = parse_stl(ascii.as_bytes()).unwrap();
        assert_eq!((m.vertices().len(), m.len()), (4, 2));
        let mut binary = vec![0u8; 80];
        binary.extend(2u32.to_le_bytes());
        for tri in [
            [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]],
            [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        ] {
            binary.extend([0u8; 12]);
            for c in tri.iter().flatten() {
                binary.extend(c.to_le_bytes());
            }
            binary.extend([0u8; 2]);
        }
        let b = parse_stl(&binary).unwrap();
        assert_eq!(b.vertices(), m.vertices());
        assert_eq!(b.indices(), m.indices());
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        assert!(
            parse_ply(b"ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nend_header\n1\n").is_err()
        );
        assert!(parse_ply(b"not a ply").is_err());
        assert!(parse_ply(
            b"ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n\x01"
        )
        .is_err());
        assert!(parse_stl(b"solid x\nfacet\nouter loop\nvertex 0 0\nendloop\n").is_err());
        assert!(parse_obj(b"v 0 0 0\nf 1 2 3\n").is_err());
        let soup =
            parse_obj(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 4 5 6\n").unwrap();
        assert_eq!(unique_vertex_count(&soup), 3);
    }
}
