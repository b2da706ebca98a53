//! The embedded PTX (CPU only): every kernel the host launches is in every
//! target's module and every kernel in the modules is launched by the host,
//! every `sm_90a` kernel waits for the previous grid before touching global
//! memory, every tensor-map argument is declared 64-byte aligned, and
//! devices map to the right target.

mod common;

use common::*;
use quant_kernels::check::Rng;
use quant_kernels::{Error, add_mul_exp, int4_linear, ptx, quantize_int8};

/// Every kernel name the host library launches.
fn host_kernels() -> Vec<&'static str> {
    let elementwise = [add_mul_exp::KERNELS, quantize_int8::KERNELS, quantize_int8::ROWS_KERNELS];
    let int4 = [int4_linear::V1_DECODE_KERNEL, int4_linear::V1_BATCH_KERNEL, int4_linear::V2_KERNEL];
    let int4_half = [
        int4_linear::V3_M8_KERNELS,
        int4_linear::V3_M16_KERNELS,
        int4_linear::V4_M8_KERNELS,
        int4_linear::V4_M16_KERNELS,
        int4_linear::V7_KERNELS,
        int4_linear::V7_SPLIT_K_KERNELS,
        int4_linear::V10_KERNELS,
        int4_linear::V10_SPLIT_K_KERNELS,
        int4_linear::V11_KERNELS,
        int4_linear::V11_SPLIT_K_KERNELS,
        int4_linear::V18_KERNELS,
        int4_linear::V18_SPLIT_K_KERNELS,
        int4_linear::V19_KERNELS,
        int4_linear::V19_SPLIT_K_KERNELS,
        int4_linear::V22_KERNELS,
        int4_linear::V22_SPLIT_K_KERNELS,
        int4_linear::V23_KERNELS,
        int4_linear::V23_SPLIT_K_KERNELS,
        int4_linear::V24_KERNELS,
        int4_linear::V24_SPLIT_K_KERNELS,
        int4_linear::SPLIT_K_REDUCE_KERNELS,
    ]
    .into_iter()
    .chain(int4_linear::V5_KERNELS.into_iter().flatten())
    .chain(int4_linear::V6_KERNELS.into_iter().flatten())
    .chain([int4_linear::V12_KERNELS, int4_linear::V12_SPLIT_K_KERNELS].into_iter().flatten())
    .chain([int4_linear::V13_KERNELS, int4_linear::V13_SPLIT_K_KERNELS].into_iter().flatten())
    .chain(int4_linear::V17_KERNELS.into_iter().flatten().flatten());
    let int4_half = int4_half.into_iter().flat_map(|per_type| [per_type.f32, per_type.f16, per_type.bf16]).flatten();
    elementwise.iter().flat_map(|kernels| kernels.all()).chain(int4).chain(int4_half).collect()
}

fn host_and_modules_agree_on_kernels(_: &mut Rng) -> TestResult {
    let mut exported = ptx::kernel_names().to_vec();
    let mut launched = host_kernels();
    exported.sort_unstable();
    launched.sort_unstable();
    ensure(exported == launched, || format!("PTX exports {exported:?}, host launches {launched:?}"))
}

fn every_target_defines_every_kernel(_: &mut Rng) -> TestResult {
    let targets: Vec<_> = ptx::targets().collect();
    let names: Vec<String> = targets.iter().map(|t| t.name()).collect();
    ensure(names == ["sm_80", "sm_90a"], || format!("targets {names:?}"))?;
    for target in targets {
        ensure(target.ptx.contains(&format!(".target {}", target.name())), || format!("{} header", target.name()))?;
        for kernel in host_kernels() {
            ensure(target.ptx.contains(&format!(".entry {kernel}(")), || {
                format!("{kernel} missing in {}", target.name())
            })?;
        }
        // No local-memory arrays (register arrays indexed at run time) and
        // no panic paths survived optimization.
        ensure(!target.ptx.contains(".local"), || format!("{} uses local memory", target.name()))?;
        ensure(!target.ptx.contains("panic"), || format!("{} has a panic path", target.name()))?;
    }
    Ok(())
}

/// The PTX text of each entry point of `ptx`: from its `.entry` to the next.
fn entries(ptx: &str) -> impl Iterator<Item = (&str, &str)> {
    ptx.split("\n.visible .entry ").skip(1).map(|text| (text.split('(').next().unwrap_or_default(), text))
}

/// The library launches every kernel of a module with programmatic
/// dependent launch where the module supports it (`sm_90a`; see
/// `kernels-gpu/src/grid_dependency.rs`), so every entry point there must
/// wait for the previous grid (`griddepcontrol.wait`) before it reads or
/// writes global memory: before the first wait, in the text, only its
/// parameters, shared memory and L2 prefetches (`prefetch.global.L2`, and
/// the bulk and tensor-map forms, `cp.async.bulk.prefetch`, which fill
/// the L2 alone). In the `sm_80` module,
/// which has no such launch, no kernel has the instructions. Where the
/// threads of a block wait in different branches (the producer-consumer
/// GEMMs since run 45: producers after their prefetches, consumers at
/// once), this reads the text before the first wait, which is one
/// branch's; the other's prologue is checked by review only.
fn every_kernel_waits_for_the_previous_grid_first(_: &mut Rng) -> TestResult {
    const ALLOWED: [&str; 6] =
        ["ld.param.", "ld.shared", "ld.const.", "st.shared", "prefetch.global.L2", "cp.async.bulk.prefetch."];
    const MEMORY: [&str; 13] = [
        "ld",
        "st",
        "cp",
        "red",
        "atom",
        "tex",
        "suld",
        "sust",
        "multimem",
        "prefetch",
        "prefetchu",
        "discard",
        "applypriority",
    ];
    for target in ptx::targets() {
        let programmatic = target.programmatic_launch();
        let mut checked = 0;
        for (kernel, text) in entries(target.ptx) {
            let wait = text.find("griddepcontrol.wait");
            let launch = text.contains("griddepcontrol.launch_dependents");
            ensure(wait.is_some() == programmatic && launch == programmatic, || {
                format!("{kernel} in {}: griddepcontrol.wait {wait:?}, launch_dependents {launch}", target.name())
            })?;
            let prologue = &text[..wait.unwrap_or(0)];
            for line in prologue.lines().map(str::trim) {
                // The instruction after an optional `@%p` guard.
                let mut words = line.split_whitespace();
                let opcode = match words.next() {
                    Some(guard) if guard.starts_with('@') => words.next().unwrap_or_default(),
                    Some(first) => first,
                    None => continue,
                };
                let touches_memory = MEMORY.contains(&opcode.split('.').next().unwrap_or_default());
                ensure(!touches_memory || ALLOWED.iter().any(|allowed| opcode.starts_with(allowed)), || {
                    format!("{kernel} in {}: `{line}` before griddepcontrol.wait", target.name())
                })?;
            }
            checked += 1;
        }
        ensure(checked == ptx::kernel_names().len(), || {
            format!("{checked} entry points in {}, {} kernels", target.name(), ptx::kernel_names().len())
        })?;
    }
    Ok(())
}

/// A kernel argument of 128 bytes is a tensor map (`CUtensorMap`), which
/// the driver needs 64-byte aligned in the parameter space, as
/// `ptx-builder`'s `tensor_map_param` declares it (rustc writes the
/// struct's own alignment); an entry point missing from `build.rs`'s list
/// faults with a misaligned address at its first copy (run 54, version 19
/// before its entry).
fn every_tensor_map_parameter_is_64_byte_aligned(_: &mut Rng) -> TestResult {
    for target in ptx::targets() {
        let mut maps = 0;
        for (kernel, text) in entries(target.ptx) {
            let parameters = text.split(')').next().unwrap_or_default();
            for line in
                parameters.lines().map(str::trim).filter(|line| line.ends_with("[128],") || line.ends_with("[128]"))
            {
                ensure(line.starts_with(".param .align 64 .b8 "), || {
                    format!("{kernel} in {}: `{line}` is not 64-byte aligned", target.name())
                })?;
                maps += 1;
            }
        }
        // Two maps in each of the 4 entry points of versions 12, 13, 19, 23
        // and 24, and of versions 12 and 13's 4 `_g128_` ones.
        ensure(maps == 56, || format!("{maps} tensor-map parameters in {}", target.name()))?;
    }
    Ok(())
}

fn devices_map_to_the_newest_target_they_run(_: &mut Rng) -> TestResult {
    // sm_90a runs on 9.0 only; newer devices take the portable sm_80.
    for (cc, expected) in [
        ((8, 0), "sm_80"),
        ((8, 6), "sm_80"),
        ((8, 9), "sm_80"),
        ((9, 0), "sm_90a"),
        ((10, 0), "sm_80"),
        ((12, 0), "sm_80"),
    ] {
        let got = ptx::select(cc)?.name();
        ensure(got == expected, || format!("{cc:?} picks {got}"))?;
    }
    expect_error(ptx::select((7, 5)), Error::UnsupportedDevice { compute_capability: (7, 5), oldest: (8, 0) })
}

fn main() {
    run(vec![
        cpu_test("cpu::host_and_modules_agree_on_kernels", host_and_modules_agree_on_kernels),
        cpu_test("cpu::every_target_defines_every_kernel", every_target_defines_every_kernel),
        cpu_test("cpu::every_kernel_waits_for_the_previous_grid_first", every_kernel_waits_for_the_previous_grid_first),
        cpu_test("cpu::every_tensor_map_parameter_is_64_byte_aligned", every_tensor_map_parameter_is_64_byte_aligned),
        cpu_test("cpu::devices_map_to_the_newest_target_they_run", devices_map_to_the_newest_target_they_run),
    ]);
}
