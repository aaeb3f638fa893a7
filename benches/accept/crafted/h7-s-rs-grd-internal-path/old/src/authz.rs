//! Request authorization for the admin API: bearer token, then scopes per route.

use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow { subject: String },
    Deny(&'static str),
}

#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub authorization: Option<&'a str>,
}

pub struct Grant {
    pub subject: String,
    pub scopes: HashSet<String>,
    pub revoked: bool,
}

pub struct Authorizer {
    tokens: HashMap<String, Grant>,
    routes: Vec<(&'static str, &'static str, &'static str)>,
}

impl Authorizer {
    pub fn new(tokens: HashMap<String, Grant>) -> Self {
        let routes = vec![
            ("GET", "/users", "users:read"),
            ("POST", "/users", "users:write"),
            ("DELETE", "/users/", "users:write"),
            ("GET", "/audit", "audit:read"),
            ("POST", "/internal/reindex", "ops:admin"),
            ("GET", "/internal/metrics", "ops:read"),
        ];
        Authorizer { tokens, routes }
    }

    fn required_scope(&self, method: &str, path: &str) -> Option<&'static str> {
        self.routes
            .iter()
            .filter(|(m, prefix, _)| *m == method && path.starts_with(prefix))
            .max_by_key(|(_, prefix, _)| prefix.len())
            .map(|(_, _, scope)| *scope)
    }

    pub fn authorize(&self, req: &Request<'_>) -> Decision {
        let Some(header) = req.authorization else {
            return Decision::Deny("missing credentials");
        };
        let Some(token) = header.strip_prefix("Bearer ") else {
            return Decision::Deny("unsupported scheme");
        };
        let Some(grant) = self.tokens.get(token.trim()) else {
            return Decision::Deny("unknown token");
        };
        if grant.revoked {
            return Decision::Deny("token revoked");
        }
        let Some(scope) = self.required_scope(req.method, req.path) else {
            return Decision::Deny("no such route");
        };
        if !grant.scopes.contains(scope) {
            return Decision::Deny("missing scope");
        }
        Decision::Allow { subject: grant.subject.clone() }
    }
}
