//! The `probity` command: parse arguments, call the library, print, exit. All of it lives in
//! [`cli`]; this file only names the module.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
