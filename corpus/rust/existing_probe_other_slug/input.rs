use std::io;
use std::path::Path;

pub fn load(path: &Path) -> io::Result<String> {
    let body = std::fs::read_to_string(path)?;
    // gsd-debug-probe:start cache-miss p1
    eprintln!("cache-miss p1 reached");
    // gsd-debug-probe:end cache-miss p1
    Ok(body)
}

pub fn save(path: &Path, body: &str) -> io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, body)?;
    std::fs::rename(&tmp, path)
}
