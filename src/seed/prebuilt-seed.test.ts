import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../app/config.ts'
import { defaultVolumes } from './seed-options.ts'
import { PREBUILT_SEED_DIR, prebuiltSeed } from './prebuilt-seed.ts'
import { seededState } from './seeding.ts'
import { loadContracts } from '../app/create-state.ts'

/** `npm test` builds first, so the build's seeds are there to compare. */
describe('the seeds the build writes', () => {
  for (const demo of [false, true]) {
    it(`are what the generators make now (${demo ? 'demo' : 'default'} volumes)`, async () => {
      const options = { seed: DEFAULT_CONFIG.seed, demo, ...defaultVolumes(demo) }
      const prebuilt = prebuiltSeed(options, PREBUILT_SEED_DIR)
      expect(prebuilt).toBeDefined()
      expect(prebuilt).toEqual(seededState(options, (await loadContracts()).admin))
    })
  }

  it('are not used for other options, nor when running from the sources', () => {
    expect(prebuiltSeed({ seed: 2, subscribers: 50, channelConnections: 120 }, PREBUILT_SEED_DIR)).toBeUndefined()
    expect(prebuiltSeed({ seed: DEFAULT_CONFIG.seed, ...DEFAULT_CONFIG.volumes })).toBeUndefined()
  })
})
