//! Python values to the schema's text forms, and table cells ([`csma_cd::table`]) to
//! Python values, as columns that pandas takes whole.

use csma_cd::{Cell, Row};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

/// The text form of one Python value given for the parameter `key`: a string as it
/// is, a boolean as `true`/`false`, an integer (also numpy's) in decimal, a float as
/// Python writes it (the shortest text that reads back the same).
///
/// # Errors
///
/// `ValueError` naming `key` for anything else (a list where one value is meant, say).
pub fn text_of(key: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.cast::<PyString>() {
        return s.extract::<String>();
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if let Ok(i) = v.extract::<i128>() {
        return Ok(i.to_string());
    }
    if let Ok(x) = v.extract::<f64>() {
        return v
            .py()
            .import("builtins")?
            .getattr("repr")?
            .call1((x,))?
            .extract();
    }
    Err(PyValueError::new_err(format!(
        "{key}: expected a number, a string or a boolean, not {}",
        v.get_type().name()?
    )))
}

/// One cell as a Python value: an integer, a float (NaN for no value, so numeric
/// columns stay numeric), text or a boolean; `None` for an empty cell.
pub fn cell<'py>(py: Python<'py>, c: &Cell) -> PyResult<Bound<'py, PyAny>> {
    Ok(match c {
        Cell::Int(v) => v.into_pyobject(py)?.into_any(),
        Cell::Num(v) | Cell::Exact(v) => v.into_pyobject(py)?.into_any(),
        Cell::Text(t) => t.into_pyobject(py)?.into_any(),
        Cell::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Cell::Empty => py.None().into_bound(py),
    })
}

/// Rows as columns: a dict from each column name (in the first row's order) to the
/// list of its values; the names of `header` when there are no rows.
pub fn columns<'py>(py: Python<'py>, rows: &[Row], header: &Row) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let names = rows.first().unwrap_or(header);
    for (i, (name, _)) in names.0.iter().enumerate() {
        let col = PyList::empty(py);
        for r in rows {
            col.append(cell(py, &r.0[i].1)?)?;
        }
        d.set_item(name, col)?;
    }
    Ok(d)
}
