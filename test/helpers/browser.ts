import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { browserTestsSkipped, CHROMIUM } from './chromium.ts'

/**
 * Whether this run leaves the browser suites out (vitest.config.ts then excludes them and says why
 * in one line); a suite run on its own asks too.
 */
export const skipBrowserSuite = browserTestsSkipped(process.env, existsSync(CHROMIUM)) !== undefined

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the browser tests need ${CHROMIUM}: apt-get install -y chromium`)
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
}

/** Where the browser tests save their screenshots (gitignored). */
export const SCREENSHOTS = resolve('test-results', 'screenshots')

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path })
  return path
}

/** A page of its own context, 1280×800 as the inspector is meant to be used. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options })
  return context.newPage()
}

export interface PageWatch {
  /** Console errors and uncaught exceptions, as a user with the console open would see them. */
  errors: string[]
  /** Every request the page made, with its headers. */
  requests: Array<{ url: string; method: string; headers: Record<string, string> }>
  /** Every answer the page got. */
  responses: Array<{ url: string; status: number }>
}

export function watch(page: Page): PageWatch {
  const seen: PageWatch = { errors: [], requests: [], responses: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => seen.errors.push(`pageerror: ${error.message}`))
  page.on('request', (request) => seen.requests.push({ url: request.url(), method: request.method(), headers: request.headers() }))
  page.on('response', (response) => seen.responses.push({ url: response.url(), status: response.status() }))
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
