//! Compiles `kernels-gpu` to PTX for every target the library embeds; see
//! `ptx-builder` for how, and host/ptx.rs for how a target is picked at run time.

use quant_kernels_abi::int4_linear::{v12, v13, v19, v22, v23, v24};

fn main() {
    let out_dir = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let kernels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels-gpu");
    let build = ptx_builder::PtxBuilder::new(kernels)
        .target("sm_80")
        .target("sm_90a")
        // Versions 12, 13, 19 and 22 to 24 (the producer-consumer loop) split their
        // registers between warpgroups (setmaxnreg), from the count ptxas
        // gives a block of exactly this size. Without one block a
        // multiprocessor declared too, ptxas ignored version 19's split
        // (C7508, which `.ci/run` refuses for any kernel; versions 22 to 24
        // are version 19 with a smaller tile); declared for
        // versions 12 and 13, whose split ptxas honours without it, it made
        // version 13 up to 6% slower at M = 128 (run 24, call H).
        .max_threads("int4_linear_v12_", v12::BLOCK_THREADS)
        .max_threads("int4_linear_v13_", v13::BLOCK_THREADS)
        .max_threads("int4_linear_v19_", v19::BLOCK_THREADS)
        .min_blocks("int4_linear_v19_", 1)
        .max_threads("int4_linear_v22_", v22::BLOCK_THREADS)
        .min_blocks("int4_linear_v22_", 1)
        .max_threads("int4_linear_v23_", v23::BLOCK_THREADS)
        .min_blocks("int4_linear_v23_", 1)
        .max_threads("int4_linear_v24_", v24::BLOCK_THREADS)
        .min_blocks("int4_linear_v24_", 1)
        // Version 13 runs in clusters along the grid's x; versions 13, 19,
        // 23 and 24 read their first two arguments, tensor maps, where
        // they lie.
        .cluster_dims("int4_linear_v13_", [v13::CLUSTER as u32, 1, 1])
        .tensor_map_param("int4_linear_v12_", 0)
        .tensor_map_param("int4_linear_v12_", 1)
        .tensor_map_param("int4_linear_v13_", 0)
        .tensor_map_param("int4_linear_v13_", 1)
        .tensor_map_param("int4_linear_v19_", 0)
        .tensor_map_param("int4_linear_v19_", 1)
        .tensor_map_param("int4_linear_v23_", 0)
        .tensor_map_param("int4_linear_v23_", 1)
        .tensor_map_param("int4_linear_v24_", 0)
        .tensor_map_param("int4_linear_v24_", 1)
        // Version 17's blocks for up to 8 activation rows hold 16 warps,
        // which fit a multiprocessor's registers at 128 a thread.
        .max_registers("int4_linear_v17_m8_", quant_kernels_abi::int4_linear::v17::M8_REGISTERS)
        .build(&out_dir);
    if let Err(error) = build {
        eprintln!("error: {error}");
        std::process::exit(1);
    }
}
