//! The `hivm._hivm` extension module: the driver and the CPU twin called
//! in-process. `python/hivm/__init__.py` wraps it with the public API
//! (numpy conversion, kernel paths, warnings).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hivm_twin::{ArgSpec, RunOptions, sync::Class};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

create_exception!(
    _hivm,
    DiagnosticError,
    PyException,
    "Diagnostics from hivm-rs, as the command-line tools print them."
);

/// Parses, verifies, runs `pipeline` (`--pass-pipeline` syntax) and prints.
#[pyfunction]
#[pyo3(signature = (source, pipeline, generic, file, debuginfo=false))]
fn opt(py: Python<'_>, source: &str, pipeline: &str, generic: bool, file: &str, debuginfo: bool) -> PyResult<String> {
    let style = hivm_cli::PrintStyle { generic, debuginfo };
    py.allow_threads(|| hivm_cli::opt_text(source, file, pipeline, style)).map_err(DiagnosticError::new_err)
}

/// Compiles a Triton kernel's linalg module to HIVM with `hivm-compile`'s
/// pipeline (`to_std`: through convert-hivm-to-std) and prints it.
#[pyfunction]
#[pyo3(signature = (source, file, target, to_std, debuginfo=false))]
fn compile(
    py: Python<'_>,
    source: &str,
    file: &str,
    target: Option<String>,
    to_std: bool,
    debuginfo: bool,
) -> PyResult<String> {
    let o = hivm_cli::CompileOptions { target, to_std, link_aicore_bitcode: None };
    let style = hivm_cli::PrintStyle { generic: false, debuginfo };
    py.allow_threads(|| hivm_cli::compile_text(source, file, &o, style)).map_err(DiagnosticError::new_err)
}

/// One argument of `run`: an array as (numpy dtype string, shape, bytes),
/// or a scalar as its text.
#[derive(FromPyObject)]
enum Arg {
    /// The bytes are borrowed from Python's `bytes` (a `Vec<u8>` would be
    /// extracted element by element: 16 ns a byte).
    Array(String, Vec<i64>, pyo3::pybacked::PyBackedBytes),
    Scalar(String),
    /// The same array as argument N.
    Alias(usize),
}

/// Final bytes per argument (None for scalars) and sync warnings.
type RunResult<'py> = (Vec<Option<Bound<'py, PyBytes>>>, Vec<String>);

/// The twin's form of `run`'s arguments.
fn arg_specs(args: Vec<Arg>) -> PyResult<Vec<ArgSpec>> {
    let mut specs = Vec::new();
    for (i, a) in args.into_iter().enumerate() {
        specs.push(match a {
            Arg::Array(dtype, shape, bytes) => {
                let elem = hivm_twin::npy::elem_of_descr(&dtype)
                    .ok_or_else(|| PyValueError::new_err(format!("argument {i}: dtype {dtype} is not supported")))?;
                ArgSpec::Array(elem, shape, bytes.to_vec())
            }
            Arg::Scalar(s) => ArgSpec::Literal(s),
            Arg::Alias(k) => ArgSpec::Alias(k),
        });
    }
    Ok(specs)
}

/// What one run is given besides the kernel.
struct Launch {
    args: Vec<Arg>,
    impls: Vec<PathBuf>,
    blocks: u32,
    timeout: f64,
    max_ops: Option<u64>,
    /// `RunOptions::part_alone`.
    part_alone: bool,
}

fn run_options(entry: Option<String>, sync_solver: bool, l: Launch) -> PyResult<RunOptions> {
    if l.blocks == 0 {
        return Err(PyValueError::new_err("blocks must be at least 1"));
    }
    let timeout = Duration::try_from_secs_f64(l.timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| PyValueError::new_err("timeout must be a positive number of seconds"))?;
    Ok(RunOptions {
        entry,
        impls: l.impls,
        args: arg_specs(l.args)?,
        blocks: l.blocks,
        timeout,
        progress: false,
        max_ops: l.max_ops.unwrap_or(u64::MAX),
        trace: false,
        sync_solver,
        part_alone: l.part_alone,
    })
}

/// Runs `f` without the GIL. Ctrl-C: Python's handler only sets a flag
/// meanwhile, so the run asks Python now and then, and stops with its
/// KeyboardInterrupt.
fn interruptible<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let pending: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let seen = pending.clone();
    let check: hivm_twin::interrupt::Check = Arc::new(move || {
        Python::with_gil(|py| match py.check_signals() {
            Ok(()) => false,
            Err(e) => {
                *seen.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                true
            }
        })
    });
    let out = py.allow_threads(|| hivm_twin::interrupt::with_check(Some(check), f));
    if let Some(e) = pending.lock().unwrap_or_else(|p| p.into_inner()).take() {
        return Err(e);
    }
    Ok(out)
}

/// A run's reports rendered: (errors, warnings). Errors hold the sync
/// reports too when `sync_errors`. Rendering needs the kernel (its source
/// and IR), so it happens where the run holds it, never under the GIL.
fn render(
    kernel: &hivm_twin::Prepared,
    r: &hivm_twin::Results,
    blocks: u32,
    sync_errors: bool,
) -> (String, Vec<String>) {
    let mut errors = String::new();
    let mut warnings = Vec::new();
    for (block, rep) in &r.reports {
        let text = kernel.render(&kernel.report_diagnostic(*block, rep, blocks));
        if rep.class == Class::Warning || !sync_errors {
            warnings.push(text);
        } else {
            errors.push_str(&text);
        }
    }
    if let Some(e) = &r.error {
        errors.push_str(&kernel.render(e));
    }
    (errors, warnings)
}

/// A run's results as Python sees them: errors raise DiagnosticError.
fn finish<'py>(
    py: Python<'py>,
    r: &hivm_twin::Results,
    errors: String,
    warnings: Vec<String>,
) -> PyResult<RunResult<'py>> {
    if !errors.is_empty() {
        return Err(DiagnosticError::new_err(errors));
    }
    let results = r.args.iter().map(|a| a.as_ref().map(|(_, _, bytes)| PyBytes::new(py, bytes))).collect();
    Ok((results, warnings))
}

fn prepare(
    py: Python<'_>,
    source: &str,
    file: &str,
    base_dir: &Path,
    opts: &RunOptions,
) -> PyResult<hivm_twin::Prepared> {
    interruptible(py, || hivm_twin::Prepared::new(source.to_string(), file, base_dir, opts))?
        .map_err(|o| DiagnosticError::new_err(o.error.as_ref().map(|e| o.render(e)).unwrap_or_default()))
}

/// Runs a kernel in the CPU twin. Returns the final bytes of every memref
/// argument (None for scalars) and the sync reports that are warnings (all
/// of them when `sync_errors` is false); errors raise DiagnosticError.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (source, file, base_dir, args, entry, impls, blocks, timeout, sync_errors, sync_solver, max_ops, part_alone=false))]
fn run<'py>(
    py: Python<'py>,
    source: &str,
    file: &str,
    base_dir: PathBuf,
    args: Vec<Arg>,
    entry: Option<String>,
    impls: Vec<PathBuf>,
    blocks: u32,
    timeout: f64,
    sync_errors: bool,
    sync_solver: bool,
    max_ops: Option<u64>,
    part_alone: bool,
) -> PyResult<RunResult<'py>> {
    let opts = run_options(entry, sync_solver, Launch { args, impls, blocks, timeout, max_ops, part_alone })?;
    let kernel = prepare(py, source, file, &base_dir, &opts)?;
    // The kernel moves to the run's thread and back (it is not Sync).
    let (r, errors, warnings) = interruptible(py, move || {
        let r = kernel.run(&opts);
        let (errors, warnings) = render(&kernel, &r, blocks, sync_errors);
        (r, errors, warnings)
    })?;
    finish(py, &r, errors, warnings)
}

/// A kernel prepared once (parsed, verified, brought to memrefs, its entry
/// chosen) for many runs: `hivm.triton`'s compiled launches keep one per
/// compiled kernel.
#[pyclass(frozen)]
struct Kernel {
    /// Runs of one kernel take turns (its IR keeps caches that are not Sync).
    prepared: Mutex<hivm_twin::Prepared>,
    entry: Option<String>,
    sync_solver: bool,
}

#[pymethods]
impl Kernel {
    #[new]
    #[pyo3(signature = (source, file, base_dir, entry, sync_solver))]
    fn new(
        py: Python<'_>,
        source: &str,
        file: &str,
        base_dir: PathBuf,
        entry: Option<String>,
        sync_solver: bool,
    ) -> PyResult<Kernel> {
        let opts = run_options(
            entry.clone(),
            sync_solver,
            Launch { args: vec![], impls: vec![], blocks: 1, timeout: 1.0, max_ops: None, part_alone: false },
        )?;
        Ok(Kernel { prepared: Mutex::new(prepare(py, source, file, &base_dir, &opts)?), entry, sync_solver })
    }

    /// As the module's `run`, with the kernel prepared already.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (args, impls, blocks, timeout, sync_errors, max_ops))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        args: Vec<Arg>,
        impls: Vec<PathBuf>,
        blocks: u32,
        timeout: f64,
        sync_errors: bool,
        max_ops: Option<u64>,
    ) -> PyResult<RunResult<'py>> {
        let opts = run_options(
            self.entry.clone(),
            self.sync_solver,
            Launch { args, impls, blocks, timeout, max_ops, part_alone: false },
        )?;
        let prepared = &self.prepared;
        // The lock is taken and rendering done without the GIL: a run
        // holding the lock asks Python (under the GIL) for Ctrl-C.
        let (r, errors, warnings) = interruptible(py, || {
            let kernel = prepared.lock().unwrap_or_else(|p| p.into_inner());
            let r = kernel.run(&opts);
            let (errors, warnings) = render(&kernel, &r, blocks, sync_errors);
            (r, errors, warnings)
        })?;
        finish(py, &r, errors, warnings)
    }
}

#[pymodule]
fn _hivm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DiagnosticError", m.py().get_type::<DiagnosticError>())?;
    m.add_function(wrap_pyfunction!(opt, m)?)?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_class::<Kernel>()?;
    m.add("TWIN_HEADER", hivm_twin::native::HEADER)?;
    Ok(())
}
