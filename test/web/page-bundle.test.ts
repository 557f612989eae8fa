import { createHash } from 'node:crypto'
import { expect, test } from 'vitest'
import { renderReport } from '../../src/web/report.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot } from '../helpers/page-browser.js'
import { raw, servedCopy } from '../helpers/served-fixture.js'

test('the served page loads the same one script the static report inlines, each under a Content-Security-Policy that allows that script alone', async () => {
  const { server } = await servedCopy()
  const shell = await raw(server.port, `/?token=${server.token}`)
  expect(shell.headers['content-security-policy']).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  )
  // The served page inlines no script: it loads the bundle from the server.
  expect(shell.body.match(/<script\b[^>]*>/g)).toEqual([`<script src="/assets/page.js?token=${server.token}">`])
  const served = await raw(server.port, `/assets/page.js?token=${server.token}`)
  expect(served.status).toBe(200)

  const root = await fixtureRoot('page-bundle', { 'fixtures/lab': DOCUCTL })
  const report = await renderReport(['fixtures/lab'], root)
  const inline = [...report.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1])
  expect(inline).toEqual([served.body])
  const hash = createHash('sha256').update(served.body).digest('base64')
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(report)?.[1]?.replaceAll('&#39;', "'")
  expect(csp).toMatch(new RegExp(`^default-src 'none'; script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'; style-src 'sha256-[^']+'; img-src data:;`))
  expect(csp).not.toContain('unsafe')

  // One classic script, its modules bundled inside one function: nothing it declares reaches the page's globals, nothing is imported at run time.
  expect(served.body.startsWith('(function() {')).toBe(true)
  expect(served.body).not.toMatch(/^\s*(?:import|export)\b/m)
  expect(served.body).toContain('// src/web/client/keyboard.ts')
})
