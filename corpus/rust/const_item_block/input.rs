pub const fn kib(n: usize) -> usize {
    let bytes = n * 1024;
    bytes
}

pub const TABLE: [u8; 4] = {
    let mut t = [0u8; 4];
    t[0] = 1;
    t
};

pub fn buffer() -> Vec<u8> {
    let size = kib(4);
    vec![0; size]
}
