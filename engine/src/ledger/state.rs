//! The session state machine and the rules a session ledger imposes, in one place.
//!
//! Pure functions over a loaded [`Ledger`]: which transitions are legal ([`legal`]), making one
//! ([`transition`]), the policy a session acts on ([`effective_policy`]), and what placing a probe
//! requires of and does to a session ([`before_place`], [`after_place`]). Both `ops` (placement)
//! and `session` (runs, cleanup) call these, so neither has to call the other to learn the rules.
//!
//! Must not: do I/O, or lock (the caller holds the ledger's lock and saves).

use super::schema::{Goal, Ledger, Mode, Policy, SavedPolicy, State};
use crate::error::Error;
use crate::reason::Reason;

/// Whether `from → to` is a legal transition. Staying in a state is always legal.
pub fn legal(from: State, to: State) -> bool {
    use State::*;
    from == to
        || matches!(
            (from, to),
            (NotUsed, Planned)
                | (Clean, Planned)
                | (Planned, Active)
                | (Planned | Active | CleanupFailed | Clean, CleanupPending)
                | (CleanupPending, Clean)
                | (Planned | Active | CleanupPending, CleanupFailed)
        )
}

/// Move the session to `to`, or refuse (`illegal_transition`) and leave it as it was.
pub fn transition(ledger: &mut Ledger, to: State) -> Result<(), Error> {
    let from = ledger.state.unwrap_or(State::NotUsed);
    if !legal(from, to) {
        return Err(Error::new(
            Reason::IllegalTransition,
            format!(
                "the session is `{}`; it cannot become `{}`",
                from.as_str(),
                to.as_str()
            ),
        ));
    }
    ledger.state = Some(to);
    Ok(())
}

/// The effective policy without an override: the saved value when it is valid, else `off` (an
/// absent or invalid saved value reads as `off`; ADR-3128 Decision 8).
pub fn effective_policy(ledger: &Ledger) -> Policy {
    resolve_policy(None, ledger)
}

/// ADR-3128 precedence: an explicit override, then a valid saved policy, then `off`.
pub fn resolve_policy(explicit: Option<Policy>, ledger: &Ledger) -> Policy {
    match (explicit, &ledger.policy) {
        (Some(p), _) => p,
        (None, Some(SavedPolicy::Known(p))) => *p,
        _ => Policy::Off,
    }
}

/// Change only the saved policy (never state, mode, probes, artifacts, runs or cleanup data);
/// returns the saved value it replaced.
pub fn set_policy(ledger: &mut Ledger, policy: Policy) -> Option<SavedPolicy> {
    ledger.policy.replace(SavedPolicy::Known(policy))
}

/// The refusal of a probe or a run in a session whose effective policy is `off`, saying how to
/// opt in.
pub fn policy_off(slug: &str, what: &str) -> Error {
    Error::new(
        Reason::PolicyOff,
        format!(
            "session {slug}: the effective policy is off (the default): no {what}; \
             opt in with `probity session set-policy --slug {slug} adaptive`"
        ),
    )
}

/// Session rules for a new probe (called by `place` with the ledger loaded and locked). A plain
/// engine-core ledger (no slug) has no rules.
pub fn before_place(ledger: &mut Ledger, slug: &str) -> Result<(), Error> {
    let Some(own) = &ledger.slug else {
        return Ok(());
    };
    if own != slug {
        return Err(Error::new(
            Reason::NotASession,
            format!("this ledger belongs to session {own}"),
        ));
    }
    if ledger.goal == Some(Goal::FindRootCauseOnly) {
        return Err(Error::new(
            Reason::DiagnoseOnly,
            "a find_root_cause_only session never edits tracked source",
        ));
    }
    if effective_policy(ledger) == Policy::Off {
        return Err(policy_off(own, "new probes"));
    }
    transition(ledger, State::Planned).or_else(|e| {
        // Adding a probe to an active session keeps it active.
        if ledger.state == Some(State::Active) {
            Ok(())
        } else {
            Err(e)
        }
    })?;
    ledger.mode = Some(Mode::SourceProbes);
    Ok(())
}

/// Session bookkeeping after a probe was placed and verified.
pub fn after_place(ledger: &mut Ledger) {
    if ledger.slug.is_some() && ledger.state == Some(State::Planned) {
        ledger.state = Some(State::Active);
    }
}
