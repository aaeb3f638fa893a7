//! The node helpers the rest of `syntax` builds on: a node's text, whitespace-free text, every
//! node of a tree, comment and function kinds, the last name and the root of a callee, and the
//! scope chain a node sits in (functions, classes, impls, modules, JS test calls). Pure: node and
//! text in, answer out.

use tree_sitter::Node;

use crate::lang::Family;

/// The text of `node` in `src`.
pub fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// `s` without any whitespace (for comparing code that was only re-indented or re-wrapped).
pub fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `word` stands in `text` as a whole identifier (`_` and `$` are word characters).
pub fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$')
        .any(|w| w == word)
}

/// What a body does, for telling a rewritten branch from a new one: `compact` without braces
/// and semicolons, each call's receiver chain cut to the method (`return n.mediaTypes();` and
/// `{ return this.negotiator.mediaTypes() }` are both `return.mediaTypes()`).
pub fn body_shape(s: &str) -> String {
    let c: Vec<char> = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !matches!(c, '{' | '}' | ';'))
        .collect();
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(c.len());
    let mut i = 0;
    while i < c.len() {
        if word(c[i]) {
            // A chain `a.b.c(`: keep `.c(` only.
            let start = i;
            let mut last = i;
            let mut j = i;
            loop {
                while j < c.len() && word(c[j]) {
                    j += 1;
                }
                if j + 1 < c.len() && c[j] == '.' && word(c[j + 1]) {
                    last = j + 1;
                    j += 1;
                    continue;
                }
                break;
            }
            if last > start && j < c.len() && c[j] == '(' {
                out.push('.');
                out.extend(&c[last..j]);
            } else {
                out.extend(&c[start..j]);
            }
            i = j;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    compact(&out)
}

/// Every node of the tree, in pre-order.
pub fn all_nodes(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Whether `kind` is a comment node.
pub fn is_comment(kind: &str) -> bool {
    matches!(
        kind,
        "comment" | "line_comment" | "block_comment" | "html_comment"
    )
}

/// Function-like nodes (bodies the blanket-return rule looks at).
pub fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_definition"
            | "function_item"
            | "function_declaration"
            | "generator_function_declaration"
            | "method_definition"
            | "function_expression"
            | "function"
            | "arrow_function"
    )
}

/// The name a scope node gives to what is inside it (functions, classes, impls, modules, and
/// JS test calls `it("title", ...)`), or `None` for other nodes.
pub fn scope_name(f: Family, node: Node<'_>, src: &str) -> Option<String> {
    let field = |name: &str| {
        node.child_by_field_name(name)
            .map(|n| text(n, src).to_owned())
    };
    match node.kind() {
        "function_definition"
        | "class_definition"
        | "function_item"
        | "mod_item"
        | "trait_item"
        | "function_declaration"
        | "generator_function_declaration"
        | "class_declaration"
        | "method_definition" => field("name"),
        "impl_item" => {
            let ty = field("type").unwrap_or_default();
            Some(match field("trait") {
                Some(t) => format!("impl {t} for {ty}"),
                None => format!("impl {ty}"),
            })
        }
        "arrow_function" | "function_expression" | "function" if f == Family::JavaScript => {
            let parent = node.parent()?;
            if parent.kind() == "variable_declarator" {
                return parent
                    .child_by_field_name("name")
                    .map(|n| text(n, src).to_owned());
            }
            None
        }
        "call_expression" if f == Family::JavaScript => js_call_title(node, src),
        _ => None,
    }
}

/// The scope chain of `node` (outermost first), `""` at module level.
pub fn scope_key(f: Family, node: Node<'_>, src: &str) -> String {
    let mut parts = Vec::new();
    let mut cur = node.parent();
    while let Some(n) = cur {
        if let Some(name) = scope_name(f, n, src) {
            parts.push(name);
        }
        cur = n.parent();
    }
    parts.reverse();
    parts.join("::")
}

/// The last name of a callee (`assertEqual` for `self.assertEqual`, `toBe` for
/// `expect(x).not.toBe`).
pub fn last_name<'a>(callee: Node<'_>, src: &'a str) -> &'a str {
    let t = text(callee, src);
    t.rsplit(['.', ':']).next().unwrap_or(t).trim()
}

/// `callee("title", ...)` for a JS call whose first argument is a string: `it(title)`.
pub(super) fn js_call_title(node: Node<'_>, src: &str) -> Option<String> {
    let callee = node.child_by_field_name("function")?;
    let args = node.child_by_field_name("arguments")?;
    let first = args.named_child(0)?;
    if !matches!(first.kind(), "string" | "template_string") {
        return None;
    }
    let root = callee_root(callee, src);
    matches!(
        root,
        "it" | "test" | "describe" | "context" | "suite" | "xit" | "xtest" | "xdescribe"
    )
    .then(|| format!("{root}({})", text(first, src)))
}

/// The identifier a callee chain starts with: `it` for `it.skip.each`, `expect` for
/// `expect(x).not.toBe`.
pub fn callee_root<'a>(mut n: Node<'_>, src: &'a str) -> &'a str {
    loop {
        match n.kind() {
            "member_expression" | "attribute" | "field_expression" => {
                match n
                    .child_by_field_name("object")
                    .or_else(|| n.child_by_field_name("value"))
                {
                    Some(o) => n = o,
                    None => return "",
                }
            }
            "call_expression" | "call" => match n.child_by_field_name("function") {
                Some(o) => n = o,
                None => return "",
            },
            "await_expression" | "parenthesized_expression" => match n.named_child(0) {
                Some(o) => n = o,
                None => return "",
            },
            _ => return text(n, src),
        }
    }
}
