//! Highlighted sets of cells: zones (a promotion zone, a drop zone) and the
//! cells a worked example points at, each with a colour and a legend label.

use rulebook_interpreter::model::geometry::Cell;

/// Colours for marks, in the order [`Marks::add`] hands them out: distinct
/// on light and dark squares and for the common kinds of colour blindness.
pub const PALETTE: [&str; 6] = ["#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#0072b2", "#d55e00"];

/// One highlighted set of cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The legend's text for it (`promotion zone (White)`).
    pub label: String,
    /// A CSS colour (`#e69f00`); drawn translucent over the squares.
    pub colour: String,
    /// The cells; cells not on the board are ignored.
    pub cells: Vec<Cell>,
}

/// The sets of cells a board diagram highlights, drawn in order (a later set
/// over an earlier one) and listed in a legend under the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The sets, in drawing order.
    pub sets: Vec<Mark>,
}

impl Marks {
    /// No highlighted cells.
    pub fn new() -> Marks {
        Marks::default()
    }

    /// Adds a set with the next colour of [`PALETTE`] (repeating after six).
    pub fn add(mut self, label: impl Into<String>, cells: impl IntoIterator<Item = Cell>) -> Marks {
        let colour = PALETTE[self.sets.len() % PALETTE.len()];
        self.sets.push(Mark { label: label.into(), colour: colour.to_string(), cells: cells.into_iter().collect() });
        self
    }

    /// Adds a set with a colour of the caller's choice.
    pub fn add_coloured(mut self, label: impl Into<String>, colour: impl Into<String>, cells: impl IntoIterator<Item = Cell>) -> Marks {
        self.sets.push(Mark { label: label.into(), colour: colour.into(), cells: cells.into_iter().collect() });
        self
    }

    /// Are there no sets?
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}
