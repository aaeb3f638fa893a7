use store::{Command, Store};

#[test]
fn add_then_total() {
    let mut s = Store::default();
    s.apply(Command::Add("a".into(), 2)).unwrap();
    s.apply(Command::Add("a".into(), 3)).unwrap();
    assert_eq!(s.total(), 5);
}
