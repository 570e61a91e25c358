import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { BIN, cleanEnv } from '../helpers/cli.ts'
import { freshTenant } from '../helpers/start-test-server.ts'

/** Starts the CLI in `cwd`, reads its whole banner (up to the inspector's line), and stops it once `use` is done. */
async function withBanner(args: string[], cwd: string, use: (banner: string, url: string) => Promise<void>): Promise<void> {
  const child = spawn('node', [BIN, ...args], { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    let banner = ''
    for await (const chunk of child.stdout) {
      banner += String(chunk)
      if (banner.includes('state inspector')) break
    }
    await use(banner, /listening on (\S+)/.exec(banner)![1]!)
  } finally {
    child.kill('SIGTERM')
    if (child.exitCode === null) await once(child, 'exit')
  }
}

const subscriber = (n: number) => ({ _id: `65f00000000000000000000${n}`, subscriberId: `user-${n}`, deleted: false, createdAt: '2024-05-01T00:00:00.000Z', updatedAt: '2024-05-01T00:00:00.000Z' })

describe('the start banner says what it applied', () => {
  it('names the config file, the fixtures and their records, the envelope, the clock, strict keys, the store and the rate limit', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'novu-mock-banner-'))
    mkdirSync(join(dir, 'fixtures'))
    writeFileSync(join(dir, 'fixtures', 'subscribers.json'), JSON.stringify([1, 2, 3].map(subscriber)))
    const config = { seed: 7, envelope: true, subscribers: 5, fixtures: 'fixtures', 'api-key': ['team-a', 'team-b'], clock: '2025-01-01T00:00:00.000Z', 'rate-limit': '50/1' }
    writeFileSync(join(dir, 'novu-mock.config.json'), JSON.stringify(config))
    await withBanner(['--port', '0', '--log-level', 'silent'], dir, async (banner, url) => {
      expect(banner).toContain(`\n  config file: ${join(dir, 'novu-mock.config.json')}\n`)
      expect(banner).toContain('\n  seed 7: 5 subscribers, 120 channel connections per tenant\n')
      expect(banner).toContain('\n  fixtures: fixtures (subscribers.json): 3 records, merged on top of the seed\n')
      expect(banner).toContain('\n  strict keys: 2 API key(s) accepted, any other answered 401\n')
      expect(banner).toContain('\n  store: in memory (lost at exit)\n')
      expect(banner).toContain('\n  answers: results enveloped as {"data": …} (--envelope)\n')
      expect(banner).toContain("\n  answers: every tenant's clock starts frozen at 2025-01-01T00:00:00.000Z (--clock)\n")
      expect(banner).toContain('\n  answers: rate limit 50/1 enforced with 429 (--rate-limit)\n')
      // What the banner says is what the server does.
      const res = await request(url).get('/v2/subscribers/user-2').set('Authorization', 'ApiKey team-a')
      expect([res.status, res.body.data?.subscriberId]).toEqual([200, 'user-2'])
    })
  })

  it('says nothing of a config file or of answers changed when none is', { timeout: 30_000 }, async () => {
    await withBanner(['--port', '0', '--log-level', 'silent'], mkdtempSync(join(tmpdir(), 'novu-mock-banner-')), async (banner, url) => {
      expect(banner).not.toContain('config file')
      expect(banner).not.toContain('answers:')
      expect(banner).toContain('\n  any API key accepted (Authorization: ApiKey <key>)\n')
      expect((await request(url).get('/v2/subscribers/demo-subscriber-1').set(freshTenant())).body.subscriberId).toBe('demo-subscriber-1')
    })
  })
})
