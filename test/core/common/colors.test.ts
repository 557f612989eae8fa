import { expect, test } from 'vitest'
import { ANSI, colorsFor, PLAIN } from '../../../src/core/common/colors.js'
import { renderText } from '../../../src/reporter/render-text.js'
import type { RubricFigures } from '../../../src/reporter/figures.js'

test('colours only on a TTY, unless NO_COLOR or FORCE_COLOR says otherwise', () => {
  expect(colorsFor({ isTTY: true }, {})).toBe(ANSI)
  expect(colorsFor({ isTTY: false }, {})).toBe(PLAIN)
  expect(colorsFor(undefined, {})).toBe(PLAIN)
  expect(colorsFor({ isTTY: true }, { NO_COLOR: '1' })).toBe(PLAIN)
  expect(colorsFor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(ANSI)
  expect(colorsFor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(ANSI)
})

test('plain text carries no escape codes; coloured text does', () => {
  const figures: RubricFigures = {
    fixtures: [],
    total: null,
    projects: 1,
  }
  expect(renderText(figures, PLAIN)).not.toContain('\u001b[')
  expect(renderText(figures, ANSI)).toContain('\u001b[1m')
})
