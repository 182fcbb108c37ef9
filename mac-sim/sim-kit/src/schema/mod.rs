//! The one schema engine of every model: a model writes the table of its parameters
//! once, with the [`schema!`](crate::schema!) macro, and gets from it its `Scenario`
//! type (one run's parameters, each optional), set/get/list by text, layering
//! (defaults, then a file, then flags: [`Schema::overlay`]), the form of each value in
//! files ([`Scalar`]) and results columns with their units, and the reference that
//! `--keys` prints ([`reference()`]).
//!
//! The doors (the command line's flags, scenario files, sweeps, Python, the browser)
//! are written once against [`Schema`], for every model.
//!
//! * [`Codec`]: a kind of value and its one text form; the kit's cover whole and real
//!   numbers, booleans and [`Time`](crate::time::Time); [`OrWord`] adds a word for
//!   "not set".
//! * [`Field`]: one parameter as the doors see it; [`FieldError`]: a value that
//!   cannot be accepted, naming the parameter.
//! * [`Axis`]: a sweep's axis, one parameter and its values; [`Values`]: what an
//!   axis needs of a model (every [`Schema`] has it).
//! * [`ValueError`]: the kit's value errors, which every model's error type takes in.
//! * [`file_table!`](crate::file_table!), [`TableDoc`], [`tables_reference`]: the
//!   schema of a file of nested and repeated tables (the storm's), each table written
//!   once as the struct serde reads and its reference.

mod axis;
mod codec;
mod field;
mod reference;
mod table;
mod tables;

pub use axis::Axis;
pub use codec::{
    Auto, Codec, Off, OrWord, Real, Scalar, Unit, ValueError, Word, numbers, split_items,
    whole_numbers,
};
pub use field::{Field, FieldError, Schema, Values, first_without_effect};
pub use reference::reference;
pub use table::first_repeated;
pub use tables::{KeyDoc, TableDoc, tables_reference};
