import type { DrawRequest } from '../../src/core/sample/draw.js'

/** What `vitest-rubric sample` would ask of a draw, at a fixed time: uniform unless `more` says otherwise. */
export const drawRequest = (size: number, seed: string, more: Partial<DrawRequest> = {}): DrawRequest => ({
  size,
  seed,
  method: 'uniform',
  fresh: false,
  now: new Date('2026-01-01T00:00:00Z'),
  file: 'lab/sample.json',
  ...more,
})

/** A draw by judge `ix`'s uncertainty (`--method active --judge ix`). */
export const activeRequest = (size: number, seed: string, more: Partial<DrawRequest> = {}): DrawRequest =>
  drawRequest(size, seed, { method: 'active', judge: 'ix', ...more })
