//! Builds a `#![no_std]` Rust crate to PTX from a `build.rs`, the job
//! `cuda_builder` does for `rustc_codegen_nvvm`, but with rustc's own
//! `nvptx64-nvidia-cuda` target (LLVM's NVPTX back end).
//!
//! For each target (`sm_80`, `sm_90a`, ...) the builder
//! 1. runs `cargo build --release -Zbuild-std=core --target nvptx64-nvidia-cuda`
//!    on the kernel crate with the nightly named in the crate's own
//!    `rust-toolchain.toml`, in a target directory under `OUT_DIR`, with the
//!    outer build's `CARGO_*`/`RUSTC*`/`RUSTFLAGS` variables removed so none leak in;
//! 2. extracts the LLVM bitcode objects from the resulting rlibs
//!    (the kernel crate, `core`, `compiler_builtins`);
//! 3. links them with `llvm-link`, internalizes everything but the kernels
//!    (every `#[no_mangle]` function of the kernel crate), optimizes with
//!    `opt -O3` (with a higher unroll threshold, see `UNROLL_THRESHOLD`),
//!    drops what no kernel reaches, and lowers to PTX with `llc`.
//!
//! The `llvm-bitcode-linker` component that rustc would use for this is not
//! distributed for the nvptx target, which is why step 2-3 are done here.
//!
//! It writes `<crate>_<target>.ptx` per target and `ptx_targets.rs` into the
//! output directory; the latter is meant for `include!` and defines
//! `PTX_TARGETS: &[(&str, &str)]` (target name, PTX text; in the order
//! added) and `KERNEL_NAMES: &[&str]`.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const NVPTX_TRIPLE: &str = "nvptx64-nvidia-cuda";

/// LLVM's loop-unroll size threshold, for rustc's optimization of the crate
/// and for `opt` after linking. The default (300) leaves loops over small
/// register arrays rolled when their bodies are large, and a rolled loop
/// indexes the array at run time, which moves it to local memory. GPU
/// compilers unroll such loops; this makes LLVM do the same.
const UNROLL_THRESHOLD: u32 = 16000;

/// Why a PTX build failed. The `Display` text says what to run to fix it.
#[derive(Debug)]
pub enum Error {
    /// `rustup` could not run the pinned toolchain.
    Toolchain {
        toolchain: String,
        detail: String,
    },
    /// The pinned toolchain lacks a component the build needs.
    MissingComponent {
        toolchain: String,
        component: &'static str,
    },
    /// A tool exited with an error.
    Command {
        command: String,
        detail: String,
    },
    /// A manifest lacks a key the build needs (`channel`, `name`).
    MissingKey {
        path: PathBuf,
        key: &'static str,
    },
    /// The kernel crate exports no `#[no_mangle]` function.
    NoKernels(PathBuf),
    /// A kernel exported by the crate is missing from the generated PTX.
    MissingEntry {
        kernel: String,
        target: &'static str,
    },
    /// A parameter declared a tensor map is not a 128-byte struct in the PTX.
    NotTensorMap {
        kernel: String,
        index: usize,
        target: &'static str,
    },
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let install =
            |tc: &str| format!("rustup toolchain install {tc} --profile minimal --component rust-src,llvm-tools");
        match self {
            Error::Toolchain { toolchain, detail } => write!(
                f,
                "the PTX build needs the Rust toolchain `{toolchain}`, which rustup could not run \
                 ({detail}).\nInstall it with:\n    {}",
                install(toolchain)
            ),
            Error::MissingComponent { toolchain, component } => write!(
                f,
                "the PTX build needs the `{component}` component of `{toolchain}`.\n\
                 Install it with:\n    {}",
                install(toolchain)
            ),
            Error::Command { command, detail } => write!(f, "`{command}` failed: {detail}"),
            Error::MissingKey { path, key } => write!(f, "{} has no `{key}`", path.display()),
            Error::NoKernels(path) => {
                write!(f, "the kernel crate at {} exports no #[no_mangle] kernel", path.display())
            }
            Error::MissingEntry { kernel, target } => {
                write!(f, "kernel `{kernel}` is missing from the {target} PTX")
            }
            Error::NotTensorMap { kernel, index, target } => {
                write!(f, "parameter {index} of kernel `{kernel}` is not a 128-byte tensor map in the {target} PTX")
            }
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_owned(), source }
}

/// Builds one kernel crate to PTX for a list of compute capabilities.
#[derive(Debug, Clone)]
pub struct PtxBuilder {
    crate_dir: PathBuf,
    targets: Vec<&'static str>,
    /// Lines written into the header of each entry whose name starts with
    /// the prefix, in the PTX of targets from the given compute capability
    /// on (`90` for sm_90 and sm_90a).
    directives: Vec<(&'static str, String, u32)>,
    /// `(prefix, index)`: that parameter of the matching entries is a tensor map.
    tensor_map_params: Vec<(&'static str, usize)>,
}

impl PtxBuilder {
    /// `crate_dir` holds the kernel crate's `Cargo.toml` and a
    /// `rust-toolchain.toml` that pins the nightly to build it with.
    pub fn new(crate_dir: impl Into<PathBuf>) -> Self {
        Self { crate_dir: crate_dir.into(), targets: Vec::new(), directives: Vec::new(), tensor_map_params: Vec::new() }
    }

    /// Declares that the kernels whose names start with `prefix` are
    /// launched with at most `threads` threads a block (PTX `.maxntid`, what
    /// CUDA C++'s `__launch_bounds__` sets), so that ptxas fits their
    /// registers to a block of that size. rustc has no attribute for it;
    /// the builder writes the directive into each matching entry's header.
    pub fn max_threads(mut self, prefix: &'static str, threads: u32) -> Self {
        self.directives.push((prefix, format!(".maxntid {threads}, 1, 1"), 0));
        self
    }

    /// Declares that a multiprocessor must hold at least `blocks` blocks of
    /// the kernels whose names start with `prefix` (PTX `.minnctapersm`,
    /// the second argument of CUDA C++'s `__launch_bounds__`). With
    /// [`max_threads`](Self::max_threads) it fixes the registers a thread
    /// has at entry, which ptxas needs to honour `setmaxnreg`: without it
    /// ptxas may ignore the reallocation (C7508, "unable to determine
    /// register count at entry").
    pub fn min_blocks(mut self, prefix: &'static str, blocks: u32) -> Self {
        self.directives.push((prefix, format!(".minnctapersm {blocks}"), 0));
        self
    }

    /// Caps the registers a thread of the kernels whose names start with
    /// `prefix` may use at `registers` (PTX `.maxnreg`), whatever block they
    /// are launched with, so that a multiprocessor holds `65536 /
    /// registers` of their threads; ptxas spills what does not fit.
    pub fn max_registers(mut self, prefix: &'static str, registers: u32) -> Self {
        self.directives.push((prefix, format!(".maxnreg {registers}"), 0));
        self
    }

    /// Declares that the kernels whose names start with `prefix` run in
    /// thread-block clusters of `[x, y, z]` blocks (PTX
    /// `.reqnctapercluster`, CUDA C++'s `__cluster_dims__`): an ordinary
    /// launch then groups the grid's blocks so, and a grid not divisible by
    /// the cluster shape is refused. Clusters exist from sm_90 on: the
    /// directive goes into those targets' PTX only (earlier ones reject it).
    pub fn cluster_dims(mut self, prefix: &'static str, [x, y, z]: [u32; 3]) -> Self {
        self.directives.push((prefix, format!(".reqnctapercluster {x}, {y}, {z}"), 90));
        self
    }

    /// Declares parameter `index` of the kernels whose names start with
    /// `prefix` a 128-byte tensor map (`CUtensorMap`), which the kernel
    /// hands to the TMA unit by its address in the parameter space (what
    /// CUDA C++'s `__grid_constant__` allows). The driver needs it 64-byte
    /// aligned; rustc aligns a by-value struct to 16 bytes at most, so the
    /// builder raises the alignment in the PTX, and fails if the parameter
    /// is not a 128-byte one.
    pub fn tensor_map_param(mut self, prefix: &'static str, index: usize) -> Self {
        self.tensor_map_params.push((prefix, index));
        self
    }

    /// Adds a target by its LLVM name: `"sm_80"`, or `"sm_90a"` for the
    /// Hopper's architecture-specific instructions (`wgmma`), whose PTX
    /// only an sm_90 device loads.
    pub fn target(mut self, name: &'static str) -> Self {
        if !self.targets.contains(&name) {
            self.targets.push(name);
        }
        self
    }

    /// Builds every target into `out_dir` and prints the `cargo:rerun-if-changed`
    /// lines for the kernel crate's sources.
    pub fn build(&self, out_dir: &Path) -> Result<(), Error> {
        let toolchain = Toolchain::pinned_by(&self.crate_dir)?;
        let crate_name = toml_string(&self.crate_dir.join("Cargo.toml"), "name")?.replace('-', "_");
        let builds: Vec<Result<TargetBuild, Error>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .targets
                .iter()
                .map(|&sm| {
                    let toolchain = &toolchain;
                    scope.spawn(move || self.build_target(toolchain, sm, out_dir))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("PTX build thread panicked")).collect()
        });
        let builds = builds.into_iter().collect::<Result<Vec<_>, _>>()?;

        for name in ["Cargo.toml", "Cargo.lock", "rust-toolchain.toml"] {
            println!("cargo:rerun-if-changed={}", self.crate_dir.join(name).display());
        }
        let sources: BTreeSet<&PathBuf> = builds.iter().flat_map(|b| &b.sources).collect();
        for source in sources {
            println!("cargo:rerun-if-changed={}", source.display());
        }

        let mut table = String::from(
            "/// Generated by ptx-builder: (target name, PTX), in the order added.\n\
             pub static PTX_TARGETS: &[(&str, &str)] = &[\n",
        );
        for build in &builds {
            let path = out_dir.join(format!("{crate_name}_{}.ptx", build.sm));
            fs::write(&path, &build.ptx).map_err(io_error(&path))?;
            table += &format!("    ({:?}, include_str!({:?})),\n", build.sm, path);
        }
        table += "];\n/// Generated by ptx-builder: every kernel entry point in the PTX.\n\
                  pub static KERNEL_NAMES: &[&str] = &[\n";
        for kernel in builds.first().map(|b| &b.kernels[..]).unwrap_or_default() {
            table += &format!("    {kernel:?},\n");
        }
        table += "];\n";
        let path = out_dir.join("ptx_targets.rs");
        fs::write(&path, table).map_err(io_error(&path))
    }

    fn build_target(&self, toolchain: &Toolchain, sm: &'static str, out_dir: &Path) -> Result<TargetBuild, Error> {
        let target_dir = out_dir.join(format!("nvptx-{sm}"));
        let manifest = self.crate_dir.join("Cargo.toml");
        let mut cargo = toolchain.command("cargo");
        cargo
            .args(["build", "--release", "--locked", "-Zbuild-std=core", "--target", NVPTX_TRIPLE])
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target_dir)
            .arg("--message-format=json-render-diagnostics")
            // Warnings are errors: the kernel crate is built only here, where
            // no clippy or test run would show an unused item (code compiled
            // for one target only leaves such items behind in the others).
            .env("RUSTFLAGS", format!("-Ctarget-cpu={sm} -Cllvm-args=-unroll-threshold={UNROLL_THRESHOLD} -Dwarnings"))
            .stderr(Stdio::inherit());
        let stdout = run(&mut cargo)?;

        let mut rlibs = Vec::new();
        let mut kernel_rlib = None;
        for line in stdout.lines() {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
            if message["reason"] != "compiler-artifact" {
                continue;
            }
            let is_kernel_crate = message["manifest_path"].as_str().map(Path::new) == Some(&manifest);
            for file in message["filenames"].as_array().into_iter().flatten() {
                let Some(file) = file.as_str().filter(|f| f.ends_with(".rlib")) else { continue };
                if is_kernel_crate {
                    kernel_rlib = Some(PathBuf::from(file));
                }
                rlibs.push(PathBuf::from(file));
            }
        }
        let kernel_rlib = kernel_rlib.ok_or_else(|| Error::NoKernels(self.crate_dir.clone()))?;

        let link_dir = target_dir.join("link");
        let _ = fs::remove_dir_all(&link_dir);
        let mut objects = Vec::new();
        let mut kernel_objects = Vec::new();
        for (i, rlib) in rlibs.iter().enumerate() {
            let members = toolchain.extract_objects(rlib, &link_dir.join(i.to_string()))?;
            if *rlib == kernel_rlib {
                kernel_objects.extend(members.iter().cloned());
            }
            objects.extend(members);
        }
        let kernels = toolchain.exported_functions(&kernel_objects)?;
        if kernels.is_empty() {
            return Err(Error::NoKernels(self.crate_dir.clone()));
        }

        let linked = link_dir.join("linked.bc");
        let optimized = link_dir.join("optimized.bc");
        let ptx_path = link_dir.join("kernels.ptx");
        run(toolchain.llvm_tool("llvm-link").args(&objects).arg("-o").arg(&linked))?;
        run(toolchain
            .llvm_tool("opt")
            .arg("-passes=internalize,default<O3>,globaldce")
            .arg(format!("-unroll-threshold={UNROLL_THRESHOLD}"))
            .arg(format!("--internalize-public-api-list={}", kernels.join(",")))
            .arg(&linked)
            .arg("-o")
            .arg(&optimized))?;
        run(toolchain.llvm_tool("llc").args(["-O3", &format!("-mcpu={sm}")]).arg(&optimized).arg("-o").arg(&ptx_path))?;
        let mut ptx = fs::read_to_string(&ptx_path).map_err(io_error(&ptx_path))?;
        if let Some(kernel) = kernels.iter().find(|k| !ptx.contains(&format!(".entry {k}("))) {
            return Err(Error::MissingEntry { kernel: kernel.clone(), target: sm });
        }
        for (prefix, directive, _) in self.directives.iter().filter(|d| compute_capability(sm) >= d.2) {
            for kernel in kernels.iter().filter(|k| k.starts_with(prefix)) {
                ptx = with_directive(&ptx, kernel, directive);
            }
        }
        for &(prefix, index) in &self.tensor_map_params {
            for kernel in kernels.iter().filter(|k| k.starts_with(prefix)) {
                ptx = with_tensor_map_param(&ptx, kernel, index).ok_or_else(|| Error::NotTensorMap {
                    kernel: kernel.clone(),
                    index,
                    target: sm,
                })?;
            }
        }

        let dep_info = kernel_rlib.with_extension("d");
        let sources = local_sources(&dep_info, &toolchain.sysroot)?;
        Ok(TargetBuild { sm, ptx, kernels, sources })
    }
}

struct TargetBuild {
    sm: &'static str,
    ptx: String,
    kernels: Vec<String>,
    sources: Vec<PathBuf>,
}

/// The pinned nightly, reached through `rustup run`.
struct Toolchain {
    name: String,
    sysroot: PathBuf,
    llvm_bin: PathBuf,
}

impl Toolchain {
    fn pinned_by(crate_dir: &Path) -> Result<Self, Error> {
        let file = crate_dir.join("rust-toolchain.toml");
        let name = toml_string(&file, "channel")?;

        let mut rustc = Command::new("rustup");
        rustc.args(["run", &name, "rustc", "-vV"]);
        clean_env(&mut rustc);
        let version =
            run(&mut rustc).map_err(|e| Error::Toolchain { toolchain: name.clone(), detail: e.to_string() })?;
        let host = version
            .lines()
            .find_map(|l| l.strip_prefix("host: "))
            .ok_or_else(|| Error::Toolchain { toolchain: name.clone(), detail: "no host triple in rustc -vV".into() })?
            .to_owned();
        let mut sysroot = Command::new("rustup");
        sysroot.args(["run", &name, "rustc", "--print", "sysroot"]);
        clean_env(&mut sysroot);
        let sysroot = PathBuf::from(run(&mut sysroot)?.trim());

        let missing = |component| Error::MissingComponent { toolchain: name.clone(), component };
        if !sysroot.join("lib/rustlib/src/rust/library/core/Cargo.toml").is_file() {
            return Err(missing("rust-src"));
        }
        let llvm_bin = sysroot.join("lib/rustlib").join(host).join("bin");
        if !["llvm-link", "llvm-ar", "llvm-nm", "opt", "llc"].iter().all(|t| llvm_bin.join(t).is_file()) {
            return Err(missing("llvm-tools"));
        }
        Ok(Self { name, sysroot, llvm_bin })
    }

    /// `rustup run <toolchain> <program>` with the outer build's variables removed.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new("rustup");
        command.args(["run", &self.name, program]);
        clean_env(&mut command);
        command
    }

    fn llvm_tool(&self, tool: &str) -> Command {
        Command::new(self.llvm_bin.join(tool))
    }

    /// Extracts the bitcode objects (`*.o`) of an rlib into `dir`.
    fn extract_objects(&self, rlib: &Path, dir: &Path) -> Result<Vec<PathBuf>, Error> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        run(self.llvm_tool("llvm-ar").arg("x").arg(format!("--output={}", dir.display())).arg(rlib))?;
        let mut objects: Vec<PathBuf> = fs::read_dir(dir)
            .map_err(io_error(dir))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension() == Some(OsStr::new("o")))
            .collect();
        objects.sort();
        Ok(objects)
    }

    /// Defined functions whose names are not Rust-mangled: the `#[no_mangle]` kernels.
    fn exported_functions(&self, objects: &[PathBuf]) -> Result<Vec<String>, Error> {
        let listing = run(self.llvm_tool("llvm-nm").args(["--defined-only", "-P"]).args(objects))?;
        let mut names: Vec<String> = listing
            .lines()
            .filter_map(|line| {
                let mut fields = line.split_whitespace();
                let (name, kind) = (fields.next()?, fields.next()?);
                let mangled = name.starts_with("_R") || name.starts_with("_ZN");
                (kind == "T" && !mangled).then(|| name.to_owned())
            })
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }
}

/// The compute capability of a target name: 90 for `sm_90a`, 80 for `sm_80`.
fn compute_capability(sm: &str) -> u32 {
    sm.trim_start_matches("sm_").trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(0)
}

/// `ptx` with the line `directive` between `kernel`'s parameter list and
/// its body (the entry exists: checked before).
fn with_directive(ptx: &str, kernel: &str, directive: &str) -> String {
    let entry = ptx.find(&format!(".entry {kernel}(")).expect("entry checked to exist");
    let body = entry + ptx[entry..].find("\n{").expect("an entry has a body");
    format!("{}\n{directive}{}", &ptx[..body], &ptx[body..])
}

/// `ptx` with parameter `index` of `kernel`, a 128-byte struct, aligned to
/// 64 bytes; `None` if that parameter is not declared so.
fn with_tensor_map_param(ptx: &str, kernel: &str, index: usize) -> Option<String> {
    let declaration = format!(" .b8 {kernel}_param_{index}[128]");
    let declared = ptx.find(&declaration)?;
    let line = ptx[..declared].rfind('\n')? + 1;
    let rest = &ptx[declared + declaration.len()..];
    Some(format!("{}\t.param .align 64{declaration}{rest}", &ptx[..line]))
}

/// Removes what the outer cargo set for its own build, so that the nested
/// cargo neither picks the outer `rustc` nor its flags, target directory or jobserver.
fn clean_env(command: &mut Command) {
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        let outer = (key.starts_with("CARGO") && key != "CARGO_HOME")
            || key.starts_with("RUSTC")
            || key.starts_with("RUSTDOC")
            || key.ends_with("RUSTFLAGS")
            || key == "RUSTUP_TOOLCHAIN";
        if outer {
            command.env_remove(&*key);
        }
    }
}

/// Runs `command` and returns its standard output; a failure carries its standard error.
fn run(command: &mut Command) -> Result<String, Error> {
    let output = command.stdout(Stdio::piped()).output();
    let described = format!("{command:?}");
    let failed = |detail: String| Error::Command { command: described.clone(), detail };
    let output = output.map_err(|e| failed(e.to_string()))?;
    if !output.status.success() {
        return Err(failed(format!("{}\n{}", output.status, String::from_utf8_lossy(&output.stderr))));
    }
    String::from_utf8(output.stdout).map_err(|e| failed(e.to_string()))
}

/// The first `key = "value"` line of a small TOML file (enough for
/// `rust-toolchain.toml`'s channel and a manifest's package name).
fn toml_string(path: &Path, key: &'static str) -> Result<String, Error> {
    let text = fs::read_to_string(path).map_err(io_error(path))?;
    let value = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix(key))
        .filter_map(|rest| rest.trim().strip_prefix('='))
        .map(|value| value.trim().trim_matches('"').to_owned())
        .next();
    value.ok_or_else(|| Error::MissingKey { path: path.to_owned(), key })
}

/// The source files cargo's dep-info lists for the kernel crate, minus the
/// sysroot's (those change only with the toolchain, which is pinned).
fn local_sources(dep_info: &Path, sysroot: &Path) -> Result<Vec<PathBuf>, Error> {
    let text = fs::read_to_string(dep_info).map_err(io_error(dep_info))?;
    let deps = text.lines().next().and_then(|line| line.split_once(": ")).map(|(_, deps)| deps);
    let mut sources = Vec::new();
    let mut current = String::new();
    let mut chars = deps.unwrap_or_default().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => current.push(chars.next().unwrap_or(' ')),
            ' ' => sources.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    sources.push(current);
    Ok(sources.into_iter().filter(|s| !s.is_empty()).map(PathBuf::from).filter(|p| !p.starts_with(sysroot)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY: &str =
        ".visible .entry k(\n\t.param .align 16 .b8 k_param_0[128],\n\t.param .u32 k_param_1\n)\n{\n\tret;\n}\n";

    #[test]
    fn directives_go_between_parameters_and_body() {
        let ptx = with_directive(ENTRY, "k", ".maxntid 512, 1, 1");
        assert!(ptx.contains("\t.param .u32 k_param_1\n)\n.maxntid 512, 1, 1\n{\n"), "{ptx}");
    }

    #[test]
    fn tensor_map_parameters_are_aligned_to_64() {
        let ptx = with_tensor_map_param(ENTRY, "k", 0).unwrap();
        assert!(ptx.contains("(\n\t.param .align 64 .b8 k_param_0[128],\n\t.param .u32 k_param_1\n)"), "{ptx}");
        // Not a 128-byte struct: refused.
        assert!(with_tensor_map_param(ENTRY, "k", 1).is_none());
    }

    #[test]
    fn compute_capabilities_of_target_names() {
        assert_eq!(
            [compute_capability("sm_80"), compute_capability("sm_90a"), compute_capability("sm_100")],
            [80, 90, 100]
        );
    }
}
