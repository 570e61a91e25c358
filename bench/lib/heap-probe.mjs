// Preloaded into a server under benchmark (node --import): writes its V8 heap and RSS, in bytes,
// to the file named by NOVU_MOCK_HEAP_PROBE every 200 ms, for the bench to read from outside.
import { renameSync, writeFileSync } from 'node:fs'

const file = process.env.NOVU_MOCK_HEAP_PROBE
if (file) {
  const write = () => {
    const { heapUsed, heapTotal, rss } = process.memoryUsage()
    // Renamed into place: the bench never reads a half-written file.
    writeFileSync(`${file}.tmp`, JSON.stringify({ heapUsed, heapTotal, rss }))
    renameSync(`${file}.tmp`, file)
  }
  setInterval(write, 200).unref()
  write()
}
