fn main() {
    let seed: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    print!("{}", hivm_twin::tester::plan::kernel(seed));
    eprintln!("{:?}", hivm_twin::tester::plan::check(seed).map_err(|e| e.lines().take(8).collect::<Vec<_>>().join("\n")));
}
