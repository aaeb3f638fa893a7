use clap::Parser;

mod eviction;
mod store;

#[derive(Parser)]
struct Cli {
    /// Maximum number of entries.
    #[arg(long)]
    max_entries: usize,
    #[arg(long = "data-dir")]
    dir: String,
}

fn main() {
    let cli = Cli::parse();
    let mut store = store::Store::open(&cli.dir, cli.max_entries);
    store.put("k", b"v".to_vec());
}
