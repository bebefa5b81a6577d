//! The NPU targets `#hacc.target` may name and what each offers: core counts
//! and on-chip memory sizes (the facts of upstream's target spec table). The
//! device-spec pass publishes them as a DLTI spec; the CPU twin sizes its
//! emulated memories from them.

/// What all targets of one chip generation share. Sizes are in bits, as
/// upstream's DLTI entries give them.
pub struct Generation {
    pub ub_bits: u64,
    pub l1_bits: u64,
    pub l0a_bits: u64,
    pub l0b_bits: u64,
    pub l0c_bits: u64,
    pub ub_align_bits: u64,
    pub l1_align_bits: u64,
    pub l0c_align_bits: u64,
    /// SIMT data cache bounds: only register-based generations have them.
    pub d_cache_bits: Option<(u64, u64)>,
    pub arch: &'static str,
    /// Register-based architecture (vector functions, regbase lowering).
    pub regbase: bool,
}

const KIB: u64 = 8 * 1024;

pub const ASCEND_910B: Generation = Generation {
    ub_bits: 192 * KIB,
    l1_bits: 512 * KIB,
    l0a_bits: 64 * KIB,
    l0b_bits: 64 * KIB,
    l0c_bits: 128 * KIB,
    ub_align_bits: 256,
    l1_align_bits: 256,
    l0c_align_bits: 4096,
    d_cache_bits: None,
    arch: "dav-c220",
    regbase: false,
};

const ASCEND_310B: Generation =
    Generation { ub_bits: 256 * KIB, l1_bits: 1024 * KIB, arch: "dav-m300", regbase: true, ..ASCEND_910B };

const ASCEND_950: Generation = Generation {
    // 256 KiB, of which the compiler keeps 8.
    ub_bits: 248 * KIB,
    l0c_bits: 256 * KIB,
    d_cache_bits: Some((32 * KIB, 120 * KIB)),
    arch: "dav-c310",
    regbase: true,
    ..ASCEND_910B
};

/// One target: its generation and core counts (AI cores, cube cores, vector cores).
pub struct Target {
    pub name: &'static str,
    pub generation: &'static Generation,
    pub cores: (u32, u32, u32),
}

const fn t(name: &'static str, generation: &'static Generation, ai: u32) -> Target {
    // Every listed target has one cube and two vector cores per AI core.
    let vector = if ai == 1 { 1 } else { 2 * ai };
    Target { name, generation, cores: (ai, ai, vector) }
}

pub const TARGETS: &[Target] = &[
    t("Ascend910B1", &ASCEND_910B, 24),
    t("Ascend910B2", &ASCEND_910B, 24),
    t("Ascend910B3", &ASCEND_910B, 20),
    t("Ascend910B4", &ASCEND_910B, 20),
    t("Ascend910B4_1", &ASCEND_910B, 20),
    t("Ascend910B2C", &ASCEND_910B, 24),
    t("Ascend310B1", &ASCEND_310B, 1),
    t("Ascend310B2", &ASCEND_310B, 1),
    t("Ascend310B3", &ASCEND_310B, 1),
    t("Ascend310B4", &ASCEND_310B, 1),
    // The 910_93 generation has the 910B's memories.
    t("Ascend910_9362", &ASCEND_910B, 20),
    t("Ascend910_9363", &ASCEND_910B, 20),
    t("Ascend910_9372", &ASCEND_910B, 20),
    t("Ascend910_9381", &ASCEND_910B, 24),
    t("Ascend910_9382", &ASCEND_910B, 24),
    t("Ascend910_9391", &ASCEND_910B, 24),
    t("Ascend910_9392", &ASCEND_910B, 24),
    t("Ascend910_950z", &ASCEND_950, 4),
    t("Ascend910_9579", &ASCEND_950, 28),
    t("Ascend910_957b", &ASCEND_950, 28),
    t("Ascend910_957d", &ASCEND_950, 28),
    t("Ascend910_9581", &ASCEND_950, 32),
    t("Ascend910_9589", &ASCEND_950, 32),
    t("Ascend910_958a", &ASCEND_950, 32),
    t("Ascend910_958b", &ASCEND_950, 32),
    t("Ascend910_9599", &ASCEND_950, 36),
    t("Ascend950PR_950z", &ASCEND_950, 4),
    t("Ascend950PR_9579", &ASCEND_950, 28),
    t("Ascend950PR_957a", &ASCEND_950, 28),
    t("Ascend950PR_957b", &ASCEND_950, 28),
    t("Ascend950PR_957c", &ASCEND_950, 28),
    t("Ascend950PR_957d", &ASCEND_950, 28),
    t("Ascend950PR_9589", &ASCEND_950, 32),
    t("Ascend950PR_958a", &ASCEND_950, 32),
    t("Ascend950PR_958b", &ASCEND_950, 32),
    t("Ascend950PR_958c", &ASCEND_950, 32),
    t("Ascend950PR_958d", &ASCEND_950, 32),
    t("Ascend950PR_9599", &ASCEND_950, 36),
    t("Ascend950PR_959a", &ASCEND_950, 36),
    t("Ascend950PR_959b", &ASCEND_950, 36),
    t("Ascend950DT_950x", &ASCEND_950, 8),
    t("Ascend950DT_950y", &ASCEND_950, 8),
    t("Ascend950DT_9571", &ASCEND_950, 28),
    t("Ascend950DT_9572", &ASCEND_950, 28),
    t("Ascend950DT_9573", &ASCEND_950, 28),
    t("Ascend950DT_9574", &ASCEND_950, 28),
    t("Ascend950DT_9575", &ASCEND_950, 28),
    t("Ascend950DT_9576", &ASCEND_950, 28),
    t("Ascend950DT_9577", &ASCEND_950, 28),
    t("Ascend950DT_9578", &ASCEND_950, 28),
    t("Ascend950DT_9581", &ASCEND_950, 32),
    t("Ascend950DT_9582", &ASCEND_950, 32),
    t("Ascend950DT_9583", &ASCEND_950, 32),
    t("Ascend950DT_9584", &ASCEND_950, 32),
    t("Ascend950DT_9585", &ASCEND_950, 32),
    t("Ascend950DT_9586", &ASCEND_950, 32),
    t("Ascend950DT_9587", &ASCEND_950, 32),
    t("Ascend950DT_9588", &ASCEND_950, 32),
    t("Ascend950DT_9591", &ASCEND_950, 36),
    t("Ascend950DT_9592", &ASCEND_950, 36),
    t("Ascend950DT_9595", &ASCEND_950, 36),
    t("Ascend950DT_9596", &ASCEND_950, 36),
    t("Ascend950DT_95A1", &ASCEND_950, 36),
    t("Ascend950DT_95A2", &ASCEND_950, 36),
];

pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

impl Target {
    /// The DLTI entries upstream attaches for this target, in its order;
    /// `cores` overrides the counts (AI/cube, vector) when both are given and
    /// not above the hardware's.
    pub fn dlti_entries(&self, cores: Option<(u32, u32)>) -> Vec<(&'static str, String)> {
        let g = self.generation;
        let (mut ai, mut cube, mut vector) = self.cores;
        if let Some((aic, aiv)) = cores {
            if aic <= ai {
                ai = aic;
            }
            if aic <= cube {
                cube = aic;
            }
            if aiv <= vector {
                vector = aiv;
            }
        }
        let mut out = vec![
            ("AI_CORE_COUNT", ai as u64),
            ("CUBE_CORE_COUNT", cube as u64),
            ("VECTOR_CORE_COUNT", vector as u64),
            ("UB_SIZE", g.ub_bits),
            ("L1_SIZE", g.l1_bits),
            ("L0A_SIZE", g.l0a_bits),
            ("L0B_SIZE", g.l0b_bits),
            ("L0C_SIZE", g.l0c_bits),
            ("UB_ALIGN_SIZE", g.ub_align_bits),
            ("L1_ALIGN_SIZE", g.l1_align_bits),
            ("L0C_ALIGN_SIZE", g.l0c_align_bits),
        ]
        .into_iter()
        .map(|(k, v)| (k, format!("{v} : i32")))
        .collect::<Vec<_>>();
        if g.regbase {
            let (min, max) = g.d_cache_bits.unwrap_or((0, 0));
            out.push(("MINIMAL_D_CACHE_SIZE", format!("{min} : i32")));
            out.push(("MAXIMUM_D_CACHE_SIZE", format!("{max} : i32")));
            out.push(("ARCH", format!("\"{}\"", g.arch)));
        }
        out
    }
}
