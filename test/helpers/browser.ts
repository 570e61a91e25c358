import { existsSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM } from './chromium.ts'

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the browser tests need ${CHROMIUM}: apt-get install -y chromium`)
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
}

export interface PageWatch {
  /** Console errors and uncaught exceptions, as a user with the console open would see them. */
  errors: string[]
  /** Every request the page made, with its headers. */
  requests: Array<{ url: string; headers: Record<string, string> }>
}

export function watch(page: Page): PageWatch {
  const seen: PageWatch = { errors: [], requests: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => seen.errors.push(`pageerror: ${error.message}`))
  page.on('request', (request) => seen.requests.push({ url: request.url(), headers: request.headers() }))
  return seen
}

/** The requests that went anywhere but 127.0.0.1 (data: and blob: URLs never leave the page). */
export function offMachine(requests: PageWatch['requests']): string[] {
  return requests
    .map((request) => request.url)
    .filter((url) => {
      const { protocol, hostname } = new URL(url)
      return !(protocol === 'data:' || protocol === 'blob:' || hostname === '127.0.0.1')
    })
}
