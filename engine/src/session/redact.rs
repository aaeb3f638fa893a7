//! The reproduction's argv as the ledger may keep it: secrets masked.
//!
//! `reproduction_ref` is durable and rendered into the session markdown, so it must never hold a
//! secret (ADR-3128 §2: durable state carries only sanitized facts). [`redact_argv`] masks, per
//! argument: the value of an environment assignment (`API_TOKEN=...` as `env` takes it), the
//! value of an option whose name looks secret (`--token=...`, `--password ...`), the userinfo of
//! a URL (`https://user:pass@host`), the value of a secret-looking query parameter, and any
//! token-like value (a known key prefix such as `sk-`, `ghp_`, `AKIA`, a JWT, or a long mixed
//! string of key characters), `user:password` after `-u`/`--user`, a value glued to `-p`. The
//! command string of a shell (`sh -c STRING`, `bash -lc`, `env ... sh -c`) is split into shell
//! words ([`shell_split`]), masked by the same rules and written again quoted; one that does not
//! parse is masked whole (issue 21, class 11). docs/session.md lists exactly what is masked.
//! A caller who wants a readable reference gives `run --label`.

/// What a masked value is replaced with.
pub const MASK: &str = "***";

/// Words that make an option or parameter name secret.
const SECRET_WORDS: [&str; 10] = [
    "token",
    "passphrase",
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
    SECRET_WORDS.iter().any(|w| n.contains(w)) || matches!(n.as_str(), "pass" | "pw")
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
    if let Some((name, value)) = arg.split_once('=')
        && (env_name(name) || (name.starts_with('-') && secret_name(name)))
    {
        return if value.is_empty() {
            arg.to_owned()
        } else {
            format!("{name}={MASK}")
        };
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

/// How deep shell strings inside shell strings are read (`sh -c "bash -c '...'"`); a deeper
/// command string is masked whole.
const MAX_DEPTH: usize = 4;

/// The argv joined by spaces, every secret masked (see the module doc). The value after an
/// option whose name looks secret (`--token VALUE`, `-H "Authorization: ..."`) is masked too,
/// and the command string of a shell (`sh -c STRING`) is read as shell words and masked by the
/// same rules (docs/session.md, "What `reproduction_ref` masks").
pub fn redact_argv(argv: &[String]) -> String {
    redact_words(argv, 0).join(" ")
}

/// Which words of `argv` are a shell's command string (the operand after `sh -c`, `bash -lc`,
/// `dash -ec`, ..., anywhere in the argv: `env A=1 sh -c ...`, `timeout 5 bash -c ...`) and
/// which are that shell's own options (kept as they are: `-p` of `bash -pc` is no password).
fn shell_strings(argv: &[String]) -> (Vec<usize>, Vec<usize>) {
    let (mut commands, mut options) = (Vec::new(), Vec::new());
    for (i, prog) in argv.iter().enumerate() {
        let base = prog.rsplit('/').next().unwrap_or(prog);
        if !SHELLS.contains(&base) {
            continue;
        }
        let (mut j, mut has_c) = (i + 1, false);
        while let Some(a) = argv.get(j) {
            if a == "--" || a == "-" {
                options.push(j);
                j += 1;
                break;
            }
            if a.starts_with("--") {
                options.push(j);
                if a == "--rcfile" || a == "--init-file" {
                    options.push(j + 1);
                    j += 1;
                }
            } else if a.len() > 1 && (a.starts_with('-') || a.starts_with('+')) {
                options.push(j);
                has_c |= a.starts_with('-') && a.contains('c');
                if a.contains('o') || a.contains('O') {
                    // `-o pipefail`, `-O extglob`: the option's name follows.
                    options.push(j + 1);
                    j += 1;
                }
            } else {
                break;
            }
            j += 1;
        }
        if has_c && j < argv.len() {
            commands.push(j);
        }
    }
    (commands, options)
}

/// Shells whose `-c` operand is a command string.
const SHELLS: [&str; 9] = [
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh",
];

/// The options whose value is `user:password` (curl's `-u`, `--user`, `--proxy-user`).
fn userinfo_option(name: &str) -> bool {
    matches!(name, "-u" | "--user" | "--proxy-user" | "-U")
}

/// The words of `argv` with their secrets masked; `depth` counts the shell strings around them.
fn redact_words(argv: &[String], depth: usize) -> Vec<String> {
    let (commands, options) = shell_strings(argv);
    let mut out = Vec::with_capacity(argv.len());
    let mut mask_next = false;
    let mut userinfo_next = false;
    for (i, arg) in argv.iter().enumerate() {
        if mask_next {
            out.push(MASK.to_owned());
            mask_next = false;
            continue;
        }
        if std::mem::take(&mut userinfo_next)
            && let Some((user, _)) = arg.split_once(':')
        {
            out.push(format!("{user}:{MASK}"));
            continue;
        }
        if commands.contains(&i) {
            out.push(redact_shell_string(arg, depth).unwrap_or_else(|| MASK.to_owned()));
            continue;
        }
        if options.contains(&i) {
            out.push(arg.clone());
            continue;
        }
        if arg.starts_with('-') && !arg.contains('=') && secret_name(arg) {
            mask_next = true;
        }
        if userinfo_option(arg) {
            userinfo_next = true;
        }
        if arg.contains(':') && secret_name(arg.split(':').next().unwrap_or_default()) {
            // A header value: `Authorization: Bearer ...`.
            let name = arg.split(':').next().unwrap_or_default();
            out.push(format!("{name}: {MASK}"));
            continue;
        }
        // `--user=user:password`, `-uuser:password`.
        let glued = arg
            .split_once('=')
            .filter(|(n, _)| userinfo_option(n))
            .map(|(n, v)| (format!("{n}="), v))
            .or_else(|| {
                (arg.starts_with("-u") && !arg.starts_with("--") && arg.len() > 2)
                    .then(|| ("-u".to_owned(), &arg[2..]))
            });
        if let Some((head, value)) = glued
            && let Some((user, _)) = value.split_once(':')
        {
            out.push(format!("{head}{user}:{MASK}"));
            continue;
        }
        // `-pPASSWORD` (mysql, sshpass): a value glued to `-p`.
        if arg.starts_with("-p") && !arg.starts_with("--") && arg.len() > 2 {
            out.push(format!("-p{MASK}"));
            continue;
        }
        let masked = redact_arg(arg);
        // A word holding blanks that no rule above masked may be a shell string of its own
        // (`ssh host 'cmd --token S'`, `"$(cmd --token S)"` in a shell string): read as one.
        if masked == *arg
            && arg.contains([' ', '\t', '\n'])
            && depth < MAX_DEPTH
            && let Some(r) = redact_shell_string(arg, depth)
        {
            out.push(r);
            continue;
        }
        out.push(masked);
    }
    out
}

/// One token of a shell string: a word (its text after quote removal) or an operator.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Op(String),
}

/// The tokens of a POSIX shell string: blanks separate words; `'...'` is literal; in `"..."` a
/// backslash escapes `$`, `` ` ``, `"`, `\` and a newline; outside quotes a backslash escapes
/// the next character (a newline: a line continuation); the characters `;&|()<>` and a newline
/// are operators. `None` for a string a shell would not read to its end (an open quote, a final
/// backslash). Expansions (`$x`, `$(...)`) are kept as text; a comment is read as words (so
/// what it holds is masked too).
fn shell_split(s: &str) -> Option<Vec<Token>> {
    let mut toks = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    let end_word = |toks: &mut Vec<Token>, word: &mut String, in_word: &mut bool| {
        if std::mem::take(in_word) {
            toks.push(Token::Word(std::mem::take(word)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => end_word(&mut toks, &mut word, &mut in_word),
            '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>' => {
                end_word(&mut toks, &mut word, &mut in_word);
                let mut op = c.to_string();
                while let Some(&n) = chars.peek() {
                    if c != '\n' && ";&|<>".contains(n) {
                        op.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                toks.push(Token::Op(op));
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        x => word.push(x),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            '\n' => {}
                            x @ ('$' | '`' | '"' | '\\') => word.push(x),
                            x => {
                                word.push('\\');
                                word.push(x);
                            }
                        },
                        x => word.push(x),
                    }
                }
            }
            '\\' => match chars.next()? {
                '\n' => {}
                x => {
                    in_word = true;
                    word.push(x);
                }
            },
            x => {
                in_word = true;
                word.push(x);
            }
        }
    }
    end_word(&mut toks, &mut word, &mut in_word);
    Some(toks)
}

/// A word as a POSIX shell would read it back: as it is when it holds only characters no shell
/// treats specially (the mask `***` included), else in single quotes.
fn sh_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-*".contains(c));
    if plain {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// A shell's command string with its secrets masked: its words ([`shell_split`]) masked by the
/// rules of an argv ([`redact_words`], a nested `sh -c` included), and, when any was, the
/// tokens rendered again with every word quoted as needed ([`sh_word`]); a string without a
/// secret is kept exactly. A string that does not parse, or nested past [`MAX_DEPTH`], is
/// `None`: a command string is then masked whole (fail closed), another word keeps the rules
/// of a plain argument.
fn redact_shell_string(s: &str, depth: usize) -> Option<String> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let toks = shell_split(s)?;
    let words: Vec<String> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.clone()),
            Token::Op(_) => None,
        })
        .collect();
    let masked = redact_words(&words, depth + 1);
    if masked == words {
        return Some(s.to_owned());
    }
    let mut masked = masked.into_iter();
    let parts: Vec<String> = toks
        .iter()
        .map(|t| match t {
            Token::Word(_) => sh_word(&masked.next().unwrap_or_default()),
            Token::Op(op) => op.clone(),
        })
        .collect();
    Some(parts.join(" "))
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

    #[test]
    fn masks_inside_shell_strings_and_renders_them_quoted() {
        assert_eq!(
            r(&["sh", "-c", "python3 app.py --token S1 && echo 'a b'"]),
            "sh -c python3 app.py --token *** && echo 'a b'"
        );
        assert_eq!(
            r(&["bash", "-lc", "mysql -pS2 -u root db"]),
            "bash -lc mysql -p*** -u root db"
        );
        assert_eq!(
            r(&["bash", "-pc", "curl -u me:S3 https://h"]),
            "bash -pc curl -u me:*** https://h"
        );
        assert_eq!(
            r(&["env", "A=1", "sh", "-ec", "x --passphrase \"S4 S5\""]),
            "env A=*** sh -ec x --passphrase ***"
        );
        assert_eq!(
            r(&["sh", "-c", "sh -c 'x --pass S6'"]),
            "sh -c sh -c 'x --pass ***'"
        );
        // Unterminated quote: the whole command string.
        assert_eq!(r(&["sh", "-c", "x '--token S7"]), "sh -c ***");
        // An option's name after `-o` is the shell's.
        assert_eq!(
            r(&["sh", "-o", "pipefail", "-c", "x --api-key=S8"]),
            "sh -o pipefail -c x --api-key=***"
        );
        // No secret: kept exactly.
        let plain = "python3 app.py --n 'a  b' | tee out.txt";
        assert_eq!(r(&["sh", "-c", plain]), format!("sh -c {plain}"));
        // A word with blanks in a shell string is read as one too (`$(...)`, ssh).
        assert_eq!(
            r(&["ssh", "host", "cmd --token S9"]),
            "ssh host cmd --token ***"
        );
    }
}
