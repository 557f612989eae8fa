// A fixture's judge-assisted estimate on the overview, beside its coverage: per split the PPI++
// acceptance rate over every case with its interval, the human-only interval on the same sample and
// the judge-only rate, in figures and on one axis.
import type { PageEstimate, PageFixture, PageSplitEstimate } from '../protocol.js'
import { counted, el, headRow } from './dom.js'

const SVG = 'http://www.w3.org/2000/svg'
const WIDTH = 240
const MARGIN = 10
const rate = (value: number) => `${(100 * value).toFixed(1)}%`
const range = (value: { readonly low: number; readonly high: number }) => `${rate(value.low)}–${rate(value.high)}`

type Estimated = Extract<PageSplitEstimate['result'], { status: 'estimate' }>

/** The stretch of rates the plots of one fixture share, in tenths: every interval, worst case and judge-only rate, and at least 0.2 wide. */
export interface PlotAxis {
  readonly from: number
  readonly to: number
}

/** One axis for every split of the fixture, so that the splits' plots compare at a glance. */
export function plotAxis(results: readonly Estimated[]): PlotAxis {
  const rates = results.flatMap((result) => [
    result.low,
    result.high,
    result.classical.low,
    result.classical.high,
    result.judgeOnly.rate,
    ...(result.worstCase === null ? [] : [result.worstCase.low, result.worstCase.high]),
  ])
  const from = Math.max(0, Math.floor(Math.min(...rates) * 10 + 1e-9) / 10)
  const to = Math.min(1, Math.ceil(Math.max(...rates) * 10 - 1e-9) / 10)
  if (to - from >= 0.2 - 1e-9) return { from, to }
  return from + 0.2 <= 1 ? { from, to: from + 0.2 } : { from: 0.8, to: 1 }
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag)
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value)
  node.append(...children)
  return node
}

/** The estimate and both intervals on one axis: the worst case (dashed) over PPI++, human-only below, the judge-only rate a tick across them. */
export function estimatePlot(result: Estimated, split: string, axis: PlotAxis): SVGSVGElement {
  const x = (value: number) => (MARGIN + ((value - axis.from) / (axis.to - axis.from)) * (WIDTH - 2 * MARGIN)).toFixed(1)
  const segment = (value: { readonly low: number; readonly high: number }, y: number, kind: string) =>
    svg('line', { class: `${kind} span`, x1: x(value.low), x2: x(value.high), y1: String(y), y2: String(y) })
  const point = (value: number, y: number, kind: string) => svg('circle', { class: `${kind} point`, cx: x(value), cy: String(y), r: '3' })
  const words = `${split}: PPI++ ${rate(result.estimate)} (${range(result)}); human-only ${rate(result.classical.estimate)} (${range(result.classical)}); judge-only ${rate(result.judgeOnly.rate)}`
  const plot = svg(
    'svg',
    { class: 'estimate-plot', viewBox: `0 0 ${WIDTH} 46`, width: String(WIDTH), height: '46', role: 'img', 'aria-label': words },
    svg('title', {}, words),
  )
  plot.append(svg('line', { class: 'axis', x1: x(axis.from), x2: x(axis.to), y1: '34', y2: '34' }))
  const middle = Math.round(((axis.from + axis.to) / 2) * 100) / 100
  for (const tick of [axis.from, middle, axis.to]) {
    plot.append(
      svg('line', { class: 'axis', x1: x(tick), x2: x(tick), y1: '32', y2: '36' }),
      svg('text', { class: 'axis-label', x: x(tick), y: '45', 'text-anchor': 'middle', 'data-rate': String(tick) }, `${Math.round(100 * tick)}%`),
    )
  }
  if (result.worstCase !== null) plot.append(segment(result.worstCase, 5, 'worst'))
  plot.append(
    segment(result, 13, 'ppi'),
    point(result.estimate, 13, 'ppi'),
    segment(result.classical, 23, 'human'),
    point(result.classical.estimate, 23, 'human'),
  )
  plot.append(svg('line', { class: 'judge', x1: x(result.judgeOnly.rate), x2: x(result.judgeOnly.rate), y1: '2', y2: '28' }))
  return plot
}

function splitRow(split: PageSplitEstimate, axis: PlotAxis): HTMLElement {
  const { result } = split
  const head = el('td', {}, split.split)
  const sampled = el(
    'td',
    {},
    `${result.decided} of ${split.sampled} decided${split.pending > 0 ? `, ${split.pending} pending` : ''} (of ${counted(split.cases, 'case')})`,
  )
  if (result.status === 'unsupported')
    return el('tr', { class: 'estimate-row unsupported' }, head, el('td', { colspan: '4' }, `no estimate: ${result.message}`), sampled)
  const worst = result.worstCase === null ? '' : `; worst case over the pending: ${range(result.worstCase)}`
  return el(
    'tr',
    { class: 'estimate-row' },
    head,
    el('td', {}, `${rate(result.estimate)} (${range(result)})${worst}`),
    el('td', {}, `${rate(result.classical.estimate)} (${range(result.classical)})`),
    el('td', {}, rate(result.judgeOnly.rate)),
    el('td', {}, estimatePlot(result, split.split, axis)),
    sampled,
  )
}

/** The estimate table of a fixture with a sample and a judge; `null` without. */
export function estimateBlock(fixture: Pick<PageFixture, 'index' | 'estimate'>): HTMLElement | null {
  const estimate: PageEstimate | null = fixture.estimate
  if (estimate === null) return null
  if ('error' in estimate) return el('div', { class: 'estimate', id: `estimate-${fixture.index}` }, el('pre', { class: 'error' }, estimate.error))
  const estimated = estimate.splits.flatMap((split) => (split.result.status === 'estimate' ? [split.result] : []))
  const axis = estimated.length === 0 ? { from: 0, to: 1 } : plotAxis(estimated)
  const judge = estimate.judgeChosen === 'first' ? `judge ${estimate.judge} (the first by name of ${estimate.judges.join(', ')})` : `judge ${estimate.judge}`
  const table = el(
    'table',
    { class: 'figures estimate-table' },
    el(
      'caption',
      {},
      `acceptance rate over every case, judge-assisted (PPI++, 95% intervals): ${judge} · ${estimate.sample.file}: ${counted(estimate.sample.cases, 'case')}, ${estimate.sample.method}`,
    ),
    headRow('split', 'PPI++', 'human-only, same sample', 'judge-only (biased)', 'on one axis', 'sampled'),
    ...estimate.splits.map((split) => splitRow(split, axis)),
  )
  const key = el(
    'p',
    { class: 'dim estimate-key' },
    el('span', { class: 'key ppi' }, '━ PPI++'),
    ' ',
    el('span', { class: 'key human' }, '━ human-only'),
    ' ',
    el('span', { class: 'key judge' }, '┃ judge-only, biased by its errors'),
    ' ',
    el('span', { class: 'key worst' }, '┅ worst case over the pending sampled cases'),
  )
  return el('div', { class: 'estimate', id: `estimate-${fixture.index}` }, table, key)
}

/**
 * How far the review of the sample has come, for every viewer: `142 of 300 sampled cases reviewed`,
 * with the decided and pending among them (and a reviewer's own); `null` without a sample.
 */
export function sampleProgressBlock(fixture: Pick<PageFixture, 'index' | 'sample'>): HTMLElement | null {
  const progress = fixture.sample
  if (progress === null) return null
  const bar = el('progress', { max: String(Math.max(1, progress.sampled)), value: String(progress.decided), 'aria-label': 'sampled cases decided' })
  const yours = progress.yours === null ? '' : ` · ${progress.yours} reviewed by you`
  return el(
    'p',
    { class: 'sample-progress', id: `sample-progress-${fixture.index}` },
    el('strong', {}, `${progress.reviewed} of ${counted(progress.sampled, 'sampled case')} reviewed`),
    ` · ${progress.decided} decided · ${progress.pending} pending${yours} `,
    bar,
    el('span', { class: 'dim' }, ` ${progress.file}`),
  )
}
