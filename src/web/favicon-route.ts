import type { Express } from 'express'

/** Side of the icon, in pixels: the size a browser tab shows. */
const SIZE = 16
/** Novu's pink on the mock's own pages; outside the disc, transparent. */
const INK = [0xdd, 0x24, 0x76] as const

/**
 * `GET /favicon.ico`: a small icon of the mock's own (a disc), so that no page logs a 404 for it.
 * One of the mock's own routes (docs/behaviour.md §1.3); public, like the pages that ask for it.
 */
export function mountFavicon(app: Express): void {
  const icon = disc()
  app.get('/favicon.ico', (_req, res) => {
    res.setHeader('Content-Type', 'image/x-icon')
    res.setHeader('Cache-Control', 'public, max-age=86400')
    res.end(icon)
  })
}

/** An ICO file holding one 32-bit bitmap: its header, its directory entry, the BMP header, the pixels bottom-up, and an empty mask. */
function disc(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4)
  const centre = (SIZE - 1) / 2
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const inside = Math.hypot(x - centre, y - centre) <= SIZE / 2 - 0.5
      // BGRA; the rows of a BMP run bottom-up (the disc is symmetric, so only the order of bytes matters).
      pixels.set(inside ? [INK[2], INK[1], INK[0], 0xff] : [0, 0, 0, 0], (y * SIZE + x) * 4)
    }
  }
  const mask = Buffer.alloc(SIZE * 4) // one bit per pixel, rows padded to 4 bytes; alpha decides instead
  const bitmap = Buffer.alloc(40)
  bitmap.writeUInt32LE(40, 0)
  bitmap.writeInt32LE(SIZE, 4)
  bitmap.writeInt32LE(SIZE * 2, 8) // an ICO's bitmap counts the mask's rows too
  bitmap.writeUInt16LE(1, 12)
  bitmap.writeUInt16LE(32, 14)
  const image = Buffer.concat([bitmap, pixels, mask])
  const header = Buffer.alloc(22)
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(1, 4) // one image
  header.writeUInt8(SIZE, 6)
  header.writeUInt8(SIZE, 7)
  header.writeUInt16LE(1, 10)
  header.writeUInt16LE(32, 12)
  header.writeUInt32LE(image.length, 14)
  header.writeUInt32LE(header.length, 18)
  return Buffer.concat([header, image])
}
