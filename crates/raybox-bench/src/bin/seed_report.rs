//! Counts where each of the write-ups' methods (`src/seeds.rs`) answers differently from
//! the exact reference vectors, beside raybox's count on the same cases, as the markdown
//! table the README quotes.
//!
//! `cargo run --release -p raybox-bench --bin seed_report`

fn main() {
    println!(
        "Binding cases: f32 inputs (f64-only cases skipped), tagged exact-boundary or margin_rel >= 1e-4.\n"
    );
    print!("{}", raybox_bench::seeds::markdown_table(&raybox_bench::seeds::compare_with_vectors()));
}
