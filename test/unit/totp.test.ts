// TOTP against RFC 6238's own test vectors (Appendix B, SHA-1, 8 digits, seed "12345678901234567890"),
// HOTP against RFC 4226's (Appendix D), and scrypt hashing's round trip.
import { describe, expect, it } from 'vitest';
import { hotp, base32Decode, base32Encode, matchTotp, totpCode, totpStep } from '../../src/people/totp.js';
import { hashPassword, verifyPassword } from '../../src/people/passwords.js';

const SEED = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i seconds the SHA-1 code is %s', (seconds, code) => {
    expect(hotp(SEED, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('matches RFC 4226 HOTP values for counters 0 to 9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(SEED, BigInt(counter)))).toEqual(expected);
  });

  it('round-trips base32 and accepts a code one step either side, not two', () => {
    const secret = base32Encode(SEED);
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret)).toEqual(SEED);
    const nowMs = 1_700_000_000_000;
    expect(matchTotp(secret, totpCode(secret, nowMs - 30_000), nowMs)).toBe(totpStep(nowMs) - 1n);
    expect(matchTotp(secret, totpCode(secret, nowMs + 30_000), nowMs)).toBe(totpStep(nowMs) + 1n);
    expect(matchTotp(secret, totpCode(secret, nowMs - 90_000), nowMs)).toBeNull();
    expect(matchTotp(secret, 'abcdef', nowMs)).toBeNull();
  });
});

describe('password hashing (scrypt)', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
  });
});
