import type { ServerResponse } from 'node:http'
import { SERVE_CSP } from './html.js'

// How the server answers: every response with the same headers (no caching, the page's CSP, no
// framing, no referrer), and what it prints of a failure.

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1'
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}

export function headers(type: string): Record<string, string> {
  return {
    'content-type': type,
    'cache-control': 'no-store',
    'content-security-policy': SERVE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  }
}

export function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, headers(type)).end(body)
}

export function json(response: ServerResponse, status: number, value: unknown): void {
  if (response.headersSent) return void response.end()
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(value))
}
