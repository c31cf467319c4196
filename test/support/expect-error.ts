import { expect } from 'vitest';

/** Every error a test checks is checked whole: status code and `{title, status}` body (D22). */
export function expectError(res: { statusCode: number; json(): unknown }, status: number, title: string): void {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}
