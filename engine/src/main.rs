//! The `probity` command: parse arguments, call the library, print, exit. All of it lives in
//! [`cli`]; this file only names the module and installs the allocator.

mod cli;

/// Every allocation of the command goes through mimalloc: tree-sitter builds and frees a tree
/// of small nodes per parsed file, and glibc's malloc spent a tenth of a cold `drift` run in
/// its own bookkeeping (`malloc_consolidate`, `_int_free`); see benches/drift.md.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // SAFETY: installed before anything calls into tree-sitter, so no block is ever freed by
    // another allocator than the one that allocated it; the four functions are mimalloc's
    // malloc, calloc, realloc and free, with the C signatures tree-sitter expects.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc: libmimalloc_sys::mi_calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        }));
    }
    cli::main()
}
