/**
 * Items added under a key, gathered until the key's batch is sent and then handed to `send`
 * together, in the order they came. The first item of a batch asks `schedule` for its moment,
 * which calls `flush` then; `flush` may also be called sooner, and sends nothing when nothing
 * waits. An item added once its batch was sent starts the next one.
 */
export function keyedBatches<Item, Sent>(schedule: (key: string, flush: () => Sent | undefined) => void, send: (key: string, items: Item[]) => Sent) {
  const waiting = new Map<string, Item[]>()
  const flush = (key: string): Sent | undefined => {
    const items = waiting.get(key)
    if (items === undefined) return undefined
    waiting.delete(key)
    return send(key, items)
  }
  return {
    add(key: string, item: Item): void {
      const batch = waiting.get(key)
      if (batch) return void batch.push(item)
      waiting.set(key, [item])
      schedule(key, () => flush(key))
    },
    flush,
  }
}
