//! The cube core in the twin: memref-level matmul kernels (GM -> nd2nz ->
//! mmadL1 -> fixpipe -> GM), synchronised by our solver, give the numbers
//! of a plain reference matmul for f16, bf16, f32 and i8 -> i32, with each
//! transpose, K accumulated over a loop with `init_condition`, a
//! per-channel bias and rows that need padding; a kernel that puts A into
//! L1 without the fractal layout gives other numbers; without the solver
//! the cube pipes race; and removing any synchronisation the solver placed
//! in a cube kernel makes the twin report it.
//!
//! Inputs are small dyadic numbers, so every sum is exact in f32 and the
//! comparison is exact.

use std::path::Path;
use std::time::Duration;

use hivm_twin::value::Elem;
use hivm_twin::{ArgSpec, Outcome, RunOptions};

mod common;
use common::Rng;
use common::problems;

#[derive(Clone, Copy)]
struct Case {
    ty: &'static str,
    m: i64,
    k: i64,
    n: i64,
    ta: bool,
    tb: bool,
    /// K per loop iteration.
    kc: i64,
    bias: bool,
    /// Load A into L1 with a plain copy (ND) instead of nd2nz.
    nd_a: bool,
}

const BASE: Case = Case { ty: "f16", m: 32, k: 64, n: 64, ta: false, tb: false, kc: 32, bias: false, nd_a: false };

fn elem(ty: &str) -> Elem {
    Elem::parse(ty).unwrap()
}

fn size(ty: &str) -> i64 {
    elem(ty).size() as i64
}

fn up(x: i64, f: i64) -> i64 {
    (x + f - 1) / f * f
}

/// The L1 fractal type holding an ND matrix of `rows x cols`.
fn l1_type(ty: &str, rows: i64, cols: i64) -> String {
    let c0 = 32 / size(ty);
    format!("memref<{}x{}x16x{c0}x{ty}, #hivm.address_space<cbuf>>", up(cols, c0) / c0, up(rows, 16) / 16)
}

/// The kernel text of a case.
fn kernel(c: &Case) -> String {
    let t = c.ty;
    let ct = if t == "i8" { "i32" } else { "f32" };
    // ND shapes in GM (A^T / B^T stored when transposed) and per step.
    let (ar, ac) = if c.ta { (c.k, c.m) } else { (c.m, c.k) };
    let (br, bc) = if c.tb { (c.n, c.k) } else { (c.k, c.n) };
    let (sar, sac) = if c.ta { (c.kc, c.m) } else { (c.m, c.kc) };
    let (sbr, sbc) = if c.tb { (c.n, c.kc) } else { (c.kc, c.n) };
    let la = l1_type(t, sar, sac);
    let lb = l1_type(t, sbr, sbc);
    let lc = format!("memref<{}x{}x16x16x{ct}, #hivm.address_space<cc>>", up(c.n, 16) / 16, up(c.m, 16) / 16);
    let b_at = 65536;
    let bias_at = 131072;
    let mut s = String::new();
    let bias_arg = if c.bias { format!(", %bias: memref<{}xf32>", c.n) } else { String::new() };
    s += &format!(
        "func.func @mm(%a: memref<{ar}x{ac}x{t}>, %b: memref<{br}x{bc}x{t}>{bias_arg}, %c: memref<{}x{}x{ct}>) {{\n",
        c.m, c.n
    );
    s += &format!(
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %steps = arith.constant {} : index\n",
        c.k / c.kc
    );
    s += &format!(
        "  %m = arith.constant {} : index\n  %kc = arith.constant {} : index\n  %n = arith.constant {} : index\n",
        c.m, c.kc, c.n
    );
    let zero = if t == "i8" { "0 : i8".to_string() } else { format!("0.0 : {t}") };
    s += &format!("  %zero = arith.constant {zero}\n");
    s += &format!(
        "  %a0 = arith.constant 0 : i64\n  %ab = arith.constant {b_at} : i64\n  %abias = arith.constant {bias_at} : i64\n"
    );
    s += &format!("  %l1a = hivm.hir.pointer_cast(%a0) : {la}\n  %l1b = hivm.hir.pointer_cast(%ab) : {lb}\n");
    s += &format!("  %acc = hivm.hir.pointer_cast(%a0) : {lc}\n");
    let bias_ty = format!("memref<{}xf32, #hivm.address_space<cbuf>>", c.n);
    if c.bias {
        s += &format!("  %l1bias = hivm.hir.pointer_cast(%abias) : {bias_ty}\n");
        s += &format!("  hivm.hir.load ins(%bias : memref<{}xf32>) outs(%l1bias : {bias_ty})\n", c.n);
    }
    if c.nd_a {
        s += &format!("  %l1a_nd = hivm.hir.pointer_cast(%a0) : memref<{sar}x{sac}x{t}, #hivm.address_space<cbuf>>\n");
    }
    s += "  scf.for %i = %c0 to %steps step %c1 {\n";
    s += "    %first = arith.cmpi eq, %i, %c0 : index\n    %off = arith.muli %i, %kc : index\n";
    let view = |name: &str, src: &str, cols: i64, at: (&str, &str), sizes: (i64, i64)| {
        format!(
            "    %{name} = memref.subview %{src}[{}, {}] [{}, {}] [1, 1] : memref<{}x{cols}x{t}> to memref<{}x{}x{t}, strided<[{cols}, 1], offset: ?>>\n",
            at.0,
            at.1,
            sizes.0,
            sizes.1,
            if src == "a" { ar } else { br },
            sizes.0,
            sizes.1
        )
    };
    s += &view("sa", "a", ac, if c.ta { ("%off", "0") } else { ("0", "%off") }, (sar, sac));
    s += &view("sb", "b", bc, if c.tb { ("0", "%off") } else { ("%off", "0") }, (sbr, sbc));
    let sty = |r: i64, cc: i64, cols: i64| format!("memref<{r}x{cc}x{t}, strided<[{cols}, 1], offset: ?>>");
    let pad = if c.m % 16 != 0 { format!(" init_out_buffer = true pad_value = %zero : {t}") } else { String::new() };
    if c.nd_a {
        s += &format!(
            "    hivm.hir.load ins(%sa : {}) outs(%l1a_nd : memref<{sar}x{sac}x{t}, #hivm.address_space<cbuf>>)\n",
            sty(sar, sac, ac)
        );
    } else {
        s +=
            &format!("    hivm.hir.nd2nz {{dst_continuous}} ins(%sa : {}) outs(%l1a : {la}){pad}\n", sty(sar, sac, ac));
    }
    s += &format!("    hivm.hir.nd2nz {{dst_continuous}} ins(%sb : {}) outs(%l1b : {lb})\n", sty(sbr, sbc, bc));
    let mut attrs = vec![];
    if c.ta {
        attrs.push("a_transpose");
    }
    if c.tb {
        attrs.push("b_transpose");
    }
    let attrs = if attrs.is_empty() { String::new() } else { format!("{{{}}} ", attrs.join(", ")) };
    let (bias_v, bias_t) = if c.bias { (", %l1bias".to_string(), format!(", {bias_ty}")) } else { Default::default() };
    s += &format!(
        "    hivm.hir.mmadL1 {attrs}ins(%l1a, %l1b, %first, %m, %kc, %n{bias_v} : {la}, {lb}, i1, index, index, index{bias_t}) outs(%acc : {lc})\n"
    );
    s += "  }\n";
    s += &format!("  hivm.hir.fixpipe {{enable_nz2nd}} ins(%acc : {lc}) outs(%c : memref<{}x{}x{ct}>)\n", c.m, c.n);
    s += "  return\n}\n";
    s
}

/// Small dyadic numbers (integers for i8).
fn values(rng: &mut Rng, n: i64, ty: &str) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let x = (rng.below(17) as i64 - 8) as f64;
            if ty == "i8" { x } else { x / 8.0 }
        })
        .collect()
}

fn encode(ty: &str, v: &[f64]) -> Vec<u8> {
    let mut out = Vec::new();
    for x in v {
        match ty {
            "f16" => out.extend(half::f16::from_f64(*x).to_le_bytes()),
            "bf16" => out.extend(half::bf16::from_f64(*x).to_le_bytes()),
            "f32" => out.extend((*x as f32).to_le_bytes()),
            "i8" => out.push(*x as i8 as u8),
            _ => unreachable!(),
        }
    }
    out
}

fn decode(ty: Elem, bytes: &[u8]) -> Vec<f64> {
    match ty {
        Elem::F32 => bytes.chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect(),
        Elem::Int(32) => bytes.chunks(4).map(|b| i32::from_le_bytes(b.try_into().unwrap()) as f64).collect(),
        _ => unreachable!(),
    }
}

fn run(text: &str, args: Vec<ArgSpec>, solver: bool) -> Outcome {
    let opts = RunOptions {
        args,
        timeout: Duration::from_secs(60),
        max_ops: 100_000_000,
        sync_solver: solver,
        part_alone: false,
        ..RunOptions::default()
    };
    hivm_twin::run_source(text, "cube.mlir", Path::new("."), &opts)
}

/// Runs a case after the solver: (twin's C, reference C).
fn check(c: &Case, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let a = values(&mut rng, c.m * c.k, c.ty);
    let b = values(&mut rng, c.k * c.n, c.ty);
    let bias: Vec<f64> = (0..c.n).map(|j| (j % 7) as f64 - 3.0).collect();
    // A[i][p] and B[p][j] of the product; GM holds A^T / B^T when transposed.
    let a_at = |i: i64, p: i64| if c.ta { a[(p * c.m + i) as usize] } else { a[(i * c.k + p) as usize] };
    let b_at = |p: i64, j: i64| if c.tb { b[(j * c.k + p) as usize] } else { b[(p * c.n + j) as usize] };
    let mut want = vec![0.0; (c.m * c.n) as usize];
    for i in 0..c.m {
        for j in 0..c.n {
            let s: f64 = (0..c.k).map(|p| a_at(i, p) * b_at(p, j)).sum();
            want[(i * c.n + j) as usize] = s + if c.bias { bias[j as usize] } else { 0.0 };
        }
    }
    let e = elem(c.ty);
    let (ar, ac) = if c.ta { (c.k, c.m) } else { (c.m, c.k) };
    let (br, bc) = if c.tb { (c.n, c.k) } else { (c.k, c.n) };
    let mut args =
        vec![ArgSpec::Array(e, vec![ar, ac], encode(c.ty, &a)), ArgSpec::Array(e, vec![br, bc], encode(c.ty, &b))];
    if c.bias {
        args.push(ArgSpec::Array(Elem::F32, vec![c.n], encode("f32", &bias)));
    }
    let ct = if c.ty == "i8" { Elem::Int(32) } else { Elem::F32 };
    args.push(ArgSpec::Zeros(vec![c.m, c.n], ct));
    let text = kernel(c);
    let out = run(&text, args, true);
    let p = problems(&out);
    assert!(p.is_empty(), "{p}\n{text}");
    let (_, _, bytes) = out.args.last().cloned().flatten().expect("C");
    (decode(ct, &bytes), want)
}

#[test]
fn matmuls_give_the_reference_numbers() {
    let mut cases = Vec::new();
    for ty in ["f16", "bf16", "f32", "i8"] {
        for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
            cases.push(Case { ty, ta, tb, ..BASE });
        }
        // One K step, the whole of K at once.
        cases.push(Case { ty, kc: 64, ..BASE });
        cases.push(Case { ty, bias: true, ..BASE });
    }
    // Rows that fill their last fractal only in part: nd2nz pads them.
    cases.push(Case { m: 20, ..BASE });
    cases.push(Case { m: 20, bias: true, kc: 16, ..BASE });
    for (i, c) in cases.iter().enumerate() {
        let (got, want) = check(c, 7 + i as u64);
        assert_eq!(got, want, "{} ta={} tb={} kc={} bias={} m={}:\n{}", c.ty, c.ta, c.tb, c.kc, c.bias, c.m, kernel(c));
    }
}

/// A copied into L1 row by row (ND) but read as the fractal it should be:
/// other numbers, as on the NPU.
#[test]
fn a_matrix_in_the_wrong_layout_gives_wrong_numbers() {
    let c = Case { nd_a: true, kc: 64, ..BASE };
    let (got, want) = check(&c, 3);
    let differ = got.iter().zip(&want).filter(|(g, w)| g != w).count();
    assert!(differ > got.len() / 2, "only {differ} of {} elements differ", got.len());
}

/// Without synchronisation every hand-over between cube pipes races:
/// MTE2 -> MTE1 (L1), M -> FIX (L0C).
#[test]
fn without_the_solver_the_cube_pipes_race() {
    let c = Case { kc: 64, ..BASE };
    let e = elem(c.ty);
    let args = vec![
        ArgSpec::Zeros(vec![c.m, c.k], e),
        ArgSpec::Zeros(vec![c.k, c.n], e),
        ArgSpec::Zeros(vec![c.m, c.n], Elem::F32),
    ];
    let out = run(&kernel(&c), args, false);
    let p = problems(&out);
    assert!(p.contains("PIPE_MTE1 read of L1[0,"), "{p}");
    assert!(p.contains("PIPE_FIX read of L0C[0,"), "{p}");
}

/// How many parts of L0 mmadL1's library splits a step's K into (half of
/// 910B's 64 KiB L0A per part).
fn l0_parts(c: &Case) -> i64 {
    let size = size(c.ty);
    let align = (32 / size).max(16);
    let mn = up(c.m.max(c.n), align);
    let k_part = (32768 / size / mn) / align * align;
    (c.kc + k_part - 1) / k_part
}

/// The solver's output for a kernel, as text.
fn solved(text: &str) -> String {
    solved_with(text, "hivm-graph-sync-solver")
}

fn solved_with(text: &str, pass: &str) -> String {
    let mut ir = hivm_ir::Ir::new(std::sync::Arc::new(hivm_dialects::registry()));
    let module = hivm_ir::parser::Parser::new(&mut ir, text, "cube.mlir", 0).parse_module().expect("parses");
    let reg = hivm_transforms::pass_registry();
    let mut pm = hivm_ir::pass::PassManager::from_cli(&reg, &[pass.to_string()]).unwrap();
    pm.run(&mut ir, module, true).expect("the solver runs");
    hivm_ir::printer::print_top_level(&ir, module, hivm_ir::printer::PrintOptions { generic: false, debuginfo: false })
}

/// The flag ops of a solved kernel: (line index, `[set, wait, event]` text).
fn flag_lines(lines: &[&str], op: &str) -> Vec<(usize, String)> {
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let at = l.find(op)?;
            let rest = &l[at + op.len()..];
            Some((i, rest[..rest.find(']').map_or(rest.len(), |e| e + 1)].to_string()))
        })
        .collect()
}

/// Every set_flag, wait_flag and barrier the solver placed in cube kernels
/// is needed: without it (alone, or a set with the wait that consumes it),
/// or with an id it handed to a matmul's library replaced by -1, the twin
/// reports a hang, a leftover flag or a race.
#[test]
fn removing_any_solver_sync_from_a_cube_kernel_is_reported() {
    let cases = [
        Case { kc: 64, ..BASE },
        BASE,
        Case { ta: true, tb: true, bias: true, ..BASE },
        Case { ty: "i8", tb: true, ..BASE },
        // K in two parts of L0: the library alternates both of its M -> MTE1 ids.
        Case { n: 256, k: 128, kc: 128, ..BASE },
    ];
    let (mut checked, mut ids_dropped) = (0, 0);
    for c in &cases {
        let text = solved(&kernel(c));
        let e = elem(c.ty);
        let (ar, ac) = if c.ta { (c.k, c.m) } else { (c.m, c.k) };
        let (br, bc) = if c.tb { (c.n, c.k) } else { (c.k, c.n) };
        let mut args = vec![ArgSpec::Zeros(vec![ar, ac], e), ArgSpec::Zeros(vec![br, bc], e)];
        if c.bias {
            args.push(ArgSpec::Zeros(vec![c.n], Elem::F32));
        }
        args.push(ArgSpec::Zeros(vec![c.m, c.n], if c.ty == "i8" { Elem::Int(32) } else { Elem::F32 }));
        let clean = run(&text, args.clone(), false);
        assert!(problems(&clean).is_empty(), "the solved kernel itself: {}\n{text}", problems(&clean));
        let lines: Vec<&str> = text.lines().collect();
        let sets = flag_lines(&lines, "hivm.hir.set_flag");
        let waits = flag_lines(&lines, "hivm.hir.wait_flag");
        let barriers = flag_lines(&lines, "hivm.hir.pipe_barrier");
        assert!(!sets.is_empty() && sets.len() == waits.len(), "{text}");
        let mut removals: Vec<Vec<usize>> = sets.iter().chain(&waits).chain(&barriers).map(|(i, _)| vec![*i]).collect();
        // A set with the first wait of its flag after it in the same block
        // (a set before a loop pairs with waits of later iterations too,
        // which a loop running once does not need).
        let indent = |i: usize| lines[i].len() - lines[i].trim_start().len();
        for (i, key) in &sets {
            // With K in one part of L0 the library never uses its second
            // M -> MTE1 id, so the solver's pair for it is not needed.
            let one_part = l0_parts(c) == 1 && key == "[<PIPE_M>, <PIPE_MTE1>, <EVENT_ID1>]";
            if let Some((j, _)) = waits.iter().find(|(j, k)| j > i && k == key && indent(*j) == indent(*i))
                && !one_part
            {
                removals.push(vec![*i, *j]);
            }
        }
        // An id the solver handed to a matmul's library (a wait for L1, a
        // release of it, or the loop's parity) replaced by -1: the library
        // then skips that handshake, which is as good as removing it.
        for (i, line) in lines.iter().enumerate() {
            let Some(at) = line.find("sync_related_args(") else { continue };
            let inner = &line[at + "sync_related_args(".len()..];
            let names: Vec<&str> = inner[..inner.find(" :").unwrap()].split(", ").collect();
            for k in 0..4 {
                if names[k].contains("-1") {
                    continue;
                }
                let mut new_names = names.clone();
                new_names[k] = "%none_for_test";
                let edited = format!(
                    "{}sync_related_args({}{}",
                    &line[..at],
                    new_names.join(", "),
                    &inner[inner.find(" :").unwrap()..]
                );
                let cut: String = lines
                    .iter()
                    .enumerate()
                    .map(|(j, l)| {
                        if j == i {
                            format!("%none_for_test = arith.constant -1 : i64\n{edited}\n")
                        } else {
                            format!("{l}\n")
                        }
                    })
                    .collect();
                let out = run(&cut, args.clone(), false);
                assert!(
                    !problems(&out).is_empty(),
                    "sync_related_args #{k} of line {i} set to -1 went unnoticed:\n{cut}"
                );
                ids_dropped += 1;
            }
        }
        for gone in removals {
            let cut: String =
                lines.iter().enumerate().filter(|(i, _)| !gone.contains(i)).map(|(_, l)| format!("{l}\n")).collect();
            let out = run(&cut, args.clone(), false);
            let what: Vec<&str> = gone.iter().map(|i| lines[*i].trim()).collect();
            assert!(!problems(&out).is_empty(), "removing {what:?} went unnoticed:\n{cut}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} removals");
    assert!(ids_dropped >= 8, "only {ids_dropped} library ids dropped");
}

/// The solver's unit flags (`enable-unit-flag`): the matmul and the
/// fixpipe draining L0C hand it over without a set/wait pair, and the
/// kernel runs clean with the reference numbers; a fixpipe left waiting on
/// flags no matmul sets hangs, and one that does not wait races.
#[test]
fn unit_flags_hand_l0c_over() {
    // A K loop of two steps (of one, see below).
    for c in [BASE, Case { k: 128, ..BASE }] {
        let mut rng = Rng(5);
        let a = values(&mut rng, c.m * c.k, c.ty);
        let b = values(&mut rng, c.k * c.n, c.ty);
        let mut want = vec![0.0; (c.m * c.n) as usize];
        for i in 0..c.m {
            for j in 0..c.n {
                want[(i * c.n + j) as usize] =
                    (0..c.k).map(|p| a[(i * c.k + p) as usize] * b[(p * c.n + j) as usize]).sum();
            }
        }
        let args = vec![
            ArgSpec::Array(Elem::F16, vec![c.m, c.k], encode("f16", &a)),
            ArgSpec::Array(Elem::F16, vec![c.k, c.n], encode("f16", &b)),
            ArgSpec::Zeros(vec![c.m, c.n], Elem::F32),
        ];
        let text = solved_with(&kernel(&c), "hivm-graph-sync-solver{enable-unit-flag=true}");
        assert!(text.contains("unit_flag_mode") && !text.contains("<PIPE_M>, <PIPE_FIX>"), "{text}");
        let out = run(&text, args.clone(), false);
        assert!(problems(&out).is_empty(), "{}\n{text}", problems(&out));
        let (_, _, bytes) = out.args.last().cloned().flatten().expect("C");
        assert_eq!(decode(Elem::F32, &bytes), want, "{text}");
        // The matmul no longer marks L0C ready: the fixpipe hangs.
        let lines: Vec<String> = text
            .lines()
            .map(
                |l| if l.contains("hivm.hir.mmadL1") { l.replace("ENABLED_WITH_UPDATE", "DISABLED") } else { l.into() },
            )
            .collect();
        let p = problems(&run(&lines.join("\n"), args.clone(), false));
        assert!(p.contains("PIPE_FIX waits on the unit flags of L0C"), "{p}");
        // The fixpipe no longer waits: it races with the matmul.
        let lines: Vec<String> =
            text.lines()
                .map(|l| {
                    if l.contains("hivm.hir.fixpipe") { l.replace("ENABLED_WITH_UPDATE", "DISABLED") } else { l.into() }
                })
                .collect();
        let p = problems(&run(&lines.join("\n"), args.clone(), false));
        assert!(p.contains("PIPE_FIX read of L0C"), "{p}");
    }
}

/// A K loop that runs once: the matmul's modes `[DISABLED,
/// ENABLED_WITH_UPDATE]` are gated on (first and not last, last), so the
/// one iteration marks L0C ready and the kernel runs clean with the
/// reference numbers. Gated on (first, last) as upstream gates them, the
/// first condition that holds picks DISABLED, nothing marks L0C ready and
/// the fixpipe after the loop waits forever: the twin reports the hang.
#[test]
fn unit_flags_of_a_loop_that_runs_once() {
    let c = Case { kc: 64, ..BASE };
    let text = solved_with(&kernel(&c), "hivm-graph-sync-solver{enable-unit-flag=true}");
    let mut rng = Rng(8);
    let a = values(&mut rng, c.m * c.k, c.ty);
    let b = values(&mut rng, c.k * c.n, c.ty);
    let want: Vec<f64> = (0..c.m)
        .flat_map(|i| {
            let (a, b) = (&a, &b);
            (0..c.n).map(move |j| (0..c.k).map(|p| a[(i * c.k + p) as usize] * b[(p * c.n + j) as usize]).sum())
        })
        .collect();
    let args = vec![
        ArgSpec::Array(Elem::F16, vec![c.m, c.k], encode("f16", &a)),
        ArgSpec::Array(Elem::F16, vec![c.k, c.n], encode("f16", &b)),
        ArgSpec::Zeros(vec![c.m, c.n], Elem::F32),
    ];
    let out = run(&text, args.clone(), false);
    assert!(problems(&out).is_empty(), "{}\n{text}", problems(&out));
    let (_, _, bytes) = out.args.last().cloned().flatten().expect("C");
    assert_eq!(decode(Elem::F32, &bytes), want, "{text}");
    // Upstream's gating: the matmul's first condition is the bare
    // first-iteration test.
    let mmad = text.lines().find(|l| l.contains("hivm.hir.mmadL1")).expect("a matmul");
    let conds = &mmad[mmad.find("unit_flag_cond(").expect("gated modes") + "unit_flag_cond(".len()..];
    let first_cond = conds.split([',', ')']).next().unwrap().trim();
    let bare = text
        .lines()
        .find(|l| l.contains("arith.cmpi eq,") && l.trim_start().starts_with('%'))
        .map(|l| l.trim_start().split(' ').next().unwrap().to_string())
        .expect("the first-iteration test");
    let upstream = text.replace(&format!("unit_flag_cond({first_cond},"), &format!("unit_flag_cond({bare},"));
    assert_ne!(upstream, text);
    let p = problems(&run(&upstream, args, false));
    assert!(p.contains("PIPE_FIX waits on the unit flags of L0C"), "{p}\n{upstream}");
}

/// `enable_HF32`: the cube rounds f32 A and B to HF32 (11 fraction bits,
/// to nearest even) before multiplying; sums stay f32, in K order. Inputs
/// use all of f32's fraction bits, so the rounding shows in every sum.
#[test]
fn hf32_rounds_the_f32_inputs_first() {
    let c = Case { ty: "f32", ..BASE };
    let mut rng = Rng(99);
    let mut full =
        |n: i64| -> Vec<f32> { (0..n).map(|_| (rng.below(1 << 24) as f32 / (1 << 24) as f32 - 0.5) * 3.0).collect() };
    let (a, b) = (full(c.m * c.k), full(c.k * c.n));
    let hf32 = |x: f32| {
        // 12 of f32's 23 fraction bits dropped, to nearest, ties to even.
        let bits = x.to_bits();
        f32::from_bits(bits.wrapping_add(0x7FF + ((bits >> 12) & 1)) & !0xFFF)
    };
    let reference = |round: bool| -> Vec<f64> {
        let r = |x: f32| if round { hf32(x) } else { x };
        let mut out = Vec::new();
        for i in 0..c.m {
            for j in 0..c.n {
                let mut acc = 0f32;
                for p in 0..c.k {
                    acc += r(a[(i * c.k + p) as usize]) * r(b[(p * c.n + j) as usize]);
                }
                out.push(acc as f64);
            }
        }
        out
    };
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let args = || {
        vec![
            ArgSpec::Array(Elem::F32, vec![c.m, c.k], bytes(&a)),
            ArgSpec::Array(Elem::F32, vec![c.k, c.n], bytes(&b)),
            ArgSpec::Zeros(vec![c.m, c.n], Elem::F32),
        ]
    };
    let plain = kernel(&c);
    let text = plain.replace("hivm.hir.mmadL1 ins(", "hivm.hir.mmadL1 {enable_HF32} ins(");
    assert_ne!(text, plain);
    let (with, without) = (reference(true), reference(false));
    assert_ne!(with, without, "the inputs must need the rounding");
    for (text, want) in [(&text, &with), (&plain, &without)] {
        let out = run(text, args(), true);
        let p = problems(&out);
        assert!(p.is_empty(), "{p}");
        let (_, _, got) = out.args.last().cloned().flatten().expect("C");
        assert!(decode(Elem::F32, &got) == *want, "{text}");
    }
    // HF32 is an f32 mode only.
    let f16 = kernel(&BASE).replace("hivm.hir.mmadL1 ins(", "hivm.hir.mmadL1 {enable_HF32} ins(");
    let out = run(
        &f16,
        vec![
            ArgSpec::Zeros(vec![32, 64], Elem::F16),
            ArgSpec::Zeros(vec![64, 64], Elem::F16),
            ArgSpec::Zeros(vec![32, 64], Elem::F32),
        ],
        true,
    );
    let p = problems(&out);
    assert!(p.contains("enable_HF32 rounds f32 operands, but A and B are f16"), "{p}");
}
