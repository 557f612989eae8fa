import { describe, expect, test } from 'vitest'
import { parsePublicOrigin } from '../../src/web/public-origin.js'

describe('--public-origin', () => {
  test.each([
    ['https://review.example.org', { origin: 'https://review.example.org', host: 'review.example.org' }],
    ['https://review.example.org/', { origin: 'https://review.example.org', host: 'review.example.org' }],
    ['https://Review.Example.ORG:443', { origin: 'https://review.example.org', host: 'review.example.org' }],
    ['https://review.example.org:8443', { origin: 'https://review.example.org:8443', host: 'review.example.org:8443' }],
  ])('reads %s as the origin a browser names', (text, expected) => {
    expect(parsePublicOrigin(text)).toEqual(expected)
  })

  test('refuses plain http, since the links carry the tokens', () => {
    expect(() => parsePublicOrigin('http://review.example.org')).toThrow('--public-origin http://review.example.org: the address must start with https://')
  })

  test.each(['https://review.example.org/review', 'https://review.example.org/?a=1', 'https://review.example.org/#x', 'https://review.example.org?'])(
    'refuses %s, which names more than an origin',
    (text) => {
      expect(() => parsePublicOrigin(text)).toThrow(`--public-origin ${text}: the address must name no path, query or fragment`)
    },
  )

  test.each(['review.example.org', '', 'https://'])('refuses %j, which is no URL', (text) => {
    expect(() => parsePublicOrigin(text)).toThrow(`--public-origin takes an https:// URL with a host and nothing after it`)
  })

  test('refuses a user name', () => {
    expect(() => parsePublicOrigin('https://me:secret@review.example.org')).toThrow('must not carry a user name or password')
  })
})
