//! The reproduction's argv as the ledger may keep it: secrets masked.
//!
//! `reproduction_ref` is durable and rendered into the session markdown, so it must never hold a
//! secret (ADR-3128 §2: durable state carries only sanitized facts). [`redact_argv`] masks, per
//! argument: the value of an environment assignment (`API_TOKEN=...` as `env` takes it), the
//! value of an option whose name looks secret (`--token=...`, `--password ...`), the userinfo of
//! a URL (`https://user:pass@host`), the value of a secret-looking query parameter, and any
//! token-like value (a known key prefix such as `sk-`, `ghp_`, `AKIA`, a JWT, or a long mixed
//! string of key characters). A caller who wants a readable reference gives `run --label`.

/// What a masked value is replaced with.
pub const MASK: &str = "***";

/// Words that make an option or parameter name secret.
const SECRET_WORDS: [&str; 9] = [
    "token",
    "secret",
    "passw",
    "pwd",
    "key",
    "auth",
    "credential",
    "cookie",
    "session",
];

/// Prefixes of well-known credentials.
const KEY_PREFIXES: [&str; 12] = [
    "sk-",
    "sk_",
    "pk_live",
    "rk_",
    "ghp_",
    "gho_",
    "ghs_",
    "github_pat_",
    "xox",
    "glpat-",
    "AKIA",
    "eyJ",
];

fn secret_name(name: &str) -> bool {
    let n = name.trim_start_matches('-').to_ascii_lowercase();
    SECRET_WORDS.iter().any(|w| n.contains(w))
}

fn env_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// A value that looks like a credential.
fn token_like(v: &str) -> bool {
    if KEY_PREFIXES.iter().any(|p| v.starts_with(p)) && v.len() >= 8 {
        return true;
    }
    let keyish = v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_+/=.".contains(c));
    let digits = v.chars().filter(char::is_ascii_digit).count();
    let letters = v.chars().filter(char::is_ascii_alphabetic).count();
    keyish && v.len() >= 24 && digits >= 2 && letters >= 4 && !v.contains('/')
}

/// One argument with its secrets masked.
fn redact_arg(arg: &str) -> String {
    // `NAME=value` (an environment assignment) and `--name=value`.
    if let Some((name, value)) = arg.split_once('=') {
        if env_name(name) || (name.starts_with('-') && secret_name(name)) {
            return if value.is_empty() {
                arg.to_owned()
            } else {
                format!("{name}={MASK}")
            };
        }
    }
    // URL userinfo and secret query parameters.
    if let Some(scheme_end) = arg.find("://") {
        let (scheme, rest) = arg.split_at(scheme_end + 3);
        let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let mut out = match rest[..host_end].rfind('@') {
            Some(at) => format!("{scheme}{MASK}{}", &rest[at..]),
            None => arg.to_owned(),
        };
        if let Some(q) = out.find('?') {
            let (head, query) = out.split_at(q + 1);
            let masked: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, v)) if secret_name(k) || token_like(v) => format!("{k}={MASK}"),
                    _ => kv.to_owned(),
                })
                .collect();
            out = format!("{head}{}", masked.join("&"));
        }
        return out;
    }
    if token_like(arg) {
        return MASK.to_owned();
    }
    arg.to_owned()
}

/// The argv joined by spaces, every secret masked (see the module doc). The value after an
/// option whose name looks secret (`--token VALUE`, `-H "Authorization: ..."`) is masked too.
pub fn redact_argv(argv: &[String]) -> String {
    let mut out = Vec::with_capacity(argv.len());
    let mut mask_next = false;
    for arg in argv {
        if mask_next {
            out.push(MASK.to_owned());
            mask_next = false;
            continue;
        }
        if arg.starts_with('-') && !arg.contains('=') && secret_name(arg) {
            mask_next = true;
        }
        if arg.contains(':') && secret_name(arg.split(':').next().unwrap_or_default()) {
            // A header value: `Authorization: Bearer ...`.
            let name = arg.split(':').next().unwrap_or_default();
            out.push(format!("{name}: {MASK}"));
            continue;
        }
        out.push(redact_arg(arg));
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::redact_argv;

    fn r(args: &[&str]) -> String {
        redact_argv(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn masks_secrets_and_keeps_the_rest() {
        assert_eq!(
            r(&["env", "API_TOKEN=sk-live-abc123XYZ", "python3", "app.py"]),
            "env API_TOKEN=*** python3 app.py"
        );
        assert_eq!(
            r(&["cmd", "--token", "abc", "--verbose"]),
            "cmd --token *** --verbose"
        );
        assert_eq!(r(&["cmd", "--password=hunter2"]), "cmd --password=***");
        assert_eq!(
            r(&["curl", "https://u:p@host/x?api_key=1&n=2"]),
            "curl https://***@host/x?api_key=***&n=2"
        );
        assert_eq!(
            r(&["curl", "-H", "Authorization: Bearer abc"]),
            "curl -H Authorization: ***"
        );
        assert_eq!(r(&["run", "ghp_0123456789abcdefABCDEF"]), "run ***");
        assert_eq!(
            r(&["python3", "-m", "pytest", "tests/test_a.py"]),
            "python3 -m pytest tests/test_a.py"
        );
    }
}
