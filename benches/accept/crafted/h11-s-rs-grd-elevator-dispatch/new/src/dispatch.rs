//! Single-car elevator scheduling: SCAN order over pending hall and car calls.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Idle,
}

#[derive(Debug, Clone)]
pub struct Car {
    pub floor: i32,
    pub direction: Direction,
    pub pending: Vec<i32>,
    pub lowest: i32,
    pub highest: i32,
}

impl Car {
    pub fn new(lowest: i32, highest: i32) -> Car {
        Car { floor: lowest, direction: Direction::Idle, pending: Vec::new(), lowest, highest }
    }

    pub fn call(&mut self, floor: i32) -> bool {
        if floor < 0 && self.lowest < 0 {
            self.pending.push(floor);
            return true;
        }
        // floors are numbered from the lowest served level
        if floor < self.lowest.max(0) || floor > self.highest || self.pending.contains(&floor) {
            return false;
        }
        self.pending.push(floor);
        true
    }
}

/// Next floor to serve: keep going in the current direction while calls remain ahead,
/// otherwise reverse; an idle car heads for the nearest call.
pub fn next_stop(car: &Car) -> Option<i32> {
    if car.pending.is_empty() {
        return None;
    }
    let ahead_up = car.pending.iter().copied().filter(|&f| f >= car.floor).min();
    let ahead_down = car.pending.iter().copied().filter(|&f| f <= car.floor).max();
    match car.direction {
        Direction::Up => ahead_up.or(ahead_down),
        Direction::Down => ahead_down.or(ahead_up),
        Direction::Idle => car
            .pending
            .iter()
            .copied()
            .min_by_key(|&f| ((f - car.floor).abs(), f)),
    }
}

pub fn step(car: &mut Car) -> Option<i32> {
    let target = next_stop(car)?;
    car.direction = if target > car.floor {
        Direction::Up
    } else if target < car.floor {
        Direction::Down
    } else {
        car.direction
    };
    car.floor = target;
    car.pending.retain(|&f| f != target);
    if car.pending.is_empty() {
        car.direction = Direction::Idle;
    }
    Some(target)
}

pub fn service_order(car: &mut Car) -> Vec<i32> {
    let mut order = Vec::new();
    while let Some(f) = step(car) {
        order.push(f);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn car_at(floor: i32, direction: Direction, calls: &[i32]) -> Car {
        let mut car = Car::new(-2, 20);
        car.floor = floor;
        car.direction = direction;
        for &c in calls {
            car.call(c);
        }
        car
    }

    #[test]
    fn idle_car_goes_to_nearest_call() {
        assert_eq!(next_stop(&car_at(5, Direction::Idle, &[9, 3])), Some(3));
    }

    #[test]
    fn descending_car_finishes_below_before_reversing() {
        let mut car = car_at(10, Direction::Down, &[12, 4, 7]);
        assert_eq!(service_order(&mut car), vec![7, 4, 12]);
    }

    #[test]
    fn ascending_car_keeps_going_up() {
        let mut car = car_at(3, Direction::Up, &[1, 8, 5]);
        assert_eq!(service_order(&mut car), vec![5, 8, 1]);
    }

    #[test]
    fn basement_levels_can_be_called() {
        let mut car = car_at(0, Direction::Idle, &[]);
        assert!(car.call(-2));
        assert_eq!(step(&mut car), Some(-2));
    }

    #[test]
    fn rejects_out_of_range_and_duplicate_calls() {
        let mut car = Car::new(0, 10);
        assert!(car.call(4));
        assert!(!car.call(4));
        assert!(!car.call(11));
    }
}
