//! Drift guard on Python classes built on standard-library classes (`enum.Enum`, `tzinfo`,
//! `collections.abc.Sequence`, builtins): the base's listed members are Python's (UNCHECKABLE,
//! external), any other member is decided from the repository alone.

use crate::util::{Repo, expect_verdicts};

/// Subclasses of listed standard-library classes: the base provides exactly its listed members.
#[test]
fn python_stdlib_bases_are_known() {
    let r = Repo::new();
    r.write(
        "pkg/colors.py",
        "import enum\nfrom enum import Enum\nfrom datetime import tzinfo\n\
         from collections.abc import Sequence\nfrom somewhere import Widget\n\n\
         class Color(Enum):\n    RED = 1\n    GREEN = 2\n\n\
         class Shade(enum.IntEnum):\n    DARK = 1\n\n\
         class Zone(tzinfo):\n    def utcoffset(self, dt):\n        return None\n\n\
         class Row(Sequence):\n    def __getitem__(self, i):\n        return i\n\n    \
         def __len__(self):\n        return 0\n\n\
         class _Base(tzinfo):\n    pass\n\n\
         class Local(_Base):\n    pass\n\n\
         class Oops(ValueError):\n    pass\n\n\
         class Knob(Widget):\n    pass\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Color.RED", "VERIFIED pkg/colors.py"),
            ("Color.BLUE", "MISSING"),
            (
                "Color.value",
                "UNCHECKABLE external: `Color.value` is provided by Python's `enum.Enum`",
            ),
            ("Color.name", "UNCHECKABLE Python standard library"),
            ("Shade.value", "UNCHECKABLE `enum.IntEnum`"),
            ("Shade.bright", "MISSING"),
            ("Zone.utcoffset", "VERIFIED pkg/colors.py"),
            ("Zone.dst", "UNCHECKABLE `datetime.tzinfo`"),
            ("Zone.normalize", "MISSING"),
            ("Local.tzname", "UNCHECKABLE `datetime.tzinfo`"),
            ("Local.localize", "MISSING"),
            ("Row.count", "UNCHECKABLE `collections.abc.Sequence`"),
            ("Row.count_of", "MISSING"),
            ("Oops.args", "UNCHECKABLE `ValueError`"),
            ("Oops.explain", "MISSING"),
            (
                "Knob.spin",
                "UNCHECKABLE inherits from `Widget`, which is not declared",
            ),
        ],
    );
}

/// The base is named through the file's imports (`import enum as e`, `import collections.abc`)
/// and mixed bases (`str, Enum`) each provide their own listed members.
#[test]
fn python_stdlib_bases_through_imports() {
    let r = Repo::new();
    r.write(
        "pkg/modes.py",
        "import enum as e\nimport collections.abc\n\n\
         class Mode(str, e.Enum):\n    FAST = 'fast'\n\n\
         class Table(collections.abc.Mapping):\n    pass\n",
    );
    expect_verdicts(
        &r,
        &[
            ("Mode.FAST", "VERIFIED pkg/modes.py"),
            ("Mode.upper", "UNCHECKABLE Python's `str`"),
            ("Mode.value", "UNCHECKABLE Python's `enum.Enum`"),
            ("Mode.slow", "MISSING"),
            ("Table.items", "UNCHECKABLE `collections.abc.Mapping`"),
            ("Table.rows", "MISSING"),
        ],
    );
}
