// A fixture's statistics on the overview: the reviewers' agreement and each judge's calibration,
// each a table that folds away.
import type { PageFixture } from '../protocol.js'
import { counted, el, figure, headRow } from './dom.js'

/** The agreement and calibration tables of a fixture, after its cases. */
export function statisticsBlocks(fixture: PageFixture): HTMLElement[] {
  const blocks: HTMLElement[] = []
  if (fixture.agreement !== null) {
    const agreement = el('table', { class: 'agreement' }, headRow('criterion', 'α', '95% interval', 'cases', 'disagreements'))
    for (const [name, item] of Object.entries(fixture.agreement.items)) {
      agreement.append(
        el(
          'tr',
          {},
          el('td', {}, name),
          el('td', {}, item.alpha === null ? `no figure: ${item.reason ?? ''}` : figure(item.alpha)),
          el('td', {}, item.alpha_ci === null ? '—' : `${figure(item.alpha_ci[0])} – ${figure(item.alpha_ci[1])}`),
          el('td', {}, String(item.units)),
          el('td', {}, item.disagreements.join(', ') || '—'),
        ),
      )
    }
    blocks.push(el('details', { class: 'statistics', open: '' }, el('summary', {}, `review agreement (${fixture.agreement.reviewers.join(', ')})`), agreement))
  }
  if (fixture.calibration !== null) {
    for (const [judge, figures] of Object.entries(fixture.calibration.judges)) {
      const calibration = el('table', { class: 'calibration' }, headRow('criterion', 'n', 'κ', '95% interval', 'failure recall', 'false accepts'))
      for (const [name, item] of Object.entries(figures.criteria)) {
        calibration.append(
          el(
            'tr',
            {},
            el('td', {}, name),
            el('td', {}, String(item.n)),
            el('td', {}, item.kappa === null ? `no kappa: ${item.kappa_reason ?? ''}` : figure(item.kappa)),
            el('td', {}, item.kappa_ci === null ? '—' : `${figure(item.kappa_ci[0])} – ${figure(item.kappa_ci[1])}`),
            el('td', {}, figure(item.failure_recall)),
            el('td', {}, item.false_accepts.join(', ') || '—'),
          ),
        )
      }
      const block = el(
        'details',
        { class: 'statistics', open: '' },
        el('summary', {}, `judge ${judge} (${figures.origin}): ${counted(figures.cases, 'case')}, ${counted(figures.stale, 'stale label')}`),
        calibration,
      )
      if (figures.predictions.pending > 0)
        block.append(
          el(
            'p',
            { class: 'dim' },
            `prediction, not review coverage: the judge predicts ${figures.predictions.accepted} accepted, ${figures.predictions.rejected} rejected of ${counted(figures.predictions.pending, 'pending case')}`,
          ),
        )
      blocks.push(block)
    }
  }
  return blocks
}
