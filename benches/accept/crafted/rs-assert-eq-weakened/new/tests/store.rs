use store::{Command, Store};

#[test]
fn add_then_total() {
    let mut s = Store::default();
    s.apply(Command::Add("a".into(), 2)).unwrap();
    s.apply(Command::Add("a".into(), 3)).unwrap();
    assert!(s.total() > 0);
}

#[test]
fn remove_missing_is_an_error() {
    let mut s = Store::default();
    assert!(s.apply(Command::Remove("x".into())).is_err());
}
