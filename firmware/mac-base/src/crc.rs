//! CRC-16/CCITT-FALSE (polynomial `0x1021`, initial value `0xFFFF`, no reflection, no
//! final XOR), computed bit by bit: no table, a few dozen bytes of code.

/// The CRC register before any byte.
pub const INIT: u16 = 0xFFFF;

/// Feed one byte into the CRC register.
pub const fn update(crc: u16, byte: u8) -> u16 {
    let mut crc = crc ^ ((byte as u16) << 8);
    let mut bit = 0;
    while bit < 8 {
        crc = if crc & 0x8000 != 0 {
            (crc << 1) ^ 0x1021
        } else {
            crc << 1
        };
        bit += 1;
    }
    crc
}

/// The CRC of a whole slice.
///
/// ```
/// // The catalogue check value of CRC-16/CCITT-FALSE.
/// assert_eq!(mac_base::crc::checksum(b"123456789"), 0x29B1);
/// ```
pub fn checksum(bytes: &[u8]) -> u16 {
    bytes.iter().fold(INIT, |crc, &b| update(crc, b))
}
