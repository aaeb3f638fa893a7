//! The `probity` command: parse arguments, call the library, print, exit. All of it lives in
//! [`cli`]; this file only names the module and installs the allocator.

mod cli;

/// Every allocation of the command goes through mimalloc: tree-sitter builds and frees a tree
/// of small nodes per parsed file, and glibc's malloc spent a tenth of a cold `drift` run in
/// its own bookkeeping (`malloc_consolidate`, `_int_free`); see benches/drift.md.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_eager_commit` of mimalloc v2's `mimalloc.h` (the binding names no constant
/// for it). Off, arenas are committed as they are used: with it on, `probity index` of the cargo
/// registry sources peaked at 170 MB instead of 135 MB.
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
/// `mi_option_purge_delay` (v2): 0 hands freed memory back at once. With the default delay the
/// registry index peaked at 145-175 MB (goal 150; glibc with `malloc_trim` 115 MB), with 0 at 118 MB.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // SAFETY: an option setter; it allocates nothing and touches no block.
    unsafe {
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
    }
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
