//! The board as an n-dimensional grid: axes with labelled coordinates, cells
//! numbered linearly, optional holes, and square names.

/// The most cells a board may have (a 7×8×8 stack has 448).
pub const MAX_CELLS: usize = 512;

/// A cell index, `0..geometry.cells()`.
pub type Cell = u16;

/// One axis of the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AxisInfo {
    /// Its name: `file`, `rank`, `level`, or a declared name.
    pub name: String,
    /// Coordinate labels, lowest first.
    pub labels: Vec<String>,
}

/// The board's shape. Axis 0 is the file axis, axis 1 the rank axis; cell
/// `index = x0 + n0 * (x1 + n1 * (x2 + …))`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// The axes in declaration order (vectors are written in this order).
    pub axes: Vec<AxisInfo>,
    /// `true` for cells that are part of the board (not holes).
    pub on_board: Vec<bool>,
    /// Every cell's coordinates, `dims()` per cell (worked out once: stepping
    /// a cell by a vector then needs no division).
    cell_coords: Vec<u16>,
}

impl Geometry {
    /// A geometry from axes and holes (cells listed in `holes` are removed).
    pub fn new(axes: Vec<AxisInfo>, holes: &[Cell]) -> Self {
        let cells: usize = axes.iter().map(|a| a.labels.len()).product();
        let mut on_board = vec![true; cells];
        for &h in holes {
            if let Some(c) = on_board.get_mut(h as usize) {
                *c = false;
            }
        }
        let dims = axes.len();
        let mut cell_coords = vec![0u16; cells * dims];
        for (cell, coords) in cell_coords.chunks_mut(dims.max(1)).enumerate().take(cells) {
            let mut rest = cell;
            for (x, a) in coords.iter_mut().zip(&axes) {
                let n = a.labels.len();
                *x = (rest % n) as u16;
                rest /= n;
            }
        }
        Geometry { axes, on_board, cell_coords }
    }

    /// The coordinates of a cell, one per axis (see [`Geometry::coords`]),
    /// looked up.
    #[inline]
    pub fn coords_of(&self, cell: Cell) -> &[u16] {
        let dims = self.axes.len();
        self.cell_coords.get(cell as usize * dims..(cell as usize + 1) * dims).unwrap_or(&[])
    }

    /// The colour of a cell, 0 or 1: the parity of the sum of its
    /// coordinates (a chessboard's chequering, on every axis).
    #[inline]
    pub fn colour(&self, cell: Cell) -> u8 {
        (self.coords_of(cell).iter().map(|&c| u32::from(c)).sum::<u32>() % 2) as u8
    }

    /// Number of dimensions.
    pub fn dims(&self) -> usize {
        self.axes.len()
    }

    /// Size of axis `a`.
    pub fn size(&self, a: usize) -> usize {
        self.axes[a].labels.len()
    }

    /// Number of cell indices (including holes).
    pub fn cells(&self) -> usize {
        self.on_board.len()
    }

    /// The coordinates of a cell, one per axis.
    pub fn coords(&self, cell: Cell) -> Vec<usize> {
        self.coords_of(cell).iter().map(|&c| c as usize).collect()
    }

    /// How far apart in index two cells are that differ by one on axis `a`
    /// (axis 0 varies fastest).
    pub fn stride(&self, a: usize) -> usize {
        self.axes[..a].iter().map(|x| x.labels.len()).product()
    }

    /// The coordinate of `cell` on axis `a`, without the others.
    pub fn coord(&self, cell: Cell, a: usize) -> usize {
        self.coords_of(cell).get(a).map_or(0, |&c| c as usize)
    }

    /// The cell at `coords`, if inside the grid and not a hole.
    pub fn cell(&self, coords: &[i64]) -> Option<Cell> {
        if coords.len() != self.axes.len() {
            return None;
        }
        let mut index = 0usize;
        for (a, &c) in self.axes.iter().zip(coords).rev() {
            let n = a.labels.len() as i64;
            if c < 0 || c >= n {
                return None;
            }
            index = index * n as usize + c as usize;
        }
        if self.on_board[index] {
            Some(index as Cell)
        } else {
            None
        }
    }

    /// The cell reached from `cell` by adding `vector`, if on the board.
    pub fn offset(&self, cell: Cell, vector: &[i32]) -> Option<Cell> {
        // Coordinate by coordinate (axis 0 varies fastest), without allocating.
        if vector.len() < self.axes.len() || cell as usize >= self.cells() {
            return None;
        }
        let (mut index, mut stride) = (0usize, 1usize);
        for ((a, &v), &x) in self.axes.iter().zip(vector).zip(self.coords_of(cell)) {
            let n = a.labels.len();
            let c = i64::from(x) + i64::from(v);
            if c < 0 || c >= n as i64 {
                return None;
            }
            index += c as usize * stride;
            stride *= n;
        }
        if self.on_board.get(index).copied().unwrap_or(false) {
            Some(index as Cell)
        } else {
            None
        }
    }

    /// Iterates over the cells that are on the board.
    pub fn board_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.cells()).filter(|&c| self.on_board[c]).map(|c| c as Cell)
    }

    /// The axes in the order their labels are written in a square name:
    /// axes beyond the second (last first), then file, then rank: `e4`, `Aa1`.
    pub fn name_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (2..self.dims()).rev().collect();
        order.extend(0..self.dims().min(2));
        order
    }

    /// The name of a cell, e.g. `e4` or `Ca3`.
    pub fn name(&self, cell: Cell) -> String {
        let coords = self.coords(cell);
        self.name_order()
            .into_iter()
            .map(|a| self.axes[a].labels[coords[a]].as_str())
            .collect()
    }

    /// Parses a square name (labels in [`Geometry::name_order`]); `None` if it names no cell.
    pub fn parse_square(&self, text: &str) -> Option<Cell> {
        let order = self.name_order();
        let mut coords = vec![0i64; self.dims()];
        if self.parse_from(text, &order, &mut coords) {
            self.cell(&coords)
        } else {
            None
        }
    }

    fn parse_from(&self, text: &str, order: &[usize], coords: &mut [i64]) -> bool {
        let Some((&axis, rest_axes)) = order.split_first() else {
            return text.is_empty();
        };
        // Try every label that prefixes the text, longest first, so `a10` is a,10 not a,1.
        let mut candidates: Vec<(usize, &String)> = self.axes[axis]
            .labels
            .iter()
            .enumerate()
            .filter(|(_, l)| text.starts_with(l.as_str()))
            .collect();
        candidates.sort_by_key(|(_, l)| std::cmp::Reverse(l.len()));
        for (i, label) in candidates {
            coords[axis] = i as i64;
            if self.parse_from(&text[label.len()..], rest_axes, coords) {
                return true;
            }
        }
        false
    }

    /// The index of `label` on the axis called `axis`, as `(axis index, coordinate)`.
    pub fn axis_label(&self, axis: &str, label: &str) -> Option<(usize, usize)> {
        let a = self.axis_index(axis)?;
        let i = self.axes[a].labels.iter().position(|l| l == label)?;
        Some((a, i))
    }

    /// The index of the axis called `name`.
    pub fn axis_index(&self, name: &str) -> Option<usize> {
        self.axes.iter().position(|a| a.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(dims: &[(&str, &[&str])]) -> Geometry {
        Geometry::new(
            dims.iter()
                .map(|(n, ls)| AxisInfo {
                    name: n.to_string(),
                    labels: ls.iter().map(|s| s.to_string()).collect(),
                })
                .collect(),
            &[],
        )
    }

    #[test]
    fn chess_names_round_trip() {
        let g = grid(&[
            ("file", &["a", "b", "c", "d", "e", "f", "g", "h"]),
            ("rank", &["1", "2", "3", "4", "5", "6", "7", "8"]),
        ]);
        assert_eq!(g.name(0), "a1");
        assert_eq!(g.name(63), "h8");
        assert_eq!(g.parse_square("e4"), Some(4 + 8 * 3));
        assert_eq!(g.parse_square("i4"), None);
        assert_eq!(g.offset(0, &[1, 2]), g.parse_square("b3"));
        assert_eq!(g.offset(0, &[-1, 0]), None);
    }

    #[test]
    fn one_coordinate_agrees_with_all_of_them() {
        // Raumschach's 5×5×5: every cell's coordinate on each axis, and the
        // stride between neighbours (1, 5, 25), as `coords` gives them.
        let l = &["1", "2", "3", "4", "5"];
        let g = grid(&[("file", l), ("rank", l), ("level", l)]);
        assert_eq!((g.stride(0), g.stride(1), g.stride(2)), (1, 5, 25));
        for cell in g.board_cells() {
            let all = g.coords(cell);
            assert!((0..3).all(|a| g.coord(cell, a) == all[a]), "{cell}");
        }
    }

    #[test]
    fn ten_ranks_parse_longest_label() {
        let ranks: Vec<String> = (1..=10).map(|r| r.to_string()).collect();
        let ranks: Vec<&str> = ranks.iter().map(|s| s.as_str()).collect();
        let g = grid(&[("file", &["a", "b"]), ("rank", &ranks)]);
        assert_eq!(g.name(g.parse_square("a10").unwrap()), "a10");
        assert_eq!(g.name(g.parse_square("b1").unwrap()), "b1");
    }

    #[test]
    fn three_d_names_put_level_first() {
        let g = grid(&[
            ("file", &["a", "b", "c", "d", "e"]),
            ("rank", &["1", "2", "3", "4", "5"]),
            ("level", &["A", "B", "C", "D", "E"]),
        ]);
        let c = g.parse_square("Ca3").unwrap();
        assert_eq!(g.coords(c), vec![0, 2, 2]);
        assert_eq!(g.name(c), "Ca3");
    }
}
