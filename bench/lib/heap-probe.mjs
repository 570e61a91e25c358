// Preloaded into a server under benchmark (node --import): writes its V8 heap and RSS, in bytes,
// to the file named by NOVU_MOCK_HEAP_PROBE every 200 ms, for the bench to read from outside.
import { writeFileSync } from 'node:fs'

const file = process.env.NOVU_MOCK_HEAP_PROBE
if (file) {
  const write = () => {
    const { heapUsed, heapTotal, rss } = process.memoryUsage()
    writeFileSync(file, JSON.stringify({ heapUsed, heapTotal, rss }))
  }
  setInterval(write, 200).unref()
  write()
}
