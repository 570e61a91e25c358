import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { offMachine, type PageWatch } from './browser.ts'

/** How long the page may take to show what the server holds (a wait, not an assertion on time). */
export const SHOWN_MS = 10_000

export async function openInspector(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/__admin/ui`)
  await page.waitForFunction(() => document.getElementById('status')?.textContent !== 'Loading…', undefined, { timeout: SHOWN_MS })
}

/** Picks a tenant from the list, as a user clicks it, and waits until its tables and calls are live. */
export async function pickTenant(page: Page, key: string): Promise<void> {
  await page.click(`#tenants li[data-key="${key}"] button`, { timeout: SHOWN_MS })
  await page.waitForSelector('#status.live', { timeout: SHOWN_MS })
  await page.waitForSelector('#subscribers tbody tr', { timeout: SHOWN_MS })
}

export const rowOf = (table: string, id: string) => `#${table} tbody tr[data-id="${id}"]`

/**
 * Point 6 of the inspector's issue: the page read through `/__admin` only (never the five
 * operations, whose calls would enter the journal), left the machine never, and nothing it asked
 * for answered 4xx or 5xx, so a user's console stays free of errors.
 */
export function expectQuiet(seen: PageWatch, allowed: (response: { url: string; status: number }) => boolean = () => false): void {
  expect(seen.errors.filter((error) => !allowedError(seen, error, allowed))).toEqual([])
  expect(seen.responses.filter((response) => response.status >= 400 && !allowed(response))).toEqual([])
  expect(seen.requests.map((request) => new URL(request.url).pathname).filter((path) => !path.startsWith('/__admin/'))).toEqual([])
  expect(offMachine(seen.requests)).toEqual([])
}

/** A browser's console line for an answer the test expects (`Failed to load resource: … 417`). */
function allowedError(seen: PageWatch, error: string, allowed: (response: { url: string; status: number }) => boolean): boolean {
  const status = /status of (\d{3})/.exec(error)?.[1]
  return status !== undefined && seen.responses.some((response) => response.status === Number(status) && allowed(response))
}
