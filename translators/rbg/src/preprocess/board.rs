//! `#board` in high-level syntax (rbg.md §4.5): the rectangle, hexagon and
//! cuboid generators with exact vertex names, or an explicit graph.

use std::collections::{HashMap, HashSet};

use rg_core::diag::{Diagnostic, Span};

use super::cursor::{Cursor, PResult};
use super::expand::XToken;
use crate::ast::{Edge, Name, Vertex};
use crate::lexer::{Keyword, Punct, TokenKind};
use crate::limits::{too_many_vertices, MAX_BOARD_VERTICES};

/// The board, and the labels it declares (generator labels are declared even
/// when no edge carries them).
pub struct Board {
    pub vertices: Vec<Vertex>,
    pub labels: HashSet<String>,
}

/// One slot of a board line: a piece, or a hole.
struct Slot {
    piece: Option<Name>,
    span: Span,
}

struct Line {
    slots: Vec<Slot>,
    span: Span,
}

/// `reserved` holds the pieces, players and variables, which labels may not reuse.
pub fn board(cursor: &mut Cursor<'_>, reserved: &HashSet<String>) -> PResult<Board> {
    let generator = match cursor.peek().map(|t| &t.kind) {
        Some(TokenKind::Keyword(k @ (Keyword::Rectangle | Keyword::Hexagon | Keyword::Cuboid))) => {
            Some(*k)
        }
        _ => None,
    };
    let Some(generator) = generator else {
        return explicit_graph(cursor);
    };
    let keyword = cursor.next().map_or(cursor.end, |t| t.span);
    cursor.expect_punct(Punct::LParen)?;
    let label_count = match generator {
        Keyword::Rectangle => 4,
        Keyword::Hexagon => 6,
        _ => 6,
    };
    let mut labels: Vec<Name> = Vec::new();
    for _ in 0..label_count {
        let token = cursor.peek();
        let label = cursor.ident("an edge label")?;
        if let Some(token) = token {
            if labels.iter().any(|l| l.name == label.name) {
                return Err(cursor
                    .error_at(token, format!("edge label `{}` is given twice", label.name))
                    .with_note("generator labels must be pairwise distinct"));
            }
            if reserved.contains(&label.name) {
                return Err(cursor.error_at(
                    token,
                    format!(
                        "edge label `{}` is already a piece, player or variable",
                        label.name
                    ),
                ));
            }
        }
        labels.push(label);
        cursor.expect_punct(Punct::Comma)?;
    }
    // Slots read so far, holes included, against MAX_BOARD_VERTICES.
    let mut slots = 0;
    let vertices = match generator {
        Keyword::Rectangle => {
            let lines = lines(cursor, &mut slots)?;
            rectangle(cursor, &labels, &lines)?
        }
        Keyword::Hexagon => {
            let lines = lines(cursor, &mut slots)?;
            hexagon(cursor, &labels, &lines)?
        }
        _ => {
            let mut layers = Vec::new();
            while cursor.peek_punct(Punct::LBracket) {
                let open = cursor.next().map_or(cursor.end, |t| t.span);
                let layer = lines(cursor, &mut slots)?;
                let close = cursor.expect_punct(Punct::RBracket)?;
                layers.push((layer, open.join(close.span)));
            }
            if layers.is_empty() {
                return Err(cursor.expected("a layer `[[...] ...]`"));
            }
            cuboid(cursor, &labels, &layers)?
        }
    };
    cursor.expect_punct(Punct::RParen)?;
    if let Some(extra) = cursor.peek() {
        return Err(cursor
            .error_at(
                extra,
                format!("unexpected `{}` after the board generator", extra.kind),
            )
            .with_label("the generator call must be the whole #board"));
    }
    if vertices.is_empty() {
        return Err(Diagnostic::error("the board has no vertices", keyword)
            .with_note("every slot is a hole"));
    }
    Ok(Board {
        vertices,
        labels: labels.into_iter().map(|l| l.name).collect(),
    })
}

/// One or more lines `[slot, slot, ...]`; `count` counts the slots read
/// (across the layers of a cuboid), refused past [`MAX_BOARD_VERTICES`].
fn lines(cursor: &mut Cursor<'_>, count: &mut usize) -> PResult<Vec<Line>> {
    let mut lines = Vec::new();
    // A line starts with `[` directly followed by a slot, `,` or `]`; a `[[` starts a layer.
    while cursor.peek_punct(Punct::LBracket)
        && !cursor
            .peek_at(1)
            .is_some_and(|t| t.kind.is_punct(Punct::LBracket))
    {
        let open = cursor.next().map_or(cursor.end, |t| t.span);
        let mut slots = Vec::new();
        let mut slot_start = cursor.here();
        loop {
            let piece = match cursor.peek().map(|t| &t.kind) {
                Some(TokenKind::Ident(_)) => Some(cursor.ident("a piece")?),
                _ => None,
            };
            let span = piece
                .as_ref()
                .map_or(Span::new(slot_start.start, slot_start.start), |p| p.span);
            *count += 1;
            if *count > MAX_BOARD_VERTICES {
                return Err(too_many_vertices(span));
            }
            slots.push(Slot { piece, span });
            if cursor.eat_punct(Punct::Comma).is_some() {
                slot_start = cursor.here();
                continue;
            }
            break;
        }
        let close = cursor.expect_punct(Punct::RBracket).map_err(|e| {
            e.with_note("a board line is `[piece, piece, ...]`; an empty slot is a hole")
        })?;
        lines.push(Line {
            slots,
            span: open.join(close.span),
        });
    }
    if lines.is_empty() {
        return Err(cursor.expected("a board line `[...]`"));
    }
    Ok(lines)
}

/// Collects generated vertices: `cells[(x, y, z)] = (name, piece, span)`.
struct Grid {
    names: HashMap<(i64, i64, i64), usize>,
    vertices: Vec<Vertex>,
}

impl Grid {
    fn new() -> Self {
        Grid {
            names: HashMap::new(),
            vertices: Vec::new(),
        }
    }

    fn add(&mut self, coords: (i64, i64, i64), name: String, piece: &Name, span: Span) {
        self.names.insert(coords, self.vertices.len());
        self.vertices.push(Vertex {
            name: Name { name, span },
            piece: piece.clone(),
            edges: Vec::new(),
            span,
        });
    }

    /// Adds edge `label` from `from` to `to` if both cells exist.
    fn link(&mut self, from: (i64, i64, i64), to: (i64, i64, i64), label: &Name) {
        let (Some(&f), Some(&t)) = (self.names.get(&from), self.names.get(&to)) else {
            return;
        };
        let target = self.vertices[t].name.clone();
        self.vertices[f].edges.push(Edge {
            label: label.clone(),
            target: Name {
                name: target.name,
                span: label.span,
            },
            span: label.span,
        });
    }

    fn finish(mut self) -> Vec<Vertex> {
        for v in &mut self.vertices {
            v.edges.sort_by(|a, b| a.label.name.cmp(&b.label.name));
        }
        self.vertices
    }
}

fn rectangle(cursor: &Cursor<'_>, labels: &[Name], lines: &[Line]) -> PResult<Vec<Vertex>> {
    let width = lines[0].slots.len();
    check_equal_lengths(cursor, lines, width, "rectangle")?;
    let mut grid = Grid::new();
    for (y, line) in lines.iter().enumerate() {
        for (x, slot) in line.slots.iter().enumerate() {
            if let Some(piece) = &slot.piece {
                grid.add(
                    (x as i64, y as i64, 0),
                    format!("rx{x}y{y}"),
                    piece,
                    slot.span,
                );
            }
        }
    }
    link_planar(&mut grid, labels, lines, 0);
    Ok(grid.finish())
}

fn check_equal_lengths(
    cursor: &Cursor<'_>,
    lines: &[Line],
    width: usize,
    what: &str,
) -> PResult<()> {
    for (y, line) in lines.iter().enumerate() {
        if line.slots.len() != width {
            let _ = cursor;
            return Err(Diagnostic::error(
                format!(
                    "{what} line {} has {} slots, but the first line has {width}",
                    y + 1,
                    line.slots.len()
                ),
                line.span,
            )
            .with_label("ragged line")
            .with_note(format!(
                "every line of a {what} must have the same number of slots (holes count)"
            )));
        }
    }
    Ok(())
}

/// up/down/left/right edges within layer `z`.
fn link_planar(grid: &mut Grid, labels: &[Name], lines: &[Line], z: i64) {
    for (y, line) in lines.iter().enumerate() {
        for x in 0..line.slots.len() {
            let (x, y) = (x as i64, y as i64);
            grid.link((x, y, z), (x, y - 1, z), &labels[0]);
            grid.link((x, y, z), (x, y + 1, z), &labels[1]);
            grid.link((x, y, z), (x - 1, y, z), &labels[2]);
            grid.link((x, y, z), (x + 1, y, z), &labels[3]);
        }
    }
}

fn hexagon(cursor: &Cursor<'_>, labels: &[Name], lines: &[Line]) -> PResult<Vec<Vertex>> {
    // nw, ne, e, se, sw, w
    let [nw, ne, e, se, sw, w] = [
        &labels[0], &labels[1], &labels[2], &labels[3], &labels[4], &labels[5],
    ];
    let mut decreasing = false;
    let mut peak = lines.len() - 1;
    for (y, line) in lines.iter().enumerate() {
        if line.slots.iter().all(|s| s.piece.is_none()) && line.slots.len() <= 1 {
            let _ = cursor;
            return Err(
                Diagnostic::error(format!("hexagon line {} is empty", y + 1), line.span)
                    .with_note("every hexagon line needs at least one slot"),
            );
        }
        if y == 0 {
            continue;
        }
        let (previous, current) = (lines[y - 1].slots.len(), line.slots.len());
        let ok = if current == previous + 1 {
            !decreasing
        } else if current + 1 == previous {
            if !decreasing {
                decreasing = true;
                peak = y - 1;
            }
            true
        } else {
            false
        };
        if !ok {
            return Err(Diagnostic::error(
                format!(
                    "invalid hexagon shape: line {} has {current} slots after a line of {previous}",
                    y + 1
                ),
                line.span,
            )
            .with_note("line lengths must grow by exactly 1 up to the longest line, then shrink by exactly 1"));
        }
    }
    let mut grid = Grid::new();
    for (y, line) in lines.iter().enumerate() {
        for (x, slot) in line.slots.iter().enumerate() {
            if let Some(piece) = &slot.piece {
                grid.add(
                    (x as i64, y as i64, 0),
                    format!("hx{x}y{y}"),
                    piece,
                    slot.span,
                );
            }
        }
    }
    let peak = peak as i64;
    for (y, line) in lines.iter().enumerate() {
        for x in 0..line.slots.len() {
            let (x, y) = (x as i64, y as i64);
            let here = (x, y, 0);
            grid.link(here, (x + 1, y, 0), e);
            grid.link(here, (x - 1, y, 0), w);
            if y > peak {
                grid.link(here, (x + 1, y - 1, 0), ne);
                grid.link(here, (x, y - 1, 0), nw);
            } else {
                grid.link(here, (x, y - 1, 0), ne);
                grid.link(here, (x - 1, y - 1, 0), nw);
            }
            if y < peak {
                grid.link(here, (x + 1, y + 1, 0), se);
                grid.link(here, (x, y + 1, 0), sw);
            } else {
                grid.link(here, (x, y + 1, 0), se);
                grid.link(here, (x - 1, y + 1, 0), sw);
            }
        }
    }
    Ok(grid.finish())
}

fn cuboid(
    cursor: &Cursor<'_>,
    labels: &[Name],
    layers: &[(Vec<Line>, Span)],
) -> PResult<Vec<Vertex>> {
    let height = layers[0].0.len();
    let width = layers[0].0[0].slots.len();
    for (z, (layer, span)) in layers.iter().enumerate() {
        if layer.len() != height {
            return Err(Diagnostic::error(
                format!(
                    "cuboid layer {} has {} lines, but the first layer has {height}",
                    z + 1,
                    layer.len()
                ),
                *span,
            )
            .with_label("ragged layer"));
        }
        check_equal_lengths(cursor, layer, width, "cuboid")?;
    }
    let mut grid = Grid::new();
    for (z, (layer, _)) in layers.iter().enumerate() {
        for (y, line) in layer.iter().enumerate() {
            for (x, slot) in line.slots.iter().enumerate() {
                if let Some(piece) = &slot.piece {
                    grid.add(
                        (x as i64, y as i64, z as i64),
                        format!("cx{x}y{y}z{z}"),
                        piece,
                        slot.span,
                    );
                }
            }
        }
    }
    for (z, (layer, _)) in layers.iter().enumerate() {
        let z = z as i64;
        link_planar(&mut grid, labels, layer, z);
        for (y, line) in layer.iter().enumerate() {
            for x in 0..line.slots.len() {
                let (x, y) = (x as i64, y as i64);
                grid.link((x, y, z), (x, y, z + 1), &labels[4]);
                grid.link((x, y, z), (x, y, z - 1), &labels[5]);
            }
        }
    }
    Ok(grid.finish())
}

/// `v [piece] {label: target, ...}` ...; checks are left to the checker.
fn explicit_graph(cursor: &mut Cursor<'_>) -> PResult<Board> {
    let mut vertices = Vec::new();
    let mut labels = HashSet::new();
    if cursor.at_end() {
        return Err(cursor.expected("a board generator or a vertex"));
    }
    while !cursor.at_end() {
        let name = cursor.ident("a vertex name or a board generator")?;
        cursor.expect_punct(Punct::LBracket)?;
        let piece = cursor.ident("the vertex's piece")?;
        cursor.expect_punct(Punct::RBracket)?;
        cursor.expect_punct(Punct::LBrace)?;
        let mut edges = Vec::new();
        if !cursor.peek_punct(Punct::RBrace) {
            loop {
                let label = cursor.ident("an edge label")?;
                cursor.expect_punct(Punct::Colon)?;
                let target = cursor.ident("a target vertex")?;
                labels.insert(label.name.clone());
                edges.push(Edge {
                    span: label.span.join(target.span),
                    label,
                    target,
                });
                if cursor.eat_punct(Punct::Comma).is_none() {
                    break;
                }
            }
        }
        let close: &XToken = cursor.expect_punct(Punct::RBrace)?;
        if vertices.len() == MAX_BOARD_VERTICES {
            return Err(too_many_vertices(name.span));
        }
        edges.sort_by(|a, b| a.label.name.cmp(&b.label.name));
        vertices.push(Vertex {
            span: name.span.join(close.span),
            name,
            piece,
            edges,
        });
    }
    Ok(Board { vertices, labels })
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_ll;

    fn board_of(board: &str) -> Vec<(String, Vec<(String, String)>)> {
        let source =
            format!("#players = a(1) #pieces = o #variables = #board = {board} #rules = ->a");
        let pre = crate::preprocess::preprocess(&source).unwrap();
        let game = parse_ll(&pre.text).unwrap();
        game.board
            .iter()
            .map(|v| {
                (
                    v.name.name.clone(),
                    v.edges
                        .iter()
                        .map(|e| (e.label.name.clone(), e.target.name.clone()))
                        .collect(),
                )
            })
            .collect()
    }

    fn edges(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn hexagon_matches_reference_example() {
        let b = board_of("hexagon(nw,ne,e,se,sw,w, [o,o] [o,o,o] [o,o])");
        assert_eq!(b.len(), 7);
        assert_eq!(b[0].0, "hx0y0");
        assert_eq!(
            b[0].1,
            edges(&[("e", "hx1y0"), ("se", "hx1y1"), ("sw", "hx0y1")])
        );
        let center = b.iter().find(|v| v.0 == "hx1y1").unwrap();
        assert_eq!(
            center.1,
            edges(&[
                ("e", "hx2y1"),
                ("ne", "hx1y0"),
                ("nw", "hx0y0"),
                ("se", "hx1y2"),
                ("sw", "hx0y2"),
                ("w", "hx0y1")
            ])
        );
        let bottom = b.iter().find(|v| v.0 == "hx1y2").unwrap();
        assert_eq!(
            bottom.1,
            edges(&[("ne", "hx2y1"), ("nw", "hx1y1"), ("w", "hx0y2")])
        );
    }

    #[test]
    fn rectangle_holes_and_first_vertex() {
        let b = board_of("rectangle(u,d,l,r, [,o,o] [o, ,o])");
        let names: Vec<&str> = b.iter().map(|v| v.0.as_str()).collect();
        assert_eq!(names, ["rx1y0", "rx2y0", "rx0y1", "rx2y1"]);
        assert_eq!(b[0].1, edges(&[("r", "rx2y0")]));
        assert_eq!(b[1].1, edges(&[("d", "rx2y1"), ("l", "rx1y0")]));
        assert_eq!(b[2].1, edges(&[]));
    }

    #[test]
    fn cuboid_front_is_next_layer() {
        let b = board_of("cuboid(u,d,l,r,f,k, [[o,o]] [[o,o]])");
        assert_eq!(b[0].0, "cx0y0z0");
        assert_eq!(b[0].1, edges(&[("f", "cx0y0z1"), ("r", "cx1y0z0")]));
        assert_eq!(b[2].0, "cx0y0z1");
        assert_eq!(b[2].1, edges(&[("k", "cx0y0z0"), ("r", "cx1y0z1")]));
    }
}
