import type { Browser, Page } from 'playwright-core'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { MockServer } from '../../src/app/create-app.ts'
import { launchChromium, offMachine, watch, type PageWatch } from '../helpers/browser.ts'
import { freshTenant, startTestServer } from '../helpers/start-test-server.ts'

type Auth = ReturnType<typeof freshTenant>

const M1 = '64f200000000000000000001'
const M2 = '64f200000000000000000002'
const MAILGUN = '64f100000000000000000002'
const MARK_PATH = '/v1/subscribers/demo-subscriber-1/messages/mark-as'
/** How long the page may take to show a change the stream announced. */
const LIVE_MS = 5000

let server: MockServer
let browser: Browser
beforeAll(async () => {
  ;[server, browser] = await Promise.all([startTestServer(), launchChromium()])
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

let page: Page
let seen: PageWatch
let auth: Auth
beforeEach(async (context) => {
  page = await browser.newPage()
  seen = watch(page)
  auth = freshTenant()
  context.onTestFinished(() => page.close())
  await page.goto(`${server.url}/__admin/ui`)
  await page.fill('#api-key', keyOf(auth))
  await page.click('#key-form button[type=submit]')
  await page.waitForSelector(`#messages tr[data-id="${M1}"]`)
  await page.waitForSelector('#status.live')
})

const keyOf = (a: Auth) => a.Authorization.slice('ApiKey '.length)
const markAs = (a: Auth, messageId: string, markAs: string) => request(server.url).post(MARK_PATH).set(a).send({ messageId, markAs }).expect(201)
const cellText = (selector: string) => page.locator(selector).innerText()
const messageRow = (id: string) => `#messages tr[data-id="${id}"]`

describe('/__admin/ui in a browser', () => {
  it('shows a message marked read through the API, as the call arrives', async () => {
    expect(await cellText(`${messageRow(M1)} td.read`)).toBe('no')
    expect(await cellText(`${messageRow(M1)} td.seen`)).toBe('no')
    await markAs(auth, M1, 'read')
    await page.waitForSelector(`${messageRow(M1)}[data-read="true"]`, { timeout: LIVE_MS })
    expect(await cellText(`${messageRow(M1)} td.read`)).toBe('yes')
    expect(await cellText(`${messageRow(M1)} td.seen`)).toBe('yes')
    expect(await cellText('#calls li')).toContain('201 POST /v1/subscribers/demo-subscriber-1/messages/mark-as (markMessagesAs)')
  })

  it('ignores another tenant’s calls', async () => {
    await markAs(freshTenant(), M2, 'read')
    await markAs(auth, M1, 'seen')
    await page.waitForSelector(`${messageRow(M1)}[data-seen="true"]`, { timeout: LIVE_MS })
    expect(await cellText(`${messageRow(M2)} td.read`)).toBe('no')
    expect(await page.locator('#calls li').count()).toBe(1)
  })

  it('marks the primary integration of each channel, and follows set-primary', async () => {
    const primaries = () => page.locator('#integrations tr[data-primary="true"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))
    expect(await primaries()).toEqual(['64f100000000000000000001', '64f100000000000000000004'])
    expect(await cellText('#integrations tr[data-id="64f100000000000000000001"]')).toContain('★ primary')
    await request(server.url).post(`/v1/integrations/${MAILGUN}/set-primary`).set(auth).expect(200)
    await page.waitForSelector(`#integrations tr[data-id="${MAILGUN}"][data-primary="true"]`, { timeout: LIVE_MS })
    expect(await primaries()).toEqual([MAILGUN, '64f100000000000000000004'])
  })

  it('pages through the channel connections', async () => {
    expect(await cellText('#connections .count')).toBe('(120)')
    expect(await page.locator('#connections tbody tr').count()).toBe(20)
    expect(await cellText('#connections .pager span')).toBe('page 1 of 6')
    const first = await page.locator('#connections tbody tr').first().getAttribute('data-id')
    await page.click('#connections .pager button.next')
    expect(await cellText('#connections .pager span')).toBe('page 2 of 6')
    expect(await page.locator('#connections tbody tr').first().getAttribute('data-id')).not.toBe(first)
  })

  it('resets the tenant to its seed with the reset button', async () => {
    await markAs(auth, M1, 'read')
    await page.waitForSelector(`${messageRow(M1)}[data-read="true"]`, { timeout: LIVE_MS })
    await page.click('#reset')
    await page.waitForSelector(`${messageRow(M1)}[data-read="false"]`, { timeout: LIVE_MS })
    const state = await request(server.url).get('/__admin/state').set(auth).expect(200)
    expect(state.body.messages.find((m: { _id: string }) => m._id === M1)).toMatchObject({ read: false, seen: false })
  })

  it('saves a snapshot with the snapshot button, and restores it', async () => {
    await markAs(auth, M1, 'read')
    await page.waitForSelector(`${messageRow(M1)}[data-read="true"]`, { timeout: LIVE_MS })
    await page.fill('#snapshot-name', 'after-read')
    await page.click('#snapshot-form button[type=submit]')
    await page.waitForSelector('#snapshots li[data-name="after-read"]')
    const snapshots = await request(server.url).get('/__admin/snapshots').set(auth).expect(200)
    expect(snapshots.body.snapshots.map((s: { name: string }) => s.name)).toEqual(['after-read'])

    await markAs(auth, M1, 'unseen')
    await page.waitForSelector(`${messageRow(M1)}[data-read="false"]`, { timeout: LIVE_MS })
    await page.click('#snapshots li[data-name="after-read"] button')
    await page.waitForSelector(`${messageRow(M1)}[data-read="true"]`, { timeout: LIVE_MS })
  })

  it('sends the key only in the Authorization header, never in a URL, and stays on 127.0.0.1', async () => {
    await markAs(auth, M1, 'read')
    await page.waitForSelector(`${messageRow(M1)}[data-read="true"]`, { timeout: LIVE_MS })
    const key = keyOf(auth)
    expect(page.url()).not.toContain(key)
    expect(seen.requests.filter((r) => r.url.includes(key))).toEqual([])
    const adminCalls = seen.requests.filter((r) => new URL(r.url).pathname.startsWith('/__admin/') && !r.url.includes('/__admin/ui'))
    expect(adminCalls.map((r) => new URL(r.url).pathname)).toContain('/__admin/events')
    for (const call of adminCalls) expect(call.headers.authorization, call.url).toBe(auth.Authorization)
    expect(offMachine(seen.requests)).toEqual([])
    expect(seen.errors).toEqual([])
  })
})
