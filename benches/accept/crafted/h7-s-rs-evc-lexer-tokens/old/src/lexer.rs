//! Lexer for the filter expressions of the query language (`age >= 18 and name != "bob"`).

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Ident(String),
    Number(f64),
    Str(String),
    Op(&'static str),
    LParen,
    RParen,
}

#[derive(Debug, PartialEq)]
pub struct LexError {
    pub offset: usize,
    pub message: String,
}

const OPERATORS: &[&str] = &["==", "!=", "<=", ">", ">=", "<", "="];

pub fn lex(input: &str) -> Result<Vec<Token>, LexError> {
    let bytes = input.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == '(' {
            tokens.push(Token::LParen);
            i += 1;
        } else if c == ')' {
            tokens.push(Token::RParen);
            i += 1;
        } else if c == '"' {
            let start = i + 1;
            let end = input[start..].find('"').ok_or(LexError {
                offset: i,
                message: "unterminated string".into(),
            })?;
            tokens.push(Token::Str(input[start..start + end].to_string()));
            i = start + end + 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            let value = input[start..i].parse().map_err(|_| LexError {
                offset: start,
                message: format!("bad number {}", &input[start..i]),
            })?;
            tokens.push(Token::Number(value));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token::Ident(input[start..i].to_string()));
        } else if let Some(op) = OPERATORS.iter().find(|op| input[i..].starts_with(**op)) {
            tokens.push(Token::Op(op));
            i += op.len();
        } else {
            return Err(LexError { offset: i, message: format!("unexpected {c:?}") });
        }
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_and_string() {
        let tokens = lex(r#"age >= 18 and name != "bob""#).unwrap();
        assert_eq!(
            tokens,
            vec![
                Token::Ident("age".into()),
                Token::Op(">="),
                Token::Number(18.0),
                Token::Ident("and".into()),
                Token::Ident("name".into()),
                Token::Op("!="),
                Token::Str("bob".into()),
            ]
        );
    }

    #[test]
    fn parentheses() {
        assert_eq!(lex("(x)").unwrap(), vec![Token::LParen, Token::Ident("x".into()), Token::RParen]);
    }

    #[test]
    fn unterminated_string() {
        assert_eq!(lex(r#"name = "bo"#).unwrap_err().offset, 7);
    }
}
