// AppError: refusals (4xx) are made without a stack trace, faults (5xx) keep theirs, and the process's
// stack trace limit is left as it was either way.
import { describe, expect, it } from 'vitest';
import { AppError, REASON_STATUS, type Reason } from '../../src/core/errors.js';

const frames = (error: Error): string[] => (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));

describe('AppError', () => {
  it('makes a refusal without stack frames, keeping its message, status and details', () => {
    const error = new AppError('VALIDATION_FAILED', 'amount must be positive.', [{ field: 'amount', problem: 'must be positive' }]);
    expect(frames(error)).toEqual([]);
    expect(error.stack).toContain('VALIDATION_FAILED: amount must be positive.');
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([{ field: 'amount', problem: 'must be positive' }]);
    expect(error).toBeInstanceOf(Error);
  });

  it('leaves no stack frames on any reason under 500', () => {
    const refusals = (Object.keys(REASON_STATUS) as Reason[]).filter((reason) => REASON_STATUS[reason] < 500);
    expect(refusals.length).toBeGreaterThan(20);
    for (const reason of refusals) expect(frames(new AppError(reason, 'x')), reason).toEqual([]);
  });

  it('keeps the stack of a fault, to find where it came from', () => {
    for (const reason of ['INTERNAL_ERROR', 'UNAVAILABLE'] as const) {
      const error = new AppError(reason, 'something broke');
      expect(frames(error).length, reason).toBeGreaterThan(0);
      expect(error.stack).toContain('app-error.test.ts');
    }
  });

  it('makes a fault raised under a refusal reason with its stack (a broken invariant, not a caller)', () => {
    const error = AppError.fault('CONFLICT', 'Reservation po-1 exists with different amounts.');
    expect(error).toBeInstanceOf(AppError);
    expect(error.status).toBe(409);
    expect(error.reason).toBe('CONFLICT');
    expect(frames(error).length).toBeGreaterThan(0);
    expect(error.stack).toContain('app-error.test.ts');
    expect(error.stack).not.toMatch(/at (Function\.)?fault/);
  });

  it('restores the stack trace limit for every other error', () => {
    const before = Error.stackTraceLimit;
    new AppError('NOT_FOUND', 'gone');
    expect(Error.stackTraceLimit).toBe(before);
    expect(frames(new Error('plain')).length).toBeGreaterThan(0);
  });
});
