/// A bounded stack that keeps its largest element at hand.
pub struct Stack<T> {
    items: Vec<T>,
    limit: usize,
}

pub trait Describe {
    fn describe(&self) -> String {
        let name = std::any::type_name::<Self>();
        format!("<{name}>")
    }
}

impl<T: Ord + Clone> Stack<T> {
    pub fn with_limit(limit: usize) -> Self {
        Stack { items: Vec::with_capacity(limit), limit }
    }

    pub fn push(&mut self, value: T) -> Result<(), T> {
        if self.items.len() == self.limit {
            // Full: hand the value back to the caller.
            return Err(value);
        }
        self.items.push(value);
        Ok(())
    }

    pub fn max(&self) -> Option<T> {
        self.items.iter().max().cloned()
    }
}

impl<T> Describe for Stack<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_respects_limit() {
        let mut s = Stack::with_limit(1);
        assert!(s.push(1).is_ok());
        assert_eq!(s.push(2), Err(2));
    }
}
