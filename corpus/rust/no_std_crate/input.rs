#![no_std]
#![forbid(unsafe_code)]

/// FNV-style checksum over a byte slice.
pub fn checksum(data: &[u8]) -> u32 {
    let mut acc: u32 = 0x811c_9dc5;
    for b in data {
        acc ^= u32::from(*b);
        acc = acc.wrapping_mul(0x0100_0193);
    }
    acc
}
