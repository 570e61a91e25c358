import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of the package.json above this module: the same from the sources and from dist/. */
const ROOT = (() => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error('novu-mock: no package.json above its own modules')
    dir = parent
  }
  return dir
})()

/** A file of the package (the documents in spec/, the fixtures), wherever the code runs from. */
export function packagePath(relative: string): string {
  return join(ROOT, relative)
}
