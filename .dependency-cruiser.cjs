// The layering of src/, as a rule `npm test` runs (`npm run lint:layers`): each folder may import
// only the folders below it, and nothing imports in a loop. docs/decisions.md ("2026-11-26: src/
// in layers, each folder importing only those below it") says why each folder stands where it does.
/** Top to bottom. Folders on one line are side by side: neither imports the other. */
const LAYERS = [
  ['index.ts', 'msw'],
  ['cli', 'library', 'build'],
  ['options'],
  ['app'],
  // The Redis room: the connection, the key names, and every adapter that keeps state in Redis.
  ['redis'],
  ['admin', 'web', 'proxy'],
  ['verify', 'pact'],
  ['http'],
  ['core'],
  ['policies'],
  ['resources'],
  ['journal'],
  ['seed'],
  ['store'],
  ['clock'],
  ['contract'],
  ['answer'],
  ['log'],
  ['lib'],
]

const path = (folder) => `^src/${folder.replace('.', '\\.')}(/|$)`
const upward = LAYERS.flatMap((layer, at) =>
  layer.flatMap((folder) => {
    const above = LAYERS.slice(0, at).flat().concat(layer.filter((other) => other !== folder))
    if (above.length === 0) return []
    return [{ name: `no-upward-from-${folder}`, comment: `src/${folder} imports only the folders below it`, severity: 'error', from: { path: path(folder) }, to: { path: above.map(path) } }]
  }),
)

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'no-unlayered-folder',
      comment: 'every file of src/ belongs to a layer named above',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.flat().map(path) },
      to: {},
    },
    ...upward,
    {
      name: 'redis-keys-in-the-redis-room',
      comment: 'every Redis key is named in src/redis/redis-keys.ts, which only the Redis room (src/redis) imports',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/redis/' },
      to: { path: '^src/redis/redis-keys\\.ts$' },
    },
    {
      name: 'core-free-of-the-transport',
      comment: 'src/core answers a request of either door (node, msw): it imports neither node:http, nor express, nor the node door (src/http)',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: ['^src/http/', '^(node:)?https?$', '(^|/)node_modules/(express|body-parser)/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '^src/contract/generated/'] },
    // src/, and the transports the core must not import, so that rule can see them.
    includeOnly: ['^src/', '^(node:)?https?$', '(^|/)node_modules/(express|body-parser)/'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
