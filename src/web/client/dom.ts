// Small DOM helpers. Every fixture text is put in the page with textContent, never as HTML, so an
// answer holding markup shows its characters.

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value
    else node.setAttribute(key, value)
  }
  for (const child of children) if (child !== null) node.append(typeof child === 'string' ? document.createTextNode(child) : child)
  return node
}

/** A table's header row: one `th` a column, each its name. */
export const headRow = (...names: readonly string[]) => el('tr', {}, ...names.map((name) => el('th', {}, name)))

export const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
export const percent = (value: number) => `${(value * 100).toFixed(0)}%`
export const badge = (status: string) => el('span', { class: `badge ${status}` }, status)

/** `1 case`, `2 cases`: a count with its noun, singular for one. */
export const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Text with ranges marked: each range a <mark> tied to its marker; overlapping ranges split at every boundary. */
export function highlighted(text: string, ranges: { at: readonly [number, number]; marker: number; label: string }[], tag: 'answer' | 'source'): HTMLElement {
  const node = el('div', { class: `text ${tag}`, id: tag })
  const cuts = new Set<number>([0, text.length])
  for (const range of ranges) {
    cuts.add(range.at[0])
    cuts.add(range.at[1])
  }
  const points = [...cuts].sort((a, b) => a - b)
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i]!
    const to = points[i + 1]!
    const piece = text.slice(from, to)
    const covering = ranges.filter((range) => range.at[0] <= from && to <= range.at[1])
    if (covering.length === 0) {
      node.append(document.createTextNode(piece))
      continue
    }
    const mark = el(
      'mark',
      {
        class: `m${covering[0]!.marker % 8}`,
        'data-criteria': covering.map((range) => range.label).join(' '),
        title: covering.map((range) => range.label).join(', '),
      },
      piece,
    )
    // The marker number is drawn by CSS, so a selection of the text never includes it.
    if (covering.some((range) => range.at[0] === from))
      mark.dataset['m'] = covering
        .filter((range) => range.at[0] === from)
        .map((range) => String(range.marker))
        .join(',')
    node.append(mark)
  }
  return node
}
