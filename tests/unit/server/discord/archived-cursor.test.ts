/** The cursor of the archived-threads pages: where each of Discord's two lists goes on, read back only as answered. */
import { describe, expect, it } from 'vitest';
import { decodeArchivedCursor, encodeArchivedCursor } from '../../../../server/discord/access.ts';
import { AppError } from '../../../../server/errors.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('archived threads cursor', () => {
  it('reads back what it wrote: one list or both, and null once both lists ended', () => {
    for (const cursor of [{ public: '2026-01-01T10:00:00.000000+00:00', private: '123456789012345678' }, { public: '2026-01-01T10:00:00.000Z' }, { private: '123456789012345678' }]) {
      expect(decodeArchivedCursor(encodeArchivedCursor(cursor)!)).toEqual(cursor);
    }
    expect(encodeArchivedCursor(null)).toBeNull();
  });

  it('refuses anything it did not answer', () => {
    for (const bad of ['', 'not base64 !', b64([]), b64({}), b64({ p: 'yesterday' }), b64({ p: 5 }), b64({ j: '../x' }), b64({ j: 12 }), b64('x')]) {
      expect(() => decodeArchivedCursor(bad), bad).toThrow(AppError);
      try {
        decodeArchivedCursor(bad);
      } catch (err) {
        expect((err as AppError).code).toBe('VALIDATION_FAILED');
      }
    }
  });
});
