// The build's second step (after tsc): `node dist/src/contract/build-contract.js`.
import { PRECOMPILED_DIR } from './precompiled.ts'
import { precompileValidators } from './precompile.ts'

const count = await precompileValidators()
process.stdout.write(`novu-mock: ${count} validators and the dereferenced documents written to ${PRECOMPILED_DIR}\n`)
