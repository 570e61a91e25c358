// The layering of src/, as a rule `npm test` runs (`npm run lint:layers`): each folder may import
// only the folders below it, and nothing imports in a loop. docs/decisions.md ("2026-11-26: src/
// in layers, each folder importing only those below it") says why each folder stands where it does.
/** Top to bottom. Folders on one line are side by side: neither imports the other. */
const LAYERS = [
  ['index.ts'],
  ['cli', 'library', 'build'],
  ['options'],
  ['app'],
  ['admin', 'web', 'proxy'],
  ['verify'],
  ['http'],
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '^src/contract/generated/'] },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
