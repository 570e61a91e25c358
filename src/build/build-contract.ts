// The build's second step (after tsc): `node dist/src/build/build-contract.js`.
import { rmSync } from 'node:fs'
import { DEFAULT_CONFIG } from '../app/config.ts'
import { defaultVolumes } from '../seed/seed-options.ts'
import { PREBUILT_SEED_DIR, writePrebuiltSeed } from '../seed/prebuilt-seed.ts'
import { seededState } from '../seed/seeding.ts'
import { loadContracts } from '../contract/load-contract.ts'
import { PRECOMPILED_DIR } from '../contract/precompiled.ts'
import { precompileValidators } from './precompile.ts'
import { OPERATIONS_PAGE, writeOperationsPage } from './operations-page.ts'

const count = await precompileValidators()
process.stdout.write(`novu-mock: ${count} validators and the dereferenced documents written to ${PRECOMPILED_DIR}\n`)

// The seeds a start without volume flags uses, generated and checked as a start would.
const { admin } = await loadContracts()
// Seeds of earlier builds are named by options and fixtures that may have changed: none is kept.
rmSync(PREBUILT_SEED_DIR, { recursive: true, force: true })
for (const demo of [false, true]) {
  const options = { seed: DEFAULT_CONFIG.seed, demo, ...defaultVolumes(demo) }
  writePrebuiltSeed(options, seededState(options, admin))
}
process.stdout.write(`novu-mock: the default and demo seeds written to ${PREBUILT_SEED_DIR}\n`)

const operations = writeOperationsPage()
process.stdout.write(`novu-mock: ${operations} operations listed in ${OPERATIONS_PAGE}\n`)
