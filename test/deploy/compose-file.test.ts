import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseYaml } from '@redocly/openapi-core'
import { describe, expect, it } from 'vitest'
import { runtimeStage } from '../helpers/dockerfile.ts'
import { addressesOf, NGINX_CONFIG } from '../helpers/nginx.ts'

/**
 * docker-compose.yml cannot be run here (no images can be pulled): these read it, and hold it to
 * what the load-balancer test runs instead (deploy/nginx.conf, the Dockerfile's instances).
 */
const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

interface Service {
  build?: string
  image?: string
  command?: string[]
  environment?: Record<string, string>
  ports?: string[]
  volumes?: string[]
  depends_on?: Record<string, { condition: string }>
}
const compose = parseYaml(readFileSync(root('docker-compose.yml'), 'utf8')) as { services: Record<string, Service>; volumes?: Record<string, unknown> }
const { services } = compose
const nginxConfig = addressesOf(readFileSync(NGINX_CONFIG, 'utf8'))
const image = runtimeStage(root('Dockerfile'))
const INSTANCES = ['novu-mock-1', 'novu-mock-2']

describe('docker-compose.yml', () => {
  it('runs Redis, two instances and nginx', () => {
    expect(Object.keys(services).sort()).toEqual(['nginx', ...INSTANCES, 'redis'].sort())
  })

  it('keeps Redis on a volume, every write in the append-only file synced each second', () => {
    const { command, volumes } = services.redis!
    expect(command?.join(' ')).toContain('--appendonly yes --appendfsync everysec')
    const volume = volumes?.find((mount) => mount.endsWith(':/data'))?.split(':')[0]
    expect(volume).toBeDefined()
    expect(Object.keys(compose.volumes ?? {})).toContain(volume)
  })

  it.each(INSTANCES)('builds %s from the Dockerfile, on the Redis service, with the admin token its bound address needs', (name) => {
    const instance = services[name]!
    expect(instance.build).toBe('.')
    expect(instance.command).toEqual([image.command.at(-1), '--redis', 'redis://redis:6379'])
    expect(instance.depends_on?.redis?.condition).toBe('service_healthy')
    // The image binds beyond loopback, where /__admin answers only to the token.
    expect(image.env.NOVU_MOCK_HOST).toBe('0.0.0.0')
    expect(instance.environment?.NOVU_MOCK_ADMIN_TOKEN).toMatch(/^\$\{NOVU_MOCK_ADMIN_TOKEN:\?/)
  })

  it('puts nginx with deploy/nginx.conf in front of both instances, on one published port', () => {
    const { ports, volumes, depends_on } = services.nginx!
    const mount = volumes?.map((volume) => volume.split(':')).find(([, target]) => target === '/etc/nginx/conf.d/default.conf')
    expect(mount?.[0]).toBe('./deploy/nginx.conf')
    expect(existsSync(root(mount![0]!))).toBe(true)
    expect(ports).toEqual([`4010:${nginxConfig.listen}`])
    expect(nginxConfig.upstreams).toEqual(INSTANCES.map((name) => `${name}:${image.env.NOVU_MOCK_PORT}`))
    expect(Object.keys(depends_on ?? {}).sort()).toEqual(INSTANCES)
  })
})

describe('docker-compose.cluster.yml', () => {
  const cluster = parseYaml(readFileSync(root('docker-compose.cluster.yml'), 'utf8')) as { services: Record<string, Service & { networks?: Record<string, { ipv4_address: string }> }> }
  const nodes = Object.keys(cluster.services).filter((name) => /^redis-\d$/.test(name))
  const addressOf = (name: string) => cluster.services[name]!.networks!.cluster!.ipv4_address

  it('runs six Redis nodes in cluster mode, formed with a replica per master', () => {
    expect(nodes).toHaveLength(6)
    for (const name of nodes) expect(cluster.services[name]!.command?.join(' ')).toContain('--cluster-enabled yes')
    const formed = cluster.services['redis-cluster-init']!.command!.join(' ')
    expect(formed).toContain(`redis-cli --cluster create ${nodes.map((name) => `${addressOf(name)}:6379`).join(' ')} --cluster-replicas 1`)
  })

  it.each(INSTANCES)('starts %s on one node of the cluster, once it is formed, behind the same nginx', (name) => {
    const instance = cluster.services[name]!
    expect(instance.command).toEqual([image.command.at(-1), '--redis', `redis://${addressOf('redis-1')}:6379`])
    expect(instance.depends_on?.['redis-cluster-init']?.condition).toBe('service_completed_successfully')
    expect(cluster.services.nginx!.volumes).toEqual(services.nginx!.volumes)
  })
})
